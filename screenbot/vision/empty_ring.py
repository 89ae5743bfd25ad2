"""An empty cell is empty all the way to its edges: the bands along its top and bottom look as the empty
cells looked when the board was calibrated.

A cell is told empty by its middle. Some looks draw a tile that leaves its middle in the empty colour: a
box of the value's colour round an empty square, a small number in a corner. Its bands then differ from
an empty cell's, so the reader reads that cell's number instead of taking it for empty.

The bands are sampled on a fixed set of points per cell (RING_ACROSS across, RING_DOWN rows in each
band), at the same share of every cell. What the calibration frame's empty cells show there is the
look of an empty cell, kept per board row: a point where that row's empty cells disagree (a rounded
corner's edge a pixel over) is left out, and so are the points at the height of marks learned on the gap
lines (a line of help text written over the row's cells). Left and right bands are not sampled: a
number wider than its cell runs on into its neighbours there.
"""

from __future__ import annotations

import numpy as np

from screenbot.profile import Profile

RING_ACROSS = 16
RING_DOWN = 4  # rows of points in each of the two bands
RING_EDGE_PX = 2  # the points stay this far inside the cell (its antialiased edge)
RING_BAND = 0.22  # each band reaches this share of the cell's height in from its edge
AGREE = 12  # colour levels: empty cells that differ by no more at a point show the same there
OFF = 24  # ... a cell that differs by more from the empty cells' look shows something there
DRAWN_SHARE = 0.05  # a cell read empty whose usable points are off on this share (and ...
DRAWN_MIN = 4  # ... at least this many) has something drawn on it


def ring_points(profile: Profile) -> tuple[np.ndarray, np.ndarray]:
    """(y, x) of each cell's band points, board-relative: (cells, RING_DOWN * 2 * RING_ACROSS)."""
    origin = profile.board_rect
    ys, xs = [], []
    for i in range(len(profile.cells)):
        c = profile.tile_rect(i)
        e = RING_EDGE_PX
        across = np.linspace(c.x + e, c.right - 1 - e, RING_ACROSS)
        band = max(1.0, RING_BAND * c.h - e)
        top = np.linspace(c.y + e, c.y + e + band, RING_DOWN)
        bottom = np.linspace(c.bottom - 1 - e - band, c.bottom - 1 - e, RING_DOWN)
        down = np.concatenate([top, bottom])
        gy, gx = np.meshgrid(down, across, indexing="ij")
        ys.append(np.round(gy).ravel() - origin.y)
        xs.append(np.round(gx).ravel() - origin.x)
    y = np.clip(np.asarray(ys), 0, origin.h - 1).astype(np.intp)
    x = np.clip(np.asarray(xs), 0, origin.w - 1).astype(np.intp)
    return y, x


MARK_REACH_PX = 4  # points this near the height of a mark learned on the gap lines lie under its line of text


def learn_empty_ring(region: np.ndarray, profile: Profile, empty: np.ndarray) -> list:
    """The empty cells' look per board row from a still calibration frame (`region`: the board's pixels,
    `empty`: per cell, read as empty): rows x points of [b, g, r] or None (a point not used), or [] when
    fewer than two cells show it.

    A cell read empty whose bands differ from most empty cells' (a hollow tile) is left out. Points at
    the height of a mark learned on the gap lines (a line of help text written over a row of cells
    crosses the gaps too) are not used."""
    y, x = ring_points(profile)
    px = region[y, x].astype(np.int16)  # (cells, points, 3)
    mark_y = np.array(sorted({my - profile.board_rect.y for _mx, my in profile.marks}), np.intp)
    if mark_y.size:
        near = np.abs(y[..., None] - mark_y[None, None, :]).min(axis=2) <= MARK_REACH_PX
    else:
        near = np.zeros(y.shape, bool)
    empty = np.asarray(empty, bool).copy()
    if empty.sum() < 2:
        return []
    look = np.median(px[empty], axis=0)
    off = (np.abs(px - look).max(axis=2) > OFF) & ~near
    empty &= off.sum(axis=1) < np.maximum(DRAWN_MIN, DRAWN_SHARE * (~near).sum(axis=1))
    if empty.sum() < 2:
        return []
    look = np.median(px[empty], axis=0)
    out = []
    for r in range(profile.rows):
        row = range(r * profile.cols, (r + 1) * profile.cols)
        cells = [i for i in row if empty[i]]
        if not cells:
            out.append([None] * px.shape[1])
            continue
        usable = ~near[row.start] & ~(np.abs(px[cells] - look).max(axis=2) > AGREE).any(axis=0)
        out.append([[int(v) for v in look[k]] if usable[k] else None for k in range(px.shape[1])])
    return out


