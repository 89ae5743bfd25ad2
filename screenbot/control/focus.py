"""The focus guard's window side: which window has the keyboard focus and which windows show over the board, remembered at the focusing click and checked before keys, with one backend per desktop."""

from __future__ import annotations

import abc
import os
import sys
from dataclasses import dataclass
from typing import Callable

from screenbot.errors import ScreenbotError
from screenbot.geometry import Point, Rect


class FocusUnknownError(ScreenbotError):
    """This desktop cannot tell which window has the keyboard focus (no backend for it, a library
    missing, or its window API failed)."""


class WindowBackend(abc.ABC):
    """One desktop's window system, asked two things. Window ids are the backend's own; areas are in
    mouse points (the coordinates clicks use: X11 and Windows pixels, macOS points). Any failure
    raises (FocusUnknownError or the API's own error)."""

    @abc.abstractmethod
    def focused(self) -> int | None:
        """The window (macOS: the application's process) that has the keyboard focus; None: no window
        has it, or the desktop does not say which (X11 focus following the pointer)."""

    @abc.abstractmethod
    def top_windows(self, area: Rect) -> frozenset[int]:
        """The top-level windows that show on top somewhere over `area`: normally the game's alone."""

    def sync(self) -> None:
        """Let the window system finish handling what was sent (the focusing click) before it is asked."""

    def close(self) -> None:
        """Release the connection to the window system."""


def sample_points(area: Rect) -> list[Point]:
    """Nine points spread over `area` (a 3x3 grid near its edges and at its middle): where backends
    that ask "which window is here" look over the board."""
    xs = (area.x + area.w // 10, area.x + area.w // 2, area.x + area.w - 1 - area.w // 10)
    ys = (area.y + area.h // 10, area.y + area.h // 2, area.y + area.h - 1 - area.h // 10)
    return [Point(x, y) for y in ys for x in xs]


def windows_at(area: Rect, window_at: Callable[[Point], int | None]) -> frozenset[int]:
    """The windows `window_at` names at the sample points of `area` (None: no window there)."""
    return frozenset(w for w in map(window_at, sample_points(area)) if w is not None)


def open_backend(platform: str | None = None, environ=None) -> WindowBackend:
    """The backend for this desktop: user32 on Windows, Quartz and the accessibility API on macOS,
    python-xlib on X11. Raises FocusUnknownError, saying why in a few words, where there is none."""
    platform = platform or sys.platform
    env = os.environ if environ is None else environ
    try:
        if platform == "win32":
            from screenbot.control.focus_windows import WindowsBackend

            return WindowsBackend()
        if platform == "darwin":
            from screenbot.control.focus_mac import MacBackend

            return MacBackend()
        if platform.startswith(("linux", "freebsd")) and env.get("DISPLAY"):
            from screenbot.control.focus_x11 import X11Backend

            return X11Backend()
    except FocusUnknownError:
        raise
    except Exception as exc:  # a library that fails to load, a display that does not open
        raise FocusUnknownError(f"its window API cannot be reached: {type(exc).__name__}: {exc}") from exc
    raise FocusUnknownError(f"no window check is written for {platform} without an X display")


@dataclass(frozen=True)
class WindowSnapshot:
    """Which window had the keyboard focus, and which top-level windows showed over the board."""

    focus: int | None
    board_windows: frozenset[int]


class FocusWatch:
    """Remembers, right after the focusing click, which window had the keyboard focus and which
    windows showed over the board, and tells later whether that is still so.

    `available` is False where the desktop cannot tell (`reason` says why, in a few words): then
    `problem()` never objects, and the guard presses only move keys (see screenbot.play.guard).
    `board_rect` is in mouse points (BoardGeometry.board_rect_in_points).
    """

    def __init__(self, board_rect: Rect, backend: WindowBackend | None = None, platform: str | None = None) -> None:
        self.board_rect = board_rect
        self.snapshot: WindowSnapshot | None = None
        self.reason = ""
        self._backend = backend
        if backend is None:
            try:
                self._backend = open_backend(platform)
            except FocusUnknownError as exc:
                self.reason = str(exc)

    @property
    def available(self) -> bool:
        return self._backend is not None

    def close(self) -> None:
        if self._backend is not None:
            self._backend.close()
            self._backend = None

    def _give_up(self, reason: str) -> None:
        """The desktop stopped answering before anything was remembered: from now on focus is unknown."""
        self.reason = reason
        backend, self._backend = self._backend, None
        try:
            backend.close()
        except Exception:  # noqa: BLE001 - it already failed; closing is best effort
            pass

    def move_to(self, board_rect: Rect) -> None:
        """Watch the board at its new place (mouse points; its window was moved); call `remember`
        after the next focusing click."""
        self.board_rect = board_rect
        self.snapshot = None

    def remember(self) -> WindowSnapshot:
        """Call right after the focusing click. Where the window system fails here, the watch gives
        up (`available` turns False, `reason` says why)."""
        if self._backend is not None:
            try:
                self._backend.sync()
                self.snapshot = WindowSnapshot(self._backend.focused(), self._backend.top_windows(self.board_rect))
                return self.snapshot
            except Exception as exc:  # noqa: BLE001 - any API failure means: focus cannot be known
                self._give_up(f"its window API failed: {type(exc).__name__}: {exc}")
        self.snapshot = WindowSnapshot(None, frozenset())
        return self.snapshot

    def problem(self) -> str | None:
        """None while focus and stacking are as remembered (or cannot be known); else what changed, in
        words. A window API that fails after it answered at the focusing click is a problem (play
        pauses, asks again, and stops if it keeps failing)."""
        if self._backend is None or self.snapshot is None:
            return None
        try:
            focus = self._backend.focused()
            over = self._backend.top_windows(self.board_rect)
        except Exception as exc:  # noqa: BLE001 - reported as a problem: no key while it fails
            return f"the window check failed ({type(exc).__name__}: {exc})"
        if self.snapshot.focus is not None and focus != self.snapshot.focus:
            return "the game's window lost the keyboard focus"
        if self.snapshot.board_windows and over != self.snapshot.board_windows:
            return "another window is over the board"
        return None
