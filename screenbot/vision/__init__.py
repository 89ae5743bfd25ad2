"""Turns a frame into a 4x4 board: colour classification first, OCR as the fallback."""

from screenbot.board_state import BoardState
from screenbot.vision.reader import Reading, UnreadableTileError, read_board

__all__ = ["BoardState", "Reading", "UnreadableTileError", "read_board"]
