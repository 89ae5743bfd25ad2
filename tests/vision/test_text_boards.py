"""Boards written as text (terminal 2048s): found by their character lattice, read glyph by glyph, look-alikes rejected."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from screenbot.calibration import NoBoardError, calibrate
from screenbot.calibration.text_lattice import find_text_boards
from screenbot.control.screen import Frame
from screenbot.game.rules import to_grid
from screenbot.vision.reader import read_board

TERM2048 = Path(__file__).resolve().parents[1] / "fixtures" / "targets" / "term2048"
FRAMES = ["start", "early", "mid", "512", "1k", "1k-crowded", "2k"]


def frame_of(name: str) -> tuple[Frame, tuple]:
    pixels = cv2.imread(str(TERM2048 / f"{name}.png"))
    truth = to_grid(json.loads((TERM2048 / f"{name}.json").read_text())["board"])
    return Frame(pixels, 0, 0), truth


def test_term2048_is_calibrated_on_its_first_board_and_every_later_frame_is_read_exactly():
    """Calibrated on the opening board (three numbers, the rest dots), then read with that profile:
    numbers of 1 to 3 digits, right-aligned, in 7 colours (2 and 512 share one), and 1024/2048 as 1k/2k."""
    first, _ = frame_of("start")
    profile = calibrate(first)
    assert profile.kind == "text"
    for name in FRAMES:
        frame, truth = frame_of(name)
        reading = read_board(frame, profile)
        assert reading.state == "playing", (name, reading.detail)
        assert reading.grid == truth, name
    # each (colour, digits) pair was read by OCR once, then known by its shape
    frame, truth = frame_of("2k")
    assert read_board(frame, profile).ocr_calls == 0


def draw_table(rows: int, cols: int, pitch=(60, 30), origin=(40, 60), seed=1) -> np.ndarray:
    """Numbers on a dark background on an even lattice, like a calendar or a spreadsheet."""
    rng = np.random.default_rng(seed)
    img = np.zeros((origin[1] + rows * pitch[1] + 40, origin[0] + cols * pitch[0] + 40, 3), np.uint8)
    for r in range(rows):
        for c in range(cols):
            text = str(int(rng.integers(1, 31)))
            cv2.putText(img, text, (origin[0] + c * pitch[0], origin[1] + r * pitch[1]), cv2.FONT_HERSHEY_SIMPLEX,
                        0.6, (200, 200, 200), 1, cv2.LINE_AA)
    return img


@pytest.mark.parametrize("rows, cols", [(5, 7), (6, 4), (4, 6), (4, 3), (9, 4), (4, 9)])
def test_a_calendar_or_table_of_numbers_is_not_a_board(rows, cols):
    """A table of any size is no 4x4 text board; where its size is one a board may have, its numbers
    (1 to 30) name no 2048 tiles, and nothing is calibrated."""
    assert all(t.lattice.shape != (4, 4) for t in find_text_boards(draw_table(rows, cols)))
    with pytest.raises(NoBoardError):
        calibrate(Frame(draw_table(rows, cols), 0, 0))


@pytest.mark.parametrize("rows, cols", [(3, 3), (5, 5), (4, 6), (8, 8)])
def test_numbers_of_2048_tiles_on_a_lattice_of_another_size_are_a_board_of_that_size(rows, cols):
    """The same drawing with powers of two (a terminal game of another size) is found at its size and
    read exactly."""
    rng = np.random.default_rng(rows * 10 + cols)
    board = [[int(2 ** rng.integers(1, 8)) for _ in range(cols)] for _ in range(rows)]
    img = np.zeros((60 + rows * 40 + 40, 40 + cols * 70 + 40, 3), np.uint8)
    for r in range(rows):
        for c in range(cols):
            cv2.putText(img, str(board[r][c]), (40 + c * 70, 60 + r * 40), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                        (200, 200, 200), 1, cv2.LINE_AA)
    frame = Frame(img, 0, 0)
    profile = calibrate(frame)
    assert (profile.kind, profile.shape) == ("text", (rows, cols))
    assert [list(r) for r in read_board(frame, profile).grid] == board


def test_a_page_of_prose_is_not_a_board():
    img = np.full((300, 600, 3), 255, np.uint8)
    for i, line in enumerate(["The quick brown fox jumps over", "the lazy dog 16 times, then 32", "more; 2048 is",
                              "a game of 4 by 4 tiles", "with numbers 2 4 8 on them."]):
        cv2.putText(img, line, (20, 40 + 30 * i), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (20, 20, 20), 1, cv2.LINE_AA)
    assert find_text_boards(img) == []
    with pytest.raises(NoBoardError):
        calibrate(Frame(img, 0, 0))
