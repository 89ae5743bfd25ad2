"""Endgame tables: the best move, and its chance of success, for building the next tile of a full 3x3
block of big tiles with only the seven cells around it.

The late game of this agent (and of macroxue/2048-ai's "perimeter defense", whose README describes
the idea) often comes down to a board like

    16384  4096  1024 | .
     8192  2048   512 | .
      256   128    64 | .
    ------------------+--
        .     .     . | .

where the nine big tiles fill a 3x3 block in a corner and the chain can only go on once a second 64
(the block's smallest tile, in its inner corner) is built next to the first one, using the seven
free cells of the L around the block while the block stays put. The search's horizon (six moves)
is far shorter than the 30-odd moves that takes. Here the whole problem is solved once, exactly, by
expectimax to the end: for every arrangement of the seven L cells (ranks up to the target's) the
probability of reaching the goal (the target tile beside the inner corner) with best play, and
the move that gets it, when only moves that leave the block as it is are allowed.

Frame: the block is rows 0-2 x columns 0-2, its inner corner (2, 2) holds the target T; the L's
cells in path order are (0,3) (1,3) (2,3) (3,3) (3,2) (3,1) (3,0), so column 3 is path 0..3 and
row 3, right to left, is path 3..6. With the block full, no move can merge across its border
(its edge tiles are bigger than T, the L's are at most T, and a T beside the corner is the goal),
so the block stays put under up and left always, and under down (right) when the L's row (column)
is full below (beside) it; any other down or right would make the block fall, which the table
does not allow. A state's index is sum(rank(cell i) * (r + 1) ** i) for target rank r; a merge
of two T's in the L (a rank above r) counts as failure unless the same move reached the goal. Every move keeps the tile sum and every
spawn adds 2 or 4, so states are solved in falling order of tile sum, each from states already
solved.

The tables depend on nothing but the rules, so they are computed once (seconds) and kept in the
user cache dir (platformdirs), checked by a header with their version and sizes.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from screenbot.game.rules import Grid, Move

TABLE_VERSION = 2
MIN_RANK = 3  # the smallest target: 8
MAX_RANK = 9  # the largest target: 512 (seven cells rarely make more)
PATH = ((0, 3), (1, 3), (2, 3), (3, 3), (3, 2), (3, 1), (3, 0))  # the L's cells in the block's frame
L_CELLS = len(PATH)
GOAL_PATH = (2, 4)  # (2,3) and (3,2): beside the inner corner
PROB_SCALE = 65535  # probabilities are kept as uint16
MIN_BLOCK_TILE = 2048  # the tables are for the late game: the block's largest tile at least this
# table moves, in the frame (Move order: up, down, left, right)
_UP, _DOWN, _LEFT, _RIGHT = int(Move.UP), int(Move.DOWN), int(Move.LEFT), int(Move.RIGHT)


def table_size(rank: int) -> int:
    return (rank + 1) ** L_CELLS


@njit(cache=True)
def _slide(cells, order, cap):
    """Slide cells[order[0..3]] toward order[0] in place (2048 rules); False if a merge went above cap."""
    line = np.zeros(4, np.int64)
    n = 0
    for k in range(4):
        v = cells[order[k]]
        if v:
            line[n] = v
            n += 1
    out = np.zeros(4, np.int64)
    m = 0
    k = 0
    ok = True
    while k < n:
        if k + 1 < n and line[k] == line[k + 1]:
            out[m] = line[k] + 1
            if out[m] > cap:
                ok = False
            k += 2
        else:
            out[m] = line[k]
            k += 1
        m += 1
    for k in range(4):
        cells[order[k]] = out[k]
    return ok


@njit(cache=True)
def _index(cells, base):
    idx = 0
    for i in range(L_CELLS - 1, -1, -1):
        idx = idx * base + cells[i]
    return idx


@njit(cache=True)
def _move_values(rank, prob, one, cells, after, values, column_up, column_down, row_left, row_right):
    """values[m] = the chance of success after frame move m from the L's ranks `cells`, with best play
    from then on (states with larger tile sums, solved already), in the units of `prob` where `one`
    is certain; -1 where m is not allowed."""
    base = rank + 1
    for move in range(4):
        values[move] = -1.0
        if move == 1 and (cells[4] == 0 or cells[5] == 0 or cells[6] == 0):
            continue  # down would make the block fall
        if move == 3 and (cells[0] == 0 or cells[1] == 0 or cells[2] == 0):
            continue  # right would make the block fall
        for i in range(L_CELLS):
            after[i] = cells[i]
        if move == 0:
            ok = _slide(after, column_up, rank)
        elif move == 1:
            ok = _slide(after, column_down, rank)
        elif move == 2:
            ok = _slide(after, row_left, rank)
        else:
            ok = _slide(after, row_right, rank)
        changed = False
        for i in range(L_CELLS):
            if after[i] != cells[i]:
                changed = True
        if not changed:
            continue  # not a legal move
        if after[2] == rank or after[4] == rank:
            values[move] = one  # (also when two targets merged elsewhere in the L)
        elif not ok:
            values[move] = 0.0
        else:
            total = 0.0
            empties = 0
            for i in range(L_CELLS):
                if after[i] == 0:
                    empties += 1
                    after[i] = 1
                    total += 0.9 * prob[_index(after, base)]
                    after[i] = 2
                    total += 0.1 * prob[_index(after, base)]
                    after[i] = 0
            values[move] = total / empties  # a legal move always leaves an empty cell in the L


@njit(cache=True)
def _solve(rank, prob, best, first, last, order, cells, after, column_up, column_down, row_left, row_right):
    """Solve the states order[first:last] (their children are solved already)."""
    base = rank + 1
    values = np.zeros(4, np.float64)
    for n in range(first, last):
        idx = order[n]
        x = idx
        for i in range(L_CELLS):
            cells[i] = x % base
            x //= base
        if cells[2] == rank or cells[4] == rank:  # the goal already (no search needed)
            prob[idx] = 1.0
            best[idx] = -1
            continue
        _move_values(rank, prob, 1.0, cells, after, values, column_up, column_down, row_left, row_right)
        top = 0.0
        top_move = -1
        for move in range(4):
            if values[move] >= 0.0 and (values[move] > top or top_move < 0):
                top = values[move]
                top_move = move
        prob[idx] = top
        best[idx] = top_move


@njit(cache=True)
def _order_by_falling_sum(rank):
    """Every state index, in falling order of the L's tile sum (a counting sort), and where each sum starts."""
    base = rank + 1
    size = base**L_CELLS
    weight = np.zeros(base, np.int64)
    for v in range(1, base):
        weight[v] = 1 << (v - 1)  # tile / 2
    top = L_CELLS * weight[rank]
    sums = np.zeros(size, np.int64)
    counts = np.zeros(top + 2, np.int64)
    for idx in range(size):
        x = idx
        s = 0
        for _ in range(L_CELLS):
            s += weight[x % base]
            x //= base
        sums[idx] = s
        counts[top - s] += 1
    starts = np.zeros(top + 2, np.int64)
    for k in range(1, top + 2):
        starts[k] = starts[k - 1] + counts[k - 1]
    order = np.zeros(size, np.int64)
    fill = starts.copy()
    for idx in range(size):
        k = top - sums[idx]
        order[fill[k]] = idx
        fill[k] += 1
    return order, starts


