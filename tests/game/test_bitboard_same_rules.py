"""The 4x4 bitboard is the fast path of the same rules: every row of its tables, and whole seeded games,
against the general engine (tests/test_bitboard.py holds it to the engine on random single boards)."""

import random

import numpy as np
import pytest

from screenbot.game.bitboard import (
    GAIN_LEFT,
    GAIN_RIGHT,
    RANK_LIMIT,
    ROW_EMPTIES,
    ROW_LEFT,
    ROW_RIGHT,
    from_bitboard,
    legal_mask,
    move_bitboard,
    to_bitboard,
)
from screenbot.game.rules import Game, Move, apply_move, legal_moves, slide_row_left

from rules_reference import reference_move


def row_values(word: int) -> list[int]:
    return [(1 << k) if k else 0 for k in ((word >> (4 * i)) & 0xF for i in range(4))]


def row_word(values) -> int:
    return sum((v.bit_length() - 1 if v else 0) << (4 * i) for i, v in enumerate(values))


def test_every_row_of_the_tables_below_rank_15_is_the_general_slide():
    checked = 0
    for word in range(1 << 16):
        values = row_values(word)
        if max(values) >= 1 << RANK_LIMIT:
            continue  # rank 15 never merges in the fast form (see bitboard's docstring)
        left, gain = slide_row_left(values)
        assert (row_values(int(ROW_LEFT[word])), int(GAIN_LEFT[word])) == (list(left), gain), values
        right, gain = slide_row_left(values[::-1])
        assert (row_values(int(ROW_RIGHT[word])), int(GAIN_RIGHT[word])) == (list(right[::-1]), gain), values
        assert int(ROW_EMPTIES[word]) == values.count(0)
        checked += 1
    assert checked == 15 ** 4
    assert row_word(slide_row_left([2, 2, 4, 0])[0]) == int(ROW_LEFT[row_word([2, 2, 4, 0])])


@pytest.mark.parametrize("seed", [3, 35, 2026])
def test_seeded_games_move_alike_on_the_bitboard_and_the_general_engine(seed):
    game = Game(seed=seed)
    game.reset()
    pick = random.Random(seed)
    steps = 0
    while not game.over:
        grid = game.grid
        board = to_bitboard(grid)
        for move in Move:
            after, gain = apply_move(grid, move)
            b_after, b_gain = move_bitboard(board, move)
            assert (from_bitboard(b_after), b_gain) == (after, gain)
            assert reference_move(grid, move)[:2] == (after, gain)
        mask = int(legal_mask(np.uint64(board)))
        assert [m for m in Move if mask >> int(m) & 1] == legal_moves(grid)
        game.step(pick.choice(legal_moves(grid)))
        steps += 1
    assert steps > 50 and int(legal_mask(np.uint64(to_bitboard(game.grid)))) == 0
