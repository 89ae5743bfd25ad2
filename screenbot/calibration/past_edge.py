"""Whether a board found goes on one step past its edge, in a row or column the search did not take: then it
is a part of something bigger (a row it could not read, a table), no board of its own size."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from screenbot.calibration.inset import AGREE_PX, block_inset
from screenbot.calibration.lattice import Lattice
from screenbot.calibration.text_checks import rule_shares
from screenbot.calibration.text_lattice import TextBoard
from screenbot.control.screen import Frame
from screenbot.geometry import Rect
from screenbot.imaging import LINE_GAP_PX, LINE_THICK_PX, RULE_TALL, glyph_mask, without_lines, words_of


def text_goes_on(frame: Frame, board: TextBoard) -> bool:
    """Marks one step past the board, each wholly inside a cell of the row (or column) the lattice would
    have there and across its middle, in all but one of its cells: the board goes on there (a row it could not read, a tile in
    it standing off the lattice), so it is no board of its own size. A help line under a board crosses
    the cells; a title stands apart from them."""
    writing = glyph_mask(frame.pixels, board.background, board.ink_diff)
    return any(_marked_cells(writing, board.lattice, cells, board.digit_h) >= max(2, len(cells) - 1)
               and _keeps_to_board(writing, board.lattice, cells, board.digit_h)
               and not _words_in_a_cell(writing, board.lattice, cells, board.digit_h)
               and _ruled_past(writing, board.lattice, cells)
               for cells in _sides(board.lattice))


def _ruled_past(writing, lat: Lattice, cells: list[tuple[int, int]]) -> bool:
    """Whether the cells past the edge are closed the way the board's own are: on a board ruled between all
    its rows (or columns) and round them, a row past its edge has its rule on the far side too (a title over
    a ruled board stands outside its top rule, with none above it). True on a board not ruled so."""
    across = cells[0][0] == cells[-1][0]
    ruled = rule_shares(writing, lat, down=across)
    if min(ruled) >= SOME_RULE:
        beyond = -1 if (cells[0][0] < 0 if across else cells[0][1] < 0) else len(ruled)
        if rule_shares(writing, lat, down=across, at=[beyond])[0] < RULE_AGAIN * min(ruled):
            return False
    # ... and the rules across its rows (its columns' bars) run on through the row past it
    ruled = rule_shares(writing, lat, down=not across)
    if min(ruled) < SOME_RULE:
        return True
    r, c = cells[0]
    past = replace(lat, y0=lat.y0 + r * lat.pitch_y, rows=1) if across else replace(lat, x0=lat.x0 + c * lat.pitch_x, cols=1)
    return min(rule_shares(writing, past, down=not across)) >= RULE_AGAIN * min(ruled)


# _ruled_past: a board is ruled where ink runs along this share of every line between and round its rows (a
# rule of dashes inks half of it), and a rule past the edge is the same where it inks this share of the least
SOME_RULE, RULE_AGAIN = 0.3, 0.6


def _words_in_a_cell(writing, lat: Lattice, cells: list[tuple[int, int]], digit_h: int) -> bool:
    """Whether a cell past the edge holds two words or more wholly inside it: a line of prose (a cell's
    number is one word, and a box's bars are no words)."""
    h, w = writing.shape[:2]
    for r, c in cells:
        x, y, cw, ch = (int(round(v)) for v in lat.cell(r, c))
        x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + cw, w), min(y + ch, h)
        if x1 - x0 < 2 or y1 - y0 < 2:
            continue
        band = without_lines(writing[y0:y1, x0:x1].astype(np.uint8))
        # (a box's side drawn a text line at a time, thin, is no word)
        inside = [v for v in words_of(band) if not v.solid and v.tall >= 0.5 * digit_h and v.x1 - v.x0 > LINE_THICK_PX
                  and v.x0 > 0 and v.y0 > 0 and v.x1 < x1 - x0 and v.y1 < y1 - y0]
        if len(inside) >= 2:
            return True
    return False


GAP_SHARE = 1 / 6  # the middle of the space between two columns: this share of a step either side of it
BLOCK_TALL = 1.4  # ink running down this many digit heights is a block (a tile), no letter


def _keeps_to_board(writing, lat: Lattice, cells: list[tuple[int, int]], digit_h: int) -> bool:
    """Whether the writing in these cells past the edge keeps out of the middles of the spaces between the
    board's columns (or rows) wherever the board's own writing does: a row of the board would (its numbers in
    its columns' bands, a tile filling its cell), a line of prose under it runs through two such spaces or
    more."""
    h, w = writing.shape[:2]
    x0, y0 = int(max(lat.x0, 0)), int(max(lat.y0, 0))
    x1, y1 = int(min(lat.far[0], w)), int(min(lat.far[1], h))
    across = cells[0][0] == cells[-1][0]  # a row above or below: compare pixel columns
    cx, cy, cw, ch = (int(round(v)) for v in lat.cell(*cells[0]))
    # the board's own writing: its strokes half a digit tall or more, less its ruled lines (a rule of dashes
    # between its rows, the bars between its columns, a dot or a dash in an empty cell, run through the
    # spaces between its columns as no number does)
    board = writing[y0:y1, x0:x1].astype(np.uint8)
    if board.size:
        board = cv2.morphologyEx(without_lines(board, gap=LINE_GAP_PX), cv2.MORPH_OPEN,
                                 cv2.getStructuringElement(cv2.MORPH_RECT, (1, max(2, digit_h // 2))))
    if across:
        band = writing[max(cy, 0):max(min(cy + ch, h), 0), x0:x1]
        own, past, start = board.any(axis=0), _letters(band, digit_h).any(axis=0), x0
        first, pitch, n = lat.x0 + lat.cell_w / 2, lat.pitch_x, lat.cols
    else:
        band = writing[y0:y1, max(cx, 0):max(min(cx + cw, w), 0)]
        own, past, start = board.any(axis=1), _letters(band, digit_h).any(axis=1), y0
        first, pitch, n = lat.y0 + lat.cell_h / 2, lat.pitch_y, lat.rows
    if not past.size:
        return True
    reach = max(1, digit_h // 2)
    near = np.convolve(own.astype(np.int32), np.ones(2 * reach + 1, np.int32), mode="same") > 0
    stray = past & ~near
    crossed = 0
    for k in range(1, n):
        mid = first + (k - 0.5) * pitch - start
        lo, hi = int(max(mid - GAP_SHARE * pitch, 0)), int(min(mid + GAP_SHARE * pitch + 1, len(stray)))
        crossed += bool(stray[lo:hi].any())
    return crossed < 2


def _letters(band, digit_h: int):
    """The writing of a band less its filled blocks (ink running down further than a letter does) and its
    ruled lines (a tile past the edge may stand anywhere in its cell; a rule is no writing)."""
    band = band.astype(np.uint8)
    if not band.size:
        return band.astype(bool)
    tall = max(2, int(BLOCK_TALL * digit_h))
    blocks = cv2.morphologyEx(band, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (1, tall)))
    return without_lines(band & (1 - blocks)).astype(bool)


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
