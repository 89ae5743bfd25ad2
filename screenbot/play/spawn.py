"""Reads the new tile while it is still growing in, from the colours the tracker has seen on still boards.

A new tile fades in and scales up from its cell's centre (opacity and size together). Every pixel
it covers is a blend `empty + a * (tile - empty)`, so the change from the empty colour points the
same way as `tile - empty` whatever `a` is. In the classic palette a 2 and a 4 point in clearly
different directions, so the value is known long before the tile has grown. Where two values
point the same way (e.g. the dark theme's 2 and 4), this says nothing and the loop waits for the
still tile. Only the values this game has already shown on still boards are used.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from screenbot.control.screen import Frame
from screenbot.game.rules import SIZE, Grid
from screenbot.geometry import Rect
from screenbot.play.tracker import Prediction, Spawn

# A pixel takes part once it has moved this far (max over B, G, R) from the empty colour.
MIN_CHANGE = 12.0
# How far a pixel may sit off the line `empty + a * (tile - empty)` (relative to its change, plus 1 level).
FIT_SLACK = 0.12
# Pixels that must fit the winning value, and how many times more than the other value.
MIN_FITTING = 25
DOMINANCE = 3.0
# A new tile is first taken only while it covers at most this share of the cell's central window,
# and believed when seen again grown by GROWTH (an old tile sliding away does not grow).
MAX_FIRST_SHARE = 0.6
GROWTH = 1.15
# A cell counts as showing nothing when at most this share of it has changed (a glow's tint).
EMPTY_SHARE = 0.02
# How far (px) the middle of a growing tile may sit from its cell's middle.
OFF_CENTRE_PX = 3.0
# A still tile's colour must be within this of the colour learned for its value.
STILL_TOLERANCE = 12


def _median_colour(frame: Frame, rects: Sequence[Rect]) -> np.ndarray:
    pixels = np.concatenate([frame.crop(r).pixels.reshape(-1, 3) for r in rects])
    return np.median(pixels, axis=0)


@dataclass
class SpawnReader:
    """Learns each value's tile colour from still boards; reads a growing 2 or 4 early."""

    cells: tuple[Rect, ...]
    strips: tuple[tuple[Rect, ...], ...]  # per cell: sample strips away from the digits
    colours: dict[int, list[np.ndarray]] = field(default_factory=dict)

    @classmethod
    def for_profile(cls, profile) -> "SpawnReader":
        return cls(tuple(profile.cells), tuple(tuple(p[:4]) for p in profile.patches))

    def colour(self, value: int) -> np.ndarray | None:
        seen = self.colours.get(value)
        return np.median(np.array(seen), axis=0) if seen else None

    def learn(self, frame: Frame, board: Grid) -> None:
        """Remember the colour of every value on a still frame showing `board`."""
        for i in range(SIZE * SIZE):
            value = board[i // SIZE][i % SIZE]
            seen = self.colours.setdefault(value, [])
            if len(seen) < 24:
                seen.append(_median_colour(frame, self.strips[i]))

    def _directions(self) -> dict[int, np.ndarray] | None:
        empty, two, four = self.colour(0), self.colour(2), self.colour(4)
        if empty is None or two is None or four is None:
            return None
        d2, d4 = two - empty, four - empty
        # the two values must point in clearly different directions (about 24 degrees in the classic palette)
        cos = float(d2 @ d4 / (np.linalg.norm(d2) * np.linalg.norm(d4)))
        if cos > 0.97:
            return None
        return {2: d2, 4: d4}

    def ready_for(self, prediction: Prediction) -> bool:
        if self._directions() is None:
            return False
        return all(self.colour(v) is not None for row in prediction.after for v in row)

    def static_cells_agree(self, frame: Frame, prediction: Prediction) -> bool:
        """Every cell that neither merged nor receives the new tile shows its value's colour."""
        moving = set(prediction.merged_cells)
        for i in range(SIZE * SIZE):
            r, c = divmod(i, SIZE)
            value = prediction.after[r][c]
            if (r, c) in moving or value == 0:
                continue
            expected = self.colour(value)
            seen = _median_colour(frame, self.strips[i])
            if expected is None or np.abs(seen - expected).max() > STILL_TOLERANCE:
                return False
        return True

    def spawn(
        self, frame: Frame, prediction: Prediction, cleared: set | None = None, confirm: bool = False
    ) -> tuple[Spawn, int] | None:
        """The new tile (row, col, value) and its size (pixels that fit its colour) if exactly one
        candidate cell shows a tile, centred, whose colour change fits one value far better than the
        other; else None. A first sighting must be small (`confirm` False): the caller believes it
        when a later frame shows the same tile grown (an old tile sliding away does not grow).

        A cell the move emptied may still show its old tile (sliding away, or the last new tile
        still growing in): it counts only once a frame has shown it empty; such cells are added
        to `cleared` (kept by the caller for the whole watch)."""
        cleared = set() if cleared is None else cleared
        directions = self._directions()
        empty = self.colour(0)
        if directions is None or empty is None:
            return None
        found = []
        for r, c in prediction.spawn_cells:
            cell = self.cells[r * SIZE + c]
            dx, dy = max(1, cell.w // 12), max(1, cell.h // 12)
            window = Rect(cell.x + dx, cell.y + dy, cell.w - 2 * dx, cell.h - 2 * dy)
            delta = frame.crop(window).pixels.astype(np.float32) - empty
            changed = np.abs(delta).max(axis=2) >= MIN_CHANGE
            vacated = prediction.before[r][c] != 0
            if changed.sum() <= EMPTY_SHARE * changed.size:
                cleared.add((r, c))
                continue
            if vacated and (r, c) not in cleared:
                return None  # maybe the old tile still: wait until this cell has been seen empty
            d = delta[changed]
            norms = np.linalg.norm(d, axis=1)
            fits = {}
            for value, direction in directions.items():
                a = d @ direction / float(direction @ direction)
                residual = np.linalg.norm(d - a[:, None] * direction[None, :], axis=1)
                fits[value] = (residual <= FIT_SLACK * norms + 1.0) & (a > 0.05) & (a < 1.1)
            best = max(fits, key=lambda v: int(fits[v].sum()))
            other = 4 if best == 2 else 2
            n_best, n_other = int(fits[best].sum()), int(fits[other].sum())
            if n_best < MIN_FITTING:
                continue  # a tint (a neighbour's glow), not a 2 or a 4
            if n_best < DOMINANCE * max(n_other, 1):
                return None  # a tile, but its value is not clear yet
            ys, xs = np.nonzero(changed)
            ys, xs = ys[fits[best]], xs[fits[best]]
            h, w = changed.shape
            # a growing tile is centred in its cell; a tile sliding past is not
            off = max(abs((ys.min() + ys.max()) / 2 - (h - 1) / 2), abs((xs.min() + xs.max()) / 2 - (w - 1) / 2))
            if off > OFF_CENTRE_PX:
                return None
            found.append(((r, c, best), n_best, changed.size))
        if len(found) != 1:
            return None
        spawn, size, area = found[0]
        if size > MAX_FIRST_SHARE * area and not confirm:
            return None  # a whole tile already: an old one, or a grown one that the still read will take
        return spawn, size
