"""What can go wrong while finding the board."""

from __future__ import annotations

from screenbot.errors import ScreenbotError


class NoBoardError(ScreenbotError):
    """No 4x4 board was found in the picture."""


class BoardOffScreenError(NoBoardError):
    """A board-like grid runs off the edge of the captured area."""


class ManyBoardsError(ScreenbotError):
    """More than one board was found; the user has to pick one."""

    def __init__(self, message: str, candidates: list) -> None:
        super().__init__(message)
        self.candidates = candidates


class OtherSizeError(ScreenbotError):
    """The profile is for a board of one size and the board where it points has another: calibrate again."""

    exit_code = 3  # as `read`'s "no board where the profile says"
