"""Starting the rig's programs: Xvfb on a display number it picks itself, and Chromium on a fresh profile."""

from __future__ import annotations

import json
import math
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

from screenbot.practice.errors import RigError, ToolMissingError
from screenbot.practice.processes import end_session

QUIET_BROWSER_FLAGS = (
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-translate",
    "--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-gpu",
    "--password-store=basic",
    "--hide-crash-restore-bubble",
    "--noerrdialogs",
)
XVFB_REPORT_S = 10  # how long Xvfb may take to report its display number


def need(program: str, package: str) -> str:
    """The path of `program`, or ToolMissingError naming the package to install."""
    path = shutil.which(program)
    if not path:
        raise ToolMissingError(f"{program} not found: install it, e.g. `apt-get install {package}`")
    return path


def zoom_level(factor: float) -> float:
    """Chromium's zoom level for a zoom factor (level = log base 1.2 of the factor)."""
    return math.log(factor) / math.log(1.2)


def log_tail(path: Path) -> str:
    """The last non-blank line of a program's log (at most 300 characters), for an error message."""
    try:
        lines = [ln for ln in path.read_text(errors="replace").splitlines() if ln.strip()]
    except OSError:
        return "no log"
    return lines[-1][:300] if lines else "no message"


def start_xvfb(xvfb: str, size: tuple[int, int], tmp: Path) -> tuple[subprocess.Popen, str]:
    """Start Xvfb in a session of its own with a `size` screen; returns it and its display (":N").

    Xvfb picks a free display number and writes it to a pipe (-displayfd); its log goes to
    tmp / xvfb.log. Raises RigError (Xvfb ended) when it exits or says nothing within XVFB_REPORT_S.
    """
    read_fd, write_fd = os.pipe()
    log = open(tmp / "xvfb.log", "wb")
    try:
        w, h = size
        proc = subprocess.Popen(
            [xvfb, "-displayfd", str(write_fd), "-screen", "0", f"{w}x{h}x24", "-nolisten", "tcp"],
            pass_fds=(write_fd,), stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True)
    finally:
        os.close(write_fd)
        log.close()
    number = b""
    deadline = time.monotonic() + XVFB_REPORT_S
    try:
        while not number.endswith(b"\n"):
            left = deadline - time.monotonic()
            ready, _, _ = select.select([read_fd], [], [], max(left, 0))
            if not ready:
                raise RigError(f"Xvfb did not report a display number within {XVFB_REPORT_S} s")
            chunk = os.read(read_fd, 16)
            if not chunk:
                tail = (tmp / "xvfb.log").read_text(errors="replace").strip().splitlines()[-1:]
                raise RigError(f"Xvfb exited at start: {tail[0] if tail else 'no message'}")
            number += chunk
    except BaseException:
        end_session(proc)
        raise
    finally:
        os.close(read_fd)
    return proc, f":{int(number.strip())}"


def write_profile(profile: Path, zoom: float) -> None:
    """A fresh Chromium profile that asks nothing at start and opens pages at `zoom` (a factor)."""
    prefs: dict[str, Any] = {
        "browser": {"has_seen_welcome_page": True, "check_default_browser": False},
        "translate": {"enabled": False},
        "credentials_enable_service": False,
    }
    if abs(zoom - 1.0) > 1e-9:
        prefs["partition"] = {"default_zoom_level": {"x": zoom_level(zoom)}}
    (profile / "Default").mkdir(parents=True)
    (profile / "Default" / "Preferences").write_text(json.dumps(prefs))
    (profile / "First Run").touch()


def browser_args(browser: str, profile: Path, url: str, window_pos: tuple[int, int],
                 window_size: tuple[int, int], scale: float | None, app: bool) -> list[str]:
    """Chromium's command line: the window's place and size in screen pixels (converted to its
    DIPs at `scale`; None: the screen's own scale, not forced), and the page in a normal window or,
    `app`, without browser chrome."""
    dip = lambda v: max(1, round(v / (scale or 1.0)))  # noqa: E731 - tiny local helper
    args = [
        browser,
        *QUIET_BROWSER_FLAGS,
        f"--user-data-dir={profile}",
        f"--window-position={dip(window_pos[0])},{dip(window_pos[1])}",
        f"--window-size={dip(window_size[0])},{dip(window_size[1])}",
    ]
    if scale is not None:
        args.append(f"--force-device-scale-factor={scale:g}")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        # Root needs --no-sandbox; --test-type hides the infobar that warning would add.
        args += ["--no-sandbox", "--test-type"]
    args.append(f"--app={url}" if app else url)
    return args


def start_browser(args: list[str], env: dict[str, str], log_path: Path) -> subprocess.Popen:
    """Start the browser in a session of its own, its output to `log_path`."""
    log = open(log_path, "wb")
    try:
        return subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env,
                                start_new_session=True)
    finally:
        log.close()
