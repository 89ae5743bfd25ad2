"""The block tables (screenbot.agent.block_tables) against plain-grid brute force: solves, layouts, budgets."""

from __future__ import annotations

import random

import numpy as np
import pytest

from screenbot.agent import block_tables as T
from screenbot.agent import table_store
from screenbot.agent.block_tables import BIG, PAIR, SMALL, SMALL_256, SYMMETRIES, BlockTables
from screenbot.game.bitboard import to_bitboard
from screenbot.game.rules import Move, apply_move

from block_boards import CROWDED_PAIR, _solved_some, _orient, _regular_anchor, _goal, _block, _brute, _prefilled, CROWDED


def test_each_symmetry_maps_moves_back_to_the_original_board():
    rng = random.Random(3)
    for _ in range(30):
        grid = tuple(tuple(rng.choice([0, 0, 2, 4, 8, 16]) for _ in range(4)) for _ in range(4))
        for source, moves in SYMMETRIES:
            oriented = _orient(grid, source)
            for oriented_move, move in moves.items():
                assert _orient(apply_move(grid, move)[0], source) == apply_move(oriented, oriented_move)[0]


# --- an independent statement of the tables' rules, on plain grids of tile values -----------------

@pytest.mark.parametrize("kind,rest", CROWDED)
def test_table_chance_equals_a_brute_force_solve_on_crowded_boards(kind, rest):
    grid = _prefilled(kind, rest)
    assert _regular_anchor(grid, kind) is not None and not _goal(grid, _regular_anchor(grid, kind), kind)
    b = np.uint64(to_bitboard(grid))
    assert T.anchor(b, kind) == _regular_anchor(grid, kind)
    table = np.zeros(T.TABLE_KEYS[kind], np.uint16)
    no = np.zeros(0, np.uint64), np.zeros(0, np.int64), np.zeros(0, np.uint16), np.zeros(0, np.int64), np.zeros(0, np.uint16)
    chance, move = T._lookup(b, kind, table, *no, np.array([0.0, np.inf]))
    expected = _brute(grid, kind)
    assert chance == pytest.approx(expected, abs=2e-3)
    if expected > 0:  # the table's move gets the brute force's best chance
        after = apply_move(grid, Move(int(move)))[0]
        assert _block(after, kind) == _block(grid, kind)


def test_brute_force_cases_are_not_trivial():
    chances = [_brute(_prefilled(kind, rest), kind) for kind, rest in CROWDED]
    assert sum(0.02 < p < 0.98 for p in chances) >= 6  # neither sure nor hopeless: the moves matter


# SMALL_256 (benchmarks/final_phase.py's variant): the small shape with anchors up to 256, a 256 already in
# the built cell and the goal one 128 away; each found by sampling boards whose solve is small
CROWDED_256 = [
    [128, 256, 64, 0, 2, 16, 128, 16, 16, 64, 16],
    [32, 256, 64, 0, 128, 32, 64, 2, 4, 64, 64],
    [0, 256, 128, 32, 128, 8, 16, 32, 64, 8, 32],
    [16, 256, 128, 4, 32, 0, 8, 64, 32, 64, 0],
    [32, 256, 128, 32, 64, 32, 64, 32, 2, 8, 0],
]


# PAIR (one of play's tables): the big table's block with 512 built in its cell (1, 2); goal: the
# small table's pairs of 256 beside it or the big table's chain 256, 128, 64, 64; found by sampling boards
# whose brute force is small

@pytest.mark.slow
@pytest.mark.parametrize("kind,boards,anchor,least", [(SMALL_256, CROWDED_256, 8, 0.1), (PAIR, CROWDED_PAIR, 9, 0.05)])
def test_the_compactly_solved_tables_equal_a_brute_force_and_keep_their_own_files(tmp_path, kind, boards, anchor,
                                                                                  least):
    """SMALL_256 (a research table) and PAIR (play's), solved in the compact
    layout (dense they would take 11 GB and 4.4 GB of address space)."""
    tables = BlockTables.empty_compact(kinds=(kind,))
    answers = []
    for rest in boards:
        grid = _prefilled(kind, rest)
        a = _regular_anchor(grid, kind)
        assert a == anchor and not _goal(grid, a, kind)
        assert T.anchor(np.uint64(to_bitboard(grid)), kind) == anchor
        chance, move, complete = tables.answer(T.orientations(grid), kind, [np.inf])
        expected = _brute(grid, kind)
        assert complete and least < expected < 1 - least and chance == pytest.approx(expected, abs=2e-3)
        assert _block(apply_move(grid, move)[0], kind) == _block(grid, kind)
        answers.append((chance, move))
    path = tmp_path / "table.npz"
    tables.save(path)
    loaded = BlockTables.load(path, kinds=(kind,))
    assert [loaded.answer(T.orientations(_prefilled(kind, rest)), kind, [0])[:2] for rest in boards] == answers
    with pytest.raises(T.TableError, match="other block tables"):
        BlockTables.load(path)  # not play's tables


