"""Where the tesseract program is on this computer: --tesseract, $SCREENBOT_TESSERACT, PATH, then the usual install folders of each OS."""

from __future__ import annotations

import os
import shutil
import sys
from typing import Mapping

from screenbot.errors import UsageError

ENV = "SCREENBOT_TESSERACT"  # the program's path, for every command
UB_MANNHEIM = "https://github.com/UB-Mannheim/tesseract/wiki"  # the Windows installer tesseract's docs point to

# Package managers' install places, for a program started with a PATH that lacks them (an app
# launched from the Finder gets a PATH without Homebrew's folder).
MACOS_PLACES = (
    "/opt/homebrew/bin/tesseract",  # Homebrew on Apple silicon
    "/usr/local/bin/tesseract",  # Homebrew on Intel
    "/opt/local/bin/tesseract",  # MacPorts
)
LINUX_PLACES = ("/usr/bin/tesseract", "/usr/local/bin/tesseract")


class TesseractPathError(UsageError):
    """--tesseract or $SCREENBOT_TESSERACT names something that is not the tesseract program."""


def program_name(platform: str | None = None) -> str:
    return "tesseract.exe" if (platform or sys.platform) == "win32" else "tesseract"


def install_places(platform: str | None = None, environ: Mapping[str, str] | None = None) -> list[str]:
    """Where tesseract's installers put the program on this OS, most likely first."""
    platform = platform or sys.platform
    environ = os.environ if environ is None else environ
    if platform == "win32":
        # the UB Mannheim installer: Program Files for all users, %LOCALAPPDATA%\Programs for one
        bases = [environ.get("ProgramFiles"), environ.get("ProgramW6432"), environ.get("ProgramFiles(x86)")]
        if environ.get("LOCALAPPDATA"):
            bases.append(os.path.join(environ["LOCALAPPDATA"], "Programs"))
        places = [os.path.join(base, "Tesseract-OCR", "tesseract.exe") for base in bases if base]
        return list(dict.fromkeys(places))  # ProgramW6432 is ProgramFiles for a 64-bit Python
    if platform == "darwin":
        return list(MACOS_PLACES)
    return list(LINUX_PLACES)


def is_program(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def _program_at(given: str, platform: str) -> str | None:
    """The program a user named: a file, a folder holding it, or a bare name found on PATH."""
    path = os.path.expanduser(given.strip().strip('"'))
    if os.path.isdir(path):
        path = os.path.join(path, program_name(platform))
    if is_program(path):
        return os.path.abspath(path)
    if not any(sep in given for sep in ("/", "\\")):
        return shutil.which(given)
    return None


def find_tesseract(given: str | None = None, environ: Mapping[str, str] | None = None,
                   platform: str | None = None) -> str | None:
    """The tesseract program's path: `given` (--tesseract), else $SCREENBOT_TESSERACT, else PATH, else
    the install places of this OS; None when there is none. A given or environment path that is not
    the program: TesseractPathError."""
    platform = platform or sys.platform
    environ = os.environ if environ is None else environ
    for value, what in ((given, "--tesseract"), (environ.get(ENV), ENV)):
        if value:
            found = _program_at(value, platform)
            if found is None:
                raise TesseractPathError(f"{what} {value}: no tesseract program there (give the path of "
                                         f"{program_name(platform)}, or of the folder holding it)")
            return found
    on_path = shutil.which("tesseract")
    if on_path:
        return on_path
    return next((place for place in install_places(platform, environ) if is_program(place)), None)


def install_hint(platform: str | None = None) -> str:
    """How to install tesseract on this OS, and how to point screenbot at it, in one sentence."""
    platform = platform or sys.platform
    if platform == "win32":
        how = f"install it with the UB Mannheim installer ({UB_MANNHEIM})"
    elif platform == "darwin":
        how = "install it with `brew install tesseract` (Homebrew) or `sudo port install tesseract` (MacPorts)"
    else:
        how = "install it with `sudo apt install tesseract-ocr` (Debian, Ubuntu) or `sudo dnf install tesseract` (Fedora)"
    return f"{how}, or give its path with --tesseract PATH or ${ENV}"


_chosen: str | None = None


def use_tesseract(given: str | None = None) -> str | None:
    """Find the program (find_tesseract's order) and keep it for every OCR call of this process;
    returns its path, None when there is none."""
    global _chosen
    _chosen = find_tesseract(given)
    return _chosen


def tesseract_program() -> str | None:
    """The program OCR runs: the one use_tesseract kept, else found now (and kept); None: not installed."""
    return _chosen if _chosen is not None and is_program(_chosen) else use_tesseract()
