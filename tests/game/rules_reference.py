"""A plain reference for the rules on any board, written apart from the engine: tiles step one cell
at a time toward the wall, as the animation shows them, until nothing moves."""

from __future__ import annotations

import random

from screenbot.game.rules import Move

STEP = {Move.UP: (-1, 0), Move.DOWN: (1, 0), Move.LEFT: (0, -1), Move.RIGHT: (0, 1)}
SHAPES = [(rows, cols) for rows in range(3, 9) for cols in range(3, 9)]


def reference_move(grid, move):
    """(board after `move`, score gained, cells where merged tiles landed, sorted).

    Sweeps cells from the wall outward: a tile steps one cell into an empty neighbour toward the
    wall, or joins an equal neighbour there when neither tile came from a merge in this move. The
    sweeps repeat until one changes nothing.
    """
    rows, cols = len(grid), len(grid[0])
    dr, dc = STEP[Move(move)]
    cells = [list(row) for row in grid]
    merged = [[False] * cols for _ in range(rows)]
    order = [(r, c) for r in (range(rows) if dr <= 0 else range(rows - 1, -1, -1))
             for c in (range(cols) if dc <= 0 else range(cols - 1, -1, -1))]
    gain = 0
    changed = True
    while changed:
        changed = False
        for r, c in order:
            nr, nc = r + dr, c + dc
            if not cells[r][c] or not (0 <= nr < rows and 0 <= nc < cols):
                continue
            if cells[nr][nc] == 0:
                cells[nr][nc], cells[r][c] = cells[r][c], 0
                merged[nr][nc], merged[r][c] = merged[r][c], False
                changed = True
            elif cells[nr][nc] == cells[r][c] and not merged[nr][nc] and not merged[r][c]:
                cells[nr][nc] *= 2
                gain += cells[nr][nc]
                cells[r][c] = 0
                merged[nr][nc] = True
                changed = True
    landed = sorted((r, c) for r in range(rows) for c in range(cols) if merged[r][c])
    return tuple(tuple(row) for row in cells), gain, landed


def random_board(rng: random.Random, shape, empty_share: float = 0.3, top_rank: int = 12):
    """A board of `shape` with about `empty_share` empty cells; tiles mostly small, so that equal
    neighbours (merges) are common, now and then up to 2**top_rank (or the board's largest tile)."""
    rows, cols = shape
    top_rank = min(top_rank, rows * cols + 1)
    out = []
    for _ in range(rows):
        row = []
        for _ in range(cols):
            if rng.random() < empty_share:
                row.append(0)
            else:
                rank = rng.randint(1, 3) if rng.random() < 0.7 else rng.randint(1, top_rank)
                row.append(1 << rank)
        out.append(tuple(row))
    return tuple(out)
