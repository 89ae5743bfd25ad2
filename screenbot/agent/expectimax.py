"""The compiled expectimax kernel (numba): chance and max nodes over bitboards, a transposition table, leaf scoring.

Everything here is flat: boards are uint64 words (see `screenbot.game.bitboard`), the row tables
are read-only module arrays that numba bakes into the machine code, the heuristic's row table
(`s`, see `screenbot.agent.heuristic`) is an argument, so that other weights need no new compile,
and the search's mutable state lives in two preallocated arrays that the Python side owns:

- `tt` (uint64, 2 words per entry): the transposition table. Entry s: word 2s + 1 ("info") packs
  the value (fixed point, 40 bits), a 16-bit generation, the depth that was still searched
  below the node (7 bits) and whether a depth limit (rather than the probability cutoff) ended
  any path below it; word 2s is the board XOR info. A value taken from the table counts that
  depth cut again, so that iterative deepening, which stops once no path reached the depth
  limit, does not stop early because the paths that did were found in the table. Only entries
  of the current generation count, so a new decision "clears" the table by bumping the
  generation. Several threads may share one
  table without locks: two threads writing one entry at once can leave the board word of one and
  the info word of the other, and the XOR then no longer gives either board back, so the torn
  entry is a miss rather than a wrong value.
- `work` (float64): counters and flags (`W_*` below) and a little scratch; one per thread.

A chance node at `depth` (chance layers left, >= 1) is a board after a move, before the spawn.
Its value is the average over empty cells of 0.9 * best(a 2 there) + 0.1 * best(a 4 there) (the
classic chances; work[W_FOUR] holds the 4's), where
best() is the max of 0 and the values after each legal move (so 0 when no move is legal, and a
board the heuristic scores below 0 is no better than a lost one, as in nneonneo/2048-ai). After
the move the board is scored by the heuristic when depth is 1 or the path probability is below
the cutoff, and is a chance node one layer down otherwise.

Every board b travels with its transpose t (t's rows are b's columns), so that up/down slide the
rows of t exactly as left/right slide the rows of b. A spawn changes one row of b and one row of
t, so a node slides its four rows once per move and each spawn only patches its row: one row
lookup per move and spawn, plus five heuristic lookups at a leaf.

The entry points (search_root, chance_value, max_value) are compiled with `_nrt=False` (no
reference counting: they allocate nothing, and counting references to the array arguments cost an
atomic increment and decrement per node) and `error_model="numpy"` (float division without Python
exception paths), and they release the GIL (`nogil=True`: the play loop searches in a background
thread while it watches the screen, and several threads share one search).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from screenbot.game.bitboard import ROW_LEFT, ROW_RIGHT

TT_BITS = 20  # 1 M entries of 16 bytes
TT_ENTRIES = 1 << TT_BITS
MAX_TREE_DEPTH = 40  # the deepest search allowed (the table's depth field holds up to 127)
GENERATIONS = 1 << 16  # generations a tag can tell apart; the table is wiped when they run out

# work[]: the search's counters and flags, then scratch
W_NODES = 0  # move nodes expanded so far (2 per empty cell of every chance node expanded)
W_LIMIT = 1  # abandon the search once W_NODES exceeds this
W_ABORTED = 2  # set to 1 when abandoned
W_DEPTH_CUT = 3  # chance nodes whose children were cut off by depth rather than by probability
W_GEN = 4  # the current generation (1 .. GENERATIONS - 1)
W_CUTOFF = 5  # the path-probability cutoff
W_FOUR = 6  # the chance that a new tile is a 4 (the classic game: 0.1; play learns a game's own)
_W_REST = 8  # 16 floats: per move and row, the heuristic of the slid rows other than that row
WORK_SIZE = _W_REST + 16

_M16 = np.uint64(0xFFFF)
_M4 = np.uint64(0xF)
_DEPTH_BITS = np.uint64(0x7F)  # an entry's low byte: the depth searched below it ...
_CUT_BIT = np.uint64(0x80)  # ... and whether a depth limit cut that search somewhere
_S4 = np.uint64(4)
_S8 = np.uint64(8)
_S12 = np.uint64(12)
_S16 = np.uint64(16)
_S24 = np.uint64(24)
_S32 = np.uint64(32)
_S48 = np.uint64(48)
_HASH_MUL = np.uint64(0x9E3779B97F4A7C15)
_HASH_SHIFT = np.uint64(64 - TT_BITS)
_COLUMN0 = np.uint64(0x000F000F000F000F)
_SPREAD_A = np.uint64(0x000000FF000000FF)
_VALUE_OFFSET = 2.0**27  # values lie well inside (-2**27, 2**27): 8 lines of at most ~1e7 each way
_VALUE_SCALE = 1024.0
_VALUE_MAX = 2.0**40 - 1.0
_ROW_SHIFT = np.array([16 * q for q in range(4)], np.uint64)
_NIBBLE_SHIFT = np.array([4 * q for q in range(4)], np.uint64)
_NIBBLE_ONES = np.uint64(0x1111111111111111)
_DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)  # (2**k * _DE_BRUIJN) >> 58 differs for every k < 64
_S58 = np.uint64(58)
_CELL_OF_BIT = np.zeros(64, np.int64)  # cell index of the lowest set bit, found by the product above
for _k in range(64):
    _CELL_OF_BIT[((1 << _k) * 0x03F79D71B4CB0A89 % 2**64) >> 58] = _k // 4
del _k


@njit(cache=True, inline="always")
def _empty_bits(b):
    """Bit 4 * i set for every empty cell i."""
    x = b | (b >> np.uint64(1))
    x |= x >> np.uint64(2)
    return ~x & _NIBBLE_ONES


# spread_row and transpose as in screenbot.game.bitboard; kept here because numba compiled the
# kernel measurably slower (~15%) with the imported inline versions.
@njit(cache=True, inline="always")
def spread_row(word):
    """A 16-bit row word with its nibble j moved to bit 16 * j: the row written down column 0."""
    x = (word | (word << _S24)) & _SPREAD_A
    return (x | (x << _S12)) & _COLUMN0


@njit(cache=True, inline="always")
def transpose(b):
    """Rows become columns."""
    return (
        spread_row(b & _M16)
        | (spread_row((b >> _S16) & _M16) << _S4)
        | (spread_row((b >> _S32) & _M16) << _S8)
        | (spread_row(b >> _S48) << _S12)
    )


@njit(cache=True, inline="always")
def score(b, t, s):
    """The heuristic (row table s) of the board whose rows are b's rows and whose columns are t's rows."""
    return (
        np.float64(s[b & _M16])
        + np.float64(s[(b >> _S16) & _M16])
        + np.float64(s[(b >> _S32) & _M16])
        + np.float64(s[b >> _S48])
        + np.float64(s[t & _M16])
        + np.float64(s[(t >> _S16) & _M16])
        + np.float64(s[(t >> _S32) & _M16])
        + np.float64(s[t >> _S48])
    )


@njit(cache=True, inline="always")
def _slide_rows(space, table, work, rest_at, s):
    """Slide the four rows of `space` with `table`: (the result, its transpose, bit q set when row q
    moved). Leaves in work[rest_at + q] the heuristic (row table s) of the result's rows other than row q."""
    w0 = space & _M16
    w1 = (space >> _S16) & _M16
    w2 = (space >> _S32) & _M16
    w3 = space >> _S48
    m0 = np.uint64(table[w0])
    m1 = np.uint64(table[w1])
    m2 = np.uint64(table[w2])
    m3 = np.uint64(table[w3])
    s0 = np.float64(s[m0])
    s1 = np.float64(s[m1])
    s2 = np.float64(s[m2])
    s3 = np.float64(s[m3])
    total = s0 + s1 + s2 + s3
    work[rest_at] = total - s0
    work[rest_at + 1] = total - s1
    work[rest_at + 2] = total - s2
    work[rest_at + 3] = total - s3
    changed = (1 if m0 != w0 else 0) | (2 if m1 != w1 else 0) | (4 if m2 != w2 else 0) | (8 if m3 != w3 else 0)
    result = m0 | (m1 << _S16) | (m2 << _S32) | (m3 << _S48)
    result_t = spread_row(m0) | (spread_row(m1) << _S4) | (spread_row(m2) << _S8) | (spread_row(m3) << _S12)
    return result, result_t, changed


