"""Where a command's board comes from: the live screen or a screenshot, opened with a profile that fits it (loaded and checked, or the board found now)."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Sequence

import numpy as np

from screenbot.board_state import BoardState
from screenbot.calibration import ManyBoardsError, NoBoardError, Profile, calibrate, find_lattices
from screenbot.calibration.size_check import other_size_error, size_seen
from screenbot.control.screen import Frame, ImageScreen, MssScreen, OutsideFrameError, Screen
from screenbot.errors import ScreenbotError
from screenbot.game.rules import Grid, is_over
from screenbot.geometry import Rect
from screenbot.paths import cache_dir, default_profile_path
from screenbot.vision.marks import learn_marks
from screenbot.vision.reader import Reading, UnreadableTileError, read_board

SETTLE_WAIT_S = 1.5  # how long a live read waits for a board caught mid-move to come to rest
AGREE_GAP_S = 0.05  # live, a board is believed once two frames this far apart read the same


class NoGridError(ScreenbotError):
    """The source shows no readable board right now (mid-move, covered, or no board at all)."""


def diagnostics_dir() -> Path:
    """Where frames that could not be read are kept: the user cache dir / diagnostics."""
    return cache_dir() / "diagnostics"


def save_diagnostic(frame: Frame, reason: str) -> Path | None:
    """Keep the frame that could not be read (PNG) and return where; None if it cannot be written."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    path = diagnostics_dir() / f"{stamp}-{reason}.png"
    try:
        return frame.save(path)
    except (ScreenbotError, OSError):
        return None


def _kept_at(frame: Frame, reason: str) -> str:
    path = save_diagnostic(frame, reason)
    return f" (the picture is kept at {path})" if path else ""


STILL_GAP_S = 0.1  # two grabs this far apart that are the same: the screen stands still
STILL_WAIT_S = 2.0  # at most this long for it; then the last grab (a blinking cursor never stands still)


def still_grab(screen: Screen, region: Rect, sleep=time.sleep) -> Frame:
    """A grab of `region` once two grabs STILL_GAP_S apart are the same (up to STILL_WAIT_S): a board
    caught while its first tiles grow in would teach calibration tiles smaller than their cells."""
    frame = screen.grab(region)
    for _ in range(int(STILL_WAIT_S / STILL_GAP_S)):
        sleep(STILL_GAP_S)
        again = screen.grab(region)
        if np.array_equal(again.pixels, frame.pixels):
            return again
        frame = again
    return frame


def calibrate_live(screen: Screen, profile_path: str | Path | None = None) -> Profile:
    """Find the board on the live screen once it stands still (every monitor); saved at `profile_path`
    when given."""
    monitors = screen.monitors()
    frame = still_grab(screen, monitors[0])
    profile = calibrate(frame, monitors=monitors, scale=screen.scale, source="live screen")
    learn_marks(frame, profile)
    if profile_path is not None:
        profile.save(profile_path)
    return profile


def find_board(frame: Frame, base: Profile | None = None, monitors: Sequence[Rect] | None = None,
               scale: float = 1.0, source: str = "") -> Profile:
    """A profile for the one board in `frame`, keeping the colours and digit shapes `base` learned.

    No board, or several: the error says what to do and where the frame is kept.
    """
    search = find_lattices(frame.pixels)
    # with nothing learned before, a board of another size than 4x4 is taken only where it reads as one, as
    # `calibrate` takes it (a board found again where a profile says one was is checked against its size)
    search.unscreened = base is None
    try:
        fresh = calibrate(frame, search=search, monitors=monitors, scale=scale, source=source)
    except NoBoardError as exc:
        raise NoBoardError(f"{exc}{_kept_at(frame, BoardState.NO_BOARD)}") from None
    except ManyBoardsError as exc:
        where = _kept_at(frame, "many-boards")
        raise ManyBoardsError(f"{exc}; run `screenbot calibrate --pick N` first{where}", exc.candidates) from None
    learn_marks(frame, fresh)
    if base is not None:  # keep what the old profile learned
        fresh.learned = list(base.learned)
        fresh.glyphs = dict(base.glyphs)
        if base.theme == fresh.theme and fresh.empty_colour is None:
            fresh.empty_colour = base.empty_colour
    return fresh


