"""The bot's eyes during play: grab the board's region and read it (vision + the calibration profile)."""

from __future__ import annotations

import abc
import time
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

import numpy as np

from screenbot.board_state import BoardState
from screenbot.control.screen import Frame, Screen
from screenbot.geometry import Rect

SeenGrid = Sequence[Sequence[Optional[int]]]


@dataclass(frozen=True, eq=False)
class Sight:
    """One look at the board: what was read (grid may be None), the state, the frame, when and how long."""

    grid: SeenGrid | None
    state: str  # playing | won | over | unsettled | no-board, or unread (grabbed, not read)
    frame: Frame
    t: float  # clock time of the grab
    ms: float  # grab + read, milliseconds
    why: str = ""  # what vision said about a frame it could not read


@dataclass(frozen=True)
class BoardGeometry:
    """Where the board is: its frame and 16 cells (absolute captured pixels), and pixels per mouse point."""

    board_rect: Rect
    cells: tuple[Rect, ...]
    scale: float = 1.0

    def to_points(self, x: int, y: int) -> tuple[int, int]:
        """Captured pixels -> mouse points (HiDPI screens capture more pixels than points)."""
        return round(x / self.scale), round(y / self.scale)

    @property
    def board_rect_in_points(self) -> Rect:
        return self.board_rect.scaled(1.0 / self.scale)


def _rect(value) -> Rect:
    if isinstance(value, Rect):
        return value
    return Rect.from_list(value)


def geometry_of(profile) -> BoardGeometry:
    """The board geometry held by a calibration Profile."""
    scale = float(getattr(profile, "scale", 1.0) or 1.0)
    return BoardGeometry(_rect(profile.board_rect), tuple(_rect(c) for c in profile.cells), scale)


def _own(grid: SeenGrid | None) -> SeenGrid | None:
    """A grid no other holder can change: a read's tuples as they are, lists copied."""
    if grid is None or isinstance(grid, tuple):
        return grid
    return [list(row) for row in grid]


class Eyes(abc.ABC):
    """Looks at the board region and says what is on it."""

    geometry: BoardGeometry

    @abc.abstractmethod
    def look(self) -> Sight:
        """Grab the board's region now and read it."""

    def glance(self) -> Sight:
        """Grab the board's region now without reading it (grid None, state "unread"), where the
        eyes can; else a full look."""
        return self.look()

    def look_around(self) -> tuple[Frame, list[Rect]] | None:
        """The whole screen (every monitor) and the monitors, to find the board again after it
        moved; None where the eyes see only the board."""
        return None

    def move_to(self, profile) -> None:
        """Look at the board at its new place from now on (a profile shifted by `Profile.shifted`)."""
        raise NotImplementedError(f"{type(self).__name__} cannot follow a moved board")

    def close(self) -> None:
        pass


class ScreenEyes(Eyes):
    """Grabs the board's frame from a Screen and reads it with screenbot.vision.read_board."""

    def __init__(
        self,
        screen: Screen,
        profile,
        read: Callable | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if read is None:
            from screenbot.vision import read_board as read
        self.screen = screen
        self.profile = profile
        self.geometry = geometry_of(profile)
        self._read = read
        self._clock = clock
        self._last: tuple | None = None  # (profile, pixels, reading) of the last look read


    def grab(self) -> Frame:
        return self.screen.grab(self.geometry.board_rect)

    def look_around(self) -> tuple[Frame, list[Rect]]:
        monitors = self.screen.monitors()
        return self.screen.grab(monitors[0]), monitors

    def move_to(self, profile) -> None:
        self.profile = profile
        self.geometry = geometry_of(profile)

    def _reading(self, frame: Frame, profile=None) -> tuple[SeenGrid | None, str, str]:
        """(grid, state, why) for one frame (at `profile`'s place, by default the eyes' own). A tile
        vision cannot name (a tile above 2048 caught mid-animation, or digits OCR cannot read) is an
        unsettled sight: play knows such tiles from the tracked history and looks again; on a first
        board it says why it cannot start."""
        from screenbot.vision.reader import UnreadableTileError

        try:
            reading = self._read(frame, self.profile if profile is None else profile)
        except UnreadableTileError as exc:
            return None, BoardState.UNSETTLED, str(exc)
        return reading.grid, reading.state, getattr(reading, "detail", "")

    def read_frame(self, frame: Frame, t: float | None = None, profile=None) -> Sight:
        """Read a frame grabbed elsewhere (the whole screen, a recording), at `profile`'s place."""
        start = self._clock()
        grid, state, why = self._reading(frame, profile)
        t = start if t is None else t
        return Sight(grid, state, frame, t, (self._clock() - start) * 1000, why)

    def look(self) -> Sight:
        """Grab and read; a grab with the very pixels of the last look read is not read again (a
        board watched for stillness, a key the game has not shown yet: on a slow-to-read board,
        such as a terminal's text, reading is most of a look)."""
        start = self._clock()
        frame = self.grab()
        last = self._last
        if last is not None and last[0] is self.profile and np.array_equal(last[1], frame.pixels):
            grid, state, why = last[2]
            grid = _own(grid)
        else:
            grid, state, why = self._reading(frame)
            # an unsettled reading is read again, even of the same pixels: what left it unsettled may pass
            # (OCR that timed out on a busy machine, a tile named on a second try)
            unsettled = state == BoardState.UNSETTLED
            self._last = None if unsettled else (self.profile, frame.pixels.copy(), (_own(grid), state, why))
        return Sight(grid, state, frame, start, (self._clock() - start) * 1000, why)

    def glance(self) -> Sight:
        start = self._clock()
        frame = self.grab()
        return Sight(None, BoardState.UNREAD, frame, start, (self._clock() - start) * 1000)
