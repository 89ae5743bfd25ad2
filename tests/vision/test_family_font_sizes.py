"""The terminal family programs at other font sizes than their own (9 to 24 px): each still frame found
and read exactly as `read --image` reads it, never a board the game did not show.
Frames: tests/targets/families/record_font_sizes.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from screenbot.board_source import find_board
from screenbot.board_state import BoardState
from screenbot.control.screen import Frame
from screenbot.errors import ScreenbotError
from screenbot.imaging import read_image
from screenbot.vision.reader import read_board

FRAMES = Path(__file__).resolve().parents[1] / "fixtures" / "families_fonts"
NAMES = sorted(p.stem for p in FRAMES.glob("*.png"))
# not read today (an error, never a board): at 9 px the blocks inset in the boxed cells make a lattice of
# their own, and the grid of lines is not found
NOT_YET = {"curses_boxes_9": "9 px: the inset blocks are taken for a board of their own, cut off"}


def test_every_terminal_family_program_is_recorded_at_four_font_sizes():
    assert len(NAMES) == 20
    assert {json.loads((FRAMES / f"{n}.json").read_text())["font_size"] for n in NAMES} == {9, 11, 18, 24}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(reason=NOT_YET[n], strict=True))
                                  if n in NOT_YET else n for n in NAMES])
def test_a_terminal_board_at_another_font_size_is_read_exactly(name):
    truth = json.loads((FRAMES / f"{name}.json").read_text())["board"]
    frame = Frame(read_image(FRAMES / f"{name}.png"))
    try:
        profile = find_board(frame)
        reading = read_board(frame, profile)
    except ScreenbotError as exc:
        pytest.fail(f"an error, not the board: {exc}")
    assert reading.state == BoardState.PLAYING, reading.detail
    assert [list(row) for row in reading.grid] == truth


@pytest.mark.parametrize("name", NAMES)
def test_no_font_size_gives_a_board_the_game_did_not_show(name):
    truth = json.loads((FRAMES / f"{name}.json").read_text())["board"]
    frame = Frame(read_image(FRAMES / f"{name}.png"))
    try:
        reading = read_board(frame, find_board(frame))
    except ScreenbotError:
        return  # an error is never a wrong board
    assert reading.grid is None or [list(row) for row in reading.grid] == truth
