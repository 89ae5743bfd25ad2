"""A board with nothing drawn but its tiles (no frame, no empty cells, the window's own colour between
them): its lattice comes from where the tiles stand after keys, never from one picture.

One picture of such a board shows a few tiles; it cannot tell how many cells lie past them. After a
key the tiles stand against one side of the board: after left every row with a tile has one in the
first column, after right in the last, and so on. The steps between cells come from tiles that stand
side by side (two in one row after left, say); the sides from the tiles pressed against them. The
lattice is known once both sides of both directions and a step each way have been seen, and every
tile seen in every picture stands on it. screenbot.play.probe presses the keys (`calibrate --probe`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from screenbot.calibration.lattice import Lattice
from screenbot.game.rules import Move
from screenbot.game.sizes import MAX_SIDE, MIN_SIDE
from screenbot.geometry import Rect

TILE_DIFF = 2  # colour levels (largest channel) a tile's body stands off the background at least
MIN_TILE_PX = 16  # a tile is at least this many pixels each way
TILE_FILL = 0.75  # a tile fills this share of its box at least (rounded corners leave a little out)
TILE_ASPECT = 2.5  # and is at most this much longer one way than the other
SAME_SIZE_PX = 3  # tiles of one board are one size within this many pixels
INK_SHARE = 0.01  # a tile holds a number: this share of its box in another colour than its body
INK_DIFF = 40  # colour levels a number's pixels stand off the tile's body
ON_LATTICE_PX = 3  # a tile stands on the lattice when its corner is this near a cell's
MIN_TILES = 2  # a board shows this many tiles at least
MAX_GAP = 0.6  # the space between two cells is at most this share of a cell
AGAINST = {Move.LEFT: ("x", "first"), Move.RIGHT: ("x", "last"), Move.UP: ("y", "first"), Move.DOWN: ("y", "last")}


@dataclass(frozen=True)
class Sighting:
    """The tiles one picture showed, and the key that came before it (None: the first picture)."""

    key: Move | None
    tiles: tuple[Rect, ...]


BACKGROUNDS = 3  # the commonest colours tried as the background the tiles stand on (a window on a black screen)
BACKGROUND_SHARE = 0.02  # ... each covering this share of the picture at least


@dataclass(frozen=True)
class Tiles:
    """The tiles found on a plain background, and that background's colour (B, G, R)."""

    rects: tuple[Rect, ...]
    background: tuple[int, int, int]


def find_tiles(pixels: np.ndarray) -> Tiles | None:
    """The tiles on a plain background: filled boxes of one size (two at least), each off the background
    and holding a number. The background is the one of the picture's commonest colours on which most tiles stand (a
    window's own colour, not the black screen round it). None where there are none."""
    best = None
    for background in _commonest(pixels):
        rects = _tiles_on(pixels, background)
        if rects and (best is None or len(rects) > len(best.rects)):
            best = Tiles(tuple(rects), background)
    return best


def tile_rects(pixels: np.ndarray) -> list[Rect]:
    """find_tiles' boxes (empty where there are none)."""
    found = find_tiles(pixels)
    return list(found.rects) if found is not None else []


def _commonest(pixels: np.ndarray) -> list[tuple[int, int, int]]:
    px = pixels[::2, ::2].reshape(-1, 3).astype(np.int32)
    codes = (px[:, 0] << 16) | (px[:, 1] << 8) | px[:, 2]
    values, counts = np.unique(codes, return_counts=True)
    order = np.argsort(-counts)[:BACKGROUNDS]
    return [(int(v) >> 16, (int(v) >> 8) & 255, int(v) & 255) for v, n in zip(values[order], counts[order])
            if n >= BACKGROUND_SHARE * len(codes)]


def _tiles_on(pixels: np.ndarray, background: tuple[int, int, int]) -> list[Rect]:
    body = (np.abs(pixels.astype(np.int16) - np.array(background, np.int16)).max(axis=2) > TILE_DIFF).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(body, connectivity=4)
    boxes = []
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        if min(w, h) < MIN_TILE_PX or max(w, h) > TILE_ASPECT * min(w, h):
            continue
        if x == 0 or y == 0 or x + w == pixels.shape[1] or y + h == pixels.shape[0]:
            continue  # cut by the picture's edge: no tile to measure
        if area < TILE_FILL * w * h or not _holds_a_number(pixels[y:y + h, x:x + w]):
            continue
        boxes.append(Rect(x, y, w, h))
    if not boxes:
        return []

    # the board's tiles share one size: the commonest (within SAME_SIZE_PX), the larger on a tie
    def alike(a: Rect, b: Rect) -> bool:
        return abs(a.w - b.w) <= SAME_SIZE_PX and abs(a.h - b.h) <= SAME_SIZE_PX

    best = max(boxes, key=lambda b: (sum(alike(b, o) for o in boxes), b.w * b.h))
    tiles = sorted((b for b in boxes if alike(b, best)), key=lambda b: (b.y, b.x))
    # a 2048 board shows two tiles at least, from its start on (a merge leaves one, and a new one comes):
    # one box alone is something else (a framed board round its own tiles, a button)
    return tiles if len(tiles) >= MIN_TILES else []


TILE_SPAN = 1.25  # a tile this many cells' steps wide or tall spans several cells of a lattice


def tile_spans(tiles: Tiles, lattice: Lattice) -> bool:
    """Whether one of these tiles standing on the lattice is larger than its step: such a tile is a cell of
    a board of its own size, and the writing round it (a title, a score, a help line) is no row of it."""
    area = Rect.from_list(lattice.board_rect)
    return any(t.intersects(area) and (t.w > TILE_SPAN * lattice.pitch_x or t.h > TILE_SPAN * lattice.pitch_y)
               for t in tiles.rects)


