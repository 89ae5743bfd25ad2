"""A text board's row of tiles drawn edge to edge (blocks that fill their cells across, on a terminal whose
empty cells are bare): the reader splits a run of touching blocks into one block per cell it fills, and
keeps it whole (writing between cells) where it fills a cell only in part or a piece shows two colours."""

from __future__ import annotations

import numpy as np

from screenbot.geometry import Rect
from screenbot.vision.text import _split_touching

CELLS = [Rect(10 + 80 * c, 0, 80, 30) for c in range(4)]


def row(blocks: list[tuple[int, int, tuple[int, int, int]]]) -> np.ndarray:
    """A white strip 30 px tall with blocks (x0, x1, colour) drawn across its whole height."""
    region = np.full((30, 360, 3), 255, np.uint8)
    for x0, x1, colour in blocks:
        region[:, x0:x1] = colour
    return region


def test_a_run_of_blocks_that_fill_their_cells_splits_into_one_per_cell():
    region = row([(10, 90, (40, 200, 40)), (90, 170, (200, 40, 40))])
    run = (10, 0, 170, 30, 30, True)
    assert _split_touching(region, [run], CELLS) == [(10, 0, 90, 30, 30, True), (90, 0, 170, 30, 30, True)]


def test_a_run_caught_between_cells_stays_whole():
    region = row([(50, 130, (40, 200, 40)), (130, 210, (200, 40, 40))])
    run = (50, 0, 210, 30, 30, True)
    assert _split_touching(region, [run], CELLS) == [run]


def test_a_piece_of_two_colours_stays_whole():
    # two blocks whose edge lies inside a cell (each a cell wide, shifted by a quarter of one)
    region = row([(10, 30, (40, 200, 40)), (30, 110, (200, 40, 40)), (110, 170, (40, 40, 200))])
    run = (10, 0, 170, 30, 30, True)
    assert _split_touching(region, [run], CELLS) == [run]


def test_writing_that_is_no_block_is_left_alone():
    region = row([])
    word = (30, 5, 60, 25, 20, False)
    assert _split_touching(region, [word], CELLS) == [word]
