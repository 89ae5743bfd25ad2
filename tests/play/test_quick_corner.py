"""The quick corner player (play's first moves while the search is made ready): legal, corner-keeping, compiled-free."""

import random
import subprocess
import sys

import numpy as np

from screenbot.game.rules import Game, Move, apply_move, legal_moves, parse_board
from screenbot.play.warm import CORNERS, QuickCorner, corner_value, line_value


def test_its_line_value_is_the_corner_evaluation_of_the_compiled_search():
    from screenbot.agent.corner import LINE_OFFSET, corner_row_table

    table = corner_row_table()
    words = [0, 0x0001, 0x1234, 0x4321, 0xFFFF, 0x2222] + random.Random(5).sample(range(1 << 16), 2000)
    for word in words:
        line = tuple(1 << ((word >> (4 * i)) & 0xF) if (word >> (4 * i)) & 0xF else 0 for i in range(4))
        assert line_value(line) == table[word] - LINE_OFFSET, hex(word)


def test_a_corner_value_is_the_top_left_value_of_the_board_turned_to_bring_that_corner_there():
    grid = parse_board("2 4 8 16 / 0 32 2 4 / 64 0 0 2 / 128 4 2 0")
    array = np.array(grid)
    turned = {(0, 0): array, (0, 3): array[:, ::-1], (3, 0): array[::-1, :], (3, 3): array[::-1, ::-1]}
    for corner in CORNERS:
        as_top_left = tuple(tuple(int(v) for v in row) for row in turned[corner])
        assert corner_value(grid, corner) == corner_value(as_top_left, (0, 0))
    assert corner_value(grid, (3, 0)) > corner_value(grid, (0, 3))  # the big tiles lie towards the bottom left


def test_it_plays_legal_moves_and_keeps_the_largest_tile_in_the_top_left_corner():
    player = QuickCorner()
    for seed in (1, 2):
        game = Game(seed=seed)
        game.reset()
        in_corner = 0
        for n in range(200):
            grid = game.grid
            decision = player.choose(grid)
            assert decision.move in legal_moves(grid)
            game.step(decision.move)
            in_corner += n >= 30 and game.grid[0][0] == max(max(row) for row in game.grid)
        assert in_corner >= 0.9 * 170, (seed, in_corner)
        assert max(max(row) for row in game.grid) >= 256  # it plays the game, not just legal moves


def test_a_large_tile_held_in_another_corner_is_kept_there():
    grid = parse_board("2 . . . / 4 2 . . / 8 16 4 2 / 32 64 128 512")
    move = QuickCorner().choose(grid).move
    assert apply_move(grid, move)[0][3][3] == 512
    assert QuickCorner.corner(grid) == (3, 3)
    assert QuickCorner.corner(parse_board("2 . . . / . . . . / . . . . / . . . 256")) == (0, 0)  # small: top left


def test_a_move_that_brings_the_largest_tile_into_the_corner_is_preferred():
    # up merges the two 128s away from the corner; left merges them into it
    grid = parse_board("128 128 8 . / 32 128 8 . / 4 4 2 . / 4 . . .")
    assert QuickCorner().choose(grid).move == Move.LEFT


def test_a_board_with_no_move_gets_none():
    grid = parse_board("2 4 2 4 / 4 2 4 2 / 2 4 2 4 / 4 2 4 2")
    assert QuickCorner().choose(grid).move is None


def test_it_loads_nothing_compiled():
    code = ("import sys; from screenbot.play.warm import QuickCorner; "
            "QuickCorner().choose(((2, 2, 0, 0),) * 4); print('numba' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
