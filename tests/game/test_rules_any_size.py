"""The rules on every board from 3x3 to 8x8, rectangles too, against the plain reference in rules_reference."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from screenbot.game.rules import (
    EMPTY,
    MAX_TILE,
    SIZE,
    Move,
    apply_move,
    empty_cells,
    format_board,
    is_over,
    is_tile,
    legal_moves,
    line_cells,
    merged_cells,
    move_lines,
    slide_row_left,
    spawn_outcomes,
    to_grid,
)
from screenbot.game.sizes import tile_limit

from rules_reference import SHAPES, random_board, reference_move


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_move_on_random_boards_of_every_size_matches_the_reference(shape):
    rng = random.Random(10 * shape[0] + shape[1])
    for k in range(60):
        grid = to_grid(random_board(rng, shape, empty_share=(0.1, 0.3, 0.6)[k % 3]))
        for move in Move:
            after, gain, landed = reference_move(grid, move)
            assert apply_move(grid, move) == (after, gain), (format_board(grid), move)
            assert merged_cells(grid, move) == landed
        changing = [m for m in Move if reference_move(grid, m)[0] != grid]
        assert legal_moves(grid) == changing
        assert is_over(grid) == (not changing)


@st.composite
def boards(draw):
    rows, cols = draw(st.sampled_from(SHAPES))
    top = min(tile_limit((rows, cols)).bit_length() - 1, 20)
    rank = st.one_of(st.just(0), st.just(0), st.integers(1, 3), st.integers(1, top))
    cells = draw(st.lists(st.lists(rank, min_size=cols, max_size=cols), min_size=rows, max_size=rows))
    return to_grid([[1 << k if k else 0 for k in row] for row in cells])


@settings(max_examples=400, deadline=None, derandomize=True)
@given(boards(), st.sampled_from(list(Move)))
def test_moves_match_the_reference_and_keep_the_tiles_sum(grid, move):
    after, gain = apply_move(grid, move)
    ref_after, ref_gain, landed = reference_move(grid, move)
    assert (after, gain) == (ref_after, ref_gain)
    assert sum(map(sum, after)) == sum(map(sum, grid))
    assert gain == sum(after[r][c] for r, c in landed)
    tiles = sum(v > 0 for row in grid for v in row)
    assert sum(v > 0 for row in after for v in row) == tiles - len(landed)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(boards())
def test_a_board_and_its_transpose_or_mirror_move_alike(grid):
    def transpose(g):
        return tuple(zip(*g))

    def mirror(g):
        return tuple(row[::-1] for row in g)

    def flip(g):
        return g[::-1]

    left, gain = apply_move(grid, Move.LEFT)
    assert apply_move(mirror(grid), Move.RIGHT) == (mirror(left), gain)
    assert apply_move(transpose(grid), Move.UP) == (transpose(left), gain)
    assert apply_move(flip(transpose(grid)), Move.DOWN) == (flip(transpose(left)), gain)


@pytest.mark.parametrize(
    "row, expected, gain",
    [
        ([2, 2, 2], [4, 2, 0], 4),
        ([0, 4, 4], [8, 0, 0], 8),
        ([2, 2, 2, 2, 2], [4, 4, 2, 0, 0], 8),
        ([4, 0, 4, 8, 8, 0], [8, 16, 0, 0, 0, 0], 24),
        ([2, 0, 2, 0, 2, 0, 2, 4], [4, 4, 4, 0, 0, 0, 0, 0], 8),
        ([8, 4, 2, 2, 4, 8, 16, 16], [8, 4, 4, 4, 8, 32, 0, 0], 36),
    ],
)
def test_a_line_of_any_length_slides_and_merges_once_from_the_wall(row, expected, gain):
    assert slide_row_left(row) == (tuple(expected), gain)


def test_lines_run_from_the_wall_on_a_rectangle():
    size = (3, 5)
    assert line_cells(Move.RIGHT, 2, size) == [(2, 4), (2, 3), (2, 2), (2, 1), (2, 0)]
    assert line_cells(Move.DOWN, 4, size) == [(2, 4), (1, 4), (0, 4)]
    assert [len(cells) for cells in move_lines(Move.LEFT, size)] == [5, 5, 5]
    assert [len(cells) for cells in move_lines(Move.UP, size)] == [3, 3, 3, 3, 3]
    every = {cell for cells in move_lines(Move.DOWN, size) for cell in cells}
    assert every == {(r, c) for r in range(3) for c in range(5)}


def test_line_cells_and_is_tile_take_the_classic_board_by_default():
    assert line_cells(Move.LEFT, 1) == [(1, 0), (1, 1), (1, 2), (1, 3)]
    assert len(move_lines(Move.UP)) == SIZE == 4
    assert MAX_TILE == 131072 and is_tile(131072) and not is_tile(262144)
    assert EMPTY == to_grid([[0] * 4] * 4)


@pytest.mark.parametrize("shape, largest", [((3, 3), 1024), ((3, 4), 8192), ((4, 4), 131072), ((5, 5), 1 << 26),
                                            ((8, 8), 1 << 65)])
def test_the_largest_tile_depends_on_the_board_size(shape, largest):
    assert tile_limit(shape) == largest
    assert is_tile(largest, shape) and not is_tile(2 * largest, shape) and not is_tile(largest - 2, shape)
    board = [[0] * shape[1] for _ in range(shape[0])]
    board[0][0] = largest
    assert to_grid(board)[0][0] == largest
    board[0][0] = 2 * largest
    with pytest.raises(ValueError, match=f"0 or a power of two from 2 to {largest}"):
        to_grid(board)


@pytest.mark.parametrize(
    "rows, size, problem",
    [
        ([[0] * 4] * 2, None, "a 2x4 board is not supported"),
        ([[0] * 9] * 4, None, "a 4x9 board is not supported"),
        ([[0] * 4, [0] * 3, [0] * 4], None, "the same number of cells, got 4, 3, 4"),
        ([[0] * 5] * 5, (4, 4), "a board here has 4 rows of 4 cells, got 5x5"),
        ([[0] * 4] * 4, (3, 4), "a board here has 3 rows of 4 cells, got 4x4"),
        ([], None, "no rows"),
        ([[3, 0, 0]] * 3, None, "3 is not a tile value"),
    ],
)
def test_to_grid_refuses_a_shape_or_tile_in_one_line(rows, size, problem):
    with pytest.raises(ValueError, match=problem) as caught:
        to_grid(rows, size)
    assert "\n" not in str(caught.value)


def test_empty_cells_and_spawn_outcomes_on_a_rectangle():
    grid = to_grid([[2, 0, 0, 0, 4, 0], [0] * 6, [0, 0, 8, 0, 0, 0]])
    cells = empty_cells(grid)
    assert len(cells) == 15 and cells == sorted(cells) and (0, 0) not in cells and (2, 2) not in cells
    outcomes = spawn_outcomes(grid)
    assert len(outcomes) == 30 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    fours = sum(p for g, p in outcomes if 4 in {g[r][c] for r, c in cells})
    assert abs(fours - 0.1) < 1e-12
