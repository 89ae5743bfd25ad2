"""Boards of any size up to 8x8 as line words (numba): slides, whole moves and the evaluations of a line.

A board of R rows and C columns (each up to 8) lives in one row of a uint64 array `st` (the search's
stack: one row per level of the tree): words 0..R-1 are its rows, words COLS_AT..COLS_AT+C-1 its
columns. Row r holds the rank (log2 of the value, 0 = empty) of cell (r, c) in byte c; column c holds
the rank of cell (r, c) in byte r. Both are kept, so that left/right slide row words and up/down
slide column words alike. A byte holds ranks far past any tile an 8x8 game can make, so these rules
are exact on every size. Moves are numbered as `screenbot.game.rules.Move`: UP 0, DOWN 1, LEFT 2,
RIGHT 3; a move's "primary" lines are the ones it slides (rows for LEFT/RIGHT), its "secondary"
lines the others.

The evaluations (`kind`, with per-rank tables `tab`, scalars `coef` and cell weights `wmat`; see
`screenbot.agent.any_size_eval` for what each means and how its arrays are made) add up a value per
line, so that the search can score a board whose lines mostly are known by the few that changed:
- LINES: nneonneo/2048-ai's line heuristic on every row and every column, whatever their length.
- CORNER: macroxue/2048-ai's corner lines (rows read from the left, columns from the top).
- SNAKE: a weight per cell (`wmat`) times a per-rank value, plus a bonus per empty cell; the rows
  carry it all (a column's value is 0).
- NTUPLE: a learned n-tuple network (`net`, `looks`: see `screenbot.agent.any_size_ntuple`) of the
  whole board, not a sum of lines (a line's value is 0: the search evaluates whole boards).
A board's value is its lines' plus coef[C_BOARD].
"""

from __future__ import annotations

import numpy as np
from numba import njit

MAX_SIDE = 8
COLS_AT = 8  # where a board's column words start in its stack row
STACK_WIDTH = 16
MAX_RANK = 80  # per-rank tables have this many entries (an 8x8 game cannot pass rank 66)

LINES, CORNER, SNAKE, NTUPLE = 0, 1, 2, 3

# tab rows (per-rank tables) and coef entries
T_SUM, T_MONO, T_CORNER, T_SNAKE, T_GAIN = 0, 1, 2, 3, 4  # T_GAIN: the score a merge into this rank makes
TAB_ROWS = 5
C_BASE, C_EMPTY, C_MERGES, C_MONO, C_SUM, C_PENALTY, C_BASE_COL, C_BOARD, C_NT_BASE = range(9)  # C_BASE: a row's
COEF_SIZE = 9

_FF = np.uint64(0xFF)
_ONE = np.uint64(1)


@njit(cache=True, inline="always")
def byte_at(word, i):
    return np.int64((word >> np.uint64(8 * i)) & _FF)


@njit(cache=True, _nrt=False)
def slide_toward_low(word, n, tab):
    """A line of n cells slid toward byte 0: (the new word, the score its merges make)."""
    out = np.uint64(0)
    k = 0
    last = 0  # rank of the tile at k - 1 while it can still merge, else 0
    gain = 0.0
    for i in range(n):
        v = byte_at(word, i)
        if v == 0:
            continue
        if v == last:
            out += _ONE << np.uint64(8 * (k - 1))
            gain += tab[T_GAIN, v + 1]
            last = 0
        else:
            out |= np.uint64(v) << np.uint64(8 * k)
            k += 1
            last = v
    return out, gain


@njit(cache=True, _nrt=False)
def slide_toward_high(word, n, tab):
    """A line of n cells slid toward byte n - 1: (the new word, the score its merges make)."""
    out = np.uint64(0)
    k = 0
    last = 0
    gain = 0.0
    for i in range(n - 1, -1, -1):
        v = byte_at(word, i)
        if v == 0:
            continue
        if v == last:
            out += _ONE << np.uint64(8 * (n - k))
            gain += tab[T_GAIN, v + 1]
            last = 0
        else:
            out |= np.uint64(v) << np.uint64(8 * (n - 1 - k))
            k += 1
            last = v
    return out, gain


@njit(cache=True, _nrt=False)
def slide(word, n, move, tab):
    """The line slid as `move` slides its lines (UP and LEFT toward byte 0); tab: for the score gain."""
    if move == 0 or move == 2:
        return slide_toward_low(word, n, tab)
    return slide_toward_high(word, n, tab)


@njit(cache=True, _nrt=False)
def rebuild(st, lvl, rows, cols, from_rows):
    """Make a board's column words from its row words (from_rows) or the other way round."""
    src = 0 if from_rows else COLS_AT
    dst = COLS_AT if from_rows else 0
    n_src = rows if from_rows else cols
    n_dst = cols if from_rows else rows
    for j in range(n_dst):
        st[lvl, dst + j] = 0
    for i in range(n_src):
        w = st[lvl, src + i]
        for j in range(n_dst):
            st[lvl, dst + j] |= ((w >> np.uint64(8 * j)) & _FF) << np.uint64(8 * i)