@pytest.mark.parametrize("rest,goal", [
    ([0, 0, 256, 128, 64, 0, 0, 0, 64, 0], True),  # the big table's chain along row 2
    ([256, 256, 0, 0, 0, 0, 0, 0, 0, 2], True),  # a pair of 256s down column 3, one beside the 512
    ([256, 128, 0, 0, 0, 128, 0, 0, 0, 0], True),  # 256, 128, 128 down column 3
    ([0, 0, 256, 128, 64, 0, 0, 0, 32, 0], False),
    ([256, 0, 0, 0, 0, 256, 0, 0, 0, 0], False),  # two 256s, neither beside the 512
])
def test_the_pair_tables_goal_is_the_big_tables_chain_or_the_small_tables_pairs(rest, goal):
    grid = _prefilled(PAIR, rest)
    assert _goal(grid, 9, PAIR) is goal and bool(T.is_goal(np.uint64(to_bitboard(grid)), 9, PAIR)) is goal


def test_suggest_finds_a_block_in_any_orientation_and_maps_its_move_back():
    grid = _prefilled(BIG, CROWDED[3][1])
    tables = BlockTables(kinds=(BIG,))
    chance, move, kind = tables.suggest(grid)
    for source, moves in SYMMETRIES:  # the same board turned and mirrored: the same chance, the matching move
        oriented = _orient(grid, source)
        back = {v: k for k, v in moves.items()}
        c2, m2, k2 = tables.suggest(oriented)
        assert (c2, k2) == (chance, kind) and m2 == back[move]


def test_suggest_says_nothing_without_a_regular_block():
    tables = BlockTables()
    assert tables.suggest(((2, 4, 8, 16), (2, 4, 8, 16), (0, 0, 0, 0), (0, 0, 0, 0))) == (0.0, None, -1)



@pytest.mark.slow
def test_tables_saved_and_loaded_are_the_same(tmp_path):
    tables = _solved_some()
    assert tables.states_solved() > 100
    path = tmp_path / "corner.npz"
    size = tables.save(path)
    assert size == path.stat().st_size and size < 20_000_000  # not the 6.6 GB of both tables: the solved states only
    loaded = BlockTables.load(path)
    for kind in (BIG, SMALL):
        compact = tables.tables[kind].compacted()
        assert not loaded.tables[kind].is_dense and loaded.tables[kind].overlaid == 0
        assert np.array_equal(loaded.tables[kind].bits, compact.bits)
        assert np.array_equal(loaded.tables[kind].entries, compact.entries)
    assert loaded.states_solved() == tables.states_solved()
    for kind, rest in CROWDED:
        assert loaded.suggest(_prefilled(kind, rest), budget=0) == tables.suggest(_prefilled(kind, rest))
    assert loaded.solved == 0  # nothing had to be solved again


def _answers(tables, budget=np.inf):
    return [tables.suggest(_prefilled(kind, rest), budget) for kind, rest in CROWDED]


@pytest.mark.slow
def test_the_compact_layout_answers_as_the_dense_one_without_solving_again():
    dense = _solved_some()
    expected = _answers(dense, budget=0)
    compact = _solved_some().compact()
    assert all(not t.is_dense for t in compact.tables.values())
    assert compact.states_solved() == dense.states_solved()
    solved_before = compact.solved
    assert _answers(compact, budget=0) == expected
    assert compact.solved == solved_before and compact.unfinished == 0  # nothing solved again


