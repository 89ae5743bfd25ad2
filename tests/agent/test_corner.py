"""The corner evaluation and player (screenbot.agent.corner): its row table, its tables' file and build, its search."""

from __future__ import annotations

import random

import numpy as np
import pytest

from screenbot.agent import block_tables as T
from screenbot.agent import table_store
from screenbot.agent import corner as C
from screenbot.agent.block_tables import BIG, PAIR, SMALL, SYMMETRIES, BlockTables
from screenbot.agent.corner import corner_row_table
from screenbot.game.rules import apply_move, legal_moves

from reference_search import reference_chance
from block_boards import CROWDED_PAIR, _solved_some, _line_score, _rank, _orient, _brute, _prefilled, CROWDED


def test_corner_row_table_scores_a_line_from_its_corner_side():
    table = corner_row_table(offset=0)
    for ranks in [(0, 0, 0, 0), (3, 2, 1, 1), (1, 2, 0, 0), (11, 11, 9, 0), (0, 0, 0, 15), (15, 14, 13, 12)]:
        word = sum(r << (4 * i) for i, r in enumerate(ranks))
        assert table[word] == _line_score(ranks)
    assert table[0x3210] < 0 < table[0x0123]  # nibble 0 is the corner: rising away from it is penalised
    assert corner_row_table()[0] == C.LINE_OFFSET


@pytest.mark.slow
def test_a_damaged_or_foreign_table_file_is_refused(tmp_path):
    path = tmp_path / "corner.npz"
    _solved_some().save(path)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged = tmp_path / "damaged.npz"
    damaged.write_bytes(bytes(data))
    with pytest.raises(T.TableError):
        BlockTables.load(damaged)
    foreign = tmp_path / "foreign.npz"
    np.savez(foreign, header=np.frombuffer(b"something else", np.uint8))
    with pytest.raises(T.TableError, match="other block tables"):
        BlockTables.load(foreign)
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(path.read_bytes()[:1000])
    with pytest.raises(T.TableError, match="not a readable"):
        BlockTables.load(truncated)


@pytest.mark.slow
def test_load_or_build_replaces_an_unusable_file_and_maps_what_it_built(tmp_path, monkeypatch):
    path = tmp_path / f"corner_tables_v{T.TABLE_VERSION}.tables"
    path.write_bytes(b"not a table")
    built = _solved_some()
    solved = built.states_solved()
    monkeypatch.setattr(C, "build_tables", lambda progress=None, earlier=None, hold=None: built)
    older = [tmp_path / "corner_tables_v1.npz", tmp_path / "corner_tables_v3.tables"]  # other versions: replaced
    for old in older:
        old.write_bytes(b"old tables")
    other = tmp_path / "corner_tables_v1.npz.notes"
    other.write_bytes(b"not a table file")
    tables, seconds = C.load_or_build(path)
    assert seconds is not None and tables.states_solved() == solved
    assert not tables.tables[BIG].bits.flags.writeable  # the file's mapped copy
    assert not any(old.exists() for old in older) and other.exists()
    again, seconds = C.load_or_build(path)
    assert seconds is None and again.states_solved() == solved


@pytest.mark.slow
def test_load_or_build_converts_the_same_tables_from_numpys_zip_file(tmp_path, monkeypatch):
    built = _solved_some()
    twin = tmp_path / "corner.npz"
    built.save(twin)
    monkeypatch.setattr(C, "build_tables", lambda progress=None, earlier=None, hold=None: pytest.fail("converted, not built"))
    tables, seconds = C.load_or_build(tmp_path / "corner.tables")
    assert seconds is None and not twin.exists() and (tmp_path / "corner.tables").exists()
    grid = _prefilled(BIG, CROWDED[2][1])
    assert tables.suggest(grid, budget=0) == built.suggest(grid, budget=0) != (0.0, None, -1)


@pytest.mark.slow
def test_a_build_beside_a_version_2_file_keeps_its_two_tables_and_solves_the_pair_table(tmp_path, monkeypatch):

    earlier = _solved_some().compact()
    two = {kind: earlier.tables[kind] for kind in T.EARLIER_KINDS}  # BIG and SMALL, as a version-2 file holds them
    old = tmp_path / f"corner_tables_v{T.EARLIER_VERSION}.npz"
    table_store.save(old, T._header(T.EARLIER_KINDS, T.TABLE_VERSION), two)  # another version's header
    assert C.earlier_tables(tmp_path / "corner.tables") is None
    table_store.save(old, T._header(T.EARLIER_KINDS, T.EARLIER_VERSION), two)
    start = _prefilled(PAIR, CROWDED_PAIR[0])  # a small solve in place of the 180 starts' 388 M states
    monkeypatch.setattr(C, "pair_starts", lambda: [start])
    monkeypatch.setattr(C, "_play_build_game", lambda *a: pytest.fail("the game is played only without a file"))
    seen = []
    monkeypatch.setattr(C, "BUILD_STEP", 1)
    path = tmp_path / f"corner_tables_v{T.TABLE_VERSION}.tables"
    tables, seconds = C.load_or_build(path, progress=seen.append)
    assert seconds is not None and set(tables.tables) == {BIG, SMALL, PAIR}
    assert seen and tables.tables[PAIR].solved() == seen[-1]  # progress counts the pair table's states
    assert tables.tables[SMALL].solved() == earlier.tables[SMALL].solved()
    assert not old.exists() and path.exists()  # the version-2 file is replaced
    loaded, seconds = C.load_or_build(path)
    assert seconds is None and loaded.states_solved() == tables.states_solved()
    chance, move, kind = loaded.suggest(start, budget=1)  # a build solves below its starts; a start is one state more
    assert kind == PAIR and chance == pytest.approx(_brute(start, PAIR), abs=2e-3)


