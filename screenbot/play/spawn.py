"""Reads the new tile while it grows in: a centred square whose size and colour follow one animation curve.

The classic game's `appear` keyframes take a new tile from scale 0, opacity 0 to scale 1, opacity 1
with one timing function, so in every frame the tile is a square of side `p * cell` in the middle
of its cell, and its background is `empty + p * (tile - empty)` for the same `p`. The square's side
gives `p`; the colour then fits the 2 or the 4 at that `p`, or neither. A value is taken only when
it fits and the other misses by a clear margin: on the practice page a classic 2 on the tile's
first frame, a 4 (and both values in the dark theme) on its second or third, whatever the
animation speed or dropped frames. Anything else -- a sliding tile, a glow, a clone with another
animation -- is left to the still read. Colours are the ones this game has shown on still boards,
never assumed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from screenbot.control.screen import Frame
from screenbot.game.rules import Grid
from screenbot.geometry import Rect
from screenbot.play.tracker import Prediction, Spawn

# The part of a cell watched for a new tile: the cell less this share on each side. Neighbours'
# glows (tiles from 128 up) tint a cell's edges; 25% in they change it by at most one level.
WINDOW_INSET = 0.25
# A pixel has changed when it is this far (max over B, G, R) from the empty colour.
CHANGED = 2
# A window with fewer changed pixels shows nothing.
EMPTY_PIXELS = 3
# A growing tile: the pixels within 1 level of its commonest colour fill at least this share of
# their bounding box, which is square and centred (within these pixels), and nothing changed
# farther than MARGIN_PX outside it.
UNIFORM_SHARE = 0.5
SQUARE_PX = 2
OFF_CENTRE_PX = 2.0
MARGIN_PX = 2
# The square's side is known to this many pixels (anti-aliased edges), which bounds p.
SIDE_SLACK_PX = 2.5
# A value is read when its colour at p fits within FIT levels and the other value's misses by
# CLEAR_AT_SIZE at that p, or by CLEAR_AT_ANY at every p. The browser blends in 8 bits, rounded
# to the nearest level (every growing 2 and 4 recorded on the practice page fits its blend to
# half a level), so no value shows a colour more than half a level off all of its blends. A
# first frame of a classic 2, (+3, +2, +2) B, G, R, which a 4 could show only 1.1 levels off,
# is read at once; a 2 and a 4 nearly in line (the dark theme) wait for the size to tell.
FIT = 1.0
CLEAR_AT_SIZE = 3.0
CLEAR_AT_ANY = 0.9
SOLID_SLACK = 2.0  # levels: a growing square this near another value's own colour may be that value, drawn whole
# A still tile's colour must be within this of the colour learned for its value.
STILL_TOLERANCE = 12
# Samples kept per value.
SAMPLES = 24
# Points of a cell's sample strips whose median is its colour when still cells are checked.
STRIP_POINTS = 64


@dataclass(frozen=True)
class CellLook:
    """What one watched window shows: "empty", a "growing" new tile (side in pixels, value if its
    colour says so), or "other" (something that is not a new tile growing, e.g. a sliding tile)."""

    kind: str
    side: float = 0.0
    value: int | None = None
    why: str = ""
    likely: int | None = None  # the value whose blend fits best, told or not (what to think about first)


def window_of(cell: Rect) -> Rect:
    """The middle of a cell, watched for a new tile."""
    dx, dy = round(cell.w * WINDOW_INSET), round(cell.h * WINDOW_INSET)
    return Rect(cell.x + dx, cell.y + dy, cell.w - 2 * dx, cell.h - 2 * dy)


def _commonest(colours: np.ndarray) -> np.ndarray:
    """The commonest row of an N x 3 int array."""
    c = colours.astype(np.int64) + 256
    keys = c[:, 0] * 262144 + c[:, 1] * 512 + c[:, 2]
    values, counts = np.unique(keys, return_counts=True)
    k = int(values[counts.argmax()])
    return np.array([k // 262144 - 256, (k // 512) % 512 - 256, k % 512 - 256])


def flat_colour(shape: tuple[int, ...], colour: np.ndarray) -> np.ndarray:
    """An image of one colour (uint8), to compare windows with."""
    flat = np.empty(shape, np.uint8)
    flat[:] = np.clip(colour, 0, 255).astype(np.uint8)
    return flat


def look_at_window(
    pixels: np.ndarray, empty: np.ndarray, tiles: dict[int, np.ndarray], cell_px: float, flat: np.ndarray | None = None
) -> CellLook:
    """Judge one window (H x W x 3 BGR) of an empty cell: empty, a new tile growing (and its value,
    from `tiles`: value -> learned BGR colour), or something else. `cell_px`: the cell's side;
    `flat`: the empty colour as an image of the window's shape (made here if not given)."""
    import cv2

    flat = flat if flat is not None else flat_colour(pixels.shape, empty)
    try:
        diff = cv2.absdiff(pixels, flat)
    except cv2.error:  # a memory layout OpenCV does not take
        diff = np.abs(pixels.astype(np.int16) - flat).astype(np.uint8)
    if cv2.minMaxLoc(diff.reshape(diff.shape[0], -1))[1] < CHANGED:
        return CellLook("empty")  # the common case, in a few microseconds
    changed = diff.max(axis=2) >= CHANGED
    if changed[0].any() or changed[-1].any() or changed[:, 0].any() or changed[:, -1].any():
        return CellLook("other", why="reaches the window's edge")  # a new tile never does while watched
    if int(changed.sum()) < EMPTY_PIXELS:
        return CellLook("empty")
    delta = pixels.astype(np.int16) - empty.astype(np.int16)
    colour = _commonest(delta[changed])
    inside = np.abs(delta - colour).max(axis=2) <= 1
    ys, xs = np.nonzero(inside)
    y0, y1, x0, x1 = int(ys.min()), int(ys.max()), int(xs.min()), int(xs.max())
    h, w = y1 - y0 + 1, x1 - x0 + 1
    rows, cols = changed.shape
    if h < 3 or w < 3 or abs(h - w) > SQUARE_PX:
        return CellLook("other", why=f"not a square ({h}x{w})")
    if max(abs((y0 + y1) / 2 - (rows - 1) / 2), abs((x0 + x1) / 2 - (cols - 1) / 2)) > OFF_CENTRE_PX:
        return CellLook("other", why="off centre")
    if inside.sum() < UNIFORM_SHARE * h * w:
        return CellLook("other", why="not one colour")
    cy, cx = np.nonzero(changed)
    if cy.min() < y0 - MARGIN_PX or cy.max() > y1 + MARGIN_PX or cx.min() < x0 - MARGIN_PX or cx.max() > x1 + MARGIN_PX:
        return CellLook("other", why="changes around the square")
    side = (h + w) / 2
    value, likely = judge(colour, side / cell_px, SIDE_SLACK_PX / cell_px, empty, tiles)
    return CellLook("growing", side, value, likely=likely)


