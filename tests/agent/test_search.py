"""The expectimax agent: the compiled search against a plain reference, sensible choices, the API's promises."""

import math
from contextlib import contextmanager
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from screenbot.agent import Decision, ExpectimaxAgent, SearchCancelled, adaptive_depth
from screenbot.agent.heuristic import ROW_SCORE, Weights, row_score_table
from screenbot.game import Move, apply_move, empty_cells, legal_moves, parse_board, to_grid

from reference_search import reference_chance

W = Weights()


@lru_cache(maxsize=None)
def reference_line_score(ranks, w=W):
    """The row heuristic (weights w) written out plainly from its definition (heuristic.py's docstring)."""
    empty = sum(r == 0 for r in ranks)
    tiles = [r for r in ranks if r]
    merges, run = 0, 0
    for a, b in zip(tiles, tiles[1:]):
        if a == b and a < 15:
            run += 1
        elif run:
            merges += 1 + run
            run = 0
    if run:
        merges += 1 + run
    p = w.monotonicity_power
    mono_left = sum(a**p - b**p for a, b in zip(ranks, ranks[1:]) if a > b)
    mono_right = sum(b**p - a**p for a, b in zip(ranks, ranks[1:]) if a <= b)
    return (
        w.base + w.empty * empty + w.merges * merges - w.monotonicity * min(mono_left, mono_right)
        - w.sum * sum(r**w.sum_power for r in ranks)
    )


def reference_board_score(grid, w=W):
    ranks = [[int(v).bit_length() - 1 if v else 0 for v in row] for row in grid]
    lines = [tuple(row) for row in ranks] + [tuple(col) for col in zip(*ranks)]
    return sum(reference_line_score(line, w) for line in lines)


def reference_value(grid, depth, cprob, cutoff, w=W):
    """The plain evaluation's expectimax value of a board after a move (reference_search.reference_chance)."""
    return reference_chance(grid, depth, cprob, cutoff, lambda board: reference_board_score(board, w))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 15), min_size=4, max_size=4))
def test_row_heuristic_table_matches_its_definition(ranks):
    word = sum(r << (4 * i) for i, r in enumerate(ranks))
    assert math.isclose(ROW_SCORE[word], reference_line_score(tuple(ranks)), rel_tol=1e-9, abs_tol=1e-6)


tile = st.sampled_from([0, 0, 0, 0, 0, 2, 2, 4, 4, 8, 16, 32, 64, 128, 256, 1024, 4096])
grids = st.lists(st.lists(tile, min_size=4, max_size=4), min_size=4, max_size=4).map(to_grid)


AGENT = ExpectimaxAgent(threads=1)  # one agent for the module: its table and threads are set up once


def choose_move(grid, *args, **kwargs):
    return AGENT.choose(grid, *args, **kwargs)


@contextmanager
def search_threads(n):
    before = AGENT.threads
    AGENT.set_threads(n)
    try:
        yield
    finally:
        AGENT.set_threads(before)


@settings(max_examples=30, deadline=None)
@given(grids, st.sampled_from([1, 2]), st.sampled_from([0.0, 1e-4, 0.02]), st.sampled_from([1, 2]))
def test_values_equal_a_plain_reference_search(grid, depth, cutoff, threads):
    if depth == 2 and len(empty_cells(grid)) > 9:
        depth = 1  # keeps the plain reference quick
    with search_threads(threads):  # two: depth 2 is shared out by the root's spawns
        decision = choose_move(grid, depth=depth, cutoff=cutoff)
    assert set(decision.values) == set(legal_moves(grid))
    for move, value in decision.values.items():
        after, _ = apply_move(grid, move)
        expected = reference_value(after, depth, 1.0, cutoff)
        assert math.isclose(value, expected, rel_tol=1e-6, abs_tol=0.05), (move, value, expected)


