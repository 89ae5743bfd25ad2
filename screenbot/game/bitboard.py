"""The fast form of a board for the search: a 64-bit word of 4-bit ranks with precomputed row tables.

Layout: cell (row r, column c) is the nibble at bit 4 * (4 * r + c); a nibble holds the tile's
rank (log2 of its value, 0 = empty), so row r is the 16-bit word at bit 16 * r and "left" moves
toward the low nibble. Every row move is one lookup in a 65,536-entry table; up and down work on
the transposed board (columns become rows).

Ranks above 15: a nibble holds ranks 0..15 (empty..32768). `to_bitboard` clamps 65536 and 131072
to rank 15, so rank 15 means "32768 or more". So that the fast form never invents a tile, rank-15
tiles never merge in it: [32768, 32768, 0, 0] moved left stays put here, while the real rules make
65536. Consequences: below 32768 the fast form is exact (moves, score gains, legality); on boards
holding a tile of 32768 or more the search sees those tiles as 32768s that cannot merge, so it
never plans a 32768 + 32768 merge and reads 65536/131072 as 32768. `screenbot.agent.search` plays
the root move with the exact plain-grid rules, so such a merge is still taken when it is on the
board now, and a board whose only move is that merge is not mistaken for a lost one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from screenbot.game.rules import SIZE, Grid, Move

RANK_LIMIT = 15  # the largest rank a nibble holds: 2**15 = 32768
ROW_COUNT = 1 << 16

_M16 = np.uint64(0xFFFF)
_M4 = np.uint64(0xF)
_S4 = np.uint64(4)
_S8 = np.uint64(8)
_S12 = np.uint64(12)
_S16 = np.uint64(16)
_S32 = np.uint64(32)
_S24 = np.uint64(24)
_S48 = np.uint64(48)
_SPREAD_A = np.uint64(0x000000FF000000FF)
_COLUMN0 = np.uint64(0x000F000F000F000F)


def rank_of(value: int) -> int:
    """The nibble for a tile value: log2(value), 0 for empty, clamped to 15 (see the module docstring)."""
    if value <= 0:
        return 0
    return min(int(value).bit_length() - 1, RANK_LIMIT)


def to_bitboard(grid: Grid) -> int:
    """Pack a plain grid (rows top to bottom) into the 64-bit word; tiles above 32768 become rank 15."""
    board = 0
    for r in range(SIZE):
        for c in range(SIZE):
            board |= rank_of(grid[r][c]) << (4 * (SIZE * r + c))
    return board


def from_bitboard(board: int) -> Grid:
    """Unpack the 64-bit word into a plain grid of tile values."""
    board = int(board)
    cells = [(board >> (4 * i)) & 0xF for i in range(SIZE * SIZE)]
    return tuple(tuple((1 << k) if k else 0 for k in cells[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE))


@njit(cache=True)
def _slide_row_left(word):
    """One 16-bit row moved toward its low nibble: (new row, score gain). Rank 15 never merges."""
    tiles = np.zeros(4, np.int64)
    k = 0
    for i in range(4):
        rank = (word >> (4 * i)) & 0xF
        if rank:
            tiles[k] = rank
            k += 1
    out = 0
    gain = 0
    n = 0
    i = 0
    while i < k:
        rank = tiles[i]
        if i + 1 < k and tiles[i + 1] == rank and rank < 15:
            rank += 1
            gain += 1 << rank
            i += 2
        else:
            i += 1
        out |= rank << (4 * n)
        n += 1
    return out, gain


@njit(cache=True)
def reverse_row(word):
    return ((word & 0xF) << 12) | (((word >> 4) & 0xF) << 8) | (((word >> 8) & 0xF) << 4) | (word >> 12)


@njit(cache=True)
def _build_tables(left, right, gain_left, gain_right, empties):
    for word in range(ROW_COUNT):
        moved, gain = _slide_row_left(word)
        left[word] = moved
        gain_left[word] = gain
        moved_rev, gain_rev = _slide_row_left(reverse_row(word))
        right[word] = reverse_row(moved_rev)
        gain_right[word] = gain_rev
        e = 0
        for i in range(4):
            if ((word >> (4 * i)) & 0xF) == 0:
                e += 1
        empties[word] = e


# The row tables, indexed by a 16-bit row word (read-only; the search bakes them into its code).
ROW_LEFT = np.zeros(ROW_COUNT, np.uint16)  # the row after moving left
ROW_RIGHT = np.zeros(ROW_COUNT, np.uint16)  # the row after moving right
GAIN_LEFT = np.zeros(ROW_COUNT, np.uint32)  # score gained moving the row left
GAIN_RIGHT = np.zeros(ROW_COUNT, np.uint32)  # score gained moving the row right
ROW_EMPTIES = np.zeros(ROW_COUNT, np.uint8)  # empty cells in the row
_build_tables(ROW_LEFT, ROW_RIGHT, GAIN_LEFT, GAIN_RIGHT, ROW_EMPTIES)
for _table in (ROW_LEFT, ROW_RIGHT, GAIN_LEFT, GAIN_RIGHT, ROW_EMPTIES):
    _table.setflags(write=False)
del _table


@njit(cache=True, inline="always")
def spread_row(word):
    """A 16-bit row word with its nibble j moved to bit 16 * j: the row written down column 0."""
    x = (word | (word << _S24)) & _SPREAD_A
    return (x | (x << _S12)) & _COLUMN0


@njit(cache=True, inline="always")
def transpose(board):
    """Rows become columns: cell (r, c) moves to (c, r)."""
    b = np.uint64(board)
    return (
        spread_row(b & _M16)
        | (spread_row((b >> _S16) & _M16) << _S4)
        | (spread_row((b >> _S32) & _M16) << _S8)
        | (spread_row(b >> _S48) << _S12)
    )


@njit(cache=True, inline="always")
def apply_rows(board, table):
    """Each 16-bit row of `board` replaced by table[row]."""
    return (
        np.uint64(table[board & _M16])
        | (np.uint64(table[(board >> _S16) & _M16]) << _S16)
        | (np.uint64(table[(board >> _S32) & _M16]) << _S32)
        | (np.uint64(table[board >> _S48]) << _S48)
    )


@njit(cache=True, inline="always")
def sum_rows(board, table):
    """table[row] summed over the four rows (e.g. gains, empties)."""
    return (
        np.int64(table[board & _M16])
        + np.int64(table[(board >> _S16) & _M16])
        + np.int64(table[(board >> _S32) & _M16])
        + np.int64(table[board >> _S48])
    )


@njit(cache=True)
def execute_move(board, move):
    """The board after `move` (0 up, 1 down, 2 left, 3 right, as `Move`) and the score gained.

    No spawn. The board is unchanged when the move is not legal.
    """
    b = np.uint64(board)
    if move == 2:
        return apply_rows(b, ROW_LEFT), sum_rows(b, GAIN_LEFT)
    if move == 3:
        return apply_rows(b, ROW_RIGHT), sum_rows(b, GAIN_RIGHT)
    t = transpose(b)  # up/down slide the rows of the transpose
    if move == 0:
        return transpose(apply_rows(t, ROW_LEFT)), sum_rows(t, GAIN_LEFT)
    return transpose(apply_rows(t, ROW_RIGHT)), sum_rows(t, GAIN_RIGHT)


@njit(cache=True)
def count_empty(board):
    """The number of empty cells."""
    return sum_rows(np.uint64(board), ROW_EMPTIES)


@njit(cache=True)
def legal_mask(board):
    """Bit m set when move m changes the board."""
    b = np.uint64(board)
    mask = 0
    for m in range(4):
        after, _ = execute_move(b, m)
        if after != b:
            mask |= 1 << m
    return mask


@njit(cache=True)
def distinct_ranks(board):
    """How many different tile ranks the board holds (empty cells not counted)."""
    b = np.uint64(board)
    seen = 0
    for i in range(16):
        rank = (b >> np.uint64(4 * i)) & _M4
        if rank:
            seen |= 1 << rank
    count = 0
    while seen:
        seen &= seen - 1
        count += 1
    return count


@njit(cache=True)
def max_rank(board):
    b = np.uint64(board)
    best = 0
    for i in range(16):
        rank = np.int64((b >> np.uint64(4 * i)) & _M4)
        if rank > best:
            best = rank
    return best


def move_bitboard(board: int, move: Move) -> tuple[int, int]:
    """`execute_move` from Python: (new board, score gain) as Python ints."""
    after, gain = execute_move(np.uint64(board), int(move))
    return int(after), int(gain)