def misfit(colour: np.ndarray, lo: float, hi: float, change: np.ndarray) -> float:
    """How far `colour` (a change from empty, BGR) is from every blend `q * change` with q in
    [lo, hi]: min over q of the largest channel error, in levels (exact: the minimum of a convex
    piecewise-linear function lies at an end or where two of its lines cross)."""
    a = np.concatenate([colour, -colour]).astype(float)  # error lines a_k - q * b_k
    b = np.concatenate([change, -change]).astype(float)
    qs = [lo, hi]
    for j in range(6):
        for k in range(j + 1, 6):
            if b[j] != b[k]:
                q = (a[j] - a[k]) / (b[j] - b[k])
                if lo < q < hi:
                    qs.append(q)
    q = np.array(qs)
    return float((a[None, :] - q[:, None] * b[None, :]).max(axis=1).min())


def value_at(colour: np.ndarray, p: float, slack: float, empty: np.ndarray, tiles: dict[int, np.ndarray]) -> int | None:
    """The one value whose blend fits `colour` at p (the square's size, give or take `slack`), while
    every other value misses clearly: by CLEAR_AT_SIZE at that p, or by CLEAR_AT_ANY whatever p
    (which needs no size at all); else None."""
    return judge(colour, p, slack, empty, tiles)[0]


def judge(colour, p: float, slack: float, empty: np.ndarray, tiles: dict[int, np.ndarray]) -> tuple[int | None, int | None]:
    """(the value read as in `value_at`, or None; the value whose blend fits best, or None)."""
    changes = {v: t.astype(float) - empty.astype(float) for v, t in tiles.items()}
    lo, hi = max(p - slack, 0.0), p + slack
    misses = {v: misfit(colour, lo, hi, d) for v, d in changes.items()}
    likely = min(misses, key=misses.get) if misses else None
    fitting = [v for v, m in misses.items() if m <= FIT]
    if len(fitting) != 1:
        return None, likely
    value = fitting[0]
    # a tile may grow at its full colour (drawn, not faded in): a square showing another value's own colour
    # is that value as well as a blend of this one's
    if any(other != value and np.abs(colour - d).max() <= FIT + SOLID_SLACK for other, d in changes.items()):
        return None, likely
    for other, d in changes.items():
        if other != value and misses[other] < CLEAR_AT_SIZE and misfit(colour, 0.0, 1.0, d) < CLEAR_AT_ANY:
            return None, likely
    return value, likely


