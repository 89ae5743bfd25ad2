"""The endgame tables against a brute-force solve on whole boards with the game's own rules, their
symmetries, their file (checksum, corrupt file rebuilt), and the agent taking their move."""

from __future__ import annotations

import dataclasses
import itertools
import random
from functools import lru_cache

import numpy as np
import pytest

from research.tables_agent import TablesAgent
from screenbot.agent.endgame import FRAMES, PROB_SCALE, SHAPES, EndgameTables, TableError, solve
from screenbot.agent.search import ExpectimaxAgent
from screenbot.game.rules import Move, apply_move

L7, R8END, R8IN, B10 = SHAPES
PATH = L7.free
# for each shape, a full block whose smallest tile (8) is alone in the target cell, no two neighbours equal
BLOCKS8 = {
    "L7": ((8192, 2048, 1024), (512, 256, 128), (64, 32, 8)),
    "R8end": ((16384, 8192, 4096, 2048), (8, 64, 128, 256)),
    "R8in": ((16384, 8192, 4096, 2048), (64, 8, 128, 256)),
    "B10": ((8192, 1024, 512), (256, 128, 8)),
}
# macroxue/2048-ai's README example: the next 64 from the bottom row and right column, "nearly 80 %"
README_BOARD = ((16384, 8192, 1024, 2), (4096, 2048, 512, 2), (256, 128, 64, 2), (2, 2, 2, 2))
SMALL = tuple(dataclasses.replace(s, ranks=tuple(r for r in s.ranks if r <= 6)) for s in SHAPES[:3]) + (
    dataclasses.replace(B10, ranks=(3,)),)


def board_of(shape, block_rows, free_values):
    grid = [[0] * 4 for _ in range(4)]
    rows = iter(block_rows)
    for i in range(4):
        if any((i, j) in shape.block for j in range(4)):
            values = iter(next(rows))
            for j in range(4):
                if (i, j) in shape.block:
                    grid[i][j] = next(values)
    for (i, j), v in zip(shape.free, free_values):
        grid[i][j] = v
    return tuple(tuple(row) for row in grid)


def block_of(shape, grid):
    return [grid[i][j] for i, j in shape.block]


@lru_cache(maxsize=None)
def brute_force(shape, grid, target):
    """Best chance of a `target` beside the target cell with moves that keep the block, from whole
    boards and `apply_move` (the rules, not the tables' own slide): a move that merges a target into
    the block's is the goal, any other change to the block is not allowed."""
    best = 0.0
    for move in Move:
        value = after_value(shape, grid, move, target)
        if value is not None:
            best = max(best, value)
    return best


def after_value(shape, grid, move, target):
    after, _ = apply_move(grid, move)
    ti, tj = shape.target
    if after[ti][tj] == 2 * target:
        return 1.0
    if after == grid or block_of(shape, after) != block_of(shape, grid):
        return None
    free = [after[i][j] for i, j in shape.free]
    if any(after[i][j] == target for i, j in shape.free if abs(i - ti) + abs(j - tj) == 1):
        return 1.0
    if max(free) > target:
        return 0.0
    empties = [(i, j) for i, j in shape.free if after[i][j] == 0]
    total = 0.0
    for i, j in empties:
        for tile, p in ((2, 0.9), (4, 0.1)):
            grid2 = tuple(tuple(tile if (a, b) == (i, j) else after[a][b] for b in range(4)) for a in range(4))
            total += p * brute_force(shape, grid2, target)
    return total / len(empties)


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    path = tmp_path_factory.mktemp("tables") / "endgame.npz"
    built, seconds = EndgameTables.load_or_build(path, SMALL)
    assert seconds is not None and path.exists()
    return built


@pytest.mark.slow
def test_every_state_of_the_l_shapes_8_table_matches_a_brute_force_solve_on_whole_boards():
    prob = solve(L7, 3)
    checked = 0
    for ranks in itertools.product(range(4), repeat=len(PATH)):
        if 3 in (ranks[k] for k in L7.goals):
            continue  # the goal already: the tables leave it to the search
        idx = sum(r * 4**i for i, r in enumerate(ranks))
        grid = board_of(L7, BLOCKS8["L7"], [2**r if r else 0 for r in ranks])
        assert prob[idx] == pytest.approx(brute_force(L7, grid, 8), abs=1e-9), ranks
        checked += 1
    assert checked == 4**7 - (2 * 4**6 - 4**5)  # every state but those with the goal there already