def _read(frame: Frame, profile: Profile) -> Reading:
    try:
        return read_board(frame, profile)
    except UnreadableTileError as exc:
        raise UnreadableTileError(f"{exc}{_kept_at(frame, 'unreadable-tile')}", exc.reading) from None


def _check(frame: Frame, profile: Profile) -> Reading | None:
    """What the frame shows where the profile says; None when a tile there cannot be named (the board is there)."""
    try:
        return read_board(frame, profile)
    except UnreadableTileError:
        return None


@dataclass
class Session:
    """A screen and a profile that fits it, with the frame they were checked on."""

    screen: Screen
    profile: Profile
    profile_path: Path | None  # the file the profile is kept in; None: not kept (given as is, or found for this run)
    found_now: bool  # the board was found in `frame` (no profile yet, or not where the profile said)
    live: bool
    frame: Frame
    _first: Reading | None = field(default=None, repr=False)  # what `frame` showed, when already read

    def read(self, wait_s: float | None = None) -> Reading:
        """The board now: the opening frame first. Live, a board is believed only once two frames
        AGREE_GAP_S apart read the same (a frame caught mid-move is read again), for up to wait_s
        (default SETTLE_WAIT_S); then the last reading is returned, unsettled if the two never
        agreed. What the profile learned is saved to its file."""
        reading = self._first if self._first is not None else _read(self.frame, self.profile)
        self._first = None
        wait_s = (SETTLE_WAIT_S if self.live else 0.0) if wait_s is None else wait_s
        deadline = time.monotonic() + wait_s
        while self.live and reading.state != BoardState.NO_BOARD:
            if time.monotonic() >= deadline:
                if reading.state != BoardState.UNSETTLED:  # it kept changing: not one still board
                    reading = replace(reading, grid=None, state=BoardState.UNSETTLED,
                                      detail="the board kept changing between looks")
                break
            time.sleep(AGREE_GAP_S)
            self.frame = self.screen.grab(None)
            again = _read(self.frame, self.profile)
            agreed = (again.state == reading.state != BoardState.UNSETTLED and again.grid == reading.grid)
            reading = again
            if agreed:
                break
        self.save_learned()
        return ended_by_rules(reading, self.frame)

    def save_learned(self) -> Path | None:
        """Save the profile to its file if it learned colours or digit shapes since it was loaded."""
        if self.profile_path is None or not self.profile.changed:
            return None
        return self.profile.save(self.profile_path)

    def close(self) -> None:
        self.screen.close()

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_session(image: str | Path | None = None, profile: str | Path | Profile | None = None,
                 keep_new: bool = False) -> Session:
    """Open the live screen (or a screenshot, `image`) with a profile that fits it.

    profile: a Profile, a path, or None for the default path (a missing explicit path or a corrupt
    file: ProfileError). With no saved profile the board is found now; keep_new saves what is found
    on the live screen at the default path (and says so). A profile whose board is not where it
    says (a moved window, another screenshot) is replaced, for this session only, by one found in
    the same frame that keeps its learned colours; one stderr line says so.
    """
    profile_path: Path | None = None
    loaded: Profile | None = None
    if isinstance(profile, Profile):
        loaded = profile
    else:
        profile_path = Path(profile) if profile is not None else default_profile_path()
        if profile_path.is_file() or profile is not None:
            loaded = Profile.load(profile_path)
    live = image is None
    screen: Screen = MssScreen() if live else ImageScreen(Path(image))
    try:
        frame = screen.grab(None)
        first = _check(frame, loaded) if loaded is not None else None
        if loaded is not None and (first is None or first.state != BoardState.NO_BOARD):
            moving = first is not None and first.state == BoardState.UNSETTLED
            _same_size(frame, loaded, size_seen(frame, loaded, moving), live, profile_path is not None)
            return Session(screen, loaded, profile_path, False, live, frame, first)
        prof = _find_on(screen, frame, loaded, live)
        if loaded is not None:
            _same_size(frame, loaded, prof.shape, live, profile_path is not None)
            where = "on the screen" if live else "in the picture"
            print(f"screenbot: note: the board is not where the profile says: found it {where} for this run only "
                  "(`screenbot calibrate` saves the new place)", file=sys.stderr)
            profile_path = None
        elif keep_new and live:
            prof.save(profile_path)
            print(f"screenbot: no profile yet: calibrated on the live screen, saved {profile_path}", file=sys.stderr)
        else:
            profile_path = None
        return Session(screen, prof, profile_path, True, live, frame)
    except BaseException:
        screen.close()
        raise


