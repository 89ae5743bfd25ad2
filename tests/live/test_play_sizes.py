"""Live play on the practice board at sizes other than 4x4: calibrated with no options (the size found
on the screen), played by that size's own player with real keys, every believed board the page's own."""

from __future__ import annotations

import pytest

from screenbot.agent.players import DEFAULT_PLAYER

from test_play import assert_no_misread, play_on

pytestmark = pytest.mark.live


@pytest.mark.parametrize("shape, moves", [((5, 5), 60), ((3, 3), 40), ((4, 6), 60)], ids=["5x5", "3x3", "4x6"])
def test_a_board_of_another_size_is_played_without_a_misread(make_rig, tmp_path, shape, moves):
    rig = make_rig(seed=7, shape=shape, export_env=True)
    summary, player = play_on(rig, tmp_path, max_moves=moves, player=DEFAULT_PLAYER)  # the size's own
    assert summary.ok or summary.reason.startswith("game over"), summary.reason
    assert player.tracker.board is not None and (len(player.tracker.board), len(player.tracker.board[0])) == shape
    assert summary.moves == min(moves, rig.state()["moves"]) and summary.moves >= min(moves, 20)
    assert_no_misread(player, rig)
