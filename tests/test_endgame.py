"""The endgame tables against a brute-force solve on whole boards with the game's own rules, their
symmetries, their file (checksum, corrupt file rebuilt), and the agent taking their move."""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np
import pytest

from screenbot.agent.endgame import (
    FRAMES,
    GOAL_PATH,
    MAX_RANK,
    MIN_RANK,
    PATH,
    PROB_SCALE,
    EndgameTables,
    TableError,
    solve_rank,
    table_size,
)
from screenbot.agent.search import ExpectimaxAgent
from screenbot.game.rules import Move, apply_move

# a full block whose inner corner (8) is its smallest tile, no two neighbours equal
BLOCK8 = ((4096, 2048, 1024), (512, 256, 128), (64, 32, 8))
# macroxue/2048-ai's README example: the next 64 from the bottom row and right column, "nearly 80 %"
README_BOARD = ((16384, 8192, 1024, 2), (4096, 2048, 512, 2), (256, 128, 64, 2), (2, 2, 2, 2))


def board_of(block, l_values):
    grid = [list(row) + [0] for row in block] + [[0, 0, 0, 0]]
    for (i, j), v in zip(PATH, l_values):
        grid[i][j] = v
    return tuple(tuple(row) for row in grid)


def block_of(grid):
    return [row[:3] for row in grid[:3]]


@lru_cache(maxsize=None)
def brute_force(grid, target):
    """Best chance of a `target` beside the inner corner (2, 2) with moves that keep the 3x3 block,
    from whole boards and `apply_move`: the rules, not the table's own slide."""
    best = 0.0
    for move in Move:
        after, _ = apply_move(grid, move)
        if after == grid or block_of(after) != block_of(grid):
            continue
        l_values = [after[i][j] for i, j in PATH]
        if after[2][3] == target or after[3][2] == target:
            value = 1.0
        elif max(l_values) > target:
            value = 0.0
        else:
            empties = [(i, j) for i, j in PATH if after[i][j] == 0]
            total = 0.0
            for i, j in empties:
                for tile, p in ((2, 0.9), (4, 0.1)):
                    grid2 = [list(r) for r in after]
                    grid2[i][j] = tile
                    total += p * brute_force(tuple(tuple(r) for r in grid2), target)
            value = total / len(empties)
        best = max(best, value)
    return best


@pytest.fixture(scope="module")
def rank3():
    return solve_rank(3)


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    path = tmp_path_factory.mktemp("tables") / "endgame.npz"
    built, seconds = EndgameTables.load_or_build(path)
    assert seconds is not None and path.exists()
    return built


def test_every_state_of_the_8_table_matches_a_brute_force_solve_on_whole_boards(rank3):
    prob, best = rank3
    checked = 0
    for ranks in itertools.product(range(4), repeat=len(PATH)):
        if ranks[GOAL_PATH[0]] == 3 or ranks[GOAL_PATH[1]] == 3:
            continue  # the goal already: the tables leave it to the search
        idx = sum(r * 4**i for i, r in enumerate(ranks))
        grid = board_of(BLOCK8, [2**r if r else 0 for r in ranks])
        assert prob[idx] == pytest.approx(brute_force(grid, 8), abs=1e-9), ranks
        if best[idx] >= 0:  # the table's move gets the table's value on the real board
            after, _ = apply_move(grid, Move(int(best[idx])))
            assert after != grid and block_of(after) == block_of(grid)
        else:
            assert prob[idx] == 0.0
        checked += 1
    assert checked == 4**7 - (2 * 4**6 - 4**5)  # every state but those with the goal there already


def test_every_moves_chance_is_the_brute_force_value_after_it():
    tables = EndgameTables({3: np.round(solve_rank(3)[0] * PROB_SCALE).astype(np.uint16)}, {3: solve_rank(3)[1]})
    checked = 0
    for ranks in itertools.product(range(4), repeat=len(PATH)):
        if ranks[GOAL_PATH[0]] == 3 or ranks[GOAL_PATH[1]] == 3 or sum(ranks) % 7:
            continue  # (a seventh of the states is plenty)
        grid = board_of(BLOCK8, [2**r if r else 0 for r in ranks])
        suggestion = tables.suggest(grid)
        allowed = {}
        for move in Move:
            after, _ = apply_move(grid, move)
            if after != grid and block_of(after) == block_of(grid):
                allowed[move] = after
        if not allowed:
            assert suggestion is None
            continue
        assert set(suggestion.chances) == set(allowed)
        for move, after in allowed.items():
            if after[2][3] == 8 or after[3][2] == 8:
                expected = 1.0
            elif max(after[i][j] for i, j in PATH) > 8:
                expected = 0.0
            else:
                empties = [(i, j) for i, j in PATH if after[i][j] == 0]
                expected = sum(
                    p * brute_force(tuple(tuple(tile if (a, b) == (i, j) else after[a][b] for b in range(4)) for a in range(4)), 8)
                    for i, j in empties for tile, p in ((2, 0.9), (4, 0.1))
                ) / len(empties)
            assert suggestion.chances[move] == pytest.approx(expected, abs=1e-4)
        assert suggestion.probability == max(suggestion.chances.values())
        checked += 1
    assert checked > 1000


