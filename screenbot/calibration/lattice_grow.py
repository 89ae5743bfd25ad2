"""A lattice found from the squares the edges split off may miss an outer row or column (tiles whose
numbers or a line of help text broke their squares up), or be the part of a board that runs off the
picture. Before its look is checked it is grown: a row of cells beyond one side, separated from the
lattice by the gap's colour and from each other by it too, each flat and not the gap's colour, belongs
to the board. Where that row is only partly inside the picture, the board is cut off.

The page around a board fails these tests: the frame beyond the last row is the gap's colour (no cells
there), and the page beyond the frame has no lines of the gap's colour between cell-sized patches.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

import numpy as np

from screenbot.game.sizes import MAX_SIDE

# (samples N x 3) -> (their commonest colour, the share of samples near it): lattice.py's
Dominant = Callable[[np.ndarray], tuple[np.ndarray, float]]

GAP_TOL = 12  # colour levels: a pixel this close to the gap's colour shows the gap
GAP_SHARE = 0.9  # of a line's points: the line is the gap
FLAT_SHARE = 0.45  # of a cell's points in its commonest colour: the cell is flat
CELLS_SHARE = 0.75  # of a row's cells flat and unlike the gap: a row of cells
KNOWN_SHARE = 0.5  # of a row's cells in a colour some cell of the lattice has (its empty cells, its tiles)
SAME_TOL = 6  # colour levels: two cells of one colour
MIN_SEEN_PX = 3  # a row beyond the picture's edge shows at least this much: the board runs off it


def grown(pixels: np.ndarray, lat, dominant: Dominant):
    """The lattice (calibration.lattice.Lattice) with every row and column of cells beyond it added (up
    to MAX_SIDE each way), and whether the board runs off the picture (a row of cells cut by its edge)."""
    gap = _gap_colour(pixels, lat, dominant)
    if gap is None:
        return lat, False
    known = [dominant(_interior(pixels, *lat.cell(r, c)).reshape(-1, 3))[0]
             for r in range(lat.rows) for c in range(lat.cols)]
    for _ in range(2 * MAX_SIDE):
        changed = False
        for side in ("top", "bottom", "left", "right"):
            if (lat.rows if side in ("top", "bottom") else lat.cols) >= MAX_SIDE:
                continue
            found = _beyond(pixels, lat, side, gap, known, dominant)
            if found == "cut":
                return lat, True
            if found == "cells":
                lat = _with_row(lat, side)
                changed = True
        if not changed:
            break
    return lat, False


def _with_row(lat, side: str):
    x0, y0, rows, cols = lat.x0, lat.y0, lat.rows, lat.cols
    if side == "top":
        y0, rows = y0 - lat.pitch_y, rows + 1
    elif side == "bottom":
        rows += 1
    elif side == "left":
        x0, cols = x0 - lat.pitch_x, cols + 1
    else:
        cols += 1
    return replace(lat, x0=x0, y0=y0, rows=rows, cols=cols)


def _gap_colour(pixels: np.ndarray, lat, dominant: Dominant) -> np.ndarray | None:
    """The commonest colour on the lattice's inner gap lines."""
    h, w = pixels.shape[:2]
    samples = []
    y_a, y_b = int(max(lat.y0, 0)), int(min(lat.y0 + (lat.rows - 1) * lat.pitch_y + lat.cell_h, h))
    x_a, x_b = int(max(lat.x0, 0)), int(min(lat.far[0], w))
    for k in range(1, lat.cols):
        gx = int(round(lat.x0 + k * lat.pitch_x - lat.gap_x / 2))
        if 0 <= gx < w:
            samples.append(pixels[y_a:y_b, gx])
    for k in range(1, lat.rows):
        gy = int(round(lat.y0 + k * lat.pitch_y - lat.gap_y / 2))
        if 0 <= gy < h:
            samples.append(pixels[gy, x_a:x_b])
    if not samples:
        return None
    colour, share = dominant(np.concatenate(samples))
    return colour if share >= 0.35 else None


def _near_gap(px: np.ndarray, gap: np.ndarray) -> np.ndarray:
    return np.abs(px.astype(np.int16) - gap).max(axis=-1) <= GAP_TOL


def _line_share(pixels: np.ndarray, gap: np.ndarray, along: int, at: float, lo: float, hi: float) -> float:
    """Share of a line's points showing the gap: a line across x = `at` (along=1: vertical, over y in
    [lo, hi)) or y = `at` (along=0: horizontal, over x), each point the nearest to the gap's colour of
    the three pixels across the line (a 1 px line lies within a pixel of where the lattice puts it)."""
    h, w = pixels.shape[:2]
    limit_at, limit_span = (w, h) if along == 1 else (h, w)
    a, b = int(max(lo, 0)), int(min(hi, limit_span))
    centre = int(round(at))
    if b - a < 2 or not 0 <= centre < limit_at:
        return 0.0
    best = np.zeros(b - a, bool)
    for d in (-1, 0, 1):
        k = min(max(centre + d, 0), limit_at - 1)
        line = pixels[a:b, k] if along == 1 else pixels[k, a:b]
        best |= _near_gap(line, gap)
    return float(best.mean())