def test_corner_agent_plays_the_table_move_where_the_table_knows_the_board():
    from screenbot.agent.corner import CornerAgent

    grid = _prefilled(BIG, CROWDED[2][1])
    agent = CornerAgent(BlockTables(), threads=1)
    decision = agent.choose(grid, depth=2)
    chance, move, _ = BlockTables().suggest(grid)
    assert decision.move == move and decision.chance == chance and decision.depth == 0
    plain = CornerAgent(None, threads=1).choose(grid, depth=2)
    assert plain.chance is None and plain.depth == 2 and plain.move in legal_moves(grid)


def test_a_higher_big_min_leaves_a_big_table_move_below_it_to_the_search():
    from screenbot.agent.corner import CornerAgent

    # the big table knows this board (anchor 1024): a 64 to build beside the 64, with a 4.9 % chance
    grid = ((32768, 16384, 8192, 0), (4096, 2048, 1024, 2), (512, 256, 128, 64), (0, 0, 16, 32))
    tables = BlockTables.empty_compact()
    chance, move, kind = tables.suggest(grid)
    assert kind == BIG and 0.04 < chance < 0.05 and move is not None
    tables.big_min = 0.04
    assert tables.suggest(grid) == (chance, move, BIG)
    played = CornerAgent(tables, threads=1).choose(grid, depth=2)
    assert played.chance == chance and played.move == move
    tables.big_min = 0.05
    assert tables.suggest(grid) == (0.0, None, -1)
    searched = CornerAgent(tables, threads=1).choose(grid, depth=2)
    assert searched.chance is None and searched.depth == 2 and searched.move in legal_moves(grid)


def test_a_board_with_its_big_tiles_in_another_corner_is_searched_turned():
    from screenbot.agent.corner import CornerAgent, corner_turn

    bottom_right = ((4, 0, 2, 2), (2, 4, 16, 16), (4, 16, 1024, 2048), (8, 64, 4096, 8192))
    turn = corner_turn(bottom_right)
    source, moves = SYMMETRIES[turn]
    assert _orient(bottom_right, source)[0][0] == 8192
    assert corner_turn(((8192, 4096, 0, 0), (2, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 2))) is None  # already there
    assert corner_turn(((2, 0, 0, 256), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))) is None  # too small to matter
    decision = CornerAgent(None, threads=1).choose(bottom_right, depth=2)
    turned = CornerAgent(None, threads=1).choose(_orient(bottom_right, source), depth=2)
    assert decision.move == moves[turned.move] and set(decision.values) == set(legal_moves(bottom_right))


@pytest.mark.slow
def test_the_build_plays_its_game_and_reports_its_progress():
    """The first few million states of a real build (its big solves shared out between two threads)."""
    seen = []

    class Enough(Exception):
        pass

    def progress(solved):
        seen.append(solved)
        if solved >= 3 * C.BUILD_STEP:
            raise Enough

    with pytest.raises(Enough):
        C.build_tables(progress)
    assert seen == sorted(seen) and seen[0] >= C.BUILD_STEP
    assert all(b - a >= C.BUILD_STEP for a, b in zip(seen, seen[1:]))  # a report per step, not per board


def _corner_value(grid, lost=C.LOST_VALUE):
    """macroxue's evaluation + `lost` (so that a lost board, 0 here, lies `lost` below its 0)."""
    ranks = [[_rank(v) for v in row] for row in grid]
    lines = [tuple(row) for row in ranks] + [tuple(col) for col in zip(*ranks)]
    return sum(_line_score(line) for line in lines) + lost


def _random_boards(n, seed, cells_of, keep):
    """n boards from cells_of(rng) (16 values, row by row) that keep(board) accepts."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < n:
        cells = cells_of(rng)
        board = tuple(tuple(cells[4 * r:4 * r + 4]) for r in range(4))
        if keep(board):
            boards.append(board)
    return boards


def _formation_cells(rng):
    top = rng.randint(9, 13)
    cells = [0] * 16
    cells[0], cells[1], cells[2] = 2**top, 2 ** (top - 1), 2 ** (top - rng.randint(2, 4))
    for i in rng.sample(range(3, 16), rng.randint(6, 10)):
        cells[i] = rng.choice([2, 2, 4, 8, 16, 32, 64, 128])
    return cells


def _formation_boards(n, seed):
    """Boards with a falling top row from the corner and small tiles around (macroxue's evaluation above 0)."""
    return _random_boards(n, seed, _formation_cells, lambda b: _corner_value(b) >= 8 * C.LINE_OFFSET)


@pytest.mark.slow
@pytest.mark.parametrize("threads", [1, 2])
def test_the_corner_search_equals_a_plain_reference(threads):
    agent = C.CornerAgent(None, threads=threads)
    for grid in _formation_boards(4, seed=threads):
        decision = agent.choose(grid, depth=2, cutoff=1e-3)
        assert set(decision.values) == set(legal_moves(grid))
        for move, value in decision.values.items():
            expected = reference_chance(apply_move(grid, move)[0], 2, 1.0, 1e-3, lambda b: max(0.0, _corner_value(b)))
            assert value == pytest.approx(expected, rel=1e-6, abs=0.05), (grid, move)
