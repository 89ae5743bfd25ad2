"""Turns a frame into a 4x4 board: colour classification first, OCR as the fallback."""
