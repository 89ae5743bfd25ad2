"""Screenshots of real 2048 programs (tests/targets/screens): found and read exactly from one picture."""

from pathlib import Path

import pytest

from screenbot.board_source import open_session
from screenbot.game.rules import parse_board

SCREENS = Path(__file__).resolve().parents[1] / "targets" / "screens"


@pytest.mark.parametrize("name, truth", [
    # pygame's 2048 (PyPI 2048 0.3.3): the board runs to its window's left, right and bottom edges
    ("quantum2048", "4 4 . . / 2 32 2 . / 4 16 32 8 / 4 16 2 2"),
    # the npm web component: a small bare board, no title or score
    ("webcomponent2048", "4 . . . / 2 16 2 . / 32 2 64 . / 4 2 4 2"),
])
def test_a_real_programs_board_is_found_and_read_from_one_screenshot(name, truth, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))  # no saved profile: found on the picture
    with open_session(image=SCREENS / f"{name}.png") as session:
        reading = session.read()
    assert session.found_now
    assert reading.state == "playing", reading.detail
    assert reading.grid == parse_board(truth)
