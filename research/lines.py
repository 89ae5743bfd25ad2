"""A learned evaluation: line values trained by temporal-difference learning (an n-tuple network of lines).

The network (after Szubert & Jaśkowski 2014, "Temporal difference learning of n-tuple networks for
the game 2048") has one weight per 16-bit line word and per line kind: `kinds` = 1 shares one
table among all eight lines (the four rows and the four columns), `kinds` = 2 keeps one for the
outer lines (rows 0 and 3, columns 0 and 3) and one for the inner lines. A line and its reverse
are the same feature (the board's symmetries), so a table is kept symmetric: S[k, w] = S[k, rev w].

    V(b) = sum over the lines L of b of S[kind(L), L]

V estimates the score still to come after an afterstate (a board after a move, before the new
tile), the quantity TD(0) on afterstates learns: after each move the previous afterstate's value
moves by alpha * (reward + V(this afterstate) - V(previous afterstate)), and toward 0 when the
game ends. Moves are chosen greedily by reward + V(afterstate) while learning.

For the search (`row_table`), a board's value is the score already made plus V: the score already
made is, but for the 4s that spawned, the sum over tiles of (rank - 1) * 2**rank, which splits
into half per row and half per column, so the whole value stays a sum of eight line lookups and
the compiled search reads it like nneonneo's heuristic (one shared kind only: the search has one
row table).

Files: `save` writes an .npz with the table, a JSON description and the table's SHA-256; `load`
checks all three (ValueError with a one-line reason).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
from numba import njit

from screenbot.game.bitboard import ROW_COUNT, reverse_row, execute_move, transpose

_M16 = np.uint64(0xFFFF)


@njit(cache=True)
def _fill_reverse(out):
    for w in range(ROW_COUNT):
        out[w] = reverse_row(w)


REVERSE = np.zeros(ROW_COUNT, np.uint16)
_fill_reverse(REVERSE)
REVERSE.setflags(write=False)


@njit(cache=True)
def _fill_tile_score(out):
    for w in range(ROW_COUNT):
        total = 0.0
        for i in range(4):
            k = (w >> (4 * i)) & 0xF
            if k >= 2:
                total += (k - 1) * 2.0**k
        out[w] = total


TILE_SCORE = np.zeros(ROW_COUNT, np.float64)  # per line: the score that making its tiles from 2s gives
_fill_tile_score(TILE_SCORE)
TILE_SCORE.setflags(write=False)


@njit(cache=True, inline="always")
def _kind(q, mask):
    """The table of line q (0..3) of rows or columns: 0 for the outer lines, `mask` (0 or 1) inner."""
    return ((q ^ (q >> 1)) & 1) & mask


@njit(cache=True)
def value(S, board):
    """V(board): the sum of the eight lines' weights."""
    b = np.uint64(board)
    t = transpose(b)
    mask = S.shape[0] - 1
    total = 0.0
    for q in range(4):
        shift = np.uint64(16 * q)
        k = _kind(q, mask)
        total += S[k, (b >> shift) & _M16] + S[k, (t >> shift) & _M16]
    return total


@njit(cache=True)
def _update(S, board, step):
    """Move V(board) by `step` * (number of weights touched) along its features."""
    b = np.uint64(board)
    t = transpose(b)
    mask = S.shape[0] - 1
    for q in range(4):
        shift = np.uint64(16 * q)
        k = _kind(q, mask)
        for w in ((b >> shift) & _M16, (t >> shift) & _M16):
            S[k, w] += step
            r = REVERSE[w]
            if r != w:
                S[k, r] += step


@njit(cache=True)
def _spawn(board):
    """The board with a 2 (0.9) or a 4 (0.1) in a uniformly chosen empty cell (board must have one)."""
    b = np.uint64(board)
    empties = 0
    for i in range(16):
        if (b >> np.uint64(4 * i)) & np.uint64(0xF) == 0:
            empties += 1
    pick = np.random.randint(empties)
    rank = np.uint64(1) if np.random.random() < 0.9 else np.uint64(2)
    for i in range(16):
        if (b >> np.uint64(4 * i)) & np.uint64(0xF) == 0:
            if pick == 0:
                return b | (rank << np.uint64(4 * i))
            pick -= 1
    return b


