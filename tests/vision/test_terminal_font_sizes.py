"""Terminal 2048s at other font sizes than their own: the family programs at 9 to 24 px and the corpus's
real terminal programs at 10 and 18 px, both at 13 and 15 px, and both in another font (Liberation Mono,
12 and 16 px). Each
still frame found and read exactly as `read --image` reads it, never a board the game did not show.
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

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FRAMES = {p.stem: p for folder in ("families_fonts", "corpus_fonts", "other_fonts") for p in (FIXTURES / folder).glob("*.png")}
NAMES = sorted(FRAMES)
# not read today (an error or unsettled, never a board)
NOT_YET = {
    "tuinty2048_LiberationMono_12": "the seven-segment digits, drawn with box-drawing characters, break apart in "
                                    "this font; its cells are refused as the colour of the lines between them",
    "tuinty2048_LiberationMono_16": "the seven-segment digits break apart in this font: a 2's top bar and its "
                                    "upper right stroke are words of their own (an error, no board)",
}


def label(name: str) -> dict:
    return json.loads(FRAMES[name].with_suffix(".json").read_text())


def test_terminal_programs_are_recorded_at_several_font_sizes():
    sizes, other = {}, {}
    for name in NAMES:
        lab = label(name)
        (other if "font" in lab else sizes).setdefault(lab["program"], set()).add(lab["font_size"])
    assert len(sizes) == 12
    assert all(s in ({9, 11, 18, 24}, {10, 18}) for s in sizes.values())
    fonts = {(label(n)["font"], label(n)["font_size"]) for n in NAMES if "font" in label(n)}
    assert fonts == {("Liberation Mono", 12), ("Liberation Mono", 16), ("DejaVu Sans Mono", 13), ("DejaVu Sans Mono", 15)}
    assert len(other) == 12 and all(s == {12, 13, 15, 16} for s in other.values())


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(reason=NOT_YET[n], strict=True))
                                  if n in NOT_YET else n for n in NAMES])
def test_a_terminal_board_at_another_font_size_is_read_exactly(name):
    truth = label(name)["board"]
    frame = Frame(read_image(FRAMES[name]))
    try:
        profile = find_board(frame)
        reading = read_board(frame, profile)
    except ScreenbotError as exc:
        pytest.fail(f"an error, not the board: {exc}")
    assert reading.state == BoardState.PLAYING, reading.detail
    assert [list(row) for row in reading.grid] == truth


@pytest.mark.parametrize("name", NAMES)
def test_no_font_size_gives_a_board_the_game_did_not_show(name):
    truth = label(name)["board"]
    frame = Frame(read_image(FRAMES[name]))
    try:
        reading = read_board(frame, find_board(frame))
    except ScreenbotError:
        return  # an error is never a wrong board
    assert reading.grid is None or [list(row) for row in reading.grid] == truth
