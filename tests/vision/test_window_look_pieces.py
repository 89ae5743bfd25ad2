"""The pieces that read window looks drawn at random (tests/vision/test_any_windows.py), each on a picture
drawn here: an empty cell's bands (a hollow tile, a number in a corner, help text over a row), a heavy digit
against a filled block, a box round a number, a board whose cells stand flush with its edge."""

from __future__ import annotations

import cv2
import numpy as np

from screenbot.calibration.lattice import _gap_outside
from screenbot.geometry import Rect
from screenbot.imaging import words_of
from screenbot.profile import Profile
from screenbot.vision.empty_ring import drawn_on_empty, learn_empty_ring, ring_sampler
from screenbot.vision.ocr import _without_borders

EMPTY, GAP, BACK = (200, 190, 185), (120, 110, 100), (240, 240, 240)
CELL, STEP, MARGIN = 60, 70, 10


def board(margin: int = MARGIN) -> tuple[np.ndarray, Profile]:
    """A 4x4 board of flat empty cells, gaps of 10 px, on a window of another colour."""
    side = 4 * STEP - (STEP - CELL) + 2 * margin
    img = np.full((side + 40, side + 40, 3), BACK, np.uint8)
    img[20:20 + side, 20:20 + side] = GAP
    cells = []
    for r in range(4):
        for c in range(4):
            x, y = 20 + margin + c * STEP, 20 + margin + r * STEP
            img[y:y + CELL, x:x + CELL] = EMPTY
            cells.append(Rect(x, y, CELL, CELL))
    return img, Profile.from_cells(Rect(20, 20, side, side), tuple(cells), gap_colour=GAP, empty_colour=EMPTY)


def hollow(img: np.ndarray, cell: Rect, colour=(30, 60, 200)) -> None:
    cv2.rectangle(img, (cell.x + 1, cell.y + 1), (cell.right - 2, cell.bottom - 2), colour, 3)


def region(img: np.ndarray, profile: Profile) -> np.ndarray:
    b = profile.board_rect
    return img[b.y:b.bottom, b.x:b.right]


def test_a_hollow_tile_or_a_number_in_a_corner_is_no_empty_cell():
    img, profile = board()
    start = img.copy()
    hollow(start, profile.cells[5])  # a tile at the start, read empty by its middle: left out of the look
    profile.empty_ring = learn_empty_ring(region(start, profile), profile, np.ones(16, bool))
    ring = ring_sampler(profile)
    assert ring is not None and ring[3].sum(axis=1).min() > 0.9 * ring[3].shape[1]
    later = img.copy()
    hollow(later, profile.cells[2])
    corner = profile.cells[9]
    cv2.putText(later, "32", (corner.x + 3, corner.y + 16), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (40, 40, 40), 2)
    drawn = drawn_on_empty(region(later, profile), profile, np.ones(16, bool), ring)
    assert drawn.nonzero()[0].tolist() == [2, 9]
    # a still empty board shows nothing drawn; nor does a board not learned
    assert not drawn_on_empty(region(img, profile), profile, np.ones(16, bool), ring).any()
    assert ring_sampler(Profile.from_cells(profile.board_rect, profile.cells)) is None


def test_help_text_written_over_a_row_is_part_of_the_look_where_marks_on_the_gaps_say_so():
    img, profile = board()
    bottom = profile.cells[12]
    y = bottom.bottom - 6
    cv2.putText(img, "arrows: move   esc: quit", (bottom.x + 2, y), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (20, 20, 20), 1)
    profile.marks = [[x, yy] for x in range(20, 320) for yy in range(y - 10, y + 2)]  # learned on the gap lines
    profile.empty_ring = learn_empty_ring(region(img, profile), profile, np.ones(16, bool))
    assert not drawn_on_empty(region(img, profile), profile, np.ones(16, bool), ring_sampler(profile)).any()
    profile.marks = []  # without the marks the text is taken for something drawn on the bottom row's cells
    profile.empty_ring = learn_empty_ring(region(img, profile), profile, np.ones(16, bool))
    assert drawn_on_empty(region(img, profile), profile, np.ones(16, bool), ring_sampler(profile))[12:].any()