@njit(cache=True, _nrt=False)
def move_into(st, src, dst, move, rows, cols, tab):
    """Play `move` on board st[src] into st[dst]: (whether the board changed, the score gained)."""
    lines_at = 0 if move >= 2 else COLS_AT
    count = rows if move >= 2 else cols
    n = cols if move >= 2 else rows
    changed = False
    gain = 0.0
    for i in range(count):
        w = st[src, lines_at + i]
        out, g = slide(w, n, move, tab)
        st[dst, lines_at + i] = out
        gain += g
        if out != w:
            changed = True
    rebuild(st, dst, rows, cols, move >= 2)
    return changed, gain


@njit(cache=True, _nrt=False)
def _line_lines(w, n, tab, coef, base):
    """nneonneo's line heuristic: base + empty + merges - monotonicity - sum of big ranks."""
    empty = 0
    merges = 0
    run = 0
    previous = 0
    total = 0.0
    mono_low = 0.0
    mono_high = 0.0
    last_pow = 0.0
    last_rank = 0
    for i in range(n):
        rank = byte_at(w, i)
        total += tab[T_SUM, rank]
        here = tab[T_MONO, rank]
        if i > 0:
            if last_rank > rank:
                mono_low += last_pow - here
            else:
                mono_high += here - last_pow
        last_pow = here
        last_rank = rank
        if rank == 0:
            empty += 1
            continue
        if rank == previous:
            run += 1
        elif run > 0:
            merges += 1 + run
            run = 0
        previous = rank
    if run > 0:
        merges += 1 + run
    return (base + coef[C_EMPTY] * empty + coef[C_MERGES] * merges
            - coef[C_MONO] * min(mono_low, mono_high) - coef[C_SUM] * total)


@njit(cache=True, _nrt=False)
def _line_corner(w, n, tab, coef, base):
    """macroxue's corner line, read from byte 0: its first tile, then each neighbouring pair's reward
    (falling or level) or penalty (rising), and again the tile of a level pair."""
    a = tab[T_CORNER, byte_at(w, 0)]
    score = base + a
    penalty = coef[C_PENALTY]
    empty = 1 if a == 0.0 else 0
    for i in range(1, n):
        b = tab[T_CORNER, byte_at(w, i)]
        if b == 0.0:
            empty += 1
        if a >= b:
            score += a + b
            if a == b:
                score += a
        else:
            score += (a - b) * penalty
        a = b
    return score + coef[C_EMPTY] * empty


@njit(cache=True, _nrt=False)
def _line_snake(w, n, r, tab, coef, wmat):
    """Row r's share of the snake evaluation."""
    total = 0.0
    bonus = coef[C_EMPTY]
    for c in range(n):
        rank = byte_at(w, c)
        if rank == 0:
            total += bonus
        else:
            total += wmat[r, c] * tab[T_SNAKE, rank]
    return total


@njit(cache=True, _nrt=False)
def line_value(w, n, is_col, index, kind, tab, coef, wmat):
    """The evaluation's value of one line: row `index` (n cells) or column `index` (n cells) when is_col."""
    if kind == LINES:
        return _line_lines(w, n, tab, coef, coef[C_BASE_COL] if is_col else coef[C_BASE])
    if kind == CORNER:
        return _line_corner(w, n, tab, coef, coef[C_BASE_COL] if is_col else coef[C_BASE])
    if is_col or kind == NTUPLE:
        return 0.0
    return _line_snake(w, n, index, tab, coef, wmat)


@njit(cache=True, _nrt=False)
def _network_value(st, lvl, rows, cols, coef, net, looks):
    """The n-tuple network's value of board st[lvl] (its ranks as nibbles, cell r * cols + c; ranks above
    the network's largest counted as that)."""
    base = np.int64(coef[C_NT_BASE])
    board = np.uint64(0)
    for r in range(rows):
        w = st[lvl, r]
        for c in range(cols):
            board |= np.uint64(min(byte_at(w, c), base - 1)) << np.uint64(4 * (r * cols + c))
    total = 0.0
    for k in range(looks.shape[0]):
        index = 0
        for j in range(1, looks.shape[1]):
            index = index * base + np.int64((board >> np.uint64(4 * looks[k, j])) & np.uint64(0xF))
        total += net[looks[k, 0], index]
    return total


@njit(cache=True, _nrt=False)
def evaluate(st, lvl, rows, cols, kind, tab, coef, wmat, net, looks):
    """The evaluation of board st[lvl]."""
    if kind == NTUPLE:
        return coef[C_BOARD] + _network_value(st, lvl, rows, cols, coef, net, looks)
    total = coef[C_BOARD]
    for r in range(rows):
        total += line_value(st[lvl, r], cols, False, r, kind, tab, coef, wmat)
    for c in range(cols):
        total += line_value(st[lvl, COLS_AT + c], rows, True, c, kind, tab, coef, wmat)
    return total