@settings(max_examples=20, deadline=None)
@given(grids, st.sampled_from([0.0, 0.4, 1.0]), st.sampled_from([1, 2]))
def test_another_share_of_fours_is_searched_with(grid, four, threads):
    """A game whose new tiles are 4s more often: the values are the reference search's with that share."""
    depth = 2 if len(empty_cells(grid)) <= 9 else 1
    AGENT.set_four_share(four)
    try:
        with search_threads(threads):
            decision = choose_move(grid, depth=depth, cutoff=1e-4)
    finally:
        AGENT.set_four_share(0.1)
    for move, value in decision.values.items():
        after, _ = apply_move(grid, move)
        expected = reference_chance(after, depth, 1.0, 1e-4, lambda board: reference_board_score(board, W), four)
        assert math.isclose(value, expected, rel_tol=1e-6, abs_tol=0.05), (move, value, expected)


def test_a_share_of_fours_outside_0_to_1_is_refused():
    with pytest.raises(ValueError, match="between 0 and 1"):
        AGENT.set_four_share(1.5)


OTHER = Weights(empty=400.0, merges=500.0, monotonicity_power=3.2, monotonicity=60.0, sum_power=3.9, sum=8.0)
OTHER_AGENT = ExpectimaxAgent(threads=1, weights=OTHER)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 15), min_size=4, max_size=4))
def test_a_table_of_other_weights_matches_the_definition_with_them(ranks):
    word = sum(r << (4 * i) for i, r in enumerate(ranks))
    table = row_score_table(OTHER)
    assert math.isclose(table[word], reference_line_score(tuple(ranks), OTHER), rel_tol=1e-9, abs_tol=1e-6)


@settings(max_examples=15, deadline=None)
@given(grids, st.sampled_from([1, 2]))
def test_an_agent_with_other_weights_searches_with_them(grid, depth):
    if depth == 2 and len(empty_cells(grid)) > 9:
        depth = 1
    decision = OTHER_AGENT.choose(grid, depth=depth)
    for move, value in decision.values.items():
        expected = reference_value(apply_move(grid, move)[0], depth, 1.0, 1e-4, OTHER)
        assert math.isclose(value, expected, rel_tol=1e-6, abs_tol=0.05), (move, value, expected)


@settings(max_examples=60, deadline=None)
@given(grids, st.sampled_from([0, 1, 2, 3]))
def test_the_move_is_legal_and_the_best_of_the_values(grid, depth):
    decision = choose_move(grid, depth=depth)
    legal = legal_moves(grid)
    if not legal:
        assert decision.move is None and decision.values == {}
        return
    assert decision.move in legal
    assert set(decision.values) == set(legal)
    assert decision.values[decision.move] == max(decision.values.values())
    assert decision.depth == depth and decision.ms >= 0


@pytest.mark.parametrize(
    "board, deadly",
    [
        ("32 4 64 32 / 0 16 2 16 / 32 128 256 32 / 4 256 128 256", Move.LEFT),
        (". 4 32 64 / 32 16 2 16 / 4 4 128 8 / 256 256 16 128", Move.UP),
    ],
)
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_it_takes_the_merge_that_avoids_losing(board, deadly, depth):
    grid = parse_board(board)
    decision = choose_move(grid, depth=depth)
    assert decision.values[deadly] == 0.0  # every spawn after it leaves no legal move
    assert decision.move != deadly
    assert apply_move(grid, decision.move)[1] > 0


def test_a_lost_board_has_no_move():
    grid = parse_board("2 4 2 4 / 4 2 4 2 / 2 4 2 4 / 4 2 4 2")
    decision = choose_move(grid)
    assert decision == Decision(None, {}, 0, decision.ms, 0)


def test_a_merge_of_two_32768_is_played_although_the_bitboard_cannot_hold_it():
    # the only legal move merges the two 32768s into 65536 (the fast form reads both as rank 15)
    grid = parse_board("2 4 2 4 / 4 2 4 2 / 2 4 2 4 / 8 16 32768 32768")
    assert legal_moves(grid) == [Move.LEFT, Move.RIGHT]
    decision = choose_move(grid, depth=2)
    assert decision.move in (Move.LEFT, Move.RIGHT)
    assert set(decision.values) == {Move.LEFT, Move.RIGHT}


