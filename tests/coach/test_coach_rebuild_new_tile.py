"""Rebuilding when a move's new tile is read two ways (caught growing in on a frame that looked still,
then grown): one move, no gap, whichever reading comes first."""

from __future__ import annotations

from coach_render import seeded_game

from screenbot.coach.rebuild import Rebuilder, Seen, rebuild_boards
from screenbot.game.rules import apply_move

SEED, MOVES = 3, 30


def misread_new_tile(before, move, after):
    """`after` with the new tile that `move` brought read as the other value (a 2 as a 4, a 4 as a 2)."""
    slid, _ = apply_move(before, move)
    (r, c), = [(r, c) for r in range(4) for c in range(4) if slid[r][c] != after[r][c]]
    rows = [list(row) for row in after]
    rows[r][c] = 6 - rows[r][c]
    return tuple(tuple(row) for row in rows)


def moves_of(game):
    return [(step.board, step.move) for step in game.steps]


def test_a_new_tile_misread_then_read_right_is_one_move_and_no_gap():
    boards, moves = seeded_game(SEED, MOVES)
    for k in (0, 9, 20):
        wrong = misread_new_tile(boards[k], moves[k], boards[k + 1])
        seen = boards[:k + 1] + [wrong] + boards[k + 1:]
        game = rebuild_boards(seen)
        assert moves_of(game) == list(zip(boards, moves)), k
        assert game.gaps == [] and [s.board for s in game.dropped] == [wrong]
        assert game.last == boards[-1]


def test_a_new_tile_read_right_then_misread_is_one_move_and_no_gap():
    boards, moves = seeded_game(SEED, MOVES)
    k = 12
    wrong = misread_new_tile(boards[k], moves[k], boards[k + 1])
    game = rebuild_boards(boards[:k + 2] + [wrong] + boards[k + 2:])
    assert moves_of(game) == list(zip(boards, moves))
    assert game.gaps == [] and [s.board for s in game.dropped] == [wrong]


def test_the_last_move_read_two_ways_ends_on_the_later_reading():
    boards, moves = seeded_game(SEED, MOVES)
    wrong = misread_new_tile(boards[-2], moves[-1], boards[-1])
    game = rebuild_boards(boards[:-1] + [wrong, boards[-1]])
    assert moves_of(game) == list(zip(boards, moves))
    assert game.gaps == [] and game.last == boards[-1]


def test_live_rebuilding_settles_the_misread_tile_as_the_game_goes_on():
    boards, moves = seeded_game(SEED, MOVES)
    k = 5
    wrong = misread_new_tile(boards[k], moves[k], boards[k + 1])
    rebuilder = Rebuilder()
    for i, board in enumerate(boards[:k + 1] + [wrong]):
        rebuilder.add(Seen(board, f"board {i}"))
    assert rebuilder.board == wrong and len(rebuilder.game.steps) == k + 1
    rebuilder.add(Seen(boards[k + 1], "the grown tile"))  # held: it follows from nothing but the board before
    steps, gaps = rebuilder.add(Seen(boards[k + 2], "next"))
    assert [(s.board, s.move) for s in steps] == [(boards[k + 1], moves[k + 1])] and gaps == []
    assert rebuilder.board == boards[k + 2]