@njit(cache=True)
def greedy(S, board):
    """(move, afterstate, reward) maximising reward + V(afterstate); move -1 when none is legal."""
    b = np.uint64(board)
    best_move = -1
    best_value = -np.inf
    best_after = b
    best_gain = 0
    for m in range(4):
        after, gain = execute_move(b, m)
        if after == b:
            continue
        v = gain + value(S, after)
        if v > best_value:
            best_value = v
            best_move = m
            best_after = after
            best_gain = gain
    return best_move, best_after, best_gain


@njit(cache=True)
def train(S, starts, games, alpha, seed, out_score, out_rank, learn):
    """Play `games` games greedily from boards drawn from `starts` (uint64 boards with their new tiles
    already placed; a 0 entry means a fresh game: two spawns), with TD(0) on afterstates when
    `learn`. out_score[g] / out_rank[g]: the score made in game g and its largest rank."""
    np.random.seed(seed)
    for g in range(games):
        b = starts[np.random.randint(starts.shape[0])]
        if b == 0:
            b = _spawn(_spawn(np.uint64(0)))
        made = 0
        have_prev = False
        prev = np.uint64(0)
        while True:
            m, after, gain = greedy(S, b)
            if m < 0:
                break
            made += gain
            if learn and have_prev:
                delta = gain + value(S, after) - value(S, prev)
                _update(S, prev, alpha * delta)
            prev = after
            have_prev = True
            b = _spawn(after)
        if learn and have_prev:
            _update(S, prev, -alpha * value(S, prev))
        top = 0
        for i in range(16):
            k = np.int64((b >> np.uint64(4 * i)) & np.uint64(0xF))
            if k > top:
                top = k
        out_score[g] = made
        out_rank[g] = top


def new_table(kinds: int = 1) -> np.ndarray:
    """A zero network: `kinds` (1 or 2) tables of one float per line word."""
    if kinds not in (1, 2):
        raise ValueError("kinds must be 1 or 2")
    return np.zeros((kinds, ROW_COUNT), np.float64)


def row_table(S: np.ndarray) -> np.ndarray:
    """The search's row table for a one-kind network: its line weights plus half each line's tile score."""
    if S.shape != (1, ROW_COUNT):
        raise ValueError("the search reads one shared line table (kinds = 1)")
    out = (S[0] + TILE_SCORE / 2.0).astype(np.float64)
    out.setflags(write=False)
    return out


def _digest(S: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(S, np.float32).tobytes()).hexdigest()


def save(path: str | Path, S: np.ndarray, info: dict) -> None:
    """Write the network (as float32) with `info` (e.g. how it was trained) and its checksum."""
    table = np.ascontiguousarray(S, np.float32)
    with open(path, "wb") as f:
        np.savez_compressed(f, table=table, info=np.array(json.dumps(info)), sha256=np.array(_digest(table)))


def load(path: str | Path) -> tuple[np.ndarray, dict]:
    """(network as float64, info) from a file `save` wrote; ValueError with a one-line reason when the
    file is unreadable, not such a file, the wrong shape or fails its checksum."""
    try:
        with np.load(path, allow_pickle=False) as data:
            table = data["table"]
            info = json.loads(str(data["info"]))
            digest = str(data["sha256"])
    except (OSError, ValueError, KeyError, EOFError) as exc:
        raise ValueError(f"{path}: not a line-network file ({type(exc).__name__}: {exc})") from None
    if table.dtype != np.float32 or table.ndim != 2 or table.shape[0] not in (1, 2) or table.shape[1] != ROW_COUNT:
        raise ValueError(f"{path}: the table must be float32 of shape (1 or 2, {ROW_COUNT}), not {table.dtype} {table.shape}")
    if _digest(table) != digest:
        raise ValueError(f"{path}: checksum mismatch (the file is damaged)")
    if not np.isfinite(table).all():
        raise ValueError(f"{path}: the table holds values that are not finite")
    return table.astype(np.float64), info
