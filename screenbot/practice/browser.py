"""Where a Chromium-family browser (Chromium, Chrome, Edge) is on this computer: $SCREENBOT_BROWSER, PATH, then the usual install places of each OS."""

from __future__ import annotations

import os
import shutil
import sys
from typing import Mapping

from screenbot.practice.errors import ToolMissingError

ENV = "SCREENBOT_BROWSER"  # the browser's path (or a name on PATH), for the demo and the rig
# Names on PATH: Linux packages' (Debian's chromium, Ubuntu's chromium-browser, Google's and
# Microsoft's packages), and the Windows programs' own names for a PATH that holds their folders.
BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "microsoft-edge",
                 "microsoft-edge-stable", "msedge", "chrome")
MACOS_APPS = (  # (the app, its program inside): in /Applications, or ~/Applications for one user
    ("Google Chrome.app", "Google Chrome"),
    ("Chromium.app", "Chromium"),
    ("Microsoft Edge.app", "Microsoft Edge"),
)
WINDOWS_PROGRAMS = (  # under Program Files (every user) or %LOCALAPPDATA% (one user's install)
    ("Google", "Chrome", "Application", "chrome.exe"),
    ("Chromium", "Application", "chrome.exe"),
    ("Microsoft", "Edge", "Application", "msedge.exe"),
)


def browser_places(platform: str | None = None, environ: Mapping[str, str] | None = None) -> list[str]:
    """Where Chrome, Chromium and Edge are installed on this OS, Chrome first (Linux: none, PATH has them)."""
    platform = platform or sys.platform
    environ = os.environ if environ is None else environ
    if platform == "win32":
        bases = [environ.get(k) for k in ("ProgramFiles", "ProgramW6432", "ProgramFiles(x86)", "LOCALAPPDATA")]
        places = [os.path.join(base, *parts) for parts in WINDOWS_PROGRAMS for base in bases if base]
        return list(dict.fromkeys(places))
    if platform == "darwin":
        home = environ.get("HOME") or os.path.expanduser("~")
        folders = ["/Applications", os.path.join(home, "Applications")]
        return [os.path.join(folder, app, "Contents", "MacOS", exe) for app, exe in MACOS_APPS for folder in folders]
    return []


def is_program(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def _app_program(path: str) -> str | None:
    """The program inside a macOS .app bundle given as a path (…/Google Chrome.app)."""
    inside = os.path.join(path, "Contents", "MacOS")
    names = sorted(os.listdir(inside)) if os.path.isdir(inside) else []
    stem = os.path.splitext(os.path.basename(path.rstrip("/")))[0]
    return next((os.path.join(inside, n) for n in [stem, *names] if is_program(os.path.join(inside, n))), None)


def install_hint(platform: str | None = None) -> str:
    """How to get a Chromium-family browser on this OS, in one sentence."""
    platform = platform or sys.platform
    if platform == "win32":
        how = "install Google Chrome (https://www.google.com/chrome/) or Microsoft Edge"
    elif platform == "darwin":
        how = "install Google Chrome (https://www.google.com/chrome/) or Chromium (`brew install --cask chromium`)"
    else:
        how = ("install Chromium: `sudo apt-get install chromium` (Debian; Ubuntu: `sudo snap install chromium`), "
               "`sudo dnf install chromium` (Fedora)")
    return f"{how}, or set {ENV} to its program"


def find_browser(environ: Mapping[str, str] | None = None, platform: str | None = None) -> str:
    """The path of a Chromium-family browser: $SCREENBOT_BROWSER, else the first of BROWSER_NAMES on PATH,
    else the install places of this OS. ToolMissingError names what to install on this OS."""
    platform = platform or sys.platform
    environ = os.environ if environ is None else environ
    override = environ.get(ENV)
    if override:
        given = os.path.expanduser(override.strip().strip('"'))
        path = _app_program(given) if given.endswith((".app", ".app/")) else shutil.which(given)
        if path:
            return path
        raise ToolMissingError(f"{ENV}={override} is not a browser program: unset it or fix the path")
    for name in BROWSER_NAMES:
        path = shutil.which(name)
        if path:
            return path
    found = next((place for place in browser_places(platform, environ) if is_program(place)), None)
    if found:
        return found
    raise ToolMissingError(f"no Chrome, Chromium or Edge browser found (on PATH as {', '.join(BROWSER_NAMES)}, or "
                           f"where their installers put them): {install_hint(platform)}")
