"""Seeded games of any size played to the end, every board following from the one before by the rules;
the classic 4x4 games of a seed stay the games the practice page and the bench record."""

import random
from collections import Counter

import pytest

from screenbot.game.rules import Game, Move, Rng, legal_moves, spawn, to_grid
from screenbot.game.sizes import size_of

from rules_reference import reference_move


def play_to_the_end(seed: int, size=(4, 4)):
    """A seeded game of random legal moves: (boards, moves, score, moves counted)."""
    game = Game(seed=seed, size=size)
    boards = [game.reset()]
    pick = random.Random(seed)
    moves = []
    while not game.over:
        move = pick.choice(legal_moves(game.grid))
        _, _, changed = game.step(move)
        assert changed
        moves.append(move)
        boards.append(game.grid)
    return boards, moves, game.score, game.moves


def spawned_tile(before, after):
    """The one cell where `after` has a tile and `before` is empty, when that is the only difference."""
    diff = [(r, c) for r, row in enumerate(after) for c, v in enumerate(row) if v != before[r][c]]
    assert len(diff) == 1, diff
    (r, c), = diff
    assert before[r][c] == 0
    return after[r][c]


@pytest.mark.parametrize("size", [(3, 3), (5, 5), (4, 6), (6, 4), (3, 8)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("seed", [1, 35])
def test_a_seeded_game_plays_to_the_end_by_the_rules(size, seed):
    boards, moves, score, counted = play_to_the_end(seed, size)
    start = boards[0]
    assert size_of(start) == size and to_grid(start, size) == start
    assert sorted(v for row in start for v in row if v) in ([2, 2], [2, 4], [4, 4])
    total = 0
    for before, move, after in zip(boards, moves, boards[1:]):
        slid, gain, _ = reference_move(before, move)
        assert slid != before
        assert spawned_tile(slid, after) in (2, 4)
        total += gain
    last = boards[-1]
    assert all(reference_move(last, m)[0] == last for m in Move)  # over: no move changes the board
    assert all(last[r][c] for r in range(size[0]) for c in range(size[1]))
    assert score == total and counted == len(moves) > 0
    assert (boards, score) == play_to_the_end(seed, size)[::2]


def test_seeds_make_different_games_and_a_move_that_changes_nothing_spawns_nothing():
    assert play_to_the_end(1, (5, 5))[0] != play_to_the_end(2, (5, 5))[0]
    game = Game(seed=1, size=(3, 5))
    start = to_grid([[2, 0, 0, 0, 0], [0] * 5, [0] * 5])
    assert game.reset(start=start) == start
    assert game.step(Move.LEFT) == (start, 0, False) and game.moves == 0 and game.grid == start
    with pytest.raises(ValueError, match="a board here has 3 rows of 5 cells, got 4x4"):
        game.reset(start=[[0] * 4] * 4)


def test_new_tiles_are_two_nine_times_in_ten_and_fall_anywhere_empty_on_a_rectangle():
    rng = Rng(11)
    grid = to_grid([[2, 0, 0, 0, 0], [0, 0, 4, 0, 0], [0] * 5])
    cells, values = Counter(), Counter()
    n = 28000
    for _ in range(n):
        _, (r, c, v) = spawn(grid, rng)
        cells[(r, c)] += 1
        values[v] += 1
    assert len(cells) == 13 and (0, 0) not in cells and (1, 2) not in cells
    assert all(abs(k / n - 1 / 13) < 0.01 for k in cells.values())
    assert abs(values[2] / n - 0.9) < 0.01 and set(values) == {2, 4}


# Recorded 4x4 games (random legal moves drawn by random.Random(seed)): the practice page (JavaScript)
# and the bench make the same games of a seed, so these stay exactly as they are.
RECORDED = {
    0: (((0, 0, 0, 2), (2, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0)), 632, 87,
        ((2, 8, 64, 2), (8, 2, 16, 4), (2, 16, 32, 8), (8, 2, 16, 2))),
    1: (((0, 0, 0, 0), (0, 0, 0, 4), (0, 0, 2, 0), (0, 0, 0, 0)), 2148, 179,
        ((4, 16, 4, 2), (2, 32, 8, 4), (16, 2, 256, 16), (2, 8, 32, 4))),
    2024: (((0, 0, 0, 0), (0, 0, 0, 0), (0, 2, 0, 0), (2, 0, 0, 0)), 1244, 127,
           ((4, 2, 4, 2), (2, 64, 128, 8), (8, 4, 8, 32), (4, 2, 4, 2))),
}


@pytest.mark.parametrize("seed", sorted(RECORDED))
def test_classic_seeded_games_are_the_recorded_ones(seed):
    start, score, moves, last = RECORDED[seed]
    boards, _, got_score, got_moves = play_to_the_end(seed)
    assert (boards[0], got_score, got_moves, boards[-1]) == (start, score, moves, last)
    assert Game(seed=seed).reset() == Game(seed=seed, size=(4, 4)).reset() == start