@pytest.mark.slow
def test_states_solved_into_the_compact_layout_go_to_a_growing_overlay_and_merge(monkeypatch, tmp_path):
    monkeypatch.setattr(table_store.SolvedStates, "MIN_OVERLAY", 16)
    monkeypatch.setattr(T, "OVERLAY_STEP", 64)  # many small growths, solves cut short by a full overlay
    dense = _solved_some()
    compact = BlockTables.empty_compact()
    assert _answers(compact) == _answers(dense, budget=0)
    assert compact.solved == dense.solved and compact.states_solved() == dense.states_solved()
    big = compact.tables[BIG]
    assert big.overlaid == dense.tables[BIG].solved() and big.okeys.size >= 2 * big.overlaid
    merged = BlockTables.empty_compact()
    merged.tables = {kind: t.compacted() for kind, t in compact.tables.items()}
    for kind, table in merged.tables.items():
        reference = dense.tables[kind].compacted()
        assert table.overlaid == 0 and np.array_equal(table.bits, reference.bits)
        assert np.array_equal(table.entries, reference.entries)
    assert _answers(merged, budget=0) == _answers(dense, budget=0)
    path = tmp_path / "corner.npz"
    compact.save(path)  # merges the overlay in
    assert compact.tables[BIG].overlaid == 0
    assert _answers(BlockTables.load(path), budget=0) == _answers(dense, budget=0)


def test_a_budgeted_solve_in_the_compact_layout_goes_on_later():
    grid = _prefilled(SMALL, CROWDED[7][1])
    tables = BlockTables.empty_compact()
    assert tables.suggest(grid, budget=3) == (0.0, None, -1) and tables.unfinished == 1
    calls = 1
    while True:
        before = tables.unfinished
        answer = tables.suggest(grid, budget=50)
        calls += 1
        if tables.unfinished == before or calls > 1000:
            break
    fresh = BlockTables()
    assert answer == fresh.suggest(grid) and answer[1] is not None
    assert calls > 3 and tables.solved == fresh.solved


@pytest.mark.slow
def test_a_solve_shared_out_between_threads_solves_the_same_states():
    sequential, shared = BlockTables(), BlockTables()
    for kind, rest in CROWDED:
        grid = _prefilled(kind, rest)
        expected = sequential.suggest(grid)
        shared.solve_shared(grid, kind, threads=3)
        assert shared.suggest(grid, budget=16) == expected  # only the roots were left
    for kind in (BIG, SMALL):
        a, b = sequential.tables[kind].compacted(), shared.tables[kind].compacted()
        assert np.array_equal(a.bits, b.bits) and np.array_equal(a.entries, b.entries)
    with pytest.raises(ValueError, match="dense"):
        BlockTables.empty_compact().solve_shared(_prefilled(BIG, CROWDED[0][1]), BIG)


@pytest.mark.slow
def test_a_held_solve_goes_on_with_its_first_thread_alone_and_solves_the_same_states(monkeypatch):
    import threading

    from screenbot.agent import block_tables

    kind, rest = CROWDED[0]
    grid = _prefilled(kind, rest)
    expected = BlockTables().suggest(grid)
    solvers, asked = set(), []
    real = block_tables.solve_state

    def solve(*args):
        solvers.add(threading.get_ident())
        return real(*args)

    monkeypatch.setattr(block_tables, "solve_state", solve)
    held = BlockTables()
    held.solve_shared(grid, kind, threads=3, hold=lambda: asked.append(1) or True)
    assert asked and len(solvers) == 1  # the two others waited the whole solve
    assert held.suggest(grid, budget=16) == expected


def test_a_solve_over_its_budget_is_unknown_now_and_goes_on_later():
    grid = _prefilled(BIG, CROWDED[0][1])
    tables = BlockTables(kinds=(BIG,))
    assert tables.suggest(grid, budget=5) == (0.0, None, -1) and tables.unfinished >= 1
    first = tables.solved
    assert 0 < first <= 5 * 8  # at most the budget per orientation looked up
    calls = 1
    while True:
        chance, move, kind = tables.suggest(grid, budget=100)
        calls += 1
        if move is not None or calls > 1000:
            break
    fresh = BlockTables(kinds=(BIG,))
    assert (chance, move, kind) == fresh.suggest(grid)
    assert calls > 3 and tables.solved == fresh.solved  # in steps, and no state solved twice
