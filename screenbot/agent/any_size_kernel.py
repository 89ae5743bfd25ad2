"""The compiled expectimax over boards of any size up to 8x8 (numba): chance and move nodes, a table, leaves.

Boards are line words (`screenbot.agent.any_size_lines`); `kind`, `tab`, `coef`, `wmat`, `net` and
`looks` are the evaluation's (there). The search is the 4x4 kernel's
(`screenbot.agent.expectimax`) in structure: a chance node at `depth` (chance layers left, >= 1) is
a board after a move, before its new tile; its value is the average over empty cells of
(1 - p4) * best(a 2 there) + p4 * best(a 4 there), best() the max of 0 and each legal move's
(work[W_GAIN] x the move's score gain + the value after it). The value after a move is the
evaluation when depth is 1 or the path probability is below the cutoff, else the chance node one
layer down. A board with no legal move counts 0 (lost), and so does a board evaluated below 0.

As in the 4x4 kernel, a chance node first slides its own board each of the four ways (`pre`:
the slid lines; `pref`: their values and score gains); a new tile changes one line of the board,
so each move after it slides only that line again and re-scores only the lines it changed (the
slid line, and the crossing lines whose cell in it differs). A network evaluation (NTUPLE) scores
the whole board after the move instead.

The transposition table keys a board by a 64-bit hash of its rows (`keys`; `info`: the generation
above the low byte, which holds the depth searched below the entry and, in bit 7, whether a depth
limit cut that search; `vals`: the value). Entries of an older generation are misses, so a new
decision "clears" the table by bumping the generation. Everything runs on one thread.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from screenbot.agent.any_size_lines import COLS_AT, C_BOARD, NTUPLE, byte_at, evaluate, line_value, move_into, slide

# work[]: counters and settings of one search
W_NODES = 0  # move nodes expanded so far (2 per empty cell of every chance node expanded)
W_LIMIT = 1  # abandon the search once W_NODES exceeds this (cancel sets it below 0)
W_ABORTED = 2
W_DEPTH_CUT = 3  # chance nodes whose children were cut by depth rather than by probability
W_GEN = 4  # the table's current generation
W_CUTOFF = 5  # the path-probability cutoff
W_FOUR = 6  # the chance that a new tile is a 4
W_GAIN = 7  # weight of a move's score gain in its value (0: the evaluation alone)
WORK_SIZE = 8

PRE_WIDTH = 16  # pre[lvl, move]: the slid primary lines at 0.., the secondary lines at 8..
PREF_WIDTH = 32  # pref[lvl, move]: primary values 0.., secondary values 8.., gains 16.., then:
F_SUM_P, F_SUM_S, F_SUM_G, F_MOVED = 24, 25, 26, 27  # their sums, and the primary lines that moved (bits)

TT_BITS = 18
TT_ENTRIES = 1 << TT_BITS
_HASH_MUL = np.uint64(0x9E3779B97F4A7C15)
_HASH_SHIFT = np.uint64(64 - TT_BITS)
_FF = np.uint64(0xFF)
_S29 = np.uint64(29)
_DEPTH_BITS = np.uint64(0x7F)
_CUT_BIT = np.uint64(0x80)
_S8 = np.uint64(8)


@njit(cache=True, inline="always")
def board_hash(st, lvl, rows):
    h = np.uint64(rows)
    for r in range(rows):
        h = (h ^ st[lvl, r]) * _HASH_MUL
        h ^= h >> _S29
    return h


@njit(cache=True, _nrt=False)
def _slide_all(st, pre, pref, lvl, move, rows, cols, kind, tab, coef, wmat, net, looks):
    """Slide board st[lvl] toward `move` into pre[lvl, move], with its lines' values and gains in pref."""
    by_rows = move >= 2
    count = rows if by_rows else cols  # primary lines, each n cells long
    n = cols if by_rows else rows
    src = 0 if by_rows else COLS_AT
    sum_p = 0.0
    sum_g = 0.0
    moved = 0
    for i in range(count):
        w = st[lvl, src + i]
        out, g = slide(w, n, move, tab)
        pre[lvl, move, i] = out
        pref[lvl, move, 16 + i] = g
        sum_g += g
        if out != w:
            moved |= 1 << i
        v = line_value(out, n, not by_rows, i, kind, tab, coef, wmat)
        pref[lvl, move, i] = v
        sum_p += v
    sum_s = 0.0
    for j in range(n):  # secondary line j holds byte j of every primary line
        w = np.uint64(0)
        for i in range(count):
            w |= ((pre[lvl, move, i] >> np.uint64(8 * j)) & _FF) << np.uint64(8 * i)
        pre[lvl, move, 8 + j] = w
        v = line_value(w, count, by_rows, j, kind, tab, coef, wmat)
        pref[lvl, move, 8 + j] = v
        sum_s += v
    pref[lvl, move, F_SUM_P] = sum_p
    pref[lvl, move, F_SUM_S] = sum_s
    pref[lvl, move, F_SUM_G] = sum_g
    pref[lvl, move, F_MOVED] = moved


