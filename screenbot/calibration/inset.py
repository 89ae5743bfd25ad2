"""Measures a tile drawn inset in its cell: a block with a margin of the empty colour all round, the same on every tile."""

from __future__ import annotations

import numpy as np

from screenbot.geometry import Rect

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
    w, h = cells[0].w, cells[0].h
    least = [max(3, MIN_MARGIN * d) for d in (w, h, w, h)]
    if any(v < m for v, m in zip(inset, least)):
        return None
    return inset  # type: ignore[return-value]