def test_a_budget_deepens_up_to_the_depth_given():
    grid = parse_board("2 4 8 16 / 0 2 0 0 / 0 0 4 0 / 0 0 0 2")
    decision = choose_move(grid, budget_ms=60_000, depth=3)
    assert decision.depth == 3 and decision.move in legal_moves(grid)


def test_a_budget_alone_searches_at_least_one_layer():
    grid = parse_board("2 4 8 16 / 0 2 0 0 / 0 0 4 0 / 0 0 0 2")
    decision = choose_move(grid, budget_ms=5)
    assert decision.depth >= 1 and decision.move in legal_moves(grid)


def test_adaptive_depth_is_nneonneos_rule():
    assert adaptive_depth(parse_board("2 4 8 16 / 32 64 128 256 / 512 1024 2048 4096 / 0 0 0 0")) == 10
    assert adaptive_depth(parse_board("2 2 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 4")) == 3
    assert choose_move(parse_board("2 2 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 4"), depth="adaptive").depth == 3


@pytest.mark.parametrize("kwargs", [{"depth": -1}, {"depth": 99}, {"depth": "deep"}, {"budget_ms": 0}])
def test_bad_settings_are_refused(kwargs):
    with pytest.raises(ValueError):
        choose_move(parse_board("2 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 2"), **kwargs)


SLOW_BOARD = parse_board("2 16 4 2 / 32 8 64 4 / 128 256 512 1024 / . 2 . 8")  # depth 14: seconds


@pytest.mark.parametrize("threads", [1, 2])
def test_a_search_cancelled_from_another_thread_stops_and_leaves_later_decisions_as_they_were(threads):
    """Compared exactly where a search repeats itself: on one thread, and shared at depth 2 (it stores only
    depth-1 nodes, fixed by the board alone). A deeper shared search does not, cancel or not: threads store
    nodes in whatever order they reach them, and a node's value depends on the path probability it was first
    reached with (2026-11-26, no cancel, 2 busy cores: RIGHT at depth 6 360,940.8 192 times in 200, 359,384.7 7)."""
    import threading
    import time

    from screenbot.agent import expectimax as kernel

    AGENT.set_threads(1)
    before = {depth: choose_move(SLOW_BOARD, depth=depth) for depth in (6, 2)}  # 6 reads more of the table
    AGENT.set_threads(threads)
    works = AGENT._search.works
    for work in works:
        work[kernel.W_NODES] = 0.0

    def cancel_once_under_way():  # by the work done (a timer could fire while the kernel still loads)
        give_up = time.perf_counter() + 20
        while sum(work[kernel.W_NODES] for work in works) < 300_000 and time.perf_counter() < give_up:
            time.sleep(0.0005)
        AGENT.cancel()

    canceller = threading.Thread(target=cancel_once_under_way)
    canceller.start()
    started = time.perf_counter()
    try:
        with pytest.raises(SearchCancelled):
            choose_move(SLOW_BOARD, depth=14)
        with pytest.raises(SearchCancelled):  # still cancelled until allowed
            choose_move(SLOW_BOARD, depth=1)
        with pytest.raises(SearchCancelled):  # a timed search too
            choose_move(SLOW_BOARD, budget_ms=50)
    finally:
        canceller.join()
        AGENT.allow()
        AGENT.set_threads(1)
    assert time.perf_counter() - started < 30  # it did stop (depth 14 alone would take far longer)
    for depth, decision in before.items():  # in the table the cancelled search wrote into
        after = choose_move(SLOW_BOARD, depth=depth)
        assert (after.move, after.values) == (decision.move, decision.values), depth
    with search_threads(threads):  # and with the helpers it stopped (a helper takes part in 1 of ~7 here)
        for _ in range(50):
            assert choose_move(SLOW_BOARD, depth=2).values == before[2].values
        deep = choose_move(SLOW_BOARD, depth=6)
    assert deep.move == before[6].move and deep.values.keys() == before[6].values.keys()  # best by 2x


