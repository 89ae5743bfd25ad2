"""macroxue's knobs that play does not keep (research.macroxue): the tile-scaled loss, the fixed depth, big_min."""

from __future__ import annotations

import random

import pytest

from research.macroxue import LOSS_RULES, MacroxueAgent, RuleTables, lost_value
from screenbot.agent.block_tables import BIG, BlockTables
from screenbot.agent.corner import LOST_VALUE, CornerAgent
from screenbot.game.rules import apply_move, legal_moves
from tests.agent.block_boards import _line_score, _rank
from tests.agent.reference_search import reference_chance


def _corner_value(grid, lost):
    """macroxue's evaluation + `lost` (a lost board, 0 here, lies `lost` below its 0)."""
    ranks = [[_rank(v) for v in row] for row in grid]
    lines = [tuple(row) for row in ranks] + [tuple(col) for col in zip(*ranks)]
    return sum(_line_score(line) for line in lines) + lost


def _crowded_formation_boards(n, seed):
    """Late-game boards (an 8192 or 16384 in the corner) with 2-4 free cells: losses lie within two moves."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < n:
        top = rng.randint(13, 14)
        cells = [0] * 16
        cells[0], cells[1], cells[4] = 2**top, 2 ** (top - 1), 2 ** (top - 2)
        for i in [i for i in range(16) if not cells[i]]:
            cells[i] = rng.choice([2, 4, 8, 16, 32, 64, 128, 256, 512])
        for i in rng.sample([i for i in range(16) if i not in (0, 1, 4)], rng.randint(2, 4)):
            cells[i] = 0
        board = tuple(tuple(cells[4 * r:4 * r + 4]) for r in range(4))
        if legal_moves(board):
            boards.append(board)
    return boards


def test_lost_value_is_fixed_or_macroxues_twice_the_largest_tiles_score():
    assert LOSS_RULES == ("fixed", "tile")
    assert [lost_value(r) for r in (1, 13, 15)] == [2.0**17] * 3
    assert lost_value(12, "tile") == 2.0**17  # 2 * 12 * 2**12 = 98,304: the floor holds
    assert lost_value(13, "tile") == 2 * 13 * 2**13 and lost_value(14, "tile") == 2 * 14 * 2**14
    with pytest.raises(ValueError, match="loss rule"):
        lost_value(14, "steep")
    with pytest.raises(ValueError, match="loss rule"):
        MacroxueAgent(None, threads=1, loss="steep")


@pytest.mark.slow
def test_the_tile_loss_rule_equals_a_plain_reference_and_changes_what_a_loss_costs():
    tile = MacroxueAgent(None, threads=1, loss="tile")
    fixed = CornerAgent(None, threads=1)
    not_a_shift = 0
    for grid in _crowded_formation_boards(6, seed=1):
        lost = lost_value(max(_rank(v) for row in grid for v in row), "tile")
        assert lost > LOST_VALUE
        ours, theirs = tile.choose(grid, depth=2, cutoff=1e-3), fixed.choose(grid, depth=2, cutoff=1e-3)
        shifts = set()
        for move, value in ours.values.items():
            expected = reference_chance(apply_move(grid, move)[0], 2, 1.0, 1e-3,
                                        lambda b, lost=lost: max(0.0, _corner_value(b, lost)))
            assert value == pytest.approx(expected, rel=1e-6, abs=0.05), (grid, move)
            shifts.add(round(value - theirs.values[move]))
        # where no loss is in reach the rule only moves every value by the same amount
        not_a_shift += shifts != {round(lost - LOST_VALUE)}
    assert not_a_shift  # somewhere a loss within reach weighs differently


def test_a_fixed_depth_is_macroxues_depth_and_cutoff_within_a_budget():
    grid = _crowded_formation_boards(1, seed=11)[0]
    fixed = MacroxueAgent(None, threads=1, fixed_depth=3).choose(grid, 60_000.0)  # no compile or load cuts it short
    direct = CornerAgent(None, threads=1).choose(grid, depth=3, cutoff=2.0**-7)
    assert fixed.depth == 3 and fixed.values == pytest.approx(direct.values)
    assert "at depth 3" in MacroxueAgent(None, threads=1, fixed_depth=3).variant
    assert MacroxueAgent(None, threads=1).variant is None  # play's corner search, said as such


def test_big_min_leaves_a_big_table_move_below_it_to_the_search():
    # the big table knows this board (anchor 1024): a 64 to build beside the 64, with a 4.9 % chance
    grid = ((32768, 16384, 8192, 0), (4096, 2048, 1024, 2), (512, 256, 128, 64), (0, 0, 16, 32))
    tables = BlockTables.empty_compact()
    chance, move, kind = tables.suggest(grid)
    assert kind == BIG and 0.04 < chance < 0.05
    assert RuleTables.sharing(tables, big_min=0.05).suggest(grid) == (0.0, None, -1)
    searched = MacroxueAgent(tables, threads=1, big_min=0.05).choose(grid, depth=2)
    assert searched.chance is None and searched.depth == 2
    played = MacroxueAgent(tables, threads=1, big_min=0.04).choose(grid, depth=2)
    assert played.chance == chance and played.move == move
