"""Live: a profile saved on the practice board at 4x4, the page restarted at 5x5 (the same place, the
same outer size, other cells): `screenbot play`, `coach` and `read` say so in one line and keep the
frame; no key reaches the page."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.live


def screenbot(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "screenbot", *args], env=env, capture_output=True, text=True,
                          timeout=300)


LINE = (r"screenbot: error: the saved profile is for a 4x4 board; the board on the screen looks 5x5: "
        r"run `screenbot calibrate` again \(the picture is kept at (.+\.png)\)")


def the_one_line(done: subprocess.CompletedProcess) -> None:
    assert done.returncode != 0
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    found = re.fullmatch(LINE, lines[0])
    assert found is not None, lines[0]
    assert Path(found[1]).is_file()


def test_a_5x5_board_with_a_4x4_profile_is_refused_in_one_line_and_no_key_is_pressed(make_rig, tmp_path):
    rig = make_rig(seed=11, export_env=True)
    env = {**os.environ, **rig.env, "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_CACHE_HOME": str(tmp_path / "cache")}
    rig.wait_still()
    calibrated = screenbot(env, "calibrate")
    assert calibrated.returncode == 0, calibrated.stderr
    profile = tmp_path / "config" / "screenbot" / "profile.json"
    assert profile.is_file()

    rig.load(shape=(5, 5))
    rig.wait_still()
    before = rig.state(history=False)
    for args in (("play", "--max-moves", "5"), ("coach", "--seconds", "5"), ("read",)):
        done = screenbot(env, *args)
        the_one_line(done)
        assert "move" not in done.stdout and "state:" not in done.stdout  # no board said, no move
    after = rig.state(history=False)
    assert after["keys"] == before["keys"] == 0 and after["board"] == before["board"]  # not one key reached the page