@njit(cache=True, inline="always")
def _leaf_value(word, tile_bits, table, slid_t, q, rest, others_moved, s):
    """The heuristic after a slide whose result is known (slid_t: its transpose; rest: its other rows'
    heuristic) except row q, which a spawn turned into word | tile_bits. 0 when the slide is no move."""
    new_word = word | tile_bits
    moved_word = np.uint64(table[new_word])
    shift = _NIBBLE_SHIFT[q]
    mt = (slid_t & ~(_COLUMN0 << shift)) | (spread_row(moved_word) << shift)
    v = (
        rest
        + np.float64(s[moved_word])
        + np.float64(s[mt & _M16])
        + np.float64(s[(mt >> _S16) & _M16])
        + np.float64(s[(mt >> _S32) & _M16])
        + np.float64(s[mt >> _S48])
    )
    return v if (moved_word != new_word or others_moved) else 0.0


@njit(cache=True, inline="always")
def _patched(word, tile_bits, table, slid, slid_t, q):
    """A slide's result (slid, slid_t) with row q replaced by the slide of word | tile_bits, and whether
    that row moved."""
    new_word = word | tile_bits
    moved_word = np.uint64(table[new_word])
    row_shift = _ROW_SHIFT[q]
    col_shift = _NIBBLE_SHIFT[q]
    result = (slid & ~(_M16 << row_shift)) | (moved_word << row_shift)
    result_t = (slid_t & ~(_COLUMN0 << col_shift)) | (spread_row(moved_word) << col_shift)
    return result, result_t, moved_word != new_word


