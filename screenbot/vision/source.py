"""One-shot reading from a source (a saved screenshot or the live screen) for `read`, `hint` and friends."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from screenbot.calibration import ManyBoardsError, NoBoardError, Profile, ProfileError, calibrate, find_lattices
from screenbot.calibration.profile import default_profile_path
from screenbot.control.screen import Frame, ImageScreen, MssScreen, Screen
from screenbot.errors import ScreenbotError
from screenbot.game.rules import Grid
from screenbot.vision.reader import Reading, UnreadableTileError, read_board

SETTLE_WAIT_S = 1.5  # how long a live read waits for a board caught mid-move to come to rest


class NoGridError(ScreenbotError):
    """The source shows no readable board right now (mid-move, covered, or no board at all)."""


def diagnostics_dir() -> Path:
    """platformdirs' user cache dir for screenbot / diagnostics."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("screenbot")) / "diagnostics"


def save_diagnostic(frame: Frame, reason: str) -> Path | None:
    """Keep the frame that could not be read (PNG) and return where; None if it cannot be written."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    path = diagnostics_dir() / f"{stamp}-{reason}.png"
    try:
        return frame.save(path)
    except (ScreenbotError, OSError):
        return None


@dataclass
class Look:
    """A reading with what it came from: the frame, the profile used, whether it was calibrated on the fly."""

    reading: Reading
    frame: Frame
    profile: Profile
    profile_path: Path | None
    calibrated_now: bool


def _open_screen(image: str | Path | None) -> Screen:
    return ImageScreen(Path(image)) if image is not None else MssScreen()


def _calibrate_on(frame: Frame, base: Profile | None) -> Profile:
    try:
        fresh = calibrate(frame, search=find_lattices(frame.pixels), source="on the fly")
    except NoBoardError as exc:
        path = save_diagnostic(frame, "no-board")
        where = f" (the picture is kept at {path})" if path else ""
        raise NoBoardError(f"{exc}{where}") from None
    except ManyBoardsError as exc:
        path = save_diagnostic(frame, "many-boards")
        where = f" (the picture is kept at {path})" if path else ""
        raise ManyBoardsError(f"{exc}; run `screenbot calibrate --pick N` first{where}", exc.candidates) from None
    if base is not None:  # keep what the old profile learned
        fresh.learned = list(base.learned)
        fresh.glyphs = dict(base.glyphs)
        if base.theme == fresh.theme and fresh.empty_colour is None:
            fresh.empty_colour = base.empty_colour
    return fresh


def look(image: str | Path | None = None, profile: str | Path | Profile | None = None, wait_s: float | None = None) -> Look:
    """Read the board from a screenshot file (image) or the live screen.

    profile: a Profile, a path, or None for the default path. With no saved profile the
    board is found on the fly. A saved profile whose board is not where it says (another
    screenshot, a moved window) is replaced on the fly by one found in this frame, keeping
    its learned colours. Live reads wait up to wait_s for a board caught mid-move.
    """
    profile_path: Path | None = None
    loaded: Profile | None = None
    if isinstance(profile, Profile):
        loaded = profile
    else:
        profile_path = Path(profile) if profile is not None else default_profile_path()
        if profile_path.is_file() or profile is not None:
            loaded = Profile.load(profile_path)  # missing explicit path / corrupt file: ProfileError
    screen = _open_screen(image)
    try:
        live = image is None
        wait_s = (SETTLE_WAIT_S if live else 0.0) if wait_s is None else wait_s
        frame = screen.grab(None)
        calibrated_now = False
        prof = loaded
        if prof is None:
            prof = _calibrate_on(frame, None)
            calibrated_now = True
        reading = _read(frame, prof)
        if reading.state == "no-board" and not calibrated_now:
            prof = _calibrate_on(frame, loaded)
            calibrated_now = True
            reading = _read(frame, prof)
        deadline = time.monotonic() + wait_s
        while reading.state == "unsettled" and live and time.monotonic() < deadline:
            time.sleep(0.05)
            frame = screen.grab(None)
            reading = _read(frame, prof)
        if loaded is not None and profile_path is not None and not calibrated_now and prof.changed:
            prof.save(profile_path)  # keep colours and digit shapes learned just now
        return Look(reading, frame, prof, profile_path, calibrated_now)
    finally:
        screen.close()


def _read(frame: Frame, profile: Profile) -> Reading:
    try:
        return read_board(frame, profile)
    except UnreadableTileError as exc:
        path = save_diagnostic(frame, "unreadable-tile")
        where = f" (the picture is kept at {path})" if path else ""
        raise UnreadableTileError(f"{exc}{where}", exc.reading) from None


def read_grid_from_source(image: str | Path | None = None, profile: str | Path | Profile | None = None) -> Grid:
    """The grid on a screenshot (image) or on the live screen, for commands that then act on it.

    Raises a ScreenbotError with a one-line message (and keeps the frame for diagnosis)
    when there is no board, it cannot be read, or it is caught mid-move.
    """
    result = look(image, profile)
    reading = result.reading
    if reading.grid is not None:
        if reading.state in ("won", "over"):
            print(f"screenbot: note: the board is under the '{reading.state}' overlay", file=sys.stderr)
        return reading.grid
    path = save_diagnostic(result.frame, reading.state)
    where = f" (the picture is kept at {path})" if path else ""
    if reading.state == "unsettled":
        raise NoGridError(f"the board is moving ({reading.detail}): try again when it is still{where}")
    if reading.state in ("won", "over"):
        raise NoGridError(f"the board is covered by the '{reading.state}' message and cannot be read through it{where}")
    raise NoGridError(f"no board where expected ({reading.detail}): run `screenbot calibrate` again{where}")


__all__ = ["Look", "NoGridError", "ProfileError", "diagnostics_dir", "look", "read_grid_from_source", "save_diagnostic"]
