"""BoardState: what a look at the board found it doing (playing, won, over, unsettled, no-board, unread)."""

from __future__ import annotations

from enum import Enum


class BoardState(str, Enum):
    """A board's state as seen on screen; equal to (and printed, formatted and JSON-encoded as) its text."""

    PLAYING = "playing"  # a still board, in play
    WON = "won"  # under the "You win!" overlay
    OVER = "over"  # under the "Game over!" overlay
    UNSETTLED = "unsettled"  # caught mid-move (or a tile that cannot be named yet)
    NO_BOARD = "no-board"  # no board where the profile says
    UNREAD = "unread"  # grabbed, not read

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    def __repr__(self) -> str:
        return repr(self.value)
