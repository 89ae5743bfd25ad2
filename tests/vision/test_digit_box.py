"""Where a tile's digits are looked for (ocr.digit_box): the cell less its outer sixth, unless a number written
on the tile's first or last text line crosses that line with the rest clear; a picture across the tile never
widens it."""

from __future__ import annotations

import cv2
import numpy as np

from screenbot.imaging import EDGE_PX
from screenbot.vision.ocr import digit_box, digit_mask

TILE = (200, 40, 160)  # BGR


def tile(h: int = 80, w: int = 80) -> np.ndarray:
    return np.full((h, w, 3), TILE, np.uint8)


def test_centred_digits_are_looked_for_inside_the_outer_sixth():
    cell = tile()
    cv2.putText(cell, "64", (22, 52), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (255, 255, 255), 2)
    assert digit_box(cell, TILE) == (int(0.12 * 80), int(0.88 * 80), int(0.06 * 80), int(0.94 * 80))


def test_a_number_on_the_first_text_line_is_looked_for_up_to_the_tiles_edge():
    cell = tile()
    cv2.putText(cell, "64", (22, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (255, 255, 255), 2)  # rows ~6-18
    y0, y1, _, _ = digit_box(cell, TILE)
    assert (y0, y1) == (EDGE_PX, int(0.88 * 80))
    mask = digit_mask(cell, TILE)
    ys = np.flatnonzero(mask.any(axis=1))
    assert ys.min() + y0 < int(0.12 * 80)  # the digits' top is in the mask


def test_a_number_on_the_last_text_line_is_looked_for_down_to_the_tiles_edge():
    cell = tile()
    cv2.putText(cell, "8", (34, 76), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (255, 255, 255), 2)  # rows ~64-76
    assert digit_box(cell, TILE)[:2] == (int(0.12 * 80), 80 - EDGE_PX)


def test_a_picture_across_the_tile_keeps_the_box():
    cell = tile()
    cv2.circle(cell, (40, 42), 34, (255, 255, 255), 3)  # crosses the box's top line, and fills the tile
    assert digit_box(cell, TILE)[:2] == (int(0.12 * 80), int(0.88 * 80))