_COLUMN_UP = np.array([0, 1, 2, 3], np.int64)
_COLUMN_DOWN = np.array([3, 2, 1, 0], np.int64)
_ROW_LEFT = np.array([6, 5, 4, 3], np.int64)
_ROW_RIGHT = np.array([3, 4, 5, 6], np.int64)


def solve_rank(rank: int, progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(success probability as float64, best move in the frame or -1) for every state of target rank `rank`."""
    size = table_size(rank)
    order, starts = _order_by_falling_sum(rank)
    prob = np.zeros(size, np.float64)
    best = np.full(size, -1, np.int8)
    cells = np.zeros(L_CELLS, np.int64)
    after = np.zeros(L_CELLS, np.int64)
    chunk = max(1, size // 50)
    done = 0
    # chunks of whole sums only: a chunk's children have larger sums, so lie in earlier chunks
    bounds = [int(b) for b in starts if 0 < b < size]
    edges = [0]
    for b in bounds:
        if b - edges[-1] >= chunk:
            edges.append(b)
    edges.append(size)
    for a, b in zip(edges, edges[1:]):
        _solve(rank, prob, best, a, b, order, cells, after, _COLUMN_UP, _COLUMN_DOWN, _ROW_LEFT, _ROW_RIGHT)
        if progress is not None:
            progress(b - done)
        done = b
    return prob, best


def _header() -> bytes:
    text = f"screenbot endgame L7 v{TABLE_VERSION} ranks {MIN_RANK}-{MAX_RANK} cells {L_CELLS}"
    return text.encode()


def default_table_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("screenbot")) / f"endgame_l7_v{TABLE_VERSION}.npz"


class TableError(Exception):
    """An endgame table file that cannot be used (corrupt, another version)."""


@dataclass
class EndgameTables:
    """The solved tables by target rank: probability (uint16, / PROB_SCALE) and move (int8, -1: none)."""

    prob: dict[int, np.ndarray]
    move: dict[int, np.ndarray]

    @classmethod
    def build(cls, progress: Callable[[int, int], None] | None = None) -> EndgameTables:
        """Solve every rank; progress(states done so far, states in all)."""
        total = sum(table_size(r) for r in range(MIN_RANK, MAX_RANK + 1))
        done = 0

        def step(n: int) -> None:
            nonlocal done
            done += n
            if progress is not None:
                progress(done, total)

        prob, move = {}, {}
        for r in range(MIN_RANK, MAX_RANK + 1):
            p, m = solve_rank(r, step)
            prob[r] = np.round(p * PROB_SCALE).astype(np.uint16)
            move[r] = m
        return cls(prob, move)

    def checksum(self) -> str:
        h = hashlib.sha256(_header())
        for r in sorted(self.prob):
            h.update(self.prob[r].tobytes())
            h.update(self.move[r].tobytes())
        return h.hexdigest()

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays = {f"prob{r}": self.prob[r] for r in self.prob} | {f"move{r}": self.move[r] for r in self.move}
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            np.savez(f, header=np.frombuffer(_header(), np.uint8), checksum=np.frombuffer(self.checksum().encode(), np.uint8), **arrays)
        os.replace(tmp, path)  # whole or not at all, also with two processes building at once

    @classmethod
    def load(cls, path: Path) -> EndgameTables:
        try:
            with np.load(path, allow_pickle=False) as data:
                if bytes(data["header"]) != _header():
                    raise TableError(f"{path} is another version of the endgame tables")
                tables = cls(
                    {r: data[f"prob{r}"] for r in range(MIN_RANK, MAX_RANK + 1)},
                    {r: data[f"move{r}"] for r in range(MIN_RANK, MAX_RANK + 1)},
                )
                stored = bytes(data["checksum"]).decode()
        except TableError:
            raise
        except Exception as exc:  # a truncated or foreign file: zipfile, KeyError, ValueError ...
            raise TableError(f"{path} is not a readable endgame table file ({type(exc).__name__})") from None
        for r in range(MIN_RANK, MAX_RANK + 1):
            if tables.prob[r].shape != (table_size(r),) or tables.move[r].shape != (table_size(r),):
                raise TableError(f"{path} has tables of the wrong size")
        if tables.checksum() != stored:
            raise TableError(f"{path} is corrupt (checksum mismatch)")
        return tables

    @classmethod
    def load_or_build(cls, path: Path | None = None,
                      progress: Callable[[int, int], None] | None = None) -> tuple[EndgameTables, float | None]:
        """The tables from `path` (default: the user cache dir), built and saved there when missing or
        unusable; (tables, seconds the build took, or None when loaded)."""
        path = default_table_path() if path is None else path
        if path.exists():
            try:
                return cls.load(path), None
            except TableError:
                pass  # rebuilt below and saved over it
        start = time.perf_counter()
        tables = cls.build(progress)
        seconds = time.perf_counter() - start
        tables.save(path)
        return tables, seconds

    def lookup(self, rank: int, l_ranks: tuple[int, ...]) -> tuple[float, int]:
        """(success probability, frame move or -1) for the L's ranks in path order."""
        idx = 0
        for v in reversed(l_ranks):
            idx = idx * (rank + 1) + v
        return float(self.prob[rank][idx]) / PROB_SCALE, int(self.move[rank][idx])

    def suggest(self, grid: Grid, min_block_tile: int = MIN_BLOCK_TILE) -> Suggestion | None:
        """Where `grid` (tile values), in one of the 8 symmetries, is a full 3x3 block (its largest tile
        at least `min_block_tile`) with the smallest tile alone in the inner corner, the L's tiles at
        most that and the goal not there yet: every move's chance of success (moves the table does not
        allow left out), from the symmetry with the best chance; None elsewhere or with no move."""
        found = None
        cells = np.zeros(L_CELLS, np.int64)
        after = np.zeros(L_CELLS, np.int64)
        values = np.zeros(4, np.float64)
        for frame in FRAMES:
            g = [[grid[frame.at(i, j)[0]][frame.at(i, j)[1]] for j in range(4)] for i in range(4)]
            target = g[2][2]
            rank = _rank(target)
            if rank not in self.prob:
                continue
            block = [g[i][j] for i in range(3) for j in range(3)]
            if min(block) != target or block.count(target) != 1 or max(block) < min_block_tile:
                continue
            if any(g[i][j] == g[i][j + 1] for i in range(3) for j in range(2)):
                continue
            if any(g[i][j] == g[i + 1][j] for i in range(2) for j in range(3)):
                continue
            l_values = [g[i][j] for i, j in PATH]
            if max(l_values) > target or l_values[GOAL_PATH[0]] == target or l_values[GOAL_PATH[1]] == target:
                continue
            cells[:] = [_rank(v) for v in l_values]
            _move_values(rank, self.prob[rank], PROB_SCALE, cells, after, values,
                         _COLUMN_UP, _COLUMN_DOWN, _ROW_LEFT, _ROW_RIGHT)
            chances = {frame.to_original(Move(m)): float(values[m]) / PROB_SCALE for m in range(4) if values[m] >= 0}
            if not chances:
                continue
            best = max(chances.values())
            if found is None or best > found.probability:
                move = max(chances, key=chances.get)  # on a tie the first in Move order
                found = Suggestion(move, best, target, chances)
        return found


@dataclass(frozen=True)
class Suggestion:
    move: Move  # the table's best move
    probability: float  # of building the target beside the inner corner with the block kept, best play
    target: int  # the tile being built
    chances: dict[Move, float]  # every allowed move's probability


def _rank(value: int) -> int:
    return value.bit_length() - 1 if value else 0


_VECTORS = {Move.UP: (-1, 0), Move.DOWN: (1, 0), Move.LEFT: (0, -1), Move.RIGHT: (0, 1)}


@dataclass(frozen=True)
class Frame:
    """A symmetry of the board: frame cell (i, j) is original cell at(i, j)."""

    swap: bool
    flip_rows: bool
    flip_cols: bool

    def at(self, i: int, j: int) -> tuple[int, int]:
        a, b = (j, i) if self.swap else (i, j)
        return (3 - a if self.flip_rows else a, 3 - b if self.flip_cols else b)

    def to_original(self, move: Move) -> Move:
        di, dj = _VECTORS[move]
        a, b = (dj, di) if self.swap else (di, dj)
        vector = (-a if self.flip_rows else a, -b if self.flip_cols else b)
        return next(m for m, v in _VECTORS.items() if v == vector)


FRAMES = tuple(Frame(s, r, c) for s in (False, True) for r in (False, True) for c in (False, True))
