"""What the desktop allows: can this session see the screen and send keys (the window side of the focus guard is in control/focus.py)."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from screenbot.errors import ScreenbotError

if TYPE_CHECKING:
    import numpy as np

# Set to 1 to play under Wayland through XWayland anyway: for a game that is itself an X program
# (X programs see and reach only each other there: native Wayland windows are captured black).
XWAYLAND_OVERRIDE = "SCREENBOT_XWAYLAND"
# What an all-black capture means, with the fixes: said where a board was looked for and not found.
BLACK_CAPTURE = (
    "the screen capture is all black (under Wayland, programs are shown other windows black: log in with "
    "an Xorg session; on macOS, give your terminal Screen Recording in System Settings > Privacy & "
    "Security; or the screen is asleep or locked)"
)


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
        if is_wayland(env) and not (env.get("DISPLAY") and env.get(XWAYLAND_OVERRIDE) == "1"):
            # XWayland sets DISPLAY too, but an X program there captures native Wayland windows
            # black and its keys reach X programs only
            override = ""
            if env.get("DISPLAY"):
                override = f"; {XWAYLAND_OVERRIDE}=1 plays anyway when the game is itself an X program"
            return (
                "this is a Wayland session, where a program can neither capture other programs' windows nor "
                f"send them keys: log in with an 'Xorg'/'X11' session{override}"
            )
        if not env.get("DISPLAY"):
            return (
                "no display: run this inside an X11 desktop session ($DISPLAY set), "
                "or run `screenbot demo`, which starts its own virtual display"
            )
    return None


def is_wayland(environ) -> bool:
    """A Wayland session (XDG_SESSION_TYPE says so, or WAYLAND_DISPLAY is set in a session that does
    not say it is X11)."""
    session = environ.get("XDG_SESSION_TYPE", "")
    return session == "wayland" or (bool(environ.get("WAYLAND_DISPLAY")) and session != "x11")


def black_capture_problem(pixels: np.ndarray) -> str | None:
    """BLACK_CAPTURE when every pixel of a captured picture is 0, else None."""
    return BLACK_CAPTURE if pixels.size and not pixels.any() else None


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
