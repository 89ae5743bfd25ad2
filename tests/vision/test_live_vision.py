"""Live: calibrate and read the practice board in a real Chromium on Xvfb, through mss, against the page's state."""

from __future__ import annotations

import json

import pytest

from screenbot.board_source import calibrate_live
from screenbot.board_state import BoardState
from screenbot.cli import main
from screenbot.control.screen import MssScreen
from screenbot.practice.rig import Rig
from screenbot.vision import read_board
from screenbot.calibration import Profile

pytestmark = pytest.mark.live

START = ((2, 4, 8, 16), (0, 32, 64, 0), (128, 256, 512, 1024), (0, 2048, 0, 4096))


def read_until_settled(screen, profile, timeout_reads: int = 100):
    for _ in range(timeout_reads):
        reading = read_board(screen.grab(profile.board_rect), profile)
        if reading.state != BoardState.UNSETTLED:
            return reading
    return reading


@pytest.mark.parametrize("options", [
    dict(theme="classic"),
    dict(theme="dark", zoom=1.5, scroll="board"),
    dict(theme="classic", scale=2.0, size=250, screen=(1920, 1080), window_pos=(200, 60), window_size=(1400, 1000)),
], ids=["classic", "dark-zoom150", "classic-scale2-small"])
def test_calibrate_then_read_the_live_screen(options, tmp_path, capsys):
    with Rig(board=START, keep=True, seed=7, export_env=True, **options) as rig:
        rig.focus_page()
        rig.wait_still()
        profile_path = tmp_path / "profile.json"
        assert main(["calibrate", "--profile", str(profile_path)]) == 0
        assert "profile:" in capsys.readouterr().out
        profile = Profile.load(profile_path)
        truth = rig.board_rect()
        assert all(abs(a - b) <= 2 for a, b in zip(profile.board_rect.as_list(), truth.as_list()))
        assert profile.theme == options["theme"] and profile.monitor == 1
        assert main(["read", "--profile", str(profile_path), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["board"] == [list(r) for r in rig.grid()]
        # a few real moves: every still board read is the page's board
        screen = MssScreen()
        try:
            for key in ("left", "up", "right", "down"):
                before = rig.state()["moves"]
                rig.press(key)
                rig.wait_still()
                reading = read_until_settled(screen, profile)
                assert reading.state == BoardState.PLAYING
                assert reading.grid == rig.grid(), (key, before)
        finally:
            screen.close()


def test_a_stale_profile_is_replaced_for_the_run_by_read_hint_and_play(tmp_path, capsys):
    """A saved profile whose board is elsewhere: read, hint and play --dry-run each find the board on
    the screen for that run, say so in one stderr line, and leave the profile file as it was."""
    with Rig(board=START, keep=True, seed=7, export_env=True, theme="classic") as rig:
        rig.focus_page()
        rig.wait_still()
        with MssScreen() as screen:
            profile = calibrate_live(screen)
        stale = tmp_path / "stale.json"
        profile.shifted(0, profile.board_rect.h + 20).save(stale)  # below the board (or off the screen)
        saved = stale.read_text()
        truth = [list(r) for r in rig.grid()]
        assert main(["read", "--profile", str(stale), "--json"]) == 0
        captured = capsys.readouterr()
        assert json.loads(captured.out)["board"] == truth
        note = "screenbot: note: the board is not where the profile says"
        assert captured.err.count("\n") == 1 and captured.err.startswith(note)
        assert main(["hint", "--player", "plain", "--profile", str(stale), "--depth", "1"]) == 0
        captured = capsys.readouterr()
        assert "best move:" in captured.out and captured.err.count("\n") == 1 and captured.err.startswith(note)
        assert main(["play", "--player", "plain", "--profile", str(stale), "--dry-run"]) == 0
        captured = capsys.readouterr()
        assert "move:" in captured.out and captured.err.startswith(note)
        assert stale.read_text() == saved