def _interior(pixels: np.ndarray, x: float, y: float, w: float, h: float) -> np.ndarray:
    return pixels[max(int(y + 0.1 * h), 0):max(int(y + 0.9 * h), 0), max(int(x + 0.1 * w), 0):max(int(x + 0.9 * w), 0)]


def unfamiliar_rows(pixels: np.ndarray, lat, dominant: Dominant) -> list:
    """The lattice one row or column bigger on each side where a row of cells lies beyond it, whole and
    apart by the gap's colour as grown() asks, but in colours none of the lattice's cells has (tiles
    of values not seen elsewhere on the board, or something else beside it: only reading can tell)."""
    gap = _gap_colour(pixels, lat, dominant)
    if gap is None:
        return []
    return [_with_row(lat, side) for side in ("top", "bottom", "left", "right")
            if (lat.rows if side in ("top", "bottom") else lat.cols) < MAX_SIDE
            and _beyond(pixels, lat, side, gap, None, dominant) == "cells"]


def _beyond(pixels: np.ndarray, lat, side: str, gap: np.ndarray, known: list | None, dominant: Dominant) -> str | None:
    """What lies one row (or column) beyond `side` of the lattice: "cells", "cut" (cells running off the
    picture) or None. `known`: the colours of the lattice's cells, at least half of the row's cells in one of
    them (None: any colours)."""
    h, w = pixels.shape[:2]
    vertical = side in ("top", "bottom")  # the new row runs across (its cells side by side in x)
    count = lat.cols if vertical else lat.rows
    if side == "top":
        start = lat.y0 - lat.pitch_y
    elif side == "bottom":
        start = lat.y0 + lat.rows * lat.pitch_y
    elif side == "left":
        start = lat.x0 - lat.pitch_x
    else:
        start = lat.x0 + lat.cols * lat.pitch_x
    depth = lat.cell_h if vertical else lat.cell_w
    limit = h if vertical else w
    seen_lo, seen_hi = max(start, 0.0), min(start + depth, float(limit))
    if seen_hi - seen_lo < MIN_SEEN_PX:
        return None
    whole = seen_lo == start and seen_hi == start + depth
    # the line between the lattice and the new row: the gap
    between = (start - lat.gap_y / 2) if side == "bottom" else (start + depth + lat.gap_y / 2) if side == "top" \
        else (start - lat.gap_x / 2) if side == "right" else (start + depth + lat.gap_x / 2)
    span_lo = lat.x0 if vertical else lat.y0
    span_hi = span_lo + (count - 1) * (lat.pitch_x if vertical else lat.pitch_y) + (lat.cell_w if vertical else lat.cell_h)
    if _line_share(pixels, gap, 0 if vertical else 1, between, span_lo, span_hi) < GAP_SHARE:
        return None
    # the lines between the new row's cells: the gap, over the part of the row inside the picture
    pitch = lat.pitch_x if vertical else lat.pitch_y
    gap_w = lat.gap_x if vertical else lat.gap_y
    inner = [_line_share(pixels, gap, 1 if vertical else 0, span_lo + k * pitch - gap_w / 2, seen_lo, seen_hi)
             for k in range(1, count)]
    if not inner or float(np.mean(inner)) < GAP_SHARE:
        return None
    # its cells: flat, and not the gap's colour
    cells = familiar = 0
    cut = 0.1 * depth
    for k in range(count):
        a = span_lo + k * pitch
        b = a + (lat.cell_w if vertical else lat.cell_h)
        a, b = int(a + 0.1 * (b - a)), int(b - 0.1 * (b - a))
        lo, hi = int(max(seen_lo, start + cut)), int(min(seen_hi, start + depth - cut))
        if hi - lo < 1 or b - a < 1:
            lo, hi = int(seen_lo), int(seen_hi)
        block = pixels[lo:hi, a:b] if vertical else pixels[a:b, lo:hi]
        if block.size == 0:
            continue
        colour, share = dominant(block.reshape(-1, 3))
        cells += share >= FLAT_SHARE and np.abs(colour - gap).max() > GAP_TOL
        familiar += known is None or any(np.abs(colour - k).max() <= SAME_TOL for k in known)
    if cells < CELLS_SHARE * count or familiar < KNOWN_SHARE * count:
        return None
    return "cells" if whole else "cut"
