"""Boards and plain-grid brute force for the block tables' tests (test_block_tables, test_corner)."""

from __future__ import annotations

import functools


from screenbot.agent import block_tables as T
from screenbot.agent.block_tables import BIG, PAIR, SMALL, BlockTables
from screenbot.game.rules import apply_move, legal_moves

def _line_score(ranks):
    s = [r * 2**r for r in ranks]
    total = s[0]
    for a, b in zip(s, s[1:]):
        total += a + b if a >= b else 12 * (a - b)
        total += a if a == b else 0
    return total

def _rank(v):
    return v.bit_length() - 1 if v else 0


def _orient(grid, source):
    cells = [grid[i // 4][i % 4] for i in range(16)]
    return tuple(tuple(cells[source[4 * r + c]] for c in range(4)) for r in range(4))


def _regular_anchor(g, kind):
    r = [[_rank(v) for v in row] for row in g]
    if r[0][0] == r[0][1] or r[0][1] == r[0][2] or r[0][0] == r[1][0] or r[0][1] == r[1][1]:
        return None
    if kind == BIG:
        if r[1][0] == r[1][1] or r[1][1] == r[1][2] or r[0][2] <= r[1][2]:
            return None
        a = min(r[1][:3])
        if a > 10:
            return None
        bounds = {(0, 3): a - 1, (1, 3): a - 2, (2, 0): a - 1, (2, 1): a - 2}
        free = [(0, 3), (1, 3)] + [(i, j) for i in (2, 3) for j in range(4)]
        return a if all(r[i][j] <= bounds.get((i, j), a - 3) for i, j in free) else None
    if kind == PAIR:  # row 1 falls into a 512 in (1, 2); free cells below it: 256 (row 3: 128)
        if not r[1][0] > r[1][1] > r[1][2] == 9 or r[0][2] <= r[1][2]:
            return None
        free = [(0, 3), (1, 3)] + [(2, j) for j in range(4)]
        return 9 if all(r[i][j] <= 8 for i, j in free) and all(r[3][j] <= 7 for j in range(4)) else None
    top = 7 if kind == SMALL else 8  # the small table's anchors go up to 128, SMALL_256's to 256
    if not r[1][0] > r[1][1] > r[1][2] or r[0][2] <= r[1][2] or r[1][1] == r[0][2] or r[1][2] > top:
        return None
    a = min(top, r[1][1], r[0][2])
    free = [(0, 3), (1, 3)] + [(2, j) for j in range(4)]
    if any(r[i][j] > a - 1 for i, j in free) or any(r[3][j] > a - 2 for j in range(4)):
        return None
    return a


def _goal(g, a, kind):
    r = [[_rank(v) for v in row] for row in g]
    if kind in (BIG, PAIR):
        row2 = r[2][0] == a - 1 and r[2][1] == a - 2 and (
            (r[2][2] == a - 3 and a - 3 in (r[3][2], r[2][3])) or (r[3][1] == a - 3 and a - 3 in (r[3][0], r[3][2])))
        col3 = r[0][3] == a - 1 and r[1][3] == a - 2 and r[2][3] == a - 3 and a - 3 in (r[2][2], r[3][3])
        if row2 or col3 or kind == BIG:
            return row2 or col3
    t = a if kind == PAIR else min(7 if kind == SMALL else 8, min(r[1][1], r[0][2]) - 1)
    return r[1][2] == t and (
        (r[1][3] == t - 1 and t - 1 in (r[0][3], r[2][3]))
        or (r[0][3] == t - 1 and r[1][3] == t - 2 and r[2][3] == t - 2)
        or (r[2][2] == t - 1 and t - 1 in (r[2][1], r[3][2], r[2][3])))


def _block(g, kind):
    cells = T.BLOCKS[kind]
    return tuple(g[c // 4][c % 4] for c in cells)


@functools.lru_cache(maxsize=None)
def _brute(g, kind):
    """The best chance of the goal from g (after its new tile) with the block never moving."""
    best = 0.0
    for move in legal_moves(g):
        after = apply_move(g, move)[0]
        if _block(after, kind) != _block(g, kind):
            continue
        a = _regular_anchor(after, kind)
        if a is None:
            continue
        if _goal(after, a, kind):
            p = 1.0
        else:
            empty = [(i, j) for i in range(4) for j in range(4) if after[i][j] == 0]
            total = 0.0
            for i, j in empty:
                for value, w in ((2, 0.9), (4, 0.1)):
                    spawned = tuple(tuple(value if (x, y) == (i, j) else after[x][y] for y in range(4)) for x in range(4))
                    total += w * _brute(spawned, kind)
            p = total / len(empty)
        best = max(best, p)
    return best


def _prefilled(kind, rest):
    """A board with the table's prefilled block and these values elsewhere (row by row, block cells skipped)."""
    values = iter(rest)
    prefill = dict(zip(T.BLOCKS[kind], T.PREFILLS[kind]))
    return tuple(tuple(2 ** prefill[4 * i + j] if 4 * i + j in prefill else next(values) for j in range(4))
                 for i in range(4))


# crowded boards (the free cells in key order, row by row), found by sampling boards whose solve is small
CROWDED = [
    (BIG, [0, 64, 512, 256, 64, 2, 8, 8, 128, 4]),
    (BIG, [256, 8, 512, 128, 128, 0, 128, 128, 64, 4]),
    (BIG, [512, 256, 128, 64, 128, 0, 4, 4, 32, 64]),
    (BIG, [32, 256, 512, 128, 128, 32, 128, 2, 32, 64]),
    (SMALL, [4, 128, 64, 16, 32, 16, 2, 32, 4, 16, 32]),
    (SMALL, [64, 128, 16, 0, 64, 8, 4, 2, 32, 2, 32]),
    (SMALL, [64, 128, 4, 2, 8, 8, 64, 32, 0, 16, 16]),
    (SMALL, [2, 128, 4, 64, 4, 32, 32, 16, 32, 2, 32]),
]


CROWDED_PAIR = [
    [64, 32, 256, 128, 32, 2, 128, 32, 0, 8],
    [16, 256, 32, 256, 2, 0, 4, 4, 64, 32],
    [32, 0, 64, 128, 256, 32, 8, 0, 4, 128],
    [128, 256, 256, 128, 16, 8, 0, 16, 128, 4],
    [0, 256, 32, 256, 32, 32, 64, 8, 32, 64],
]


def _solved_some() -> BlockTables:
    tables = BlockTables()
    for kind, rest in CROWDED:
        tables.suggest(_prefilled(kind, rest))
    return tables