NO_MOVE_LEFT = "no move is left: the game is over"
MESSAGE_COLOURS = 12  # the text colours tried for the words of a message over a board left unsettled


def ended_by_rules(reading: Reading, frame: Frame | None = None) -> Reading:
    """The reading with the game's end told where the screen shows it in a way the reader leaves open:
    a still board with no move left is a game over, said or not (a terminal game that writes "GAME
    OVER" beside the board, or nothing at all); a board left unsettled (something drawn across its cells)
    under a box whose words say the game is won or over is in that state (read in `frame`, when given,
    with tesseract where it is there)."""
    if reading.state == BoardState.PLAYING and reading.grid is not None and any(map(any, reading.grid)) \
            and is_over(reading.grid):  # (a board with no tile has no move either, but no game ended there)
        return replace(reading, state=BoardState.OVER, detail=NO_MOVE_LEFT)
    if reading.state == BoardState.UNSETTLED and frame is not None and reading.board_rect is not None:
        from screenbot.vision.ocr import OcrUnavailableError, read_until
        from screenbot.vision.state_words import state_of_words

        try:
            state = read_until(frame.crop(reading.board_rect).pixels, state_of_words, MESSAGE_COLOURS, far_first=True)
        except (OcrUnavailableError, ValueError, OutsideFrameError):
            state = None
        if state is not None:
            return replace(reading, state=state, detail=f"a message over the board says the game is {state}")
    return reading


def _same_size(frame: Frame, profile: Profile, seen, live: bool, saved: bool) -> None:
    """OtherSizeError (the frame kept) when the board seen has another size than the profile's."""
    if seen is not None and tuple(seen) != profile.shape:
        raise other_size_error(profile.shape, tuple(seen), live, _kept_at(frame, "other-size"), saved)


def _find_on(screen: Screen, frame: Frame, base: Profile | None, live: bool) -> Profile:
    if not live:
        return find_board(frame, base, source="on the fly")
    monitors = screen.monitors()
    return find_board(frame, base, monitors, screen.scale, source="live screen")


def read_grid(image: str | Path | None = None, profile: str | Path | Profile | None = None) -> Grid:
    """The grid on a screenshot (image) or on the live screen, for commands that then act on it.

    Raises a ScreenbotError with a one-line message (and keeps the frame for diagnosis)
    when there is no board, it cannot be read, or it is caught mid-move.
    """
    with open_session(image, profile) as session:
        reading = session.read()
    if reading.grid is not None:
        if reading.detail == NO_MOVE_LEFT:
            print(f"screenbot: note: {NO_MOVE_LEFT}", file=sys.stderr)
        elif reading.state in (BoardState.WON, BoardState.OVER):
            print(f"screenbot: note: the board is under the '{reading.state}' overlay", file=sys.stderr)
        return reading.grid
    where = _kept_at(session.frame, reading.state)
    if reading.state == BoardState.UNSETTLED:
        raise NoGridError(f"the board is moving ({reading.detail}): try again when it is still{where}")
    if reading.state in (BoardState.WON, BoardState.OVER):
        raise NoGridError(f"the board is covered by the '{reading.state}' message and cannot be read through it{where}")
    raise NoGridError(f"no board where expected ({reading.detail}): run `screenbot calibrate` again{where}")