@pytest.mark.slow
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: s.name)
def test_every_moves_chance_is_the_brute_force_value_after_it(tables, shape):
    """Crowded states (few reachable states, so the brute force is quick), each move's chance from the
    tables against the brute force after that move on the whole board."""
    rng = random.Random(shape.name)
    small = EndgameTables(SMALL, {key: a for key, a in tables.prob.items() if key == (shape.name, 3)})
    checked = 0
    while checked < 40:
        free = [rng.choice((0, 2, 4, 8) if rng.random() < 0.8 else (0,)) for _ in shape.free]
        if sum(v == 0 for v in free) > 3 or any(free[k] == 8 for k in shape.goals):
            continue
        grid = board_of(shape, BLOCKS8[shape.name], free)
        suggestion = small.suggest(grid)
        expected = {m: v for m in Move if (v := after_value(shape, grid, m, 8)) is not None}
        if not expected:
            assert suggestion is None
            continue
        assert suggestion is not None and suggestion.shape == shape.name
        assert set(suggestion.chances) == set(expected)
        for move, value in expected.items():
            assert suggestion.chances[move] == pytest.approx(value, abs=1e-4), (grid, move)
        assert suggestion.probability == max(suggestion.chances.values())
        checked += 1


def test_the_readme_board_of_macroxue_builds_its_64_about_80_percent_of_the_time(tables):
    suggestion = tables.suggest(README_BOARD)
    assert suggestion is not None and suggestion.target == 64 and suggestion.shape == "L7"
    assert 0.75 < suggestion.probability < 0.85  # macroxue's README: "nearly 80 % of the time"
    after, _ = apply_move(README_BOARD, suggestion.move)
    assert block_of(L7, after) == block_of(L7, README_BOARD)


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
    not_a_chain = ((8, 16, 512, 16384), (4, 8, 16, 64), (0, 4, 8, 4), (4, 0, 4, 2))  # two 16s in a 2x3 "block"
    assert tables.suggest(not_a_chain) is None
    before_the_endgame = ((4096, 2048, 1024, 2), (512, 256, 128, 2), (64, 32, 8, 2), (2, 2, 2, 2))
    assert tables.suggest(before_the_endgame) is None  # the block's largest tile below MIN_BLOCK_TILE (8192)
    assert tables.suggest(before_the_endgame, min_block_tile=4096) is not None


def test_the_file_keeps_the_tables_and_a_corrupt_file_is_refused_then_rebuilt(tables, tmp_path):
    path = tmp_path / "t.npz"
    tables.save(path)
    loaded = EndgameTables.load(path, SMALL)
    assert loaded.checksum() == tables.checksum()
    for shape in SMALL:
        for r in shape.ranks:
            a = loaded.prob[(shape.name, r)]
            assert a.shape == (shape.size(r),) and a.dtype == np.uint16
            assert np.array_equal(a, tables.prob[(shape.name, r)])
    assert loaded.prob[("L7", 6)].max() == PROB_SCALE
    with pytest.raises(TableError, match="other endgame tables"):
        EndgameTables.load(path)  # the full set of shapes is not what this file holds

    tiny = (dataclasses.replace(L7, ranks=(3, 4)),)  # quick to rebuild
    path = tmp_path / "tiny.npz"
    built, seconds = EndgameTables.load_or_build(path, tiny)
    assert seconds is not None
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(TableError):
        EndgameTables.load(path, tiny)
    rebuilt, seconds = EndgameTables.load_or_build(path, tiny)
    assert seconds is not None and rebuilt.checksum() == built.checksum()
    assert EndgameTables.load(path, tiny).checksum() == built.checksum()

    path.write_text("not a table")
    with pytest.raises(TableError, match="not a readable endgame table file"):
        EndgameTables.load(path, tiny)


def test_the_agent_plays_the_tables_move_and_says_so(tables):
    plain = ExpectimaxAgent(threads=1).choose(README_BOARD, depth=2)
    assert plain.chance is None
    suggestion = tables.suggest(README_BOARD)
    # up and left are mirror images on this L (all 2s): equally good for the table, the search picks
    assert suggestion.chances[Move.UP] == suggestion.chances[Move.LEFT] == suggestion.probability
    assert suggestion.chances[Move.DOWN] < suggestion.probability
    agent = TablesAgent(tables, threads=1)
    decision = agent.choose(README_BOARD, depth=2)
    assert decision.move == max((Move.UP, Move.LEFT), key=lambda m: plain.values[m])
    assert decision.chance == pytest.approx(suggestion.probability)
    assert decision.values == plain.values  # the search's values are still there to compare moves by
    strict = TablesAgent(tables, threads=1, threshold=0.9)
    assert strict.choose(README_BOARD, depth=2).chance is None


