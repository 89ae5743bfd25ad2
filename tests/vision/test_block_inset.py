"""block_inset: the common inset of blocks drawn in every cell of a ruled grid (a terminal's coloured blocks
a text line tall, each a few characters inside its box), found where every cell holds one and most stand
alike; no inset where a cell is bare or the blocks stand anywhere."""

from __future__ import annotations

import numpy as np

from screenbot.calibration.inset import block_inset
from screenbot.geometry import Rect

PITCH_X, PITCH_Y, W, H = 110, 44, 108, 42


def ruled(blocks: dict[tuple[int, int], tuple[int, int, int, int, tuple[int, int, int]]]) -> tuple[np.ndarray, list[Rect]]:
    """A white picture with a black 4x4 grid ruled 1 px wide; blocks[(r, c)] = (left, top, w, h, colour)."""
    img = np.full((260, 520, 3), 255, np.uint8)
    cells = []
    for r in range(4):
        for c in range(4):
            x, y = 20 + c * PITCH_X, 20 + r * PITCH_Y
            cells.append(Rect(x, y, W, H))
            img[y - 1, x - 1:x + W + 1] = img[y + H, x - 1:x + W + 1] = 0
            img[y - 1:y + H + 1, x - 1] = img[y - 1:y + H + 1, x + W] = 0
            if (r, c) in blocks:
                left, top, w, h, colour = blocks[(r, c)]
                img[y + top:y + top + h, x + left:x + left + w] = colour
    return img, cells


def every_cell(left=4, top=10, w=99, h=22, colour=(110, 110, 110)):
    return {(r, c): (left, top, w, h, colour) for r in range(4) for c in range(4)}


def test_blocks_in_every_cell_give_their_inset_each_side():
    blocks = every_cell()
    blocks[(2, 0)] = (4, 10, 99, 22, (170, 255, 0))  # a tile: another colour, the same place
    img, cells = ruled(blocks)
    img[20 + 2 * PITCH_Y + 14:20 + 2 * PITCH_Y + 26, 30:38] = 255  # its number, written on it
    assert block_inset(img, cells, (255, 255, 255)) == (4, 10, W - 4 - 99, H - 10 - 22)


def test_a_cell_with_no_block_gives_no_inset():
    blocks = every_cell()
    del blocks[(1, 1)]
    img, cells = ruled(blocks)
    assert block_inset(img, cells, (255, 255, 255)) is None


def test_blocks_standing_anywhere_give_no_inset():
    blocks = {(r, c): ((r * 4 + c) * 3 % 40, (r + c) % 3 * 6, 60, 20, (110, 110, 110)) for r in range(4) for c in range(4)}
    img, cells = ruled(blocks)
    assert block_inset(img, cells, (255, 255, 255)) is None
