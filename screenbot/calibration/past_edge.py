"""Whether a board found goes on one step past its edge, in a row or column the search did not take: then it
is a part of something bigger (a row it could not read, a table), no board of its own size."""

from __future__ import annotations

import cv2

from screenbot.calibration.inset import AGREE_PX, block_inset
from screenbot.calibration.lattice import Lattice
from screenbot.calibration.text_lattice import TextBoard
from screenbot.control.screen import Frame
from screenbot.geometry import Rect
from screenbot.imaging import LINE_THICK_PX, RULE_TALL, glyph_mask


def text_goes_on(frame: Frame, board: TextBoard) -> bool:
    """Marks one step past the board, each wholly inside a cell of the row (or column) the lattice would
    have there and across its middle, in all but one of its cells: the board goes on there (a row it could not read, a tile in
    it standing off the lattice), so it is no board of its own size. A help line under a board crosses
    the cells; a title stands apart from them."""
    writing = glyph_mask(frame.pixels, board.background, board.ink_diff)
    return any(_marked_cells(writing, board.lattice, cells, board.digit_h) >= max(2, len(cells) - 1)
               for cells in _sides(board.lattice))


def _marked_cells(writing, lat: Lattice, cells: list[tuple[int, int]], digit_h: int) -> int:
    """How many of these cells (of the lattice grown past its edge) hold a mark wholly inside them, each cell
    cut at the frame's edge (a band wider than its number may reach past it); 0 where any of them lies more
    than half off the frame."""
    marked = 0
    for r, c in cells:
        x, y, w, h = (int(round(v)) for v in lat.cell(r, c))
        x1, y1 = min(x + w, writing.shape[1] - 1), min(y + h, writing.shape[0] - 1)
        x, y = max(x, 1), max(y, 1)
        if 2 * (x1 - x) < w or 2 * (y1 - y) < h:
            return 0
        w, h = x1 - x, y1 - y
        # the cell with a pixel round it: a mark touching that rim crosses the cell's edge
        n, _, stats, _ = cv2.connectedComponentsWithStats(writing[y - 1:y + h + 1, x - 1:x + w + 1], connectivity=8)
        # a mark stands where the board writes its numbers, across the cell's middle (a help line under the
        # board, its words short enough to fit in cells, runs along the next row's top); a piece of a line
        # drawn a text line at a time, thin and taller than the digits, is no mark
        if any(sx > 0 and sy > 0 and sx + sw < w + 2 and sy + sh < h + 2
               and abs(sy + sh / 2 - (h + 2) / 2) <= digit_h
               and not (sw <= LINE_THICK_PX and sh > RULE_TALL * digit_h) for sx, sy, sw, sh, _ in stats[1:]):
            marked += 1
    return marked


def blocks_go_on(frame: Frame, lat: Lattice, background, inset: tuple[int, int, int, int]) -> bool:
    """Blocks at the same inset one step past the lattice, along a whole side: the board goes on there."""
    for cells in _sides(lat):
        rects = [Rect(*(int(round(v)) for v in lat.cell(r, c))) for r, c in cells]
        if any(r.x < 0 or r.y < 0 or r.right > frame.width or r.bottom > frame.height for r in rects):
            continue
        past = block_inset(frame.pixels, rects, background)
        if past is not None and max(abs(a - b) for a, b in zip(past, inset)) <= AGREE_PX:
            return True
    return False


def _sides(lat: Lattice) -> list[list[tuple[int, int]]]:
    """The cells of the row above the lattice, the row below it, the column left of it and the one right of it."""
    return ([[(line, c) for c in range(lat.cols)] for line in (-1, lat.rows)]
            + [[(r, line) for r in range(lat.rows)] for line in (-1, lat.cols)])