def test_moves_that_would_shift_the_block_are_not_the_tables(tables):
    board = ((16384, 8192, 1024, 0), (4096, 2048, 512, 0), (256, 128, 64, 0), (2, 4, 8, 16))
    suggestion = tables.suggest(board)
    assert set(suggestion.chances) == {Move.UP}  # right would shift the block, left and down do nothing
    decision = TablesAgent(tables, threads=1).choose(board, depth=2)
    assert decision.move == Move.UP and decision.chance == suggestion.probability


def test_a_merge_below_two_full_rows_would_let_them_fall_so_down_is_not_the_tables(tables):
    board = board_of(R8END, BLOCKS8["R8end"], (2, 4, 2, 4, 2, 8, 4, 2))
    suggestion = tables.suggest(board)
    assert suggestion is not None and suggestion.shape == "R8end"
    assert Move.DOWN not in suggestion.chances  # the 2s in column 0 merge and the rows above slide down
    assert apply_move(board, Move.DOWN)[0][0] != board[0]
    assert Move.UP in suggestion.chances


@pytest.mark.slow
def test_hint_builds_the_tables_once_then_loads_them_and_says_what_they_chose(capsys, monkeypatch, tmp_path):
    from screenbot import cli
    from screenbot.agent import endgame

    monkeypatch.setattr(endgame, "SHAPES", (dataclasses.replace(L7, ranks=(6,)),))  # the full set takes 1.5 min
    monkeypatch.setattr(endgame, "default_table_path", lambda: tmp_path / "cache" / "endgame.npz")
    argv = ["hint", "--player", "plain", "--board", "16384 8192 1024 2 / 4096 2048 512 2 / 256 128 64 2 / 2 2 2 2", "--depth", "2",
            "--endgame-tables"]
    assert cli.main(argv) == 0
    out, err = capsys.readouterr()
    assert "building the endgame tables into" in err and "endgame tables built in" in err
    assert (tmp_path / "cache" / "endgame.npz").exists()
    assert out.splitlines()[-1] == ("endgame tables (L7): chance of building the next 64 beside the big tiles without "
                                    "moving them, best play after: up 80.6%, down 70.8%, left 80.6%, right 70.8%")
    assert "best move: up" in out or "best move: left" in out  # the search's
    assert cli.main(argv) == 0
    out2, err2 = capsys.readouterr()
    assert "building" not in err2 and "built" not in err2
    assert out2.splitlines()[-1] == out.splitlines()[-1]


def test_a_cache_dir_that_cannot_be_written_is_one_line_and_exit_code_2(capsys, monkeypatch, tmp_path):
    from screenbot import cli
    from screenbot.agent import endgame

    (tmp_path / "file").write_text("in the way")
    monkeypatch.setattr(endgame, "SHAPES", (dataclasses.replace(L7, ranks=(3,)),))
    monkeypatch.setattr(endgame, "default_table_path", lambda: tmp_path / "file" / "endgame.npz")
    assert cli.main(["hint", "--player", "plain", "--board", "2 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 2", "--endgame-tables"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("screenbot: error: cannot keep the endgame tables at") and "Traceback" not in "".join(err)


@pytest.mark.slow
@pytest.mark.parametrize("frame", [FRAMES[0], FRAMES[5]], ids=["as is", "turned"])
def test_playing_the_tables_moves_in_the_game_builds_the_target_as_often_as_they_say(tables, frame):
    from screenbot.game.rules import empty_cells, place

    board = inverse_board(((16384, 8192, 4096, 2048), (64, 128, 256, 1024), (2, 0, 0, 0), (0, 0, 0, 0)), frame)
    first = tables.suggest(board)
    assert first.shape == "R8end" and first.target == 64
    big = [(i, j) for i in range(4) for j in range(4) if board[i][j] >= 64]
    rng = random.Random(12)
    games, built = 400, 0
    for _ in range(games):
        grid = board
        while (suggestion := tables.suggest(grid)) is not None:
            grid, _ = apply_move(grid, suggestion.move)
            assert all(grid[i][j] == board[i][j] for i, j in big)  # the two big rows stay put
            grid = place(grid, *rng.choice(empty_cells(grid)), 2 if rng.random() < 0.9 else 4)
        built += any(grid[i][j] == 64 and ((i < 3 and grid[i + 1][j] == 64) or (j < 3 and grid[i][j + 1] == 64))
                     for i in range(4) for j in range(4))
    assert built / games == pytest.approx(first.probability, abs=0.03)  # 0.98: 4 standard errors ~0.03
