"""Live play on win messages that differ from the classic game's: at 4096, dismissed with a key, or never; each checked against the page's record."""

from __future__ import annotations

import pytest

from screenbot.game.rules import max_tile, parse_board

from test_play import assert_no_misread, play_on

pytestmark = pytest.mark.live

BEFORE_2048 = parse_board("1024 1024 . . / 4 8 . . / 2 . . . / . . . 2")


def test_a_win_message_at_4096_is_clicked_away_and_play_goes_on(make_rig, tmp_path):
    """win=4096: no message at the first 2048 (noted, waited for once), the message at 4096."""
    start = parse_board("1024 1024 . . / 1024 1024 . . / 4 . . . / . . . 2")
    rig = make_rig(seed=3, board=start, anim=0.5, win=4096, export_env=True)
    summary, player = play_on(rig, tmp_path, max_moves=25)
    assert summary.ok and summary.moves == 25, summary.reason
    state = rig.state()
    assert (state["win"], state["dismiss"]) == (4096, "click")
    assert state["won"] and state["keep_going"], "the game never showed its message at 4096"
    assert max_tile(player.tracker.board) >= 4096
    assert summary.rules == ["no win message at 2048", "win message at 4096"]
    assert_no_misread(player, rig)
    assert state["moves"] == 25


@pytest.mark.parametrize("anim", [0.5, 0], ids=["fading-in", "at-once"])
def test_a_win_message_that_asks_for_enter_is_dismissed_with_enter(make_rig, tmp_path, anim):
    """anim=0.5: the message fades in after the move is believed (play waits for it); anim=0: it is
    up on the move's own frame (play meets it while watching the move land)."""
    rig = make_rig(seed=3, board=BEFORE_2048, anim=anim, dismiss="key", export_env=True)
    summary, player = play_on(rig, tmp_path, max_moves=15)
    assert summary.ok and summary.moves == 15, summary.reason
    state = rig.state()
    assert state["dismiss"] == "key" and state["won"] and state["keep_going"]
    assert summary.rules == ["win message at 2048", "win message dismissed with Enter"]
    assert_no_misread(player, rig)
    assert state["moves"] == 15


def test_a_game_with_no_win_message_is_noted_and_played_on(make_rig, tmp_path):
    rig = make_rig(seed=3, board=BEFORE_2048, anim=0.5, keep=True, export_env=True)
    summary, player = play_on(rig, tmp_path, max_moves=15)
    assert summary.ok and summary.moves == 15, summary.reason
    state = rig.state()
    assert state["win"] is None and not state["won"]
    assert max_tile(player.tracker.board) >= 2048
    assert summary.rules == ["no win message at 2048"]
    assert_no_misread(player, rig)
    assert state["moves"] == 15


def test_a_terminal_games_win_box_that_asks_for_enter_is_dismissed_with_enter(make_rig, tmp_path):
    """The terminal look: a text board whose win box is drawn in box characters, with a line asking
    for Enter: named "won" by its words, dismissed with the key its text names (never a click)."""
    rig = make_rig(seed=3, board=BEFORE_2048, anim=0, theme="terminal", dismiss="key", export_env=True)
    summary, player = play_on(rig, tmp_path, max_moves=12)
    assert summary.ok and summary.moves == 12, summary.reason
    state = rig.state()
    assert state["won"] and state["keep_going"]
    assert summary.rules == ["win message at 2048", "win message dismissed with Enter"]
    assert_no_misread(player, rig)
    assert state["moves"] == 12
