"""The X11 connection helpers shared by the screen-side checks and the keyboard (no input sent here)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def open_x_display():
    """A python-xlib Display; its chatter about an empty Xauthority file (printed to stdout) is dropped."""
    import contextlib
    import io

    ensure_xauthority()
    from Xlib import display as xdisplay

    with contextlib.redirect_stdout(io.StringIO()):
        return xdisplay.Display()


def ensure_xauthority() -> None:
    """On X11, point XAUTHORITY at an (empty) file when none exists.

    python-xlib (under pyautogui) raises XauthError when ~/.Xauthority is missing, even for an
    X server without access control (python3-xlib 0.15, the Xlib pyautogui requires: get_auth in
    Xlib/support/unix_connect.py lets Xlib/xauth.py's error through). An empty file makes it fall
    back to no auth.
    """
    if os.name != "posix" or not os.environ.get("DISPLAY"):
        return
    current = os.environ.get("XAUTHORITY")
    if current and Path(current).exists():
        return
    home_file = Path.home() / ".Xauthority"
    if not current and home_file.exists():
        return
    fd, path = tempfile.mkstemp(prefix="screenbot-xauth-")
    os.close(fd)
    os.environ["XAUTHORITY"] = path
