"""Where the practice page's parts sit on the screen, from the layout the page reports (CSS px) and the device scale."""

from __future__ import annotations

from typing import Any, Sequence

from screenbot.geometry import Rect
from screenbot.practice.measure import Box


def viewport_origin(layout: dict[str, Any], scale: float) -> tuple[float, float]:
    """The screen pixel where the page's viewport (CSS 0,0) sits.

    From the page's report: window.screenX/Y are the window's top-left in DIPs, and the
    browser chrome's height is the outer height minus the viewport's height (no bottom
    or side frame without a window manager).
    """
    dpr = float(layout["device_pixel_ratio"])
    sx, sy = layout["screen_xy"]
    outer_w, outer_h = layout["outer"]
    vv = layout.get("viewport")
    view_h = (vv[3] * vv[4]) if vv else layout["inner"][1]
    view_w = (vv[2] * vv[4]) if vv else layout["inner"][0]
    chrome_top = outer_h * scale - view_h * dpr
    side = max(0.0, (outer_w * scale - view_w * dpr) / 2)
    # A vertical scrollbar makes the viewport narrower on the right only.
    if layout["inner"][0] * dpr > view_w * dpr + 1:
        side = 0.0
    return sx * scale + side, sy * scale + chrome_top


def to_screen(layout: dict[str, Any], scale: float, css_rect: Sequence[float]) -> Box:
    """A rectangle the page reported (CSS px, viewport coordinates) in screen pixels."""
    dpr = float(layout["device_pixel_ratio"])
    ox, oy = viewport_origin(layout, scale)
    x, y, w, h = css_rect
    return Box(ox + x * dpr, oy + y * dpr, w * dpr, h * dpr)


def viewport_box(layout: dict[str, Any], scale: float) -> Box:
    """The page's visible viewport on screen (excluding a scrollbar)."""
    dpr = float(layout["device_pixel_ratio"])
    ox, oy = viewport_origin(layout, scale)
    vv = layout.get("viewport")
    w, h = (vv[2] * vv[4], vv[3] * vv[4]) if vv else layout["inner"]
    return Box(ox, oy, w * dpr, h * dpr)


def on_screen(box: Box, screen_size: tuple[int, int]) -> Box:
    """The part of `box` inside a screen of `screen_size` (w, h) from (0, 0)."""
    sw, sh = screen_size
    x0, y0 = max(box.x, 0.0), max(box.y, 0.0)
    x1, y1 = min(box.x + box.w, float(sw)), min(box.y + box.h, float(sh))
    return Box(x0, y0, max(0.0, x1 - x0), max(0.0, y1 - y0))


def inside(inner: Box, outer: Box, tol: float = 0.5) -> bool:
    """Whether `inner` lies within `outer`, give or take `tol` px on each side."""
    return (inner.x >= outer.x - tol and inner.y >= outer.y - tol
            and inner.x + inner.w <= outer.x + outer.w + tol and inner.y + inner.h <= outer.y + outer.h + tol)


def window_rect(layout: dict[str, Any], scale: float) -> Rect:
    """The browser window's rectangle on screen (window.screenX/Y and outer size, in DIPs)."""
    sx, sy = layout["screen_xy"]
    ow, oh = layout["outer"]
    return Rect(round(sx * scale), round(sy * scale), round(ow * scale), round(oh * scale))
