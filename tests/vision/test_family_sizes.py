"""Screens of the family programs (tests/targets/families) at other sizes than 4x4 (engine.py's
$FAMILY_SIZE: 3x3, 5x5, 4x6, 6x4, 8x8), each labelled by the game's own board: a board written as text
(a bare matrix, boxes of lines, a grid ruled with `‖` and `=`) or drawn as blocks that touch, found at its
size on that one frame with no options, as `calibrate` finds it, and read exactly. Recorded on Xvfb
(tests/fixtures/families_sizes), read here without a display."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from screenbot.board_state import BoardState
from screenbot.calibration import calibrate, find_lattices
from screenbot.control.screen import Frame
from screenbot.errors import ScreenbotError
from screenbot.imaging import read_image
from screenbot.vision.marks import learn_marks
from screenbot.vision.reader import read_board

FRAMES = Path(__file__).resolve().parents[1] / "fixtures" / "families_sizes"
NAMES = sorted(p.stem for p in FRAMES.glob("*.png"))


def test_the_frames_cover_text_and_blocks_at_several_sizes():
    looks = {n.rsplit("_", 2)[0] for n in NAMES}
    sizes = {n.rsplit("_", 2)[1] for n in NAMES}
    assert {"blocks24", "printed_zeros", "plain_boxes", "ascii_double"} <= looks
    assert {"3x3", "5x5", "4x6", "8x8"} <= sizes


def _calibrated_and_read(name: str):
    frame = Frame(read_image(FRAMES / f"{name}.png"))
    board = json.loads((FRAMES / f"{name}.json").read_text())["board"]
    profile = calibrate(frame, search=find_lattices(frame.pixels))
    learn_marks(frame, profile)
    return profile, read_board(frame, profile), board


@pytest.mark.parametrize("name", NAMES)
def test_a_family_board_of_another_size_is_found_at_its_size_and_read_exactly(name):
    profile, reading, board = _calibrated_and_read(name)
    assert profile.shape == (len(board), len(board[0]))
    assert reading.state == BoardState.PLAYING
    assert [list(r) for r in reading.grid] == board


@pytest.mark.parametrize("name", NAMES)
def test_no_frame_of_another_size_is_read_as_a_board_the_game_did_not_show(name):
    try:
        _profile, reading, board = _calibrated_and_read(name)
    except ScreenbotError:
        return  # not found or not read: an error that says so
    assert reading.grid is None or [list(r) for r in reading.grid] == board
