"""Boards of blocks that touch one way and stand apart the other: a terminal game that prints each row of
cells with spaces between them but no blank line between the rows (or blank lines between the rows and no
space between the cells).

Neither a lattice of squares (cells of one colour merge into one long block down a column) nor blocks that
touch all round (the outline breaks at every gap). Taken out, the gaps leave blocks that touch: each stripe
of the background colour that crosses a group of blocks whole is cut out of a picture of the group, the
touching-blocks search (blocks.py) runs on what is left, and the lattice it finds is put back where the
cells stand on the screen, provided its cells stand evenly there too.
"""

from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

from screenbot.calibration.lattice import MIN_CELL_PX, Lattice, overlap_share
from screenbot.calibration.text_lattice import background_candidates
from screenbot.imaging import LINE_THICK_PX, glyph_mask, without_lines

BACKGROUND_TOL = 12  # colour levels: a pixel this near the background's colour is background
BRIDGE_PX = 25  # gaps up to this wide are bridged when grouping blocks (two terminal columns, a text line)
PAD_PX = 8  # background put round a group before the touching-blocks search (its outline must show)
EVEN_PX = 2.0  # cells put back on the screen stand evenly to within this
LINE_SHARE = 0.9  # a row with ink across this share of its group is a line (a frame's edge, a rule), taken out too


def find_apart_blocks(pixels: np.ndarray, find: Callable[..., list[Lattice]],
                      confirm: Callable[[Lattice], bool]) -> list[Lattice]:
    """Boards of blocks apart one way in a BGR picture, in its coordinates. `find(pixels, confirm=...)` is the
    touching-blocks search; `confirm(lattice)` says whether a lattice in this picture reads as a board."""
    out: list[Lattice] = []
    for colour in background_candidates(pixels, most=2):  # the screen's, and a window's (a terminal's)
        ink = glyph_mask(pixels, colour, BACKGROUND_TOL)
        ink = _within_background(ink)
        for across in (True, False):  # gaps between the columns, then between the rows
            picture, mask = (pixels, ink) if across else (pixels.transpose(1, 0, 2), ink.T)
            for x, y, w, h in _groups(mask):
                out += _in_group(picture, mask, (x, y, w, h), colour, find, confirm, across)
    # one board found twice (both ways, or a part of it alone): the one of more cells stays
    out.sort(key=lambda lat: -lat.rows * lat.cols)
    kept: list[Lattice] = []
    for lat in out:
        if all(overlap_share(lat.board_rect, o.board_rect) < 0.5 for o in kept):  # sharing half the smaller: one board
            kept.append(lat)
    return kept


def _within_background(ink: np.ndarray) -> np.ndarray:
    """The ink inside the box the background's own pixels span (a terminal's window on a screen of another
    colour: the screen round it is no ink of the board's)."""
    paper = ~ink.astype(bool)
    rows, cols = np.flatnonzero(paper.any(axis=1)), np.flatnonzero(paper.any(axis=0))
    if not len(rows):
        return ink
    out = np.zeros_like(ink)
    out[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1] = ink[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
    return out


def _groups(mask: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Boxes of ink joined across gaps up to BRIDGE_PX along x, big enough to hold 3 cells each way: with
    the thin lines (a frame round the board outlines it), and without them (a frame, a window's edge, may
    join the board to the text beside it)."""
    mask = np.ascontiguousarray(mask).astype(np.uint8)
    out: list[tuple[int, int, int, int]] = []
    for ink in (mask, without_lines(mask)):
        closed = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((1, BRIDGE_PX), np.uint8))
        n, _, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
        out += [box for i in range(1, n) if (box := tuple(int(v) for v in stats[i][:4])) not in out
                and stats[i][2] >= 3 * MIN_CELL_PX and stats[i][3] >= 3 * MIN_CELL_PX]
    return out


def _in_group(picture: np.ndarray, mask: np.ndarray, box: tuple[int, int, int, int], background,
              find, confirm, across: bool) -> list[Lattice]:
    x, y, w, h = box
    part = mask[y:y + h, x:x + w].astype(bool)
    # rows of ink nearly all across, a few pixels thick: a frame's edge, a rule between rows (a band of them is
    # blocks standing close together across)
    full = part.mean(axis=1) >= LINE_SHARE
    keep_rows = ~(full & ~_not_lines(full, 2 * LINE_THICK_PX))  # (a double line too)
    keep_cols = _not_lines(part[keep_rows].any(axis=0))  # columns with ink besides those rows and thin lines
    if (keep_cols.all() and keep_rows.all()) or keep_cols.sum() < 3 * MIN_CELL_PX or keep_rows.sum() < 3 * MIN_CELL_PX:
        return []  # nothing to take out (blocks that touch are found without this), or nothing left
    kept_x, kept_y = x + np.nonzero(keep_cols)[0], y + np.nonzero(keep_rows)[0]
    squeezed = picture[y:y + h, x:x + w][keep_rows][:, keep_cols]
    padded = cv2.copyMakeBorder(np.ascontiguousarray(squeezed), PAD_PX, PAD_PX, PAD_PX, PAD_PX, cv2.BORDER_CONSTANT,
                                value=tuple(int(v) for v in background))

    def put_back(lat: Lattice) -> Lattice | None:
        along_x = _spread(kept_x, lat.x0 - PAD_PX, lat.pitch_x, lat.cell_w, lat.cols)
        along_y = _spread(kept_y, lat.y0 - PAD_PX, lat.pitch_y, lat.cell_h, lat.rows)
        if along_x is None or along_y is None:
            return None
        (x0, px, cw), (y0, py, ch) = along_x, along_y
        if across:
            return Lattice(x0, y0, px, py, cw, ch, 0.0, 0.0, lat.matched, lat.rows, lat.cols)
        return Lattice(y0, x0, py, px, ch, cw, 0.0, 0.0, lat.matched, lat.cols, lat.rows)

    found = find(padded, confirm=lambda lat: (real := put_back(lat)) is not None and confirm(real))
    return [real for lat in found if (real := put_back(lat)) is not None and confirm(real)]


def _not_lines(inked: np.ndarray, thick: int = LINE_THICK_PX) -> np.ndarray:
    """The columns marked inked, less thin runs of them, up to `thick` (a bar between cells, a frame's side),
    that stand between columns of background or at the edge."""
    out = inked.copy()
    padded = np.concatenate([[False], inked, [False]]).astype(np.int8)
    d = np.diff(padded)
    for a, b in zip(np.nonzero(d == 1)[0], np.nonzero(d == -1)[0]):
        if b - a <= thick:
            out[a:b] = False
    return out


def _spread(kept: np.ndarray, first: float, pitch: float, size: float, n: int) -> tuple[float, float, float] | None:
    """(first cell's start, pitch, cell size) on the screen of n cells found in the squeezed picture, where
    `kept` maps its pixels back; None unless the cells stand evenly there."""
    starts, sizes = [], []
    for i in range(n):
        a, b = int(round(first + i * pitch)), int(round(first + i * pitch + size))
        if a < 0 or b > len(kept) or b <= a:
            return None
        starts.append(float(kept[a]))
        sizes.append(float(kept[b - 1] + 1 - kept[a]))
    steps = np.diff(starts)
    if np.ptp(steps) > EVEN_PX or np.ptp(sizes) > EVEN_PX:
        return None  # the cells do not stand evenly once the gaps are back: no board
    return starts[0], float(np.mean(steps)), float(np.mean(sizes))