def _holds_a_number(tile: np.ndarray) -> bool:
    inner = tile[tile.shape[0] // 8: tile.shape[0] - tile.shape[0] // 8, tile.shape[1] // 8: tile.shape[1] - tile.shape[1] // 8]
    if inner.size == 0:
        return False
    colour = np.median(inner.reshape(-1, 3), axis=0)
    ink = np.abs(inner.astype(np.int16) - colour.astype(np.int16)).max(axis=2) > INK_DIFF
    return ink.mean() >= INK_SHARE


def _positions(values: Sequence[float]) -> list[float]:
    """Corner coordinates grouped (within ON_LATTICE_PX): each group's mean, in order."""
    groups: list[list[float]] = []
    for v in sorted(values):
        if groups and v - groups[-1][-1] <= ON_LATTICE_PX:
            groups[-1].append(v)
        else:
            groups.append([v])
    return [sum(g) / len(g) for g in groups]


class _Between(Exception):
    """Two tiles stood closer than a tile apart one way: on no lattice of cells."""


def _step(starts: list[float], size: float) -> float | None:
    """The step between cells one way: the shortest space between two tiles' corners, where it is one
    cell (no shorter than a tile, its gap at most MAX_GAP of one) and every other space is a whole number
    of it. None while no two tiles stood side by side that way; _Between where two overlap."""
    if len(starts) < 2:
        return None
    shortest = min(b - a for a, b in zip(starts, starts[1:]))
    if shortest < size - ON_LATTICE_PX:
        raise _Between
    if shortest > size * (1 + MAX_GAP):
        return None
    for a in starts[1:]:
        k = (a - starts[0]) / shortest
        if abs(k - round(k)) * shortest > ON_LATTICE_PX * max(1.0, round(k) / 2):
            raise _Between
    # refined over the whole span
    span_cells = round((starts[-1] - starts[0]) / shortest)
    return (starts[-1] - starts[0]) / span_cells


@dataclass(frozen=True)
class Finding:
    """What the sightings tell so far: the lattice, or why not yet (`missing`), or that the tiles stand
    on no lattice of a 2048 board (`refused`)."""

    lattice: Lattice | None = None
    missing: str = ""
    refused: str = ""


def lattice_from(sightings: Sequence[Sighting]) -> Finding:
    """The lattice the tiles of these sightings stand on (see the module's docstring)."""
    tiles = [t for s in sightings for t in s.tiles]
    if not tiles:
        return Finding(missing="no tiles seen")
    w = float(np.median([t.w for t in tiles]))
    h = float(np.median([t.h for t in tiles]))
    if any(abs(t.w - w) > SAME_SIZE_PX or abs(t.h - h) > SAME_SIZE_PX for t in tiles):
        return Finding(refused="the tiles seen are not all one size")
    xs, ys = _positions([t.x for t in tiles]), _positions([t.y for t in tiles])
    try:
        step_x, step_y = _step(xs, w), _step(ys, h)
    except _Between:
        return Finding(refused="tiles stood between the cells the others make")
    sides: dict[tuple[str, str], float] = {}
    for s in sightings:
        if s.key is None or not s.tiles or s.key not in AGAINST:
            continue
        axis, end = AGAINST[s.key]
        at = [t.x if axis == "x" else t.y for t in s.tiles]
        sides.setdefault((axis, end), min(at) if end == "first" else max(at))
    missing = [what for what, known in (("a step across", step_x), ("a step down", step_y),
                                        ("the first column", sides.get(("x", "first"))),
                                        ("the last column", sides.get(("x", "last"))),
                                        ("the top row", sides.get(("y", "first"))),
                                        ("the bottom row", sides.get(("y", "last")))) if known is None]
    if missing:
        return Finding(missing=", ".join(missing))
    x0, y0 = sides["x", "first"], sides["y", "first"]
    if xs[0] < x0 - ON_LATTICE_PX or ys[0] < y0 - ON_LATTICE_PX or xs[-1] > sides["x", "last"] + ON_LATTICE_PX \
            or ys[-1] > sides["y", "last"] + ON_LATTICE_PX:
        return Finding(refused="tiles stood past the sides the keys pressed them against")
    cols = (sides["x", "last"] - x0) / step_x + 1
    rows = (sides["y", "last"] - y0) / step_y + 1
    if abs(cols - round(cols)) * step_x > ON_LATTICE_PX or abs(rows - round(rows)) * step_y > ON_LATTICE_PX:
        return Finding(refused="the sides the tiles were pressed against are not a whole number of cells apart")
    cols, rows = round(cols), round(rows)
    if not (MIN_SIDE <= rows <= MAX_SIDE and MIN_SIDE <= cols <= MAX_SIDE):
        return Finding(refused=f"the tiles moved on a {rows}x{cols} lattice (boards of {MIN_SIDE} to {MAX_SIDE} "
                               "cells each way are supported)")
    for t in tiles:
        kx, ky = (t.x - x0) / step_x, (t.y - y0) / step_y
        if abs(kx - round(kx)) * step_x > ON_LATTICE_PX or abs(ky - round(ky)) * step_y > ON_LATTICE_PX:
            return Finding(refused=f"a tile at ({t.x}, {t.y}) stands between the cells the others make")
    lattice = Lattice(x0=x0, y0=y0, pitch_x=step_x, pitch_y=step_y, cell_w=w, cell_h=h,
                      margin_x=0.0, margin_y=0.0, matched=len(tiles), rows=rows, cols=cols)
    return Finding(lattice=lattice)