def test_search_threads_can_be_set_and_come_from_the_environment(monkeypatch):
    from screenbot.agent.search import default_threads
    from screenbot.errors import UsageError

    monkeypatch.setenv("SCREENBOT_THREADS", "3")
    assert default_threads() == 3
    monkeypatch.setenv("SCREENBOT_THREADS", "many")
    with pytest.raises(UsageError, match="SCREENBOT_THREADS"):
        default_threads()
    monkeypatch.delenv("SCREENBOT_THREADS")
    with search_threads(3):
        assert AGENT.threads == 3
        grid = parse_board("2 16 4 2 / 32 8 64 4 / 128 256 512 0 / 0 2 0 8")
        assert choose_move(grid, depth=3).move in legal_moves(grid)


def test_a_depth_cap_caps_the_adaptive_rule_only():
    grid = parse_board("2 16 4 2 / 32 8 64 4 / 128 256 512 1024 / . 2 . 8")
    assert adaptive_depth(grid) > 5
    assert choose_move(grid, depth="adaptive", depth_cap=5).depth == 5
    assert choose_move(grid, depth=2, depth_cap=1).depth == 2
    with pytest.raises(ValueError, match="depth_cap"):
        choose_move(grid, depth="adaptive", depth_cap=0)
    assert ExpectimaxAgent(depth_cap=5, threads=1).choose(grid, depth="adaptive").depth == 5


def test_the_endgame_cap_is_lifted_once_a_16384_is_on_the_board():
    # 13 distinct tiles: the rule asks for depth 11; the defaults stop at 6 everywhere, the endgame
    # cap until a 16384 appears
    before = parse_board("8192 4096 2048 1024 / 64 128 256 512 / 32 16 8 4 / 2 . . .")
    endgame = parse_board("16384 4096 2048 1024 / 64 128 256 512 / 32 16 8 4 / 2 . . .")
    assert adaptive_depth(before) == adaptive_depth(endgame) == 11
    agent = ExpectimaxAgent(threads=1)
    assert agent.choose(endgame, depth="adaptive").depth == 6
    assert agent.choose(before, depth="adaptive", depth_cap="endgame").depth == 6
    assert agent.choose(endgame, depth="adaptive", depth_cap="endgame").depth == 11
    deep = ExpectimaxAgent(depth_cap="endgame", threads=1)
    assert deep.choose(before, depth="adaptive").depth == 6
    assert deep.choose(endgame, depth="adaptive").depth == 11
    assert deep.choose(endgame, depth="adaptive", depth_cap="7").depth == 7  # a cap given to choose wins
    with pytest.raises(ValueError, match="depth_cap"):
        ExpectimaxAgent(depth_cap="deep")


