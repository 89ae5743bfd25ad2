"""Expectimax written out plainly on grids with the exact rules, for checking the compiled search against."""

from screenbot.game import Move, apply_move, empty_cells
from screenbot.game.rules import place


def reference_chance(grid, depth, cprob, cutoff, evaluate, four=0.1, gain_weight=0.0):
    """The value of the chance node `grid` (a board after a move, before its new tile): the average over
    every new tile (2: 0.9, 4: 0.1 by default: `four`, each empty cell alike) of the best move's value after it; a board is
    `evaluate(board)` once `depth` chance layers are done or its path is less likely than `cutoff`. A
    board with no move counts 0. `gain_weight`: each move's value adds this times its score gain."""
    cells = empty_cells(grid)
    total = 0.0
    for r, c in cells:
        for value, p in ((2, 1.0 - four), (4, four)):
            if p == 0:
                continue
            spawned = place(grid, r, c, value)
            child_p = cprob * p / len(cells)
            best = 0.0
            for move in Move:
                after, gain = apply_move(spawned, move)
                if after == spawned:
                    continue
                if depth == 1 or child_p < cutoff:
                    v = evaluate(after)
                else:
                    v = reference_chance(after, depth - 1, child_p, cutoff, evaluate, four, gain_weight)
                best = max(best, gain_weight * gain + v)
            total += p * best
    return total / len(cells)