def _median_colour(frame: Frame, rects: Sequence[Rect]) -> np.ndarray:
    pixels = np.concatenate([frame.crop(r).pixels.reshape(-1, 3) for r in rects])
    return np.median(pixels, axis=0)


@dataclass
class SpawnReader:
    """Learns the colours of empty cells and of each value from still boards; reads a growing 2 or 4."""

    cells: tuple[Rect, ...]
    strips: tuple[tuple[Rect, ...], ...]  # per cell: sample strips away from the digits
    colours: dict[int, list[np.ndarray]] = field(default_factory=dict)
    empties: list[np.ndarray] = field(default_factory=list)  # the middle of empty cells
    _colour_cache: dict = field(default_factory=dict, repr=False)
    _points: tuple | None = field(default=None, repr=False)

    @classmethod
    def for_profile(cls, profile) -> "SpawnReader":
        return cls(tuple(profile.cells), tuple(tuple(p[:4]) for p in profile.patches))

    def colour(self, value: int) -> np.ndarray | None:
        if value not in self._colour_cache:
            seen = self.colours.get(value)
            self._colour_cache[value] = np.median(np.array(seen), axis=0) if seen else None
        return self._colour_cache[value]

    def _strip_points(self) -> tuple[np.ndarray, np.ndarray]:
        """Per cell, STRIP_POINTS points spread over its sample strips (absolute x, y): 16 x N each."""
        if self._points is None:
            xs, ys = [], []
            for strips in self.strips:
                px = np.concatenate([np.repeat(np.arange(r.x, r.right), r.h) for r in strips])
                py = np.concatenate([np.tile(np.arange(r.y, r.bottom), r.w) for r in strips])
                pick = np.linspace(0, len(px) - 1, STRIP_POINTS).round().astype(int)
                xs.append(px[pick])
                ys.append(py[pick])
            self._points = (np.array(xs), np.array(ys))
        return self._points

    def cell_colours(self, frame: Frame) -> np.ndarray:
        """The median colour of every cell's sample strips (16 x 3), from STRIP_POINTS points each."""
        xs, ys = self._strip_points()
        xs, ys = xs - frame.left, ys - frame.top
        if xs.min() < 0 or ys.min() < 0 or xs.max() >= frame.width or ys.max() >= frame.height:
            raise IndexError("the frame does not hold the whole board")
        return np.median(frame.pixels[ys, xs], axis=1)

    @property
    def empty(self) -> np.ndarray | None:
        return np.median(np.array(self.empties), axis=0).round().astype(np.int16) if self.empties else None

    def learn(self, frame: Frame, board: Grid) -> None:
        """Remember the colour of every value on a still frame showing `board`."""
        for i, value in enumerate(v for row in board for v in row):
            seen = self.colours.setdefault(value, [])
            if len(seen) < SAMPLES:
                seen.append(_median_colour(frame, self.strips[i]))
                self._colour_cache.pop(value, None)
            if value == 0 and len(self.empties) < SAMPLES:
                middle = frame.crop(window_of(self.cells[i])).pixels.reshape(-1, 3).astype(np.int16)
                self.empties.append(_commonest(middle))

    def ready_for(self, prediction: Prediction) -> bool:
        """Every colour needed is known: empty, 2, 4 and each value on the board after the move."""
        if self.empty is None or any(self.colour(v) is None for v in (2, 4)):
            return False
        return all(self.colour(v) is not None for row in prediction.after for v in row)

    def static_cells_agree(self, frame: Frame, prediction: Prediction) -> bool:
        """Every cell that neither merged nor receives the new tile shows its value's colour."""
        moving = set(prediction.merged_cells)
        try:
            seen = self.cell_colours(frame)
        except IndexError:
            return False  # the frame does not hold the whole board
        for i in range(len(self.cells)):
            r, c = divmod(i, len(prediction.after[0]))
            value = prediction.after[r][c]
            if (r, c) in moving or value == 0:
                continue
            expected = self.colour(value)
            if expected is None or np.abs(seen[i] - expected).max() > STILL_TOLERANCE:
                return False
        return True

    def watch(self, prediction: Prediction) -> "SpawnWatch":
        """Start following the frames after the key that makes `prediction`."""
        return SpawnWatch(self, prediction)

    def read_one(self, frame: Frame, prediction: Prediction) -> Spawn | None:
        """The new tile from a single frame (replaying a recording of frames play believed): as
        `watch(...).see(frame)`, taking on trust that the tile grew from nothing in a cleared cell."""
        watch = SpawnWatch(self, prediction)
        watch.sides = {rc: 0.0 for rc in watch.candidates}
        watch.cleared = set(watch.candidates)
        return watch.see(frame).spawn


