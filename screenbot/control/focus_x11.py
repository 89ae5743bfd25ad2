"""The focus guard's backend on X11 (python-xlib): the input focus, and the topmost mapped top-level window over the board."""

from __future__ import annotations

from screenbot.control.focus import WindowBackend
from screenbot.geometry import Rect

# get_input_focus answers X.NONE (0) or X.PointerRoot (1) when no one window holds the focus
# (the focus follows the pointer): then which window gets the keys is not known.
_NO_WINDOW = (None, 0, 1)


class X11Backend(WindowBackend):
    """Asks the X server of $DISPLAY (its own connection, or `display` given)."""

    def __init__(self, display=None) -> None:
        if display is None:
            from screenbot.control.x11 import open_x_display

            display = open_x_display()
        self._display = display
        self._root = display.screen().root

    def sync(self) -> None:
        self._display.sync()

    def focused(self) -> int | None:
        focus = self._display.get_input_focus().focus
        window = focus if isinstance(focus, int) else getattr(focus, "id", None)
        return None if window in _NO_WINDOW else window

    def top_windows(self, area: Rect) -> frozenset[int]:
        """The topmost viewable top-level window that overlaps `area` (the root's children are in
        stacking order, bottom to top; under a window manager they are its frames)."""
        from Xlib import X

        top = None
        for child in self._root.query_tree().children:
            try:
                attrs = child.get_attributes()
                if attrs.map_state != X.IsViewable or attrs.win_class == X.InputOnly:
                    continue
                geom = child.get_geometry()
            except Exception:  # noqa: BLE001 - the window went away meanwhile
                continue
            if Rect(geom.x, geom.y, geom.width, geom.height).intersects(area):
                top = child.id
        return frozenset() if top is None else frozenset({top})

    def close(self) -> None:
        if self._display is not None:
            self._display.close()
            self._display = None