@njit(cache=True, inline="always")
def _child_value(st, pre, pref, lvl, depth, cprob, rows, cols, keys, info, vals, work, kind, tab, coef, wmat, net,
                 looks):
    """The value of chance node st[lvl]: from the table when it holds it from this generation searched
    at least `depth` deep (a depth cut below it counts again here), else searched."""
    h = board_hash(st, lvl, rows)
    slot = np.int64(h >> _HASH_SHIFT)
    if keys[slot] == h:
        entry = info[slot]
        if (entry >> _S8) == np.uint64(work[W_GEN]) and (entry & _DEPTH_BITS) >= np.uint64(depth):
            if entry & _CUT_BIT:
                work[W_DEPTH_CUT] += 1.0
            return vals[slot]
    return chance_value(st, pre, pref, lvl, depth, cprob, rows, cols, keys, info, vals, work, kind, tab, coef, wmat,
                        net, looks)


@njit(cache=True, error_model="numpy", _nrt=False, nogil=True)
def chance_value(st, pre, pref, lvl, depth, cprob, rows, cols, keys, info, vals, work, kind, tab, coef, wmat, net,
                 looks):
    """Expected value of chance node st[lvl] with `depth` (>= 1) chance layers left, reached with path
    probability `cprob`; stored in the table. Its children are built in st[lvl + 1]. Returns 0 once the
    search is abandoned (work[W_ABORTED] set)."""
    empties = 0
    for r in range(rows):
        w = st[lvl, r]
        for c in range(cols):
            if (w >> np.uint64(8 * c)) & _FF == 0:
                empties += 1
    if empties == 0:  # not after a legal move; evaluated for safety
        return evaluate(st, lvl, rows, cols, kind, tab, coef, wmat, net, looks)
    work[W_NODES] += 2 * empties
    if work[W_NODES] > work[W_LIMIT]:
        work[W_ABORTED] = 1.0
        return 0.0
    cuts_before = work[W_DEPTH_CUT]
    four = work[W_FOUR]
    cutoff = work[W_CUTOFF]
    gain_weight = work[W_GAIN]
    board_value = coef[C_BOARD]
    if depth == 1 and cprob * (1.0 - four) / empties >= cutoff:
        work[W_DEPTH_CUT] += 1.0  # a deeper search would look further here
    for move in range(4):
        _slide_all(st, pre, pref, lvl, move, rows, cols, kind, tab, coef, wmat, net, looks)
    child = lvl + 1
    total = 0.0
    for r in range(rows):
        for c in range(cols):
            if (st[lvl, r] >> np.uint64(8 * c)) & _FF != 0:
                continue
            for tile in range(1, 3):
                share = (1.0 - four) if tile == 1 else four
                if share == 0.0:
                    continue
                p_child = cprob * share / empties
                leaf = depth == 1 or p_child < cutoff
                best = 0.0
                for move in range(4):
                    by_rows = move >= 2
                    i = r if by_rows else c  # the primary line that holds the new tile ...
                    at = c if by_rows else r  # ... and its cell in it
                    count = rows if by_rows else cols
                    n = cols if by_rows else rows
                    line = st[lvl, i if by_rows else COLS_AT + i] | (np.uint64(tile) << np.uint64(8 * at))
                    out, g = slide(line, n, move, tab)
                    if out == line and (np.int64(pref[lvl, move, F_MOVED]) & ~(1 << i)) == 0:
                        continue  # the move changes nothing
                    gain = pref[lvl, move, F_SUM_G] - pref[lvl, move, 16 + i] + g
                    diff = out ^ pre[lvl, move, i]
                    if leaf and kind != NTUPLE:  # the lines the new tile changed, re-scored
                        v = (board_value + pref[lvl, move, F_SUM_P] - pref[lvl, move, i] + pref[lvl, move, F_SUM_S]
                             + line_value(out, n, not by_rows, i, kind, tab, coef, wmat))
                        for j in range(n):
                            if (diff >> np.uint64(8 * j)) & _FF:
                                crossing = (pre[lvl, move, 8 + j] & ~(_FF << np.uint64(8 * i))) | (
                                    np.uint64(byte_at(out, j)) << np.uint64(8 * i))
                                v += (line_value(crossing, count, by_rows, j, kind, tab, coef, wmat)
                                      - pref[lvl, move, 8 + j])
                    else:  # the whole board after the move, in st[child]
                        prim = 0 if by_rows else COLS_AT
                        sec = COLS_AT if by_rows else 0
                        for k in range(count):
                            st[child, prim + k] = pre[lvl, move, k]
                        st[child, prim + i] = out
                        for j in range(n):
                            crossing = pre[lvl, move, 8 + j]
                            if (diff >> np.uint64(8 * j)) & _FF:
                                crossing = (crossing & ~(_FF << np.uint64(8 * i))) | (
                                    np.uint64(byte_at(out, j)) << np.uint64(8 * i))
                            st[child, sec + j] = crossing
                        if leaf:
                            v = evaluate(st, child, rows, cols, kind, tab, coef, wmat, net, looks)
                        else:
                            v = _child_value(st, pre, pref, child, depth - 1, p_child, rows, cols, keys, info, vals,
                                             work, kind, tab, coef, wmat, net, looks)
                            if work[W_ABORTED] != 0.0:
                                return 0.0
                    best = max(best, gain_weight * gain + v)
                total += share * best
    value = total / empties
    h = board_hash(st, lvl, rows)
    slot = np.int64(h >> _HASH_SHIFT)
    entry = (np.uint64(work[W_GEN]) << _S8) | np.uint64(depth)
    if work[W_DEPTH_CUT] > cuts_before:
        entry |= _CUT_BIT
    keys[slot] = h
    info[slot] = entry
    vals[slot] = value
    return value


@njit(cache=True, error_model="numpy", _nrt=False, nogil=True)
def search_root(st, pre, pref, depth, rows, cols, keys, info, vals, work, kind, tab, coef, wmat, net, looks, out):
    """out[m] = the value of each move m (0..3) from board st[0]: its score gain (weighted) plus the
    chance node it makes (in st[1]) searched `depth` chance layers deep (depth 0: evaluated); -1 for a
    move that changes nothing."""
    child = np.int64(rows > 0)  # 1 (not a literal: chance_value is compiled for one type of level)
    for move in range(4):
        changed, gain = move_into(st, 0, child, move, rows, cols, tab)
        if not changed:
            out[move] = -1.0
            continue
        if depth <= 0:
            v = evaluate(st, child, rows, cols, kind, tab, coef, wmat, net, looks)
        else:
            v = _child_value(st, pre, pref, child, depth, 1.0, rows, cols, keys, info, vals, work, kind, tab, coef, wmat,
                             net, looks)
        out[move] = work[W_GAIN] * gain + max(v, 0.0)
        if work[W_ABORTED] != 0.0:
            return