@dataclass
class Sighting:
    """What a frame showed of the new tile: where it grows (`cell`, once it is the only change among
    the empty cells) and, once its colour and the rest of the board say so, the whole `spawn`."""

    cell: tuple[int, int] | None = None
    spawn: Spawn | None = None
    looks: dict = field(default_factory=dict)  # (r, c) -> CellLook of every cell that showed something


class SpawnWatch:
    """Follows the empty cells of one predicted board through the frames after a key.

    A new tile is believed when exactly one empty cell shows a growing square, every other empty
    cell shows nothing, the square's colour names one value clearly, it is bigger than that cell
    showed before (so it grew from nothing: not an old tile passing by), and every still tile shows
    its value's colour. A cell the move emptied counts only once a frame has shown it empty.
    """

    def __init__(self, reader: SpawnReader, prediction: Prediction) -> None:
        self.reader = reader
        self.prediction = prediction
        empty = reader.empty
        self.empty = empty if empty is not None else np.zeros(3, np.int16)
        self.tiles = {v: reader.colour(v) for v in (2, 4) if reader.colour(v) is not None}
        self.candidates = [(r, c) for r, c in prediction.spawn_cells]
        self.cols = len(prediction.after[0])
        self.windows = {(r, c): window_of(reader.cells[r * self.cols + c]) for r, c in self.candidates}
        self.flats = {rc: flat_colour((w.h, w.w, 3), self.empty) for rc, w in self.windows.items()}
        self.sides: dict[tuple[int, int], float] = {}  # the side each cell last showed (0 = empty)
        self.still_tiles_seen = False  # a frame showed every still tile in its value's colour
        self.cleared: set[tuple[int, int]] = set()

    def signature(self, frame: Frame) -> bytes:
        """A fingerprint that differs between two frames of the page when anything moved or grew:
        the board every eighth pixel, the watched windows (where a new tile starts, a few pixels
        wide) every second one."""
        parts = [frame.pixels[::8, ::8].tobytes()]
        parts += [frame.crop(w).pixels[::2, ::2].tobytes() for w in self.windows.values()]
        return b"".join(parts)

    def see(self, frame: Frame) -> Sighting:
        looks = {}
        for rc in self.candidates:
            cell = self.reader.cells[rc[0] * self.cols + rc[1]]
            look = look_at_window(frame.crop(self.windows[rc]).pixels, self.empty, self.tiles, cell.w, self.flats[rc])
            if look.kind == "empty":
                self.cleared.add(rc)
            else:
                looks[rc] = look
        sighting = Sighting(looks=looks)
        growing = [rc for rc, look in looks.items() if look.kind == "growing"]
        if len(looks) == 1 and len(growing) == 1:
            rc = growing[0]
            look = looks[rc]
            vacated = self.prediction.before[rc[0]][rc[1]] != 0
            if rc in self.cleared or not vacated:
                sighting.cell = rc
                if not self.still_tiles_seen:
                    # checked on the first frame that shows where the tile grows (the moving tiles
                    # have arrived by then) and on later ones until it holds: the tiles stay put
                    self.still_tiles_seen = self.reader.static_cells_agree(frame, self.prediction)
                grew = rc in self.sides and self.sides[rc] < look.side
                if grew and look.value is not None and self.still_tiles_seen:
                    sighting.spawn = (rc[0], rc[1], look.value)
        for rc in self.candidates:
            look = looks.get(rc)
            if look is None or look.kind == "growing":
                self.sides[rc] = look.side if look is not None else 0.0
            else:
                self.sides.pop(rc, None)  # something else was there: growth counts from nothing again
        return sighting