def drawn_on_empty(region: np.ndarray, profile: Profile, empty: np.ndarray, ring) -> np.ndarray:
    """Per cell: read as empty, yet its bands show something the empty cells did not (see module doc), with
    sharp edges: the glow a big tile casts on its neighbours (the classic game's) shifts their colour
    smoothly, a box or a digit steps within a few pixels. `ring`: the sampler's (y, x, look, usable)."""
    out = np.zeros(len(profile.cells), bool)
    if ring is None or not empty.any():
        return out
    y, x, look, usable = ring
    idx = np.nonzero(empty)[0]
    px = region[y[idx], x[idx]].astype(np.int16)
    off = (np.abs(px - look[idx]).max(axis=2) > OFF) & usable[idx]
    need = np.maximum(DRAWN_MIN, DRAWN_SHARE * usable[idx].sum(axis=1))
    for j in np.nonzero(off.sum(axis=1) >= need)[0]:
        k = np.nonzero(off[j])[0]
        i = idx[j]
        c = profile.tile_rect(i).translated(-profile.board_rect.x, -profile.board_rect.y)
        out[i] = int(_sharp(region, y[i, k], x[i, k], c).sum()) >= need[j]
    return out


SHARP_PX = 3  # a drawn mark's edge lies within this of a point on it ...
SHARP_STEP = 16  # ... where the colour steps by this many levels (a glow changes by a few over that reach)


def _sharp(region: np.ndarray, ys: np.ndarray, xs: np.ndarray, cell) -> np.ndarray:
    """Per point: the colour SHARP_PX away (up, down, left or right, kept a pixel inside the cell: the gap
    beside it is no mark) differs from its own by SHARP_STEP."""
    h, w = region.shape[:2]
    y0, y1 = max(0, cell.y + 1), min(h - 1, cell.bottom - 2)
    x0, x1 = max(0, cell.x + 1), min(w - 1, cell.right - 2)
    here = region[ys, xs].astype(np.int16)
    step = np.zeros(len(ys), np.int16)
    for dy, dx in ((-SHARP_PX, 0), (SHARP_PX, 0), (0, -SHARP_PX), (0, SHARP_PX)):
        there = region[np.clip(ys + dy, y0, y1), np.clip(xs + dx, x0, x1)].astype(np.int16)
        step = np.maximum(step, np.abs(there - here).max(axis=1))
    return step >= SHARP_STEP


def ring_sampler(profile: Profile):
    """(y, x, look, usable) arrays for drawn_on_empty, or None where the profile learned no look."""
    rows = profile.empty_ring
    if not rows or len(rows) != profile.rows or profile.compressed:  # compression's noise: no fine look
        return None
    y, x = ring_points(profile)
    k = y.shape[1]
    if any(len(r) != k for r in rows):
        return None
    per_row = np.array([[v if v is not None else (0, 0, 0) for v in r] for r in rows], np.int16)
    kept = np.array([[v is not None for v in r] for r in rows], bool)
    row_of = np.arange(len(profile.cells)) // profile.cols
    return y, x, per_row[row_of], kept[row_of]
