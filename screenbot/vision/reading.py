"""What reading one frame gives: a Reading, or UnreadableTileError for a still tile that nothing can name."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from screenbot.board_state import BoardState
from screenbot.errors import ScreenbotError
from screenbot.game.rules import Grid
from screenbot.geometry import Rect


class UnreadableTileError(ScreenbotError):
    """A still tile that neither its colour nor its digits can name."""

    def __init__(self, message: str, reading: "Reading | None" = None) -> None:
        super().__init__(message)
        self.reading = reading


def answers(board_rect: Rect) -> Callable[..., "Reading"]:
    """done(grid, state, detail="", calls=0, learned=False): a Reading of the board at board_rect, timed
    from this call on."""
    start = time.perf_counter()

    def done(grid, state, detail: str = "", calls: int = 0, learned: bool = False) -> "Reading":
        return Reading(grid, state, board_rect, detail, (time.perf_counter() - start) * 1000, calls, learned)

    return done


def no_number(row: int, col: int, reading: "Reading") -> UnreadableTileError:
    """The error for a still cell whose writing names no tile (row and col from 0)."""
    return UnreadableTileError(
        f"cannot read the number in row {row + 1}, column {col + 1}: its digits name no tile; "
        "make sure the game is not covered and calibrate again",
        reading,
    )


@dataclass(frozen=True)
class Reading:
    """What one frame shows: the grid (None unless certain), the state, and how it was read."""

    grid: Grid | None
    state: BoardState  # playing | won | over | unsettled | no-board
    board_rect: Rect | None = None
    detail: str = ""  # why a frame is unsettled / no-board
    ms: float = 0.0
    ocr_calls: int = 0
    learned: bool = False  # a new colour or digit shape was learned (save the profile)

    def as_json(self) -> dict:
        return {
            "board": [list(r) for r in self.grid] if self.grid else None,
            "state": self.state,
            "rect": self.board_rect.as_list() if self.board_rect else None,
        }
