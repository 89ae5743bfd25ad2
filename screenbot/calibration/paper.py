"""Boards whose cells are paper with numbers written on it: a lattice found by its lines or gaps whose
cells share one colour, tiles told from empty cells by what is written in them, not by their colour.

Terminal games draw their grid with box-drawing or ASCII lines and write each number in a colour of
their own on the terminal's background; some windowed games paint a tile the empty cell's colour and
write its number on it. The tile lattice (lattice.py) finds such a grid by its lines, but its cells'
colours name nothing: this module measures the paper colour, how faint the writing may be and the
height of the digits, so that the board is read as text (vision/text.py), through the structure's
own cells.
"""

from __future__ import annotations

import numpy as np

from screenbot.calibration.lattice import Lattice
from screenbot.calibration.text_lattice import NEAR_PAPER, TextBoard, ink_diff_of
from screenbot.imaging import FG_DIFF, MIN_GLYPH_PX, commonest_colour, glyph_mask, without_lines, words_of

PAPER_SHARE = 0.7  # a cell this much of the paper colour is paper (with a number or nothing on it)
SAME_TOL = NEAR_PAPER  # the paper's own colour, give or take antialiasing and compression (a pale tile is not paper)
MIN_PAPER_CELLS = 6  # (of 16 on a 4x4 board): tiles drawn as blocks of another colour may be the rest


def _interior(pixels: np.ndarray, lat: Lattice, r: int, c: int, inset: float = 0.08) -> np.ndarray:
    x, y, w, h = lat.cell(r, c)
    x0, x1 = int(round(x + inset * w)), int(round(x + (1 - inset) * w))
    y0, y1 = int(round(y + inset * h)), int(round(y + (1 - inset) * h))
    return pixels[max(y0, 0):max(y1, 0), max(x0, 0):max(x1, 0)]


def _blank(cell: np.ndarray) -> bool:
    """A cell of one colour with nothing number-sized written on it."""
    own = commonest_colour(cell.reshape(-1, 3))
    return not any(w.tall >= MIN_GLYPH_PX and not w.solid for w in words_of(without_lines(glyph_mask(cell, own, FG_DIFF))))


def paper_board(pixels: np.ndarray, lat: Lattice) -> TextBoard | None:
    """The lattice as a board written on paper, or None when its cells are tiles told by their colour.

    It is paper when several cells are mostly one colour and at least one of those carries a
    number-sized mark in another colour (a tile told by its writing), where a board of coloured tiles
    shows its numbers only on tiles of their own colours."""
    cells = [_interior(pixels, lat, r, c) for r in range(lat.rows) for c in range(lat.cols)]
    if any(cell.size == 0 for cell in cells):
        return None
    paper = commonest_colour(np.concatenate([cell.reshape(-1, 3) for cell in cells]))
    papers, blocks = [], []
    for cell in cells:
        diff = np.abs(cell.astype(np.int16) - np.asarray(paper, np.int16)).max(axis=2)
        if float((diff <= SAME_TOL).mean()) >= PAPER_SHARE:
            papers.append((cell, diff))  # else a block of another colour, even a close one: a tile told by its colour
        else:
            blocks.append(cell)
    if len(papers) < MIN_PAPER_CELLS * len(cells) / 16:
        return None
    ink_diff = ink_diff_of(np.concatenate([d.ravel() for _, d in papers]))
    heights = []
    for cell, _ in papers:
        words = [w for w in words_of(without_lines(glyph_mask(cell, paper, ink_diff)))
                 if w.tall >= MIN_GLYPH_PX and not w.solid and w.tall <= 0.8 * cell.shape[0]
                 and w.x1 - w.x0 <= 0.95 * cell.shape[1]]
        if words:
            heights.append(max(w.tall for w in words))
    if not heights:
        return None
    if len(heights) == len(papers) and any(_blank(cell) for cell in blocks):
        # a number on every cell of the commonest colour, and a block of another colour with nothing on it:
        # the commonest colour is a tile's (many 2s), the blank blocks are empty cells: a board of tiles
        return None
    return TextBoard(lat, tuple(int(v) for v in paper), int(np.median(heights)), filled=len(heights),
                     bare=len(heights), ink_diff=ink_diff)
