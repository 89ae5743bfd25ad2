"""Measures a tile drawn inset in its cell: a block with a margin of the empty colour all round, the same on every tile."""

from __future__ import annotations

import numpy as np

from screenbot.geometry import Rect
from screenbot.imaging import commonest_colour

MARGIN_TOL = 24  # colour levels: a pixel this close to the empty colour is margin, not tile
RING_PX = (2, 4)  # the ring just inside a cell's edge that the margin covers (clear of an antialiased line)
RING_SHARE = 0.9  # share of the ring in the empty colour, in every cell
TILE_SHARE = 0.1  # a cell with at least this share unlike the empty colour holds a tile
ROW_SHARE = 0.5  # a row or column of the tile has at least this share of its pixels unlike the empty colour
FILL_SHARE = 0.7  # the block fills this share of its bounding box (digits written on it take the rest)
MARGIN_SHARE = 0.98  # share of the margin round the block in the empty colour
AGREE_PX = 2  # every tile's margins agree within this many pixels
MIN_MARGIN = 0.05  # a margin under this share of the cell (and under 3 px) is a tile filling its cell


def tile_inset(pixels: np.ndarray, cells: list[Rect], empty) -> tuple[int, int, int, int] | None:
    """(left, top, right, bottom) margin between each tile and its cell's edge, when every cell's edge is the
    empty colour and every tile is a block with the same margins (two tiles at least); else None.
    `cells`: picture coordinates."""
    if empty is None:
        return None
    empty = np.asarray(empty, np.int16)
    insets = []
    for c in cells:
        px = pixels[c.y : c.bottom, c.x : c.right].astype(np.int16)
        if px.shape[0] < 4 * RING_PX[1] or px.shape[1] < 4 * RING_PX[1]:
            return None
        unlike = np.abs(px - empty).max(axis=2) > MARGIN_TOL
        a, b = RING_PX
        ring = np.concatenate([unlike[a:b].ravel(), unlike[-b:-a].ravel(), unlike[:, a:b].ravel(), unlike[:, -b:-a].ravel()])
        if 1 - ring.mean() < RING_SHARE:
            return None  # a tile (or something) reaches the cell's edge: no margin
        # the grid's line may lie along the cell's outer pixels (antialiased into it): left out, as the ring leaves it out
        unlike[:a] = unlike[-a:] = False
        unlike[:, :a] = unlike[:, -a:] = False
        if unlike.mean() < TILE_SHARE:
            continue  # an empty cell
        rows = np.nonzero(unlike.mean(axis=1) >= ROW_SHARE * unlike.mean(axis=1).max())[0]
        cols = np.nonzero(unlike.mean(axis=0) >= ROW_SHARE * unlike.mean(axis=0).max())[0]
        top, bottom, left, right = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
        block = unlike[top:bottom, left:right]
        margin = unlike.copy()
        margin[top:bottom, left:right] = False
        if block.mean() < FILL_SHARE or margin.mean() > 1 - MARGIN_SHARE:
            return None  # not one block, or something written beside it
        k = max(2, min(block.shape) // 10)
        if not all(block[ys, xs].mean() >= 0.5 for ys in (slice(0, k), slice(-k, None)) for xs in (slice(0, k), slice(-k, None))):
            return None  # a disc or a rounded shape: no rectangle of its own to read it in
        insets.append((left, top, c.w - right, c.h - bottom))
    if len(insets) < 2:
        return None
    arr = np.asarray(insets)
    if (arr.max(axis=0) - arr.min(axis=0) > AGREE_PX).any():
        return None  # tiles of different sizes: one growing, or no common inset
    inset = tuple(int(v) for v in np.median(arr, axis=0).round())
    # against the cell's shorter side: a cell many times wider than tall (a text line tall) keeps a margin
    # of a character or two each way
    least = max(3, MIN_MARGIN * min(cells[0].w, cells[0].h))
    if any(v < least for v in inset):
        return None
    return inset  # type: ignore[return-value]


BLOCK_TOL = 24  # colour levels: a pixel this close to a cell's block colour is the block
BLOCK_LINE = 0.6  # a row (column) of the cell is the block's where its share of the block's colour is this much of the most
BLOCK_CELLS = 0.75  # share of the cells whose block stands at the common inset
MIN_BLOCK = 0.3  # a block spans at least this share of its cell each way


def block_inset(pixels: np.ndarray, cells: list[Rect], background) -> tuple[int, int, int, int] | None:
    """(left, top, right, bottom) margin between each cell's edge and the block drawn in it, where every
    cell holds a block of its own colour (the empty cells' blocks too: a terminal's coloured blocks in a
    ruled grid, each a few characters inside its box) and most stand at the same inset; else None.
    `cells`: picture coordinates; `background`: the colour round the blocks, which no block is."""
    bg = np.asarray(background, np.int16)
    insets = []
    for c in cells:
        px = pixels[c.y : c.bottom, c.x : c.right].astype(np.int16)
        if px.size == 0:
            return None
        off = np.abs(px - bg).max(axis=2) > BLOCK_TOL
        if off.mean() < MIN_BLOCK * MIN_BLOCK:
            return None  # a cell with no block in it
        colour = np.asarray(commonest_colour(px[off]), np.int16)
        block = np.abs(px - colour).max(axis=2) <= BLOCK_TOL
        spans = []
        for share in (block.mean(axis=1), block.mean(axis=0)):
            on = np.concatenate([[False], share >= BLOCK_LINE * share.max(), [False]])
            edges = np.flatnonzero(np.diff(on.astype(np.int8)))
            runs = list(zip(edges[::2], edges[1::2]))
            if not runs:
                return None
            a, b = max(runs, key=lambda r: r[1] - r[0])
            spans.append((int(a), int(b), len(share)))
        (t, b, n_y), (l, r, n_x) = spans
        if b - t < MIN_BLOCK * n_y or r - l < MIN_BLOCK * n_x:
            return None
        insets.append((l, t, n_x - r, n_y - b))
    arr = np.asarray(insets)
    inset = np.median(arr, axis=0).round()
    if (np.abs(arr - inset).max(axis=1) <= AGREE_PX).mean() < BLOCK_CELLS or not inset.any():
        return None
    return tuple(int(v) for v in inset)  # type: ignore[return-value]
