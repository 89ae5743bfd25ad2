"""The focus guard's backend on Windows (user32 through ctypes): the foreground window, and the top-level windows the system's own hit test finds over the board."""

from __future__ import annotations

from screenbot.control.focus import WindowBackend, windows_at
from screenbot.geometry import Point, Rect

GA_ROOT = 2  # GetAncestor: the top-level window a child window belongs to
# SetProcessDpiAwareness's PROCESS_PER_MONITOR_DPI_AWARE: the mode mss sets when it opens the screen.
# Whichever of the two asks first sets it (a process gets one mode); both ask for this one, so
# window positions, mouse points and captured pixels are all physical pixels.
PROCESS_PER_MONITOR_DPI_AWARE = 2


def _user32():  # pragma: no cover - Windows only
    """user32 with the signatures this backend calls (HWNDs as integers, None for NULL)."""
    import ctypes
    from ctypes import wintypes

    user32 = ctypes.WinDLL("user32", use_last_error=True)
    user32.GetForegroundWindow.argtypes = []
    user32.GetForegroundWindow.restype = wintypes.HWND
    user32.WindowFromPoint.argtypes = [wintypes.POINT]
    user32.WindowFromPoint.restype = wintypes.HWND
    user32.GetAncestor.argtypes = [wintypes.HWND, wintypes.UINT]
    user32.GetAncestor.restype = wintypes.HWND
    return user32


def _shcore():  # pragma: no cover - Windows only
    import ctypes

    try:
        return ctypes.WinDLL("shcore")
    except OSError:  # before Windows 8.1
        return None


def make_dpi_aware(user32, shcore) -> None:
    """Per-monitor DPI awareness as mss sets it (SetProcessDPIAware before Windows 8.1); a process
    already set keeps its mode (the call then fails, harmlessly)."""
    if shcore is not None and hasattr(shcore, "SetProcessDpiAwareness"):
        shcore.SetProcessDpiAwareness(PROCESS_PER_MONITOR_DPI_AWARE)
    else:
        user32.SetProcessDPIAware()


def _point(x: int, y: int):
    from ctypes import wintypes

    return wintypes.POINT(x, y)


class WindowsBackend(WindowBackend):
    """GetForegroundWindow for the focus; WindowFromPoint at nine points of the board, each taken
    to its top-level window (GetAncestor GA_ROOT), for what shows over it. The hit test is the one
    clicks go through: it passes over hidden and click-through (transparent) windows, as the eye does.

    `user32` and `shcore` are for tests: objects with the same functions."""

    def __init__(self, user32=None, shcore=None) -> None:
        if user32 is None:  # pragma: no cover - Windows only
            user32, shcore = _user32(), _shcore()
        self._user32 = user32
        make_dpi_aware(user32, shcore)

    def focused(self) -> int | None:
        # NULL while activation passes from one window to another: no window has the keys then
        return self._user32.GetForegroundWindow() or None

    def top_windows(self, area: Rect) -> frozenset[int]:
        return windows_at(area, self._top_level_at)

    def _top_level_at(self, p: Point) -> int | None:
        child = self._user32.WindowFromPoint(_point(p.x, p.y))
        return (self._user32.GetAncestor(child, GA_ROOT) or child) if child else None
