"""Boards drawn the way the practice page draws them, for the spawn reader's and the loop's tests.

A new tile is drawn as the `appear` animation shows it at progress p: a square of side p * cell in
the middle of its cell, at opacity p, anti-aliased at its edges, with a digit block in its middle;
colours are rounded to whole levels, as a screen holds them.
"""

from __future__ import annotations

import numpy as np

from screenbot.control.screen import Frame
from screenbot.geometry import Rect

BOARD = np.array([0xA0, 0xAD, 0xBB], float)
DARK_DIGIT = np.array([0x65, 0x6E, 0x77], float)
LIGHT_DIGIT = np.array([0xF2, 0xF6, 0xF9], float)


def hex_bgr(text: str) -> np.ndarray:
    return np.array([int(text[4:6], 16), int(text[2:4], 16), int(text[0:2], 16)], float)


CLASSIC = {  # BGR, from the classic stylesheet (gabrielecirulli/2048 style/main.scss)
    0: np.array([0xB4, 0xC1, 0xCD], float),
    2: hex_bgr("eee4da"), 4: hex_bgr("ede0c8"), 8: hex_bgr("f2b179"), 16: hex_bgr("f59563"),
    32: hex_bgr("f67c5f"), 64: hex_bgr("f65e3b"), 128: hex_bgr("edcf72"), 256: hex_bgr("edcc61"),
    512: hex_bgr("edc850"), 1024: hex_bgr("edc53f"), 2048: hex_bgr("edc22e"),
    "digit": DARK_DIGIT,
}
DARK = {  # the practice page's dark theme: its 2 and 4 point almost the same way from empty
    0: np.array([0x4E, 0x42, 0x3D], float),
    2: np.array([0xEE, 0xE8, 0xE4], float),
    4: np.array([0xE0, 0xD3, 0xC9], float),
    "digit": np.array([0x24, 0x1E, 0x1C], float),
}


def ease(x: float) -> float:
    """CSS `ease` (cubic-bezier(0.25, 0.1, 0.25, 1)) at x in [0, 1]."""
    lo, hi = 0.0, 1.0
    for _ in range(50):
        t = (lo + hi) / 2
        if 3 * (1 - t) ** 2 * t * 0.25 + 3 * (1 - t) * t * t * 0.25 + t ** 3 < x:
            lo = t
        else:
            hi = t
    return 3 * (1 - t) ** 2 * t * 0.1 + 3 * (1 - t) * t * t + t ** 3


def coverage(lo: float, hi: float, n: int) -> np.ndarray:
    """How much of each pixel 0..n-1 the interval [lo, hi] covers (anti-aliased edges)."""
    edges = np.arange(n + 1, dtype=float)
    return np.clip(np.minimum(edges[1:], hi) - np.maximum(edges[:-1], lo), 0.0, 1.0)


class DrawnBoard:
    """A 4x4 board of `cell`-pixel cells and `gap`-pixel gaps, drawn at (0, 0)."""

    def __init__(self, cell: int = 100, gap: int = 12) -> None:
        self.cell, self.gap = cell, gap
        self.size = 4 * cell + 5 * gap

    @property
    def rect(self) -> Rect:
        return Rect(0, 0, self.size, self.size)

    def cells(self) -> tuple[Rect, ...]:
        step = self.cell + self.gap
        return tuple(Rect(self.gap + c * step, self.gap + r * step, self.cell, self.cell) for r in range(4) for c in range(4))

    def strips(self, cell: Rect) -> tuple[Rect, ...]:
        """Sample strips away from the digits (as calibration's patches are)."""
        a, b, w, t = round(cell.w * 0.28), round(cell.w * 0.16), round(cell.w * 0.44), max(2, round(cell.w * 0.09))
        return (
            Rect(cell.x + a, cell.y + b, w, t), Rect(cell.x + a, cell.bottom - b - t, w, t),
            Rect(cell.x + b, cell.y + a, t, w), Rect(cell.right - b - t, cell.y + a, t, w),
        )

    def picture(self, tiles: dict, palette=CLASSIC, offset=(0.0, 0.0), opacity=None) -> Frame:
        """Each (r, c): (value, p): the tile at progress p of its `appear` animation (1: still)."""
        px = np.zeros((self.size, self.size, 3), float)
        px[:] = BOARD
        for cell in self.cells():
            px[cell.y:cell.bottom, cell.x:cell.right] = palette[0]
        for (r, c), (value, p) in tiles.items():
            cell = self.cells()[r * 4 + c]
            alpha = p if opacity is None else opacity
            cx, cy = cell.x + self.cell / 2 + offset[0], cell.y + self.cell / 2 + offset[1]
            half = self.cell * p / 2
            # only the pixels the tile touches
            y0, y1 = max(0, int(cy - half)), min(self.size, int(cy + half) + 2)
            x0, x1 = max(0, int(cx - half)), min(self.size, int(cx + half) + 2)
            if y0 >= y1 or x0 >= x1:
                continue
            area = px[y0:y1, x0:x1]
            ys = coverage(cy - half - y0, cy + half - y0, y1 - y0)
            xs = coverage(cx - half - x0, cx + half - x0, x1 - x0)
            area += (alpha * ys[:, None] * xs[None, :])[:, :, None] * (palette[value] - area)
            dy, dx = half * 0.35, half * 0.22
            digit = coverage(cy - dy - y0, cy + dy - y0, y1 - y0)[:, None] * coverage(cx - dx - x0, cx + dx - x0, x1 - x0)[None, :]
            ink = palette["digit"] if value in (2, 4) else LIGHT_DIGIT
            area += (alpha * digit)[:, :, None] * (ink - area)
        return Frame(np.clip(px.round(), 0, 255).astype(np.uint8), 0, 0)
