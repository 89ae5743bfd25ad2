"""Measuring the practice board in a screenshot: fractional boxes, and the edges and fill of flat-coloured rectangles."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from screenbot.geometry import Rect

# Per family, in px at size 500: the board's width, the middle of the first gap (the outer
# padding or frame line) and the distance from one gap to the next.
GAP_LINES = {"classic": (500.0, 7.5, 121.25), "lines": (498.0, 1.0, 124.0)}


@dataclass(frozen=True)
class Box:
    """A rectangle in screen pixels with fractional edges (the page's layout is fractional)."""

    x: float
    y: float
    w: float
    h: float

    def as_list(self, ndigits: int = 2) -> list[float]:
        return [round(self.x, ndigits), round(self.y, ndigits), round(self.w, ndigits), round(self.h, ndigits)]

    def rect(self) -> Rect:
        """The whole-pixel rectangle covering the pixels mostly inside this box."""
        left, top = math.floor(self.x + 0.5), math.floor(self.y + 0.5)
        right, bottom = math.floor(self.x + self.w + 0.5), math.floor(self.y + self.h + 0.5)
        return Rect(left, top, right - left, bottom - top)


def drawn(pixels: np.ndarray, share: float = 0.2) -> bool:
    """True when a board picture is not one flat colour (the page has painted the board): more
    than `share` of its pixels differ from the first one."""
    flat = pixels.reshape(-1, 3)
    return bool((flat != flat[0]).any(axis=1).mean() > share)


def gap_middles(board: Box, cells: Sequence[Box], shape: tuple[int, int]) -> tuple[list[float], list[float]]:
    """The middles of the gaps between a board's columns and between its rows (the outer padding
    first and last), in screen px, from the board's and its cells' boxes (row-major)."""
    rows, cols = shape
    lefts = [board.x] + [cells[c].x + cells[c].w for c in range(cols)]
    rights = [cells[c].x for c in range(cols)] + [board.x + board.w]
    tops = [board.y] + [cells[r * cols].y + cells[r * cols].h for r in range(rows)]
    bottoms = [cells[r * cols].y for r in range(rows)] + [board.y + board.h]
    return [(a + b) / 2 for a, b in zip(lefts, rights)], [(a + b) / 2 for a, b in zip(tops, bottoms)]


def measure_edges(pixels: np.ndarray, box: Box, visible: Box, bgr: tuple[int, int, int],
                  family: str = "classic",
                  gaps: tuple[Sequence[float], Sequence[float]] | None = None) -> list[float | None]:
    """Left, top, right, bottom edges of a flat-coloured rectangle near `box` (see Rig.measure_board_edges).

    `gaps`: the middles of the gaps between its columns and between its rows (gap_middles); by
    default those of the family's 4x4 board."""
    vx0, vy0 = visible.x, visible.y
    vx1, vy1 = visible.x + visible.w, visible.y + visible.h
    # The middles of the gaps (outer padding first): board colour from edge to edge.
    if gaps is None:
        width, first, step = GAP_LINES[family]
        u = box.w / width
        gaps_y = [box.y + u * (first + step * k) for k in range(5)]
        gaps_x = [box.x + u * (first + step * k) for k in range(5)]
    else:
        gaps_x, gaps_y = list(gaps[0]), list(gaps[1])
    ry = int(next((g for g in gaps_y if vy0 + 1 <= g <= vy1 - 2), min(max(gaps_y[0], vy0 + 1), vy1 - 2)))
    rx = int(next((g for g in gaps_x if vx0 + 1 <= g <= vx1 - 2), min(max(gaps_x[0], vx0 + 1), vx1 - 2)))
    target = np.array(bgr, dtype=float)

    def coverage(line: np.ndarray, page: np.ndarray) -> np.ndarray:
        denom = target - page
        frac = ((line.astype(float) - page) @ denom) / max(float(denom @ denom), 1.0)
        return np.clip(frac, 0.0, 1.0)

    def run(cov: np.ndarray, inside: float, lo_limit: float, hi_limit: float) -> tuple[float | None, float | None]:
        i = min(max(int(inside), 0), len(cov) - 1)
        if cov[i] < 0.5:
            return None, None
        lo = hi = i
        while lo > 0 and cov[lo - 1] > 0.02:
            lo -= 1
        while hi < len(cov) - 1 and cov[hi + 1] > 0.02:
            hi += 1
        first = lo + (1.0 - cov[lo]) if lo > lo_limit + 0.5 else None
        last = hi + cov[hi] if hi + 1 < hi_limit - 0.5 else None
        return first, last

    page_row = pixels[ry, int(max(vx0, min(box.x - 4, vx1 - 1)))].astype(float)
    page_col = pixels[int(max(vy0, min(box.y - 4, vy1 - 1))), rx].astype(float)
    left, right = run(coverage(pixels[ry], page_row), min(max(box.x + box.w / 2, vx0), vx1 - 1), vx0, vx1)
    top, bottom = run(coverage(pixels[:, rx], page_col), min(max(box.y + box.h / 2, vy0), vy1 - 1), vy0, vy1)
    return [None if v is None else round(float(v), 2) for v in (left, top, right, bottom)]


def measure_fill(pixels: np.ndarray, box: Box, bgr: tuple[int, int, int], tolerance: int = 24,
                 at: float = 0.15) -> list[int | None]:
    """Left, top, right, bottom edges (whole pixels, right/bottom exclusive) of a run of one
    colour through a rectangle near `box`: along the row `at` of its height from the top (from
    its middle column outwards) and the column `at` of its width from the left (from its middle
    row). For a tile's fill, away from its digits. None where the colour is not there."""
    target = np.array(bgr, dtype=int)
    h, w = pixels.shape[:2]

    def close(px: np.ndarray) -> np.ndarray:
        return np.abs(px.astype(int) - target).max(axis=-1) <= tolerance

    def run(line: np.ndarray, start: int) -> tuple[int | None, int | None]:
        ok = close(line)
        if not 0 <= start < len(ok) or not ok[start]:
            return None, None
        lo = hi = start
        while lo > 0 and ok[lo - 1]:
            lo -= 1
        while hi < len(ok) - 1 and ok[hi + 1]:
            hi += 1
        return lo, hi + 1

    row = min(max(int(box.y + at * box.h), 0), h - 1)
    col = min(max(int(box.x + at * box.w), 0), w - 1)
    left, right = run(pixels[row], int(box.x + box.w / 2))
    top, bottom = run(pixels[:, col], int(box.y + box.h / 2))
    return [left, top, right, bottom]
