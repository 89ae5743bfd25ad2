"""The any-size expectimax: its compiled moves, spawns, evaluations and values against plain references, on
every supported size; cancelling; whole decisions on big boards."""

import math
import random
import threading
import time

import numpy as np
import pytest
from reference_search import reference_chance

from screenbot.agent import SearchCancelled
from screenbot.agent import any_size_lines as lines
from screenbot.agent import any_size_ntuple
from screenbot.agent.any_size import _NO_NETWORK as NO_NETWORK
from screenbot.agent.any_size import SYMMETRIES, AnySizeAgent, load, orient, original_move
from screenbot.agent.any_size_eval import CORNER, EVALUATIONS, LINES, SNAKE, Evaluation, snake_weights
from screenbot.agent.corner import corner_row_table
from screenbot.agent.heuristic import ROW_SCORE
from screenbot.game.rules import Move, apply_move, legal_moves

SIDES = range(3, 9)
SHAPES = [(r, c) for r in SIDES for c in SIDES]


def rank(v):
    return v.bit_length() - 1 if v else 0


def random_board(rng, rows, cols, empty=0.35, top=11):
    return tuple(tuple(0 if rng.random() < empty else 2 ** rng.randint(1, top) for _ in range(cols))
                 for _ in range(rows))


# --- the evaluations, written out plainly from their definitions (any_size_eval's docstring) ---
def plain_lines_line(ranks, base):
    tiles = [r for r in ranks if r]
    merges, run = 0, 0
    for a, b in zip(tiles, tiles[1:]):
        if a == b:
            run += 1
        elif run:
            merges += 1 + run
            run = 0
    if run:
        merges += 1 + run
    mono_low = sum(a ** 4 - b ** 4 for a, b in zip(ranks, ranks[1:]) if a > b)
    mono_high = sum(b ** 4 - a ** 4 for a, b in zip(ranks, ranks[1:]) if a <= b)
    return (base + 270 * ranks.count(0) + 700 * merges - 47 * min(mono_low, mono_high)
            - 11 * sum(r ** 3.5 for r in ranks))


def plain_corner_line(ranks, base, empty_weight=0.0):
    s = [r * 2 ** r for r in ranks]
    score = base + s[0]
    for a, b in zip(s, s[1:]):
        score += (a + b + (a if a == b else 0)) if a >= b else 12 * (a - b)
    return score + empty_weight * ranks.count(0)


def plain_evaluate(grid, evaluation, board_base=0.0):
    rows, cols = len(grid), len(grid[0])
    ranks = [[rank(v) for v in row] for row in grid]
    columns = [list(col) for col in zip(*ranks)]
    if evaluation.kind == lines.SNAKE:
        w = snake_weights(rows, cols, evaluation.ratio)
        return board_base + sum(w[r, c] * 2.0 ** ranks[r][c] if ranks[r][c] else evaluation.empty
                                for r in range(rows) for c in range(cols))
    if evaluation.kind == lines.LINES:
        line = plain_lines_line
        row_base, col_base = 200000 * cols / 4, 200000 * rows / 4
    else:
        def line(rs, base):
            return plain_corner_line(rs, base, evaluation.empty)
        row_base = col_base = evaluation.base / (rows + cols)
    return sum(line(r, row_base) for r in ranks) + sum(line(c, col_base) for c in columns)


def kernel_evaluate(grid, evaluation):
    st = np.zeros((2, lines.STACK_WIDTH), np.uint64)
    rows, cols = load(st, grid)
    return lines.evaluate(st, 0, rows, cols, evaluation.kind, *evaluation.arrays(rows, cols), *NO_NETWORK)


# --- expectimax written out plainly on grids with the rules: tests/agent/reference_search.py ---
def plain_values(grid, depth, evaluate, cutoff=1e-4, four=0.1, gain_weight=0.0):
    out = {}
    for move in legal_moves(grid):
        after, gain = apply_move(grid, move)
        v = reference_chance(after, depth, 1.0, cutoff, evaluate, four, gain_weight) if depth else evaluate(after)
        out[move] = gain_weight * gain + max(v, 0.0)
    return out


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_kernels_moves_and_gains_match_the_rules(shape):
    rng = random.Random(hash(shape) % 1000)
    st = np.zeros((2, lines.STACK_WIDTH), np.uint64)
    tab = LINES.arrays(*shape)[0]
    for _ in range(60):
        grid = random_board(rng, *shape, empty=rng.choice((0.1, 0.4, 0.7)), top=rng.choice((3, 12)))
        rows, cols = load(st, grid)
        for move in Move:
            changed, gain = lines.move_into(st, 0, 1, int(move), rows, cols, tab)
            want, want_gain = apply_move(grid, move)
            got = tuple(tuple(2 ** lines.byte_at(st[1, r], c) if lines.byte_at(st[1, r], c) else 0
                              for c in range(cols)) for r in range(rows))
            assert got == want and gain == want_gain and changed == (want != grid), (grid, move)
            for c in range(cols):  # the column words agree with the row words
                assert all(lines.byte_at(st[1, lines.COLS_AT + c], r) == rank(want[r][c]) for r in range(rows))


