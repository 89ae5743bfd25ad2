"""Terminal 2048s in four xterm colour schemes (grey on black, black on white, Solarized dark and light):
the family programs and the corpus's real terminal games, each still frame found and read exactly as
`read --image` reads it. Frames: tests/targets/families/record_colour_schemes.py."""

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

FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "colour_schemes"
FRAMES = sorted(FOLDER.glob("*.png"))


def test_fourteen_programs_are_recorded_in_four_schemes():
    labels = [json.loads(p.with_suffix(".json").read_text()) for p in FRAMES]
    programs = {lab["program"] for lab in labels}
    assert len(programs) == 14
    assert all({lab["scheme"] for lab in labels if lab["program"] == p} == {"dark", "light", "sol", "lightsol"}
               for p in programs)


@pytest.mark.parametrize("path", FRAMES, ids=lambda p: p.stem)
def test_a_terminal_board_in_another_colour_scheme_is_read_exactly(path):
    truth = json.loads(path.with_suffix(".json").read_text())["board"]
    frame = Frame(read_image(path))
    try:
        reading = read_board(frame, find_board(frame))
    except ScreenbotError as exc:
        pytest.fail(f"an error, not the board: {exc}")
    assert reading.state == BoardState.PLAYING, reading.detail
    assert [list(row) for row in reading.grid] == truth
