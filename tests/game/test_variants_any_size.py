"""The rule variants on lines of any length and boards of any size."""

import random

import pytest

from screenbot.game.rules import Move, apply_move, to_grid
from screenbot.game.variants import (
    LINE_RULES,
    merge_until_none_equal,
    merged_tile_goes_on,
    slide_with,
    touching_pairs_first,
)

from rules_reference import SHAPES, random_board


@pytest.mark.parametrize(
    "rule, row, expected, gain",
    [
        (merged_tile_goes_on, [2, 2, 4], [8, 0, 0], 12),
        (merged_tile_goes_on, [2, 2, 4, 8, 16, 0], [32, 0, 0, 0, 0, 0], 60),
        (merged_tile_goes_on, [4, 2, 2, 0, 8, 8, 16, 2], [4, 4, 32, 2, 0, 0, 0, 0], 52),
        (merge_until_none_equal, [4, 2, 2], [8, 0, 0], 12),
        (merge_until_none_equal, [2, 2, 2, 2, 2, 2], [8, 4, 0, 0, 0, 0], 20),
        (merge_until_none_equal, [2, 2, 2, 2, 2, 2, 2, 2], [16, 0, 0, 0, 0, 0, 0, 0], 48),
        (touching_pairs_first, [2, 0, 2], [4, 0, 0], 4),
        (touching_pairs_first, [2, 0, 2, 2], [2, 4, 0, 0], 4),
        (touching_pairs_first, [4, 0, 0, 2, 2, 0, 8], [4, 4, 8, 0, 0, 0, 0], 4),
    ],
)
def test_line_rules_on_lines_of_any_length(rule, row, expected, gain):
    assert rule(row) == (tuple(expected), gain)


@pytest.mark.parametrize("name", sorted(LINE_RULES))
def test_every_line_rule_keeps_the_sum_and_gains_exactly_when_tiles_merge_on_every_length(name):
    rule, _ = LINE_RULES[name]
    rng = random.Random(len(name))
    for length in range(3, 9):
        for _ in range(300):
            row = [rng.choice([0, 0, 2, 2, 4, 8]) for _ in range(length)]
            new, gain = rule(row)
            assert len(new) == length and sum(new) == sum(row)
            assert gain >= 0 and (gain > 0) == (sum(v > 0 for v in new) < sum(v > 0 for v in row))


@pytest.mark.parametrize("shape", SHAPES[::5], ids=lambda s: f"{s[0]}x{s[1]}")
def test_slide_with_plays_a_line_rule_on_every_line_of_the_board(shape):
    rng = random.Random(shape[0] * 10 + shape[1])
    for _ in range(30):
        grid = to_grid(random_board(rng, shape, empty_share=0.4, top_rank=4))
        for move in Move:
            assert slide_with(grid, move, LINE_RULES["classic"][0]) == apply_move(grid, move)
        for rule, _ in LINE_RULES.values():
            left, gain = slide_with(grid, Move.LEFT, rule)
            assert left == tuple(rule(row)[0] for row in grid) and gain == sum(rule(row)[1] for row in grid)
            columns = tuple(zip(*grid))
            up, up_gain = slide_with(grid, Move.UP, rule)
            assert tuple(zip(*up)) == tuple(rule(col)[0] for col in columns)
            down, _ = slide_with(grid, Move.DOWN, rule)
            assert tuple(zip(*down)) == tuple(rule(col[::-1])[0][::-1] for col in columns)
            right, _ = slide_with(grid, Move.RIGHT, rule)
            assert right == tuple(rule(row[::-1])[0][::-1] for row in grid)