@pytest.mark.parametrize("evaluation", [LINES, CORNER, SNAKE.with_(base=1e5, empty=3.0),
                                        CORNER.with_(empty=500.0)], ids=lambda e: f"{e.name}-{e.empty:g}")
@pytest.mark.parametrize("shape", [(3, 3), (3, 7), (5, 4), (8, 8)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_each_evaluation_matches_its_definition(evaluation, shape):
    rng = random.Random(7)
    for _ in range(40):
        grid = random_board(rng, *shape, top=rng.choice((5, 14)))
        want = plain_evaluate(grid, evaluation, evaluation.base if evaluation.kind == lines.SNAKE else 0.0)
        assert math.isclose(kernel_evaluate(grid, evaluation), want, rel_tol=1e-12, abs_tol=1e-6)


def test_on_4x4_the_stretched_lines_are_nneonneos_and_the_corner_lines_macroxues():
    rng = random.Random(3)
    corner = corner_row_table()
    for _ in range(200):
        grid = random_board(rng, 4, 4, top=14)
        ranks = [[rank(v) for v in row] for row in grid]
        words = [sum(r << (4 * i) for i, r in enumerate(line)) for line in ranks + [list(c) for c in zip(*ranks)]]
        assert math.isclose(kernel_evaluate(grid, LINES), sum(ROW_SCORE[w] for w in words), rel_tol=1e-12)
        assert math.isclose(kernel_evaluate(grid, CORNER), sum(corner[w] for w in words), rel_tol=1e-12)


CASES = [  # (board, depth): small boards, deep enough that both spawns and the table are exercised
    (((2, 4, 0), (0, 8, 2), (4, 0, 16)), 2),
    (((2, 0, 0, 4), (16, 8, 4, 2), (0, 2, 32, 0)), 2),
    (((2, 4, 0), (8, 0, 2), (16, 2, 4), (0, 0, 64)), 2),
    (((2, 0, 0), (0, 4, 0), (0, 0, 0)), 2),
    (((0, 2, 4, 8, 16), (2, 0, 0, 0, 4), (0, 64, 0, 2, 0), (4, 8, 2, 0, 0), (128, 2, 0, 0, 2)), 1),
    (((2, 4, 2, 4, 2, 4, 2, 0),) + ((4, 2, 4, 2, 4, 2, 4, 2),) * 2, 1),
]


@pytest.mark.parametrize("evaluation", [LINES, CORNER.with_(oriented=False),
                                        SNAKE.with_(oriented=False, loss=0.0, base=5e4)], ids=lambda e: e.name)
@pytest.mark.parametrize("board, depth", CASES)
def test_the_search_values_equal_a_plain_expectimax(evaluation, board, depth):
    agent = AnySizeAgent(evaluation)
    decision = agent.choose(board, depth=depth)
    want = plain_values(board, depth, lambda g: plain_evaluate(g, evaluation, evaluation.base * (
        evaluation.kind == lines.SNAKE)))
    assert decision.values.keys() == want.keys() and decision.depth == depth
    for move, value in want.items():
        assert math.isclose(decision.values[move], value, rel_tol=1e-9), move
    assert decision.move == max(want, key=lambda m: (want[m], -int(m)))


@pytest.mark.parametrize("four, gain, cutoff", [(0.0, 0.0, 1e-4), (0.5, 0.0, 1e-4), (0.1, 1.0, 1e-4),
                                                (0.1, 0.0, 0.02)])
def test_the_share_of_fours_the_score_gains_and_the_cutoff_are_searched_with(four, gain, cutoff):
    board, depth = CASES[1]
    evaluation = LINES.with_(gain=gain)
    agent = AnySizeAgent(evaluation, cutoff=cutoff)
    agent.set_four_share(four)
    decision = agent.choose(board, depth=depth)
    want = plain_values(board, depth, lambda g: plain_evaluate(g, LINES), cutoff, four, gain)
    for move, value in want.items():
        assert math.isclose(decision.values[move], value, rel_tol=1e-9), move
    with pytest.raises(ValueError):
        agent.set_four_share(1.5)


@pytest.mark.parametrize("shape", [(3, 3), (4, 6), (5, 3)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_move_on_an_oriented_board_is_its_original_move_on_the_board(shape):
    grid = random_board(random.Random(5), *shape, top=5)
    for sym in SYMMETRIES:
        oriented = orient(grid, sym)
        assert sorted(v for row in oriented for v in row) == sorted(v for row in grid for v in row)
        for move in Move:
            assert apply_move(oriented, move)[0] == orient(apply_move(grid, original_move(move, sym))[0], sym)


def test_an_oriented_evaluation_builds_in_the_corner_the_big_tiles_are_in():
    """The biggest tiles sit along the bottom-right: the corner evaluation searches the board turned so that
    they are top-left, and keeps them where they are (no move that pulls them out of their corner)."""
    board = ((0, 0, 2, 0, 0), (0, 0, 0, 0, 2), (0, 0, 0, 4, 8), (0, 0, 2, 16, 32), (0, 2, 64, 128, 256))
    decision = AnySizeAgent("corner").choose(board, depth=2)
    assert decision.move in (Move.DOWN, Move.RIGHT)


def test_a_lost_board_has_no_move_and_a_bad_board_is_refused():
    lost = ((2, 4, 2), (4, 2, 4), (2, 4, 2))
    assert AnySizeAgent().choose(lost).move is None
    with pytest.raises(ValueError):
        AnySizeAgent().choose(((2, 4), (4, 2)))
    with pytest.raises(ValueError):
        AnySizeAgent().choose(((2, 3, 0), (0, 0, 0), (0, 0, 0)))


@pytest.mark.parametrize("shape", [(5, 5), (8, 8), (4, 6)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", sorted(set(EVALUATIONS) - {"ntuple"}))
def test_a_whole_decision_on_a_big_board_is_a_legal_move_within_its_budget(shape, name):
    agent = AnySizeAgent(name)
    agent.warm_up()
    rng = random.Random(11)
    for _ in range(5):
        board = random_board(rng, *shape, empty=0.3, top=9)
        decision = agent.choose(board, budget_ms=40)
        assert decision.move in legal_moves(board) and decision.depth >= 1
        assert decision.values[decision.move] == max(decision.values.values())
        assert decision.ms < 1000  # within its budget, give or take a busy machine


def test_a_search_cancelled_from_another_thread_raises_until_allowed():
    agent = AnySizeAgent("lines")
    agent.warm_up()
    board = random_board(random.Random(2), 6, 6, empty=0.5, top=8)

    def cancel_once_under_way():
        give_up = time.perf_counter() + 20
        while agent.work[0] < 50_000 and time.perf_counter() < give_up:  # W_NODES: by the work done
            time.sleep(0.0005)
        agent.cancel()

    canceller = threading.Thread(target=cancel_once_under_way)
    canceller.start()
    started = time.perf_counter()
    try:
        with pytest.raises(SearchCancelled):
            agent.choose(board, depth=8)  # hours, uncancelled
        with pytest.raises(SearchCancelled):
            agent.choose(board, depth=1)
        with pytest.raises(SearchCancelled):
            agent.choose(board, budget_ms=30)
    finally:
        canceller.join()
        agent.allow()
    assert time.perf_counter() - started < 30
    assert agent.choose(board, depth=1).move in legal_moves(board)


def test_bad_settings_are_refused():
    with pytest.raises(ValueError):
        AnySizeAgent("no such evaluation")
    with pytest.raises(ValueError):
        AnySizeAgent(depth_cap=0)
    with pytest.raises(ValueError):
        AnySizeAgent(budget_ms=0)
    with pytest.raises(ValueError):
        AnySizeAgent().choose(((2, 0, 0), (0, 0, 0), (0, 0, 0)), depth=99)
    assert isinstance(SNAKE, Evaluation)


# --- the learned evaluation ---
@pytest.fixture(scope="module")
def small_network(tmp_path_factory):
    """The 4x3 network with seeded random weights, saved as the agent loads it."""
    network = any_size_ntuple.NETWORKS[(4, 3)]
    weights = np.random.default_rng(4).uniform(0, 1000, (len(network.tuples), network.size)).astype(np.float32)
    path = tmp_path_factory.mktemp("network") / "net.npz"
    any_size_ntuple.save(path, network, weights, games=0)
    return path, network, weights


def nibbles(grid):
    cols = len(grid[0])
    return np.uint64(sum(rank(v) << (4 * (r * cols + c)) for r, row in enumerate(grid) for c, v in enumerate(row)))


def test_the_trainers_moves_match_the_rules():
    rng = random.Random(9)
    lines_of = any_size_ntuple.move_lines(4, 3)
    for _ in range(300):
        grid = random_board(rng, 4, 3, empty=rng.choice((0.2, 0.5)), top=9)
        for move in Move:
            want, gain = apply_move(grid, move)
            got, got_gain = any_size_ntuple.move_board(nibbles(grid), int(move), lines_of)
            assert (int(got), got_gain) == (int(nibbles(want)), gain)


def test_the_network_value_is_its_weights_summed_over_tuples_and_symmetries(small_network):
    path, network, weights = small_network
    grid = ((2, 4, 8), (0, 16, 2), (4, 0, 0), (32, 2, 1024))
    ranks = [[rank(v) for v in row] for row in grid]
    want = 0.0
    for k, cells in enumerate(network.tuples):
        for flip_lr in (False, True):
            for flip_ud in (False, True):
                index = 0
                for i in cells:
                    r, c = divmod(i, 3)
                    index = index * network.base + ranks[3 - r if flip_ud else r][2 - c if flip_lr else c]
                want += float(weights[k, index])
    got = any_size_ntuple.value(nibbles(grid), weights, network.looks(), network.base)
    assert math.isclose(got, want, rel_tol=1e-9)
    st = np.zeros((2, lines.STACK_WIDTH), np.uint64)
    load(st, grid)
    coef = np.zeros(lines.COEF_SIZE)
    coef[lines.C_NT_BASE] = network.base
    tab, _, wmat = LINES.arrays(4, 3)
    assert math.isclose(lines.evaluate(st, 0, 4, 3, lines.NTUPLE, tab, coef, wmat, weights, network.looks()), want,
                        rel_tol=1e-9)


@pytest.mark.parametrize("turned", [False, True], ids=["4x3", "3x4"])
def test_the_search_on_the_network_equals_a_plain_expectimax_of_gains_and_values(small_network, turned):
    path, network, weights = small_network
    board = ((2, 0, 4), (0, 8, 2), (4, 2, 16), (0, 0, 2))
    looks = network.looks()

    def evaluate(grid):
        return any_size_ntuple.value(nibbles(grid), weights, looks, network.base)

    want = plain_values(board, 2, evaluate, gain_weight=1.0)
    agent = AnySizeAgent("ntuple", network_path=path)
    decision = agent.choose(tuple(zip(*board)) if turned else board, depth=2)
    for move, value in want.items():
        got = decision.values[original_move(move, (True, False, False)) if turned else move]
        assert math.isclose(got, value, rel_tol=1e-6), move
    with pytest.raises(ValueError):
        agent.choose(random_board(random.Random(1), 5, 5), depth=1)


def test_training_learns_and_restarts_from_kept_late_boards():
    """A few thousand games of TD learning play better than none, and with restarts the games that held a 64
    first are kept and played on (those games' scores are marked -1)."""
    network = any_size_ntuple.NETWORKS[(4, 3)]
    looks, lines_of = network.looks(), any_size_ntuple.move_lines(4, 3)
    weights = network.new_weights()
    untrained = np.zeros(300, np.int64)
    starts, stored = np.zeros(64, np.uint64), np.zeros(1, np.int64)
    any_size_ntuple.train_games(weights.copy(), looks, network.base, lines_of, 12, 300, 0.0, 5, 0.1, untrained,
                                starts, stored, 0.0, 20)
    reports = []
    any_size_ntuple.train(network, 6000, weights, chunk=3000, report=lambda done, mean: reports.append(mean))
    trained = np.zeros(300, np.int64)
    any_size_ntuple.train_games(weights.copy(), looks, network.base, lines_of, 12, 300, 0.0, 5, 0.1, trained,
                                starts, stored, 0.0, 20)
    assert trained.mean() > 1.5 * untrained.mean() and len(reports) == 2
    scores = np.zeros(400, np.int64)
    any_size_ntuple.train_games(weights, looks, network.base, lines_of, 12, 400, 0.1, 6, 0.1, scores, starts,
                                stored, 0.5, 6)
    assert stored[0] > 0 and (scores == -1).sum() > 50
    for board in starts[:min(stored[0], 64)]:
        assert any_size_ntuple._max_rank(board, 12) >= 6
