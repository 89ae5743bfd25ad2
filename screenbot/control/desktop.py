"""What the desktop allows: can this session see the screen and send keys, and which window has focus."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from screenbot.errors import ScreenbotError
from screenbot.geometry import Rect


class DesktopError(ScreenbotError):
    """The bot cannot work in this session (no display, Wayland, missing permission)."""

    exit_code = 4


def desktop_problem(environ: dict | None = None, platform: str | None = None) -> str | None:
    """One line naming why screen capture or key input cannot work here, with the fix; None if it can.

    Checks only what is knowable without touching the display (see `check_desktop`).
    """
    env = os.environ if environ is None else environ
    platform = platform or sys.platform
    if platform.startswith("linux") or platform.startswith("freebsd"):
        if not env.get("DISPLAY"):
            if env.get("WAYLAND_DISPLAY") or env.get("XDG_SESSION_TYPE") == "wayland":
                return (
                    "this is a Wayland session without X access: log in with an 'Xorg'/'X11' session "
                    "(Wayland lets no program read the screen or send keys to other windows)"
                )
            return (
                "no display: run this inside an X11 desktop session ($DISPLAY set), "
                "or run `screenbot demo`, which starts its own virtual display"
            )
    return None


def _mac_permissions_problem(keys: bool = True) -> str | None:  # pragma: no cover - macOS only
    import ctypes
    import ctypes.util

    try:
        cg = ctypes.cdll.LoadLibrary(ctypes.util.find_library("CoreGraphics") or "")
        preflight = cg.CGPreflightScreenCaptureAccess
        preflight.restype = ctypes.c_bool
        if not preflight():
            return (
                "macOS has not allowed this terminal to record the screen: System Settings > Privacy & "
                "Security > Screen Recording, enable your terminal app, then restart it"
            )
    except (OSError, AttributeError):
        pass
    if not keys:
        return None
    try:
        ax = ctypes.cdll.LoadLibrary(ctypes.util.find_library("ApplicationServices") or "")
        trusted = ax.AXIsProcessTrusted
        trusted.restype = ctypes.c_bool
        if not trusted():
            return (
                "macOS has not allowed this terminal to send keys: System Settings > Privacy & "
                "Security > Accessibility, enable your terminal app, then restart it"
            )
    except (OSError, AttributeError):
        pass
    return None


def check_desktop(keys: bool = True) -> None:
    """Raise DesktopError (one line, with the fix) when this session cannot see the screen or (`keys`)
    send keys."""
    problem = desktop_problem()
    if problem:
        raise DesktopError(problem)
    if sys.platform.startswith("linux"):
        from screenbot.control.x11 import open_x_display

        try:
            conn = open_x_display()
            conn.close()
        except Exception as exc:
            raise DesktopError(
                f"cannot open the X display {os.environ.get('DISPLAY')!r} ({type(exc).__name__}: {exc}); "
                "check $DISPLAY and $XAUTHORITY (or run `xhost +local:` in the desktop session)"
            ) from exc
    elif sys.platform == "darwin":  # pragma: no cover - macOS only
        problem = _mac_permissions_problem(keys)
        if problem:
            raise DesktopError(problem)


@dataclass(frozen=True)
class WindowSnapshot:
    """Which window had the keyboard focus, and which top-level window showed the board."""

    focus: int | None
    board_window: int | None


class FocusWatch:
    """On X11: remembers which window had focus (and showed the board) at the focusing click,
    and tells later whether that is still so and nothing is stacked over the board.

    Elsewhere it knows nothing and says so (`available` is False); the pixel check still runs.
    """

    def __init__(self, board_rect: Rect) -> None:
        self.board_rect = board_rect
        self._display = None
        self._root = None
        self.snapshot: WindowSnapshot | None = None
        if sys.platform.startswith("linux") and os.environ.get("DISPLAY"):
            try:
                from screenbot.control.x11 import open_x_display

                self._display = open_x_display()
                self._root = self._display.screen().root
            except Exception:
                self._display = None

    @property
    def available(self) -> bool:
        return self._display is not None

    def close(self) -> None:
        if self._display is not None:
            self._display.close()
            self._display = None

    def _focus(self) -> int | None:
        focus = self._display.get_input_focus().focus
        return focus if isinstance(focus, int) else getattr(focus, "id", None)

    def _top_windows_over(self, area: Rect) -> list[int]:
        """Mapped top-level windows that overlap `area`, bottom to top."""
        from Xlib import X

        found = []
        for child in self._root.query_tree().children:
            try:
                attrs = child.get_attributes()
                if attrs.map_state != X.IsViewable or attrs.win_class == X.InputOnly:
                    continue
                geom = child.get_geometry()
            except Exception:  # the window went away meanwhile
                continue
            rect = Rect(geom.x, geom.y, geom.width, geom.height)
            if rect.intersects(area):
                found.append(child.id)
        return found

    def move_to(self, board_rect: Rect) -> None:
        """Watch the board at its new place (its window was moved); call `remember` after the
        next focusing click."""
        self.board_rect = board_rect
        self.snapshot = None

    def remember(self) -> WindowSnapshot:
        """Call right after the focusing click."""
        if not self.available:
            self.snapshot = WindowSnapshot(None, None)
            return self.snapshot
        self._display.sync()
        over = self._top_windows_over(self.board_rect)
        self.snapshot = WindowSnapshot(self._focus(), over[-1] if over else None)
        return self.snapshot

    def problem(self) -> str | None:
        """None while focus and stacking are as remembered; else what changed, in words."""
        if not self.available or self.snapshot is None:
            return None
        focus = self._focus()
        if self.snapshot.focus not in (None, 0, 1) and focus != self.snapshot.focus:
            return "the game's window lost the keyboard focus"
        over = self._top_windows_over(self.board_rect)
        if self.snapshot.board_window is not None and (not over or over[-1] != self.snapshot.board_window):
            return "another window is over the board"
        return None