def test_the_readme_board_of_macroxue_builds_its_64_about_80_percent_of_the_time(tables):
    suggestion = tables.suggest(README_BOARD)
    assert suggestion is not None and suggestion.target == 64
    assert 0.75 < suggestion.probability < 0.85  # macroxue's README: "nearly 80 % of the time"
    after, _ = apply_move(README_BOARD, suggestion.move)
    assert block_of(after) == block_of(README_BOARD)


def transformed(grid, frame):
    """The board seen through `frame` (frame cell (i, j) is original cell frame.at(i, j))."""
    return tuple(tuple(grid[frame.at(i, j)[0]][frame.at(i, j)[1]] for j in range(4)) for i in range(4))


def inverse_board(grid, frame):
    out = [[0] * 4 for _ in range(4)]
    for i in range(4):
        for j in range(4):
            a, b = frame.at(i, j)
            out[a][b] = grid[i][j]
    return tuple(tuple(r) for r in out)


# an L with no mirror image of itself, so that exactly one corner and mirror of the board fits
ASYMMETRIC = ((16384, 8192, 1024, 4), (4096, 2048, 512, 0), (256, 128, 64, 2), (2, 8, 0, 16))


@pytest.mark.parametrize("frame", FRAMES)
def test_the_same_board_in_every_corner_and_mirror_gets_the_same_move(tables, frame):
    reference = tables.suggest(ASYMMETRIC)
    assert reference is not None and 0 < reference.probability < 1
    board = inverse_board(ASYMMETRIC, frame)  # ASYMMETRIC is `board` seen through `frame`
    assert transformed(board, frame) == ASYMMETRIC
    suggestion = tables.suggest(board)
    assert suggestion is not None and suggestion.probability == reference.probability
    moved, _ = apply_move(board, suggestion.move)
    expected, _ = apply_move(ASYMMETRIC, reference.move)
    assert transformed(moved, frame) == expected


def test_boards_outside_the_pattern_get_no_table_move(tables):
    assert tables.suggest(((2, 4, 8, 16), (0, 2, 0, 0), (0, 0, 0, 0), (0, 0, 0, 2))) is None
    two_64s = ((16384, 8192, 1024, 2), (4096, 2048, 512, 2), (64, 128, 64, 2), (2, 2, 2, 2))
    assert tables.suggest(two_64s) is None  # the corner is not the block's only smallest tile
    bigger_in_l = ((16384, 8192, 1024, 2), (4096, 2048, 512, 2), (256, 128, 64, 2), (2, 128, 2, 2))
    assert tables.suggest(bigger_in_l) is None  # a tile above the target outside the block
    goal_there = ((16384, 8192, 1024, 2), (4096, 2048, 512, 2), (256, 128, 64, 64), (2, 2, 2, 2))
    assert tables.suggest(goal_there) is None  # the 64 is built: the search merges it
    small_block = ((64, 32, 16, 2), (4, 8, 4, 0), (2, 4, 2, 0), (0, 0, 0, 0))
    assert tables.suggest(small_block) is None


def test_the_file_keeps_the_tables_and_a_corrupt_file_is_refused_then_rebuilt(tables, tmp_path):
    path = tmp_path / "t.npz"
    tables.save(path)
    loaded = EndgameTables.load(path)
    assert loaded.checksum() == tables.checksum()
    for r in range(MIN_RANK, MAX_RANK + 1):
        assert loaded.prob[r].shape == (table_size(r),) and loaded.prob[r].dtype == np.uint16
        assert np.array_equal(loaded.move[r], tables.move[r])
    assert loaded.prob[6].max() == PROB_SCALE

    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(TableError):
        EndgameTables.load(path)
    rebuilt, seconds = EndgameTables.load_or_build(path)
    assert seconds is not None and rebuilt.checksum() == tables.checksum()
    assert EndgameTables.load(path).checksum() == tables.checksum()

    path.write_text("not a table")
    with pytest.raises(TableError, match="not a readable endgame table file"):
        EndgameTables.load(path)


def test_the_agent_plays_the_tables_move_and_says_so(tables):
    plain = ExpectimaxAgent(threads=1).choose(README_BOARD, depth=2)
    assert plain.table is None
    suggestion = tables.suggest(README_BOARD)
    # up and left are mirror images on this L (all 2s): equally good for the table, the search picks
    assert suggestion.chances[Move.UP] == suggestion.chances[Move.LEFT] == suggestion.probability
    assert suggestion.chances[Move.DOWN] < suggestion.probability
    agent = ExpectimaxAgent(threads=1, tables=tables)
    decision = agent.choose(README_BOARD, depth=2)
    assert decision.move == max((Move.UP, Move.LEFT), key=lambda m: plain.values[m])
    assert decision.table == pytest.approx(suggestion.probability)
    assert decision.values == plain.values  # the search's values are still there to compare moves by
    strict = ExpectimaxAgent(threads=1, tables=tables, table_threshold=0.9)
    assert strict.choose(README_BOARD, depth=2).table is None


def test_moves_that_would_shift_the_block_are_not_the_tables(tables):
    board = ((16384, 8192, 1024, 0), (4096, 2048, 512, 0), (256, 128, 64, 0), (2, 4, 8, 16))
    suggestion = tables.suggest(board)
    assert set(suggestion.chances) == {Move.UP}  # right would shift the block, left and down do nothing
    decision = ExpectimaxAgent(threads=1, tables=tables).choose(board, depth=2)
    assert decision.move == Move.UP and decision.table == suggestion.probability
