"""Pieces that let a board of boxes, blocks that touch across and a help line under the board be told apart:
a box drawn round every cell is no dialog over the board (text.box_over), blocks that touch across are
parted into one block per number (block_words.with_written), and a line of prose one step under a board is no
row of it, while a tile or a row of numbers there is (past_edge._keeps_to_board)."""

from __future__ import annotations

import numpy as np

from screenbot.calibration.block_words import with_written
from screenbot.calibration.lattice import Lattice
from screenbot.calibration.past_edge import _keeps_to_board
from screenbot.geometry import Rect
from screenbot.imaging import Word
from screenbot.vision.text import box_over

WHITE, RED, BLUE, GREY = (255, 255, 255), (40, 40, 200), (200, 60, 40), (90, 90, 90)


def _cells(x0: int, y0: int, w: int, h: int, step_x: int, step_y: int) -> list[Rect]:
    return [Rect(x0 + c * step_x, y0 + r * step_y, w, h) for r in range(4) for c in range(4)]


def test_a_box_round_every_cell_is_no_box_over_the_board_but_one_box_is():
    mask = np.zeros((260, 460), np.uint8)
    # cells found on what is written (numbers left in their boxes): the boxes' lines fall inside the cells
    rects = _cells(10, 5, 108, 58, 110, 60)
    for r in range(4):
        for c in range(4):
            x, y = 30 + c * 110, 12 + r * 60
            mask[y, x:x + 100] = 1  # the box's top edge
            mask[y + 40, x:x + 100] = 1  # ... and its bottom edge
    assert box_over(mask, rects, 12) is None
    dialog = np.zeros_like(mask)
    dialog[100, 120:300] = 1
    dialog[150, 120:300] = 1
    assert box_over(dialog, rects, 12) is not None


def _block(pixels: np.ndarray, x0: int, x1: int, y0: int, y1: int, colour) -> None:
    pixels[y0:y1, x0:x1] = colour


def _digit(pixels: np.ndarray, x: int, y: int) -> None:
    pixels[y:y + 12, x:x + 2] = GREY  # a stroke a digit tall
    pixels[y:y + 2, x:x + 7] = GREY


def test_blocks_that_touch_across_are_parted_by_colour_and_by_their_numbers():
    pixels = np.full((60, 260, 3), WHITE, np.uint8)
    _block(pixels, 20, 160, 10, 50, RED)  # two red tiles that touch
    _block(pixels, 160, 230, 10, 50, BLUE)  # ... and a blue one beside them
    for x in (50, 120, 190):
        _digit(pixels, x, 34)  # each number on the tile's bottom line
    words = with_written(pixels, [Word(20, 10, 230, 50, 40, solid=True)])
    assert [(w.x0, w.x1) for w in words] == [(20, 90), (90, 160), (160, 230)]
    assert [w.written for w in words] == [(50, 57), (120, 127), (190, 197)]
    assert all(w.written_y == (34, 46) and w.line_y == 40 for w in words)


def test_a_block_whose_numbers_do_not_each_stand_in_a_share_of_it_is_left_whole():
    pixels = np.full((60, 260, 3), WHITE, np.uint8)
    _block(pixels, 20, 230, 10, 50, RED)
    for x in (30, 60):  # two numbers, both in the left third
        _digit(pixels, x, 20)
    words = with_written(pixels, [Word(20, 10, 230, 50, 40, solid=True)])
    assert [(w.x0, w.x1, w.written) for w in words] == [(20, 230, None)]


LAT = Lattice(x0=20, y0=20, pitch_x=100, pitch_y=40, cell_w=98, cell_h=38, margin_x=3, margin_y=3,
              matched=16, rows=4, cols=4)
BELOW = [(4, c) for c in range(4)]


def _board_writing() -> np.ndarray:
    writing = np.zeros((240, 440), np.uint8)
    for r in range(4):
        for c in range(4):
            x, y = 60 + c * 100, 32 + r * 40
            writing[y:y + 12, x:x + 14] = 1  # a number in the middle of each cell
    return writing


def test_a_line_of_prose_under_the_board_runs_through_the_spaces_between_its_columns():
    writing = _board_writing()
    y = 32 + 4 * 40
    for x in range(22, 420, 12):  # letters a character apart all along
        writing[y:y + 10, x:x + 7] = 1
    assert not _keeps_to_board(writing, LAT, BELOW, 12)


def test_a_row_of_numbers_or_a_tile_under_the_board_keeps_to_its_columns():
    writing = _board_writing()
    y = 32 + 4 * 40
    for c in range(4):
        writing[y:y + 12, 56 + c * 100:56 + c * 100 + 30] = 1  # wider numbers, still in the columns
    assert _keeps_to_board(writing, LAT, BELOW, 12)
    tile = _board_writing()
    tile[4 * 40 + 21:4 * 40 + 59, 121:219] = 1  # a filled block as big as its cell, its edges in the spaces
    assert _keeps_to_board(tile, LAT, BELOW, 12)


def test_bands_are_centred_on_the_blocks_in_them_where_what_is_written_still_fits():
    from screenbot.calibration.text_checks import on_blocks as _on_blocks

    # bands 117 wide at a step of 120 were centred on numbers written at the left of blocks 39-111 (+120k)
    blocks = [(39, 111), (159, 231), (279, 351)]
    written = [(52, 66), (176, 179), (296, 299)]  # a number, and dots where a number would start
    assert _on_blocks(2.0, 117.0, 120.0, blocks, blocks + written) == 16.5
    # something written that the moved bands would cut: the bands stay where they were
    assert _on_blocks(2.0, 117.0, 120.0, blocks, blocks + [(8, 20)]) == 2.0
    # blocks that disagree on where they stand in their bands: no centre of theirs to take
    assert _on_blocks(2.0, 117.0, 120.0, [(39, 111), (169, 241)], blocks) == 2.0


def test_blocks_that_touch_down_in_two_close_colours_are_parted():
    pixels = np.full((120, 120, 3), (0, 0, 0), np.uint8)
    _block(pixels, 20, 100, 10, 54, (160, 240, 208))  # a mint tile over a light blue one: 40 levels apart
    _block(pixels, 20, 100, 54, 98, (240, 200, 150))
    for y in (36, 80):
        _digit(pixels, 80, y)
    words = with_written(pixels, [Word(20, 10, 100, 98, 88, solid=True)])
    assert [(w.y0, w.y1, w.tall) for w in words] == [(10, 54, 44), (54, 98, 44)]
    assert [w.written_y for w in words] == [(36, 48), (80, 92)]
