"""`screenbot calibrate --probe` on a real screen: one X key, only into the board under the pointer."""

from __future__ import annotations

import pytest

from screenbot.calibration import Profile
from screenbot.cli import main

pytestmark = pytest.mark.live


def test_probe_presses_one_key_into_the_board_under_the_pointer_and_saves_it(make_rig, tmp_path, monkeypatch):
    import screenbot.play.probe as probe_module

    monkeypatch.setattr(probe_module, "POINT_WAIT_S", 0.2)
    rig = make_rig(seed=12, anim=0.5, export_env=True)
    board = rig.board_rect()
    rig._xdotool("mousemove", str(board.center.x), str(board.center.y))
    path = tmp_path / "profile.json"
    assert main(["calibrate", "--probe", "--profile", str(path)]) == 0
    assert rig.state()["moves"] == 1  # exactly one key, and the game took it
    assert Profile.load(path).board_rect.contains(board.center)


def test_probe_presses_nothing_when_the_pointer_is_off_the_board(make_rig, tmp_path, monkeypatch, capsys):
    import screenbot.play.probe as probe_module

    monkeypatch.setattr(probe_module, "POINT_WAIT_S", 0.2)
    rig = make_rig(seed=12, anim=0.5, export_env=True)
    rig._xdotool("mousemove", "3", "3")
    path = tmp_path / "profile.json"
    assert main(["calibrate", "--probe", "--profile", str(path)]) != 0
    assert "nothing was pressed" in capsys.readouterr().err
    assert rig.state()["moves"] == 0 and not path.exists()