@njit(cache=True, inline="always")
def _child_value(tt, work, nb, nt, depth, cprob, gen, s):
    """The value of chance node nb: from the table if it holds it from this generation at >= depth
    (and then, if a depth limit cut its search, that counts as a depth cut here too: a deeper
    search would see more below it), else searched."""
    slot = np.int64((nb * _HASH_MUL) >> _HASH_SHIFT)
    info = tt[2 * slot + 1]
    if tt[2 * slot] ^ info == nb:
        if ((info >> _S8) & _M16) == gen and (info & _DEPTH_BITS) >= np.uint64(depth):
            if info & _CUT_BIT:
                work[W_DEPTH_CUT] += 1.0
            return np.float64(info >> _S24) / _VALUE_SCALE - _VALUE_OFFSET
    return chance_value(nb, nt, depth, cprob, tt, work, s)


@njit(cache=True, error_model="numpy", _nrt=False, nogil=True)
def chance_value(b, t, depth, cprob, tt, work, s):
    """Expected value of chance node b (t its transpose) with `depth` (>= 1) chance layers left,
    reached with path probability `cprob`; stored in the table. Returns 0 once the search is
    abandoned (work[W_ABORTED] set)."""
    empties = np.int64((_empty_bits(b) * _NIBBLE_ONES) >> np.uint64(60))  # < 16: b holds a tile
    if empties == 0:  # not after a legal move; scored for safety
        return score(b, t, s)
    work[W_NODES] += 2 * empties
    if work[W_NODES] > work[W_LIMIT]:
        work[W_ABORTED] = 1.0
        return 0.0
    gen = np.uint64(work[W_GEN])
    cutoff = work[W_CUTOFF]
    cuts_before = work[W_DEPTH_CUT]
    four = work[W_FOUR]
    two = 1.0 - four
    p2 = cprob * two / empties
    p4 = cprob * four / empties
    leaf2 = depth == 1 or p2 < cutoff
    leaf4 = depth == 1 or p4 < cutoff
    if depth == 1 and p2 >= cutoff:
        work[W_DEPTH_CUT] += 1.0  # a deeper search would look further here

    r = _W_REST
    up_t, up_b, up_moved = _slide_rows(t, ROW_LEFT, work, r, s)
    down_t, down_b, down_moved = _slide_rows(t, ROW_RIGHT, work, r + 4, s)
    left_b, left_t, left_moved = _slide_rows(b, ROW_LEFT, work, r + 8, s)
    right_b, right_t, right_moved = _slide_rows(b, ROW_RIGHT, work, r + 12, s)

    total = 0.0
    if leaf2 or leaf4:  # first the spawns whose moves end at the heuristic (work[r:] is still ours)
        cells = _empty_bits(b)
        while cells:
            low = cells & (~cells + np.uint64(1))
            cells ^= low
            i = _CELL_OF_BIT[(low * _DE_BRUIJN) >> _S58]
            row = i >> 2
            col = i & 3
            row_word = (b >> _ROW_SHIFT[row]) & _M16
            col_word = (t >> _ROW_SHIFT[col]) & _M16
            up_others = (up_moved & ~(1 << col)) != 0
            down_others = (down_moved & ~(1 << col)) != 0
            left_others = (left_moved & ~(1 << row)) != 0
            right_others = (right_moved & ~(1 << row)) != 0
            for tile in range(1, 3):
                if not (leaf2 if tile == 1 else leaf4):
                    continue
                in_col = np.uint64(tile) << _NIBBLE_SHIFT[row]
                in_row = np.uint64(tile) << _NIBBLE_SHIFT[col]
                best = max(
                    max(
                        _leaf_value(col_word, in_col, ROW_LEFT, up_b, col, work[r + col], up_others, s),
                        _leaf_value(col_word, in_col, ROW_RIGHT, down_b, col, work[r + 4 + col], down_others, s),
                    ),
                    max(
                        _leaf_value(row_word, in_row, ROW_LEFT, left_t, row, work[r + 8 + row], left_others, s),
                        _leaf_value(row_word, in_row, ROW_RIGHT, right_t, row, work[r + 12 + row], right_others, s),
                    ),
                )
                best = max(best, 0.0)  # as at every max node: a board scored below 0 counts as lost
                total += (two if tile == 1 else four) * best

    if not (leaf2 and leaf4):  # then the spawns whose moves lead to chance nodes one layer down
        cells = _empty_bits(b)
        while cells:
            low = cells & (~cells + np.uint64(1))
            cells ^= low
            i = _CELL_OF_BIT[(low * _DE_BRUIJN) >> _S58]
            row = i >> 2
            col = i & 3
            row_word = (b >> _ROW_SHIFT[row]) & _M16
            col_word = (t >> _ROW_SHIFT[col]) & _M16
            for tile in range(1, 3):
                if leaf2 if tile == 1 else leaf4:
                    continue
                p = p2 if tile == 1 else p4
                in_col = np.uint64(tile) << _NIBBLE_SHIFT[row]
                in_row = np.uint64(tile) << _NIBBLE_SHIFT[col]
                best = 0.0
                nt, nb, moved = _patched(col_word, in_col, ROW_LEFT, up_t, up_b, col)
                if moved or (up_moved & ~(1 << col)) != 0:
                    best = max(best, _child_value(tt, work, nb, nt, depth - 1, p, gen, s))
                nt, nb, moved = _patched(col_word, in_col, ROW_RIGHT, down_t, down_b, col)
                if moved or (down_moved & ~(1 << col)) != 0:
                    best = max(best, _child_value(tt, work, nb, nt, depth - 1, p, gen, s))
                nb, nt, moved = _patched(row_word, in_row, ROW_LEFT, left_b, left_t, row)
                if moved or (left_moved & ~(1 << row)) != 0:
                    best = max(best, _child_value(tt, work, nb, nt, depth - 1, p, gen, s))
                nb, nt, moved = _patched(row_word, in_row, ROW_RIGHT, right_b, right_t, row)
                if moved or (right_moved & ~(1 << row)) != 0:
                    best = max(best, _child_value(tt, work, nb, nt, depth - 1, p, gen, s))
                if work[W_ABORTED] != 0.0:
                    return 0.0
                total += (two if tile == 1 else four) * best

    value = total / empties
    slot = np.int64((b * _HASH_MUL) >> _HASH_SHIFT)
    packed = min(max((value + _VALUE_OFFSET) * _VALUE_SCALE, 0.0), _VALUE_MAX)
    info = (np.uint64(packed) << _S24) | (gen << _S8) | np.uint64(depth)
    if work[W_DEPTH_CUT] > cuts_before:
        info |= _CUT_BIT
    tt[2 * slot] = b ^ info
    tt[2 * slot + 1] = info
    return value


