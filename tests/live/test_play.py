"""Live play on the rig: calibrate, then play the practice board with real X keys, checked against the page's record."""

from __future__ import annotations

import threading
import time

import pytest

from screenbot.board_source import calibrate_live
from screenbot.control.screen import MssScreen
from screenbot.game.rules import parse_board
from screenbot.play.demo import misreads_against_page, page_boards
from screenbot.play.loop import PlaySettings, Player
from screenbot.play.record import Recording
from screenbot.play.live_parts import open_live

pytestmark = pytest.mark.live


def play_on(rig, tmp_path, keys="arrows", **settings):
    """Calibrate on the rig's screen, then play with the real agent, XTEST keys and the focus watch
    (`keys` auto: learned from the first move, as `screenbot play` does by default)."""
    with MssScreen() as screen:
        profile = calibrate_live(screen, tmp_path / "profile.json")
    parts = open_live(profile=profile, keys=keys)
    try:
        player = Player(parts.eyes, parts.keyboard, PlaySettings(**{"player": "plain", **settings}), focus_watch=parts.focus_watch,
                        record=Recording(stop_dir=tmp_path / "stop"), learn_keys=keys == "auto")
        summary = player.play()
    finally:
        parts.close()
    return summary, player


def assert_no_misread(player, rig):
    state = rig.state()
    believed = player.tracker.history
    truth = page_boards(state)
    assert misreads_against_page(believed, state) == 0, (
        f"believed {len(believed)} boards, page has {len(truth)}; first difference at "
        f"{next((i for i, (a, b) in enumerate(zip(believed, truth)) if a != b), None)}"
    )


def test_plays_300_moves_at_real_animation_speed_without_a_misread(make_rig, tmp_path):
    rig = make_rig(seed=20261, export_env=True)
    summary, player = play_on(rig, tmp_path, max_moves=300)
    assert summary.ok, summary.reason
    assert summary.moves == 300
    assert_no_misread(player, rig)
    assert rig.state()["moves"] == 300  # every key pressed was a move the page made


def test_plays_300_moves_on_the_dark_theme_zoomed_without_a_misread(make_rig, tmp_path):
    rig = make_rig(screen=(1600, 1200), seed=7, theme="dark", zoom=1.25, anim=0.25, export_env=True)
    summary, player = play_on(rig, tmp_path, max_moves=300)
    assert summary.ok, summary.reason
    assert summary.moves == 300
    assert_no_misread(player, rig)


def test_a_page_without_animation_is_read_still_at_once_without_a_misread(make_rig, tmp_path):
    """anim=0: the next frame after a key shows the new board; play learns that in its first moves
    and stops watching for a growing tile."""
    rig = make_rig(seed=31, anim=0, export_env=True)
    summary, player = play_on(rig, tmp_path, max_moves=120)
    assert summary.ok and summary.moves == 120, summary.reason
    assert_no_misread(player, rig)
    assert player.watcher.redraw.at_once
    assert summary.read_still.get("the game redraws at once", 0) >= 100


@pytest.mark.parametrize("keys", ["wasd", "hjkl"])
def test_a_game_that_takes_only_letter_keys_is_played_with_them(make_rig, tmp_path, keys):
    """The page moves only on its key set here (keys=wasd / hjkl): every move must land."""
    rig = make_rig(seed=41, anim=0.5, keys=keys, export_env=True)
    summary, player = play_on(rig, tmp_path, keys=keys, max_moves=40)
    assert summary.ok and summary.moves == 40, summary.reason
    assert_no_misread(player, rig)
    assert rig.state()["moves"] == 40


def test_a_game_that_takes_only_h_j_k_l_is_learned_on_the_first_move_and_played(make_rig, tmp_path):
    """keys auto: the arrows move nothing on this page, nor do w a s d; h j k l do, and play keeps them."""
    rig = make_rig(seed=43, anim=0.5, keys="hjkl", export_env=True)
    summary, player = play_on(rig, tmp_path, keys="auto", max_moves=40)
    assert summary.ok and summary.moves == 40, summary.reason
    assert summary.rules == ["moves with h j k l"]
    assert_no_misread(player, rig)
    assert rig.state()["moves"] == 40  # the tries that moved nothing made no move on the page


def test_win_overlay_is_dismissed_with_keep_going_and_play_continues(make_rig, tmp_path):
    start = parse_board("1024 1024 . . / 4 8 . . / 2 . . . / . . . 2")
    rig = make_rig(seed=3, board=start, anim=0.5, export_env=True)
    summary, player = play_on(rig, tmp_path, max_moves=12)
    assert summary.ok, summary.reason
    assert summary.moves == 12
    state = rig.state()
    assert state["won"] and state["keep_going"]
    assert max(max(r) for r in player.tracker.board) >= 2048
    assert_no_misread(player, rig)


