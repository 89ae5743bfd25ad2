"""The bitboard (the search's fast form) against the plain-grid rules, and what it does with tiles above 32768."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from screenbot.game import Move, apply_move, legal_moves, to_grid
from screenbot.game.bitboard import (
    count_empty,
    distinct_ranks,
    from_bitboard,
    legal_mask,
    max_rank,
    move_bitboard,
    to_bitboard,
    transpose,
)

# tiles up to 16384 (where the fast form is exact), plus at most one 32768 (see below)
small_tile = st.sampled_from([0, 0, 0, 0, 2, 2, 4, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384])
exact_grids = st.lists(st.lists(small_tile, min_size=4, max_size=4), min_size=4, max_size=4).map(to_grid)


@st.composite
def grids_with_one_32768(draw):
    cells = [v for row in draw(exact_grids) for v in row]
    cells[draw(st.integers(0, 15))] = 32768
    return to_grid([cells[r * 4:(r + 1) * 4] for r in range(4)])


any_exact_grid = st.one_of(exact_grids, grids_with_one_32768())


@settings(max_examples=500, deadline=None)
@given(any_exact_grid, st.sampled_from(list(Move)))
def test_moves_and_score_gains_match_the_rules(grid, move):
    after, gain = apply_move(grid, move)
    b_after, b_gain = move_bitboard(to_bitboard(grid), move)
    assert from_bitboard(b_after) == after
    assert b_gain == gain


@settings(max_examples=300, deadline=None)
@given(any_exact_grid)
def test_round_trip_legality_and_counts(grid):
    b = to_bitboard(grid)
    assert from_bitboard(b) == grid
    mask = int(legal_mask(np.uint64(b)))
    assert [m for m in Move if mask >> int(m) & 1] == legal_moves(grid)
    assert int(count_empty(np.uint64(b))) == sum(v == 0 for row in grid for v in row)
    assert int(distinct_ranks(np.uint64(b))) == len({v for row in grid for v in row if v})
    assert 1 << int(max_rank(np.uint64(b))) == max(max(max(row) for row in grid), 1)
    assert from_bitboard(int(transpose(np.uint64(b)))) == tuple(zip(*grid))


def test_cell_layout_is_row_major_low_nibble_first():
    grid = to_grid([[2, 4, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 8]])
    assert to_bitboard(grid) == 0x1 | (0x2 << 4) | (0x3 << 60)


def test_tiles_above_32768_are_read_as_rank_15():
    grid = to_grid([[65536, 131072, 32768, 2], [0] * 4, [0] * 4, [0] * 4])
    b = to_bitboard(grid)
    assert [(b >> (4 * i)) & 0xF for i in range(4)] == [15, 15, 15, 1]
    assert from_bitboard(b)[0] == (32768, 32768, 32768, 2)


def test_rank_15_never_merges_in_the_fast_form():
    # the real rules make 65536 here; the fast form cannot hold rank 16, so it keeps both tiles
    grid = to_grid([[32768, 32768, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    assert apply_move(grid, Move.LEFT)[0][0] == (65536, 0, 0, 0)
    after, gain = move_bitboard(to_bitboard(grid), Move.LEFT)
    assert from_bitboard(after)[0] == (32768, 32768, 0, 0) and gain == 0
    slid, _ = move_bitboard(to_bitboard(grid), Move.RIGHT)
    assert from_bitboard(slid)[0] == (0, 0, 32768, 32768)
    # below rank 15 merging is untouched: two 16384 still make 32768
    grid = to_grid([[16384, 16384, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    after, gain = move_bitboard(to_bitboard(grid), Move.LEFT)
    assert from_bitboard(after)[0] == (32768, 0, 0, 0) and gain == 32768