# a bold 6 of DejaVu Sans Mono, 25 px tall, as a window look wrote it (any_window_20): it fills 71 % of its box
HEAVY_SIX = """
.....#########..
....###########.
...############.
..#############.
.########..####.
.######.........
######..........
#####...........
#####.#######...
##############..
###############.
################
########.#######
######....######
######.....#####
######.....#####
######.....#####
######.....#####
######.....#####
.#####....######
.#######.#######
.##############.
..#############.
...###########..
....########....
"""


def test_a_heavy_digit_is_no_filled_block_and_a_block_with_its_number_in_the_papers_colour_is():
    six = np.array([[c == "#" for c in line] for line in HEAVY_SIX.split()], np.uint8)
    assert six.mean() >= 0.6
    mask = np.zeros((60, 120), np.uint8)
    mask[10:35, 10:26] = six
    mask[8:44, 60:110] = 1
    cv2.putText(mask, "16", (64, 36), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 0, 2)  # holes in the block
    solid = {(w.x0, w.y0): w.solid for w in words_of(mask)}  # (and the island in the 6's counter)
    assert solid[(10, 10)] is False and solid[(60, 8)] is True


def test_a_box_drawn_round_a_number_is_no_part_of_its_digits():
    ink = np.zeros((80, 80), bool)
    ink[2:5, 2:78] = ink[75:78, 2:78] = ink[2:78, 2:5] = ink[2:78, 75:78] = True
    ink[30:50, 30:34] = ink[30:50, 44:48] = True  # two strokes of digits
    kept = _without_borders(ink)
    assert kept[30:50, 30:34].all() and kept[30:50, 44:48].all() and not kept[2:5].any() and not kept[:, 75:78].any()


def test_a_board_whose_cells_stand_flush_with_its_edge_has_no_margin_of_the_gaps_colour():
    img, _ = board(margin=0)
    centres = 20 + CELL / 2 + STEP * np.arange(4)
    across = centres.copy()
    assert not _gap_outside(img, 0, centres, CELL / 2, STEP, across, 0.3 * STEP)
    framed, _ = board()
    centres = 20 + MARGIN + CELL / 2 + STEP * np.arange(4)
    assert _gap_outside(framed, 0, centres, CELL / 2, STEP, centres, 0.3 * STEP)


def test_a_band_round_a_picture_tile_joined_to_more_of_its_colour_is_no_border():
    # a disc in its cell: the cell's own colour round it runs across the top rows, but is one mark with the
    # corners (and the number written there stays part of what is read)
    ink = np.ones((72, 76), np.uint8)
    cv2.circle(ink, (38, 37), 34, 0, -1)
    kept = _without_borders(ink.astype(bool))
    assert (kept == ink.astype(bool)).all()


def test_the_glow_a_big_tile_casts_on_an_empty_neighbour_is_nothing_drawn_on_it():
    # the classic game's tiles from 128 up glow: their neighbours' colour shifts smoothly, up to ~50 levels at
    # the edge next to the tile, fading over some 30 px; a box or a digit steps within a few pixels
    img, profile = board()
    profile.empty_ring = learn_empty_ring(region(img, profile), profile, np.ones(16, bool))
    glowing = img.astype(np.float32)
    cell = profile.cells[6]
    for dy in range(CELL):
        glowing[cell.y + dy, cell.x:cell.right] += np.array([-50, 10, 60]) * max(0.0, 1 - dy / 30)
    glowing = glowing.clip(0, 255).astype(np.uint8)
    ring = ring_sampler(profile)
    assert not drawn_on_empty(region(glowing, profile), profile, np.ones(16, bool), ring).any()
    hollow(glowing, cell)
    assert drawn_on_empty(region(glowing, profile), profile, np.ones(16, bool), ring).nonzero()[0].tolist() == [6]
