"""The monitors as the live screen captures them: where each sits on the desktop, which is the primary, and how many captured pixels make one mouse point.

One answer for `calibrate` and `play` (through MssScreen): mss gives each monitor's place in the
desktop's coordinates, which are the mouse's on every OS (points on macOS, pixels on X11 and on
Windows, where mss makes the process DPI-aware). The scale is measured, not assumed: a patch of each
monitor is grabbed and its pixels counted (2 on a Retina screen grabbed at full size; 1 with mss's
nominal-size grab on macOS, and on X11 and Windows).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from screenbot.geometry import Point, Rect

PATCH = 16  # points: the size of the patch grabbed on each monitor to count its pixels


@dataclass(frozen=True)
class ScreenMap:
    """mss's monitors in desktop coordinates ([0] all together, [1..] each), the primary one's index,
    and captured pixels per point on each monitor ([0]: the scale every grab is taken at, the primary's)."""

    monitors: tuple[Rect, ...]
    primary: int
    scales: tuple[float, ...]

    @property
    def scale(self) -> float:
        """Captured pixels per mouse point: the primary monitor's."""
        return self.scales[0]

    @property
    def mixed(self) -> bool:
        """Monitors captured at different scales (a Retina screen beside an ordinary one, grabbed at full size)."""
        return any(abs(s - self.scale) > 1e-6 for s in self.scales[1:])

    def origin(self, index: int) -> Point:
        """Monitor `index`'s top-left corner on the desktop (mouse coordinates)."""
        return Point(self.monitors[index].x, self.monitors[index].y)

    def captured(self) -> list[Rect]:
        """The monitors in captured pixels (desktop coordinates times the scale): what frames are cut from."""
        return [to_pixels(m, self.scale) for m in self.monitors]


def to_pixels(rect: Rect, scale: float) -> Rect:
    """A desktop rectangle in captured pixels."""
    return rect if scale == 1 else rect.scaled(scale)


def to_desktop(rect: Rect, scale: float) -> Rect:
    """The desktop rectangle (whole points) that covers a rectangle of captured pixels."""
    if scale == 1:
        return rect
    left, top = math.floor(rect.x / scale), math.floor(rect.y / scale)
    return Rect.from_edges(left, top, math.ceil(rect.right / scale), math.ceil(rect.bottom / scale))


def primary_index(monitors: Sequence[Rect]) -> int:
    """The primary monitor among mss's list: the one whose top-left corner is the desktop's origin
    (Windows and macOS put the primary there, whatever number mss gives it), else the one holding the
    origin, else monitor 1."""
    each = list(enumerate(monitors))[1:]
    for i, m in each:
        if (m.x, m.y) == (0, 0):
            return i
    return next((i for i, m in each if m.contains(Point(0, 0))), 1 if each else 0)


def measure_scale(sct, monitor: Rect) -> float:
    """Captured pixels per point on one monitor: a PATCH-point patch of its top-left corner grabbed, its width counted."""
    w, h = min(PATCH, monitor.w), min(PATCH, monitor.h)
    shot = sct.grab({"left": monitor.x, "top": monitor.y, "width": w, "height": h})
    return round(shot.width / w, 3)


def screen_map(sct) -> ScreenMap:
    """The ScreenMap of an mss instance's screen (a patch of every monitor grabbed once)."""
    monitors = tuple(Rect(m["left"], m["top"], m["width"], m["height"]) for m in sct.monitors)
    primary = primary_index(monitors)
    each = tuple(measure_scale(sct, m) for m in monitors[1:])
    scale = each[primary - 1] if each else 1.0
    return ScreenMap(monitors, primary, (scale, *each))