@njit(cache=True, error_model="numpy", _nrt=False, nogil=True)
def search_root(afters, depth, tt, work, out, s):
    """out[k] = the value of board afters[k] (a root move's result) searched `depth` chance layers deep
    with the heuristic's row table s."""
    gen = np.uint64(work[W_GEN])
    for k in range(afters.shape[0]):
        b = afters[k]
        t = transpose(b)
        if depth <= 0:
            out[k] = score(b, t, s)
        else:
            out[k] = _child_value(tt, work, b, t, depth, 1.0, gen, s)
        if work[W_ABORTED] != 0.0:
            return


@njit(cache=True, error_model="numpy", _nrt=False, nogil=True)
def max_value(b, depth, cprob, tt, work, s):
    """The value of move node b (a board with its new tile, to move): the best of 0 and the chance
    nodes its legal moves make, searched `depth` (>= 1) chance layers deep with path probability
    `cprob`; with depth 0, or cprob below the cutoff, the heuristic after each move instead. A root
    chance node's spawns are these, which lets threads share one root's work."""
    gen = np.uint64(work[W_GEN])
    t = transpose(b)
    r = _W_REST
    up_t, up_b, up_moved = _slide_rows(t, ROW_LEFT, work, r, s)
    down_t, down_b, down_moved = _slide_rows(t, ROW_RIGHT, work, r, s)
    left_b, left_t, left_moved = _slide_rows(b, ROW_LEFT, work, r, s)
    right_b, right_t, right_moved = _slide_rows(b, ROW_RIGHT, work, r, s)
    best = 0.0
    if depth == 0 or cprob < work[W_CUTOFF]:
        if up_moved:
            best = max(best, score(up_b, up_t, s))
        if down_moved:
            best = max(best, score(down_b, down_t, s))
        if left_moved:
            best = max(best, score(left_b, left_t, s))
        if right_moved:
            best = max(best, score(right_b, right_t, s))
        return best
    if up_moved:
        best = max(best, _child_value(tt, work, up_b, up_t, depth, cprob, gen, s))
    if down_moved:
        best = max(best, _child_value(tt, work, down_b, down_t, depth, cprob, gen, s))
    if left_moved:
        best = max(best, _child_value(tt, work, left_b, left_t, depth, cprob, gen, s))
    if right_moved:
        best = max(best, _child_value(tt, work, right_b, right_t, depth, cprob, gen, s))
    return best
