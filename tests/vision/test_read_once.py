"""A still frame of a real or family program read once, as `read --image` reads it with no profile:
the game's own board, or an error or `unsettled`, never a board the game did not show."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from screenbot.board_source import find_board
from screenbot.control.screen import Frame
from screenbot.errors import ScreenbotError
from screenbot.imaging import read_image
from screenbot.vision.reader import read_board

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
STILL = sorted(p for folder in ("families", "corpus") for p in (FIXTURES / folder).glob("*/still*.png"))


@pytest.fixture(autouse=True)
def user_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # the frames an error keeps


def test_the_still_frames_come_from_every_program():
    assert len({p.parent.name for p in STILL}) >= 20 and len(STILL) >= 100


@pytest.mark.parametrize("path", STILL, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_still_frame_read_once_is_never_a_board_the_game_did_not_show(path):
    truth = json.loads(path.with_suffix(".json").read_text())["board"]
    frame = Frame(read_image(path))
    try:
        reading = read_board(frame, find_board(frame))
    except ScreenbotError:
        return  # an error is never a wrong board
    assert reading.grid is None or [list(row) for row in reading.grid] == truth