def test_a_close_call_deepens_past_the_cap_up_to_the_uncapped_rule():
    grid = parse_board("2 4 8 16 / 32 64 128 . / 256 . . . / . . . .")  # 8 distinct tiles: the rule says 6
    assert adaptive_depth(grid) == 6
    plain = ExpectimaxAgent(depth_cap=4, threads=1, deepen_gap=0).choose(grid, budget_ms=600_000, depth="adaptive")
    assert plain.depth == 4
    top, second = sorted(plain.values.values(), reverse=True)
    gap = (top - second) / top  # about 1.4 %
    # a gap below the threshold deepens on (to 5 here: from there no path reaches the depth limit,
    # so deeper would search the same tree), and gives the uncapped search's values
    close = ExpectimaxAgent(depth_cap=4, threads=1, deepen_gap=2 * gap, deepen_ms=600_000).choose(grid, budget_ms=600_000, depth="adaptive")
    assert close.depth > 4
    fresh = ExpectimaxAgent(threads=1).choose(grid, depth=6)
    assert close.values == pytest.approx(fresh.values, rel=1e-9)
    # a wider gap than the threshold stays at the cap, as does a fixed depth and a search without a budget
    assert ExpectimaxAgent(depth_cap=4, threads=1, deepen_gap=gap / 2).choose(
        grid, budget_ms=600_000, depth="adaptive").values == plain.values
    assert ExpectimaxAgent(depth_cap=4, threads=1, deepen_gap=1.0).choose(grid, budget_ms=600_000, depth=4).depth == 4
    assert ExpectimaxAgent(depth_cap=4, threads=1, deepen_gap=1.0).choose(grid, depth="adaptive").depth == 4
    # the default gap (1) deepens every decision whose second-best move is not lost, this wide one too
    assert ExpectimaxAgent(depth_cap=4, threads=1, deepen_ms=600_000).choose(
        grid, budget_ms=600_000, depth="adaptive").values == pytest.approx(fresh.values, rel=1e-9)
    # the depths past the cap get deepen_ms from the decision's start: none here
    assert ExpectimaxAgent(depth_cap=4, threads=1, deepen_gap=1.0, deepen_ms=1e-6).choose(
        grid, budget_ms=600_000, depth="adaptive").depth == 4
    with pytest.raises(ValueError, match="deepen_ms"):
        ExpectimaxAgent(deepen_ms=0)


@pytest.mark.parametrize("gap", [-0.1, 1.5, True, "much", float("nan"), [0.1]])
def test_a_bad_deepen_gap_is_refused(gap):
    with pytest.raises(ValueError, match="deepen_gap"):
        ExpectimaxAgent(deepen_gap=gap)


def test_a_deepen_gap_of_0_is_off_and_text_is_read():
    grid = parse_board("2 4 8 16 / 32 64 128 . / 256 . . . / . . . .")
    assert ExpectimaxAgent(depth_cap=4, threads=1, deepen_gap=0).choose(grid, budget_ms=600_000, depth="adaptive").depth == 4
    assert ExpectimaxAgent(deepen_gap="0.5").deepen_gap == 0.5


def test_close_call_compares_the_two_best_values():
    import numpy as np

    from screenbot.agent.search import close_call
    assert close_call(np.array([100.0, 99.95, 3.0]), 1e-3)
    assert not close_call(np.array([100.0, 99.0, 99.5]), 1e-3)
    assert not close_call(np.array([100.0]), 1.0)  # one move: nothing to choose
    assert not close_call(np.array([0.0, 0.0]), 1.0)  # every move loses


def test_a_failure_in_a_search_thread_reaches_the_caller_and_the_next_search_still_runs(monkeypatch):
    import threading

    from screenbot.agent import search

    real = search.kernel.max_value

    def fails_off_the_main_thread(*args):
        if threading.current_thread() is not threading.main_thread():
            raise RuntimeError("helper failed")
        return real(*args)

    grid = parse_board("2 16 4 2 / 32 8 64 4 / 128 256 512 0 / 0 2 0 8")
    with search_threads(2):
        expected = choose_move(grid, depth=3)
        monkeypatch.setattr(search.kernel, "max_value", fails_off_the_main_thread)
        with pytest.raises(RuntimeError, match="helper failed"):
            for _ in range(500):  # the helper takes a spawn in almost every search (a loaded CPU may delay it)
                choose_move(grid, depth=3)
        monkeypatch.setattr(search.kernel, "max_value", real)
        assert choose_move(grid, depth=3).move == expected.move


def test_the_deepen_gap_help_names_the_agents_defaults():
    from screenbot.agent.limits import DEEPEN_GAP_HELP
    from screenbot.agent.search import DEFAULT_DEEPEN_GAP, DEFAULT_DEEPEN_MS
    # the command line's text is made from the same constants the agent reads (limits.py, no numba needed)
    assert f"within {DEFAULT_DEEPEN_MS:g} ms" in DEEPEN_GAP_HELP
    assert f"default {DEFAULT_DEEPEN_GAP:g}: every decision" in DEEPEN_GAP_HELP
