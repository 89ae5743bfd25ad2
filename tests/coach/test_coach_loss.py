"""The loss of a move (a share of the best move's expected value) and its band."""

from __future__ import annotations

import pytest

from screenbot.agent.base import Decision
from screenbot.coach.evaluate import BLUNDER, INACCURACY, MISTAKE, OTHER_SIZE_BANDS, Judge, band_of, bands_for, loss_of
from screenbot.game.rules import Move

U, D, L, R = Move.UP, Move.DOWN, Move.LEFT, Move.RIGHT


def test_the_loss_is_the_share_of_the_best_value_given_up():
    values = {U: 1000.0, L: 900.0, R: 500.0}
    assert loss_of(values, U, U) == 0.0
    assert loss_of(values, L, U) == pytest.approx(0.1)
    assert loss_of(values, R, U) == pytest.approx(0.5)


def test_the_loss_is_a_ratio_the_same_on_a_small_and_a_big_board():
    assert loss_of({U: 100.0, D: 95.0}, D, U) == pytest.approx(loss_of({U: 2e6, D: 1.9e6}, D, U))


def test_the_loss_is_clamped_and_zero_when_the_best_value_is_not_positive():
    assert loss_of({U: 100.0, D: -50.0}, D, U) == 1.0
    assert loss_of({U: 100.0, D: 120.0}, D, U) == 0.0  # a played move valued above the agent's pick
    assert loss_of({U: 0.0, D: 0.0}, D, U) == 0.0
    assert loss_of({U: -5.0, D: -10.0}, D, U) == 0.0
    assert loss_of({U: 100.0}, D, U) == 1.0  # a move the agent saw as illegal
    assert loss_of({}, D, None) == 0.0


def test_the_bands():
    assert 0 < INACCURACY < MISTAKE < BLUNDER < 1
    assert band_of(0.0) == "good"
    assert band_of(INACCURACY * 0.99) == "good"
    assert band_of(INACCURACY) == "inaccuracy"
    assert band_of(MISTAKE * 0.99) == "inaccuracy"
    assert band_of(MISTAKE) == "mistake"
    assert band_of(BLUNDER * 0.99) == "mistake"
    assert band_of(BLUNDER) == "blunder"
    assert band_of(1.0) == "blunder"


def test_each_distinct_board_is_searched_once():
    calls = []

    def choose(board):
        calls.append(board)
        return Decision(U, {U: 200.0, D: 150.0, L: 196.0})

    judge = Judge(choose)
    board = ((2, 0, 0, 0),) + ((0, 0, 0, 0),) * 3
    other = ((4, 0, 0, 0),) + ((0, 0, 0, 0),) * 3
    first = judge.judge(0, board, D, "shot1.png")
    second = judge.judge(1, board, L)
    judge.judge(2, other, U)
    assert calls == [board, other] and judge.searches == 2
    assert (first.best, first.loss, first.band) == (U, pytest.approx(0.25), "blunder")
    assert (second.loss, second.band) == (pytest.approx(0.02), "mistake")
    assert first.as_json() == {
        "i": 0, "board": [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], "move": "down", "best": "up",
        "loss": 0.25, "band": "blunder", "values": {"up": 200.0, "down": 150.0, "left": 196.0}, "at": "shot1.png",
    }


def test_the_judge_is_plays_player_and_gives_the_played_best_move_no_loss(monkeypatch, tmp_path):
    from screenbot.agent.block_tables import BlockTables, default_table_path
    from screenbot.agent.corner import CornerAgent

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    BlockTables.empty_compact().save(default_table_path())  # play's tables, nothing solved yet
    judge = Judge(depth=1)
    assert isinstance(judge.agent, CornerAgent) and judge.agent.block is not None
    assert judge.described["player"] == "corner-v4"
    board = ((2, 2, 4, 8), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 2))
    best = judge.decision(board).move
    assert judge.judge(0, board, best).loss == 0.0
    worst = min(judge.decision(board).values.items(), key=lambda mv: mv[1])[0]
    assert judge.judge(1, board, worst).loss > 0


def test_the_players_of_other_sizes_have_bands_of_their_own_in_order():
    assert set(OTHER_SIZE_BANDS) == {"exact-3x3", "any-size"}
    for name, bands in OTHER_SIZE_BANDS.items():
        assert 0 < bands.inaccuracy < bands.mistake < bands.blunder < 1, name
        assert bands_for(name) is bands
        assert [bands.band_of(x) for x in (0.0, bands.inaccuracy, bands.mistake, bands.blunder, 1.0)] == [
            "good", "inaccuracy", "mistake", "blunder", "blunder"]
        assert bands.band_of(bands.inaccuracy * 0.99) == "good"
    assert bands_for("corner-v4").as_json() == {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER}
