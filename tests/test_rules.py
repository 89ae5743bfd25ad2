"""The plain-grid rules against the classic game's examples and a deliberately simple reference."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from screenbot.game import Game, Move, apply_move, is_over, legal_moves, parse_board, spawn, Rng, to_grid
from screenbot.game.rules import slide_row_left


@pytest.mark.parametrize(
    "row, expected, gain",
    [
        ([2, 2, 2, 2], [4, 4, 0, 0], 8),
        ([2, 2, 2, 0], [4, 2, 0, 0], 4),
        ([4, 4, 8, 0], [8, 8, 0, 0], 8),
        ([0, 0, 0, 2], [2, 0, 0, 0], 0),
        ([2, 0, 2, 4], [4, 4, 0, 0], 4),
        ([8, 4, 2, 2], [8, 4, 4, 0], 4),
        ([0, 0, 0, 0], [0, 0, 0, 0], 0),
    ],
)
def test_row_slides_and_merges_once_from_the_wall(row, expected, gain):
    assert slide_row_left(row) == (tuple(expected), gain)


def test_right_resolves_pairs_from_the_right_wall():
    grid = to_grid([[2, 2, 2, 0], [0] * 4, [0] * 4, [0] * 4])
    after, gain = apply_move(grid, Move.RIGHT)
    assert after[0] == (0, 0, 2, 4) and gain == 4


def _reference_move(grid, move):
    """Cell-by-cell simulation, the way a person would do it on paper."""
    n = 4
    cells = [list(r) for r in grid]
    dr, dc = {Move.UP: (-1, 0), Move.DOWN: (1, 0), Move.LEFT: (0, -1), Move.RIGHT: (0, 1)}[move]
    order_r = range(n) if dr <= 0 else range(n - 1, -1, -1)
    order_c = range(n) if dc <= 0 else range(n - 1, -1, -1)
    merged = [[False] * n for _ in range(n)]
    gain = 0
    for r in order_r:
        for c in order_c:
            if not cells[r][c]:
                continue
            v = cells[r][c]
            cr, cc = r, c
            while 0 <= cr + dr < n and 0 <= cc + dc < n and cells[cr + dr][cc + dc] == 0:
                cr, cc = cr + dr, cc + dc
            nr, nc = cr + dr, cc + dc
            if 0 <= nr < n and 0 <= nc < n and cells[nr][nc] == v and not merged[nr][nc]:
                cells[r][c] = 0
                cells[nr][nc] = 2 * v
                merged[nr][nc] = True
                gain += 2 * v
            else:
                cells[r][c] = 0
                cells[cr][cc] = v
    return tuple(tuple(r) for r in cells), gain


tile = st.sampled_from([0, 0, 0, 2, 4, 8, 16, 32, 2048, 4096, 32768, 65536, 131072])
grids = st.lists(st.lists(tile, min_size=4, max_size=4), min_size=4, max_size=4).map(to_grid)


@settings(max_examples=400, deadline=None)
@given(grids, st.sampled_from(list(Move)))
def test_moves_match_the_reference(grid, move):
    assert apply_move(grid, move) == _reference_move(grid, move)


@settings(max_examples=200, deadline=None)
@given(grids)
def test_game_over_exactly_when_no_move_changes_the_board(grid):
    changing = [m for m in Move if _reference_move(grid, m)[0] != grid]
    assert legal_moves(grid) == changing
    assert is_over(grid) == (not changing)


def test_spawn_is_uniform_over_empty_cells_and_ninety_ten():
    rng = Rng(7)
    grid = to_grid([[2, 0, 0, 0], [0, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 8]])
    cells, values = Counter(), Counter()
    n = 40000
    for _ in range(n):
        _, (r, c, v) = spawn(grid, rng)
        assert grid[r][c] == 0
        cells[(r, c)] += 1
        values[v] += 1
    assert len(cells) == 13
    for count in cells.values():
        assert abs(count / n - 1 / 13) < 0.01
    assert abs(values[2] / n - 0.9) < 0.01 and set(values) == {2, 4}


def test_seeded_games_are_deterministic_and_a_no_op_move_spawns_nothing():
    def play(seed):
        g = Game(seed=seed)
        g.reset()
        boards = [g.grid]
        for i in range(200):
            if g.over:
                break
            g.step(legal_moves(g.grid)[i % len(legal_moves(g.grid))])
            boards.append(g.grid)
        return boards, g.score

    assert play(3) == play(3)
    assert play(3) != play(4)
    g = Game(seed=1)
    g.reset(start=to_grid([[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]))
    assert g.step(Move.LEFT) == (g.grid, 0, False) and g.moves == 0


@pytest.mark.parametrize(
    "text, problem",
    [
        ("2 0 0 4", "16 cells"),
        ("2 0 0 3 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", "power of two"),
        ("-2 0 0 4 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", "negative"),
        ("x 0 0 4 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", "not a number"),
    ],
)
def test_parse_board_names_the_problem(text, problem):
    with pytest.raises(ValueError, match=problem):
        parse_board(text)


def test_parse_board_reads_rows():
    g = parse_board("2 0 0 4 / 0 . 0 0 / 0 0 8 0 / 0 0 0 131072")
    assert g[0] == (2, 0, 0, 4) and g[3][3] == 131072 and g[1][1] == 0
