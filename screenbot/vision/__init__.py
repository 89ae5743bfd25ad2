"""Turns a frame into a 4x4 board: colour classification first, OCR as the fallback."""

from screenbot.vision.reader import STATES, Reading, UnreadableTileError, read_board

__all__ = ["STATES", "Reading", "UnreadableTileError", "read_board"]