def test_game_over_stops_cleanly(make_rig, tmp_path):
    start = parse_board("2 4 8 16 / 32 64 128 256 / 512 1024 4 8 / 16 32 . 2")
    rig = make_rig(seed=5, board=start, anim=0.5, export_env=True)
    summary, player = play_on(rig, tmp_path, max_moves=50)
    assert summary.ok and summary.reason == "game over", summary.reason
    assert rig.wait_for(lambda s: s["over"], 5, "game over")["over"]
    assert_no_misread(player, rig)


class CoveringWindow:
    """A plain X window raised over a rectangle; it records every key event that reaches it."""

    def __init__(self, rect) -> None:
        from Xlib import X

        from screenbot.control.x11 import open_x_display

        self.display = open_x_display()
        screen = self.display.screen()
        self.window = screen.root.create_window(
            rect.x - 20, rect.y - 20, rect.w + 40, rect.h + 40, 0, screen.root_depth,
            X.InputOutput, X.CopyFromParent, background_pixel=0x3366CC,
            event_mask=X.KeyPressMask | X.KeyReleaseMask | X.ExposureMask,
            override_redirect=True,
        )
        self.keys = 0

    def show(self) -> None:
        from Xlib import X

        self.window.map()
        self.window.configure(stack_mode=X.Above)
        self.display.sync()

    def count_keys(self) -> int:
        from Xlib import X

        while self.display.pending_events():
            event = self.display.next_event()
            if event.type in (X.KeyPress, X.KeyRelease):
                self.keys += 1
        return self.keys

    def close(self) -> None:
        self.window.destroy()
        self.display.close()


def test_a_window_raised_over_the_board_gets_no_key_and_play_stops(make_rig, tmp_path):
    rig = make_rig(seed=9, anim=0.5, export_env=True)
    cover = CoveringWindow(rig.board_rect())
    keys_when_covered = {}

    def raise_cover_after_moves():
        rig.wait_for_moves(15, timeout=60)
        cover.show()
        keys_when_covered["page"] = rig.state()["keys"]

    thread = threading.Thread(target=raise_cover_after_moves, daemon=True)
    thread.start()
    try:
        summary, player = play_on(rig, tmp_path, max_moves=400, safety_wait_s=1.5)
        thread.join(10)
        time.sleep(0.3)
        assert not summary.ok
        assert "no key was pressed" in summary.reason
        assert cover.count_keys() == 0, "a key reached the window over the board"
        # at most the one key already on its way when the window appeared reached the page
        assert rig.state()["keys"] - keys_when_covered["page"] <= 1
    finally:
        cover.close()


def test_a_recorded_game_replays_without_disagreement_and_a_tampered_log_is_caught(make_rig, tmp_path):
    import json

    from screenbot import cli

    make_rig(seed=12, anim=0.5, export_env=True)
    record = tmp_path / "rec"
    assert cli.main(["calibrate", "--profile", str(tmp_path / "p.json")]) == 0
    assert cli.main(["play", "--player", "plain", "--profile", str(tmp_path / "p.json"), "--max-moves", "25", "--record",
                     str(record)]) == 0
    assert cli.main(["replay", str(record)]) == 0
    log = record / "log.jsonl"
    lines = log.read_text().splitlines()
    entry = json.loads(lines[10])
    entry["board"][0][0] = 4096 if entry["board"][0][0] != 4096 else 2
    lines[10] = json.dumps(entry)
    log.write_text("\n".join(lines) + "\n")
    assert cli.main(["replay", str(record)]) == 1


def test_play_by_default_plays_the_corner_tables_move_on_a_board_they_know(make_rig, tmp_path, monkeypatch):
    """Play's default maps the corner tables from the user cache dir (in a thread, taken between two
    moves; the file is made and checked, so at once). Here that holds an empty table file, so each board
    the tables know is solved on the spot (within play's budget per decision): on a crowded endgame board
    whose big tiles form the block, the moves played are the tables' (depth 0)."""
    import os
    import re
    import subprocess
    import sys

    from screenbot.agent.block_tables import BlockTables, default_table_path

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    BlockTables.empty_compact().save(default_table_path())
    assert str(default_table_path()).startswith(str(tmp_path))
    board = [[32768, 16384, 8192, 512], [4096, 2048, 1024, 256], [128, 64, 128, 0], [4, 4, 32, 64]]
    rig = make_rig(seed=31, anim=0.5, export_env=True)
    rig.load(board=board, score=700_000, keep=1)
    rig.wait_still()
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    played = subprocess.run([sys.executable, "-m", "screenbot", "play", "--max-moves", "6"], env=env,
                            capture_output=True, text=True, timeout=300)
    assert played.returncode == 0, played.stderr
    assert "corner tables" not in played.stderr  # made already: nothing built, nothing to say
    assert rig.state(history=False)["moves"] == 6
    depths = re.search(r"search depth of the moves played: (.*)", played.stdout)
    assert depths is not None, played.stdout
    counts = dict(part.split(": ") for part in depths.group(1).split(", "))
    assert int(counts.get("0", 0)) >= 3, played.stdout  # the tables' moves (depth 0), not searches
