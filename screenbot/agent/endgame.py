"""Endgame tables: every move's chance of building the next tile of a block of big tiles with only the
free cells beside it, solved exactly, once, by expectimax to the end.

The late game of this agent (and of macroxue/2048-ai's "perimeter defense", whose README describes
the idea) keeps coming back to boards like

    16384  4096  1024 | .                 16384  8192  1024 | .
     8192  2048   512 | .                  4096  2048   256 | .
      256   128    64 | .                 ------------------+--
    ------------------+--                     .     .     . | .
        .     .     . | .                     .     .     . | .

where big tiles fill a block in a corner and the chain can only go on once a second copy of the
block's smallest tile T is built beside it, using the free cells while the block stays put. That
takes far more moves (30 and up) than the search's horizon (six). Here it is solved for good: for
every arrangement of the free cells (ranks up to T's) the probability of reaching the goal (T on a
free cell beside the block's T) with best play, when only moves that leave the block as it is are
allowed. `ExpectimaxAgent(tables=...)` (bench --endgame-tables) plays their best move where one
knows the board; measured, that loses more games than the search alone (README, Numbers), so play
does not use them; `hint --endgame-tables` prints each move's chance beside the search's advice.

A `Shape` names the block's cells and the target's cell (in a frame: one of the board's 8
symmetries); everything else follows from the geometry. With the block full and T its only
smallest tile, no move can merge across the block's border except T into T (the goal), so a move
keeps the block iff every run of free cells that some block cell would slide into is full and
stays as it is. A state's index is sum(rank(free cell i) * (r + 1) ** i) for target rank r; a merge
of two T's in the free cells (a rank above r) counts as failure unless the same move reached the
goal. Every move keeps the tile sum and every spawn adds 2 or 4, so states are solved in falling
order of tile sum, each from states already solved.

The tables depend on nothing but the rules: built in about 1.5 minutes on first use (139 M states,
277 MB as uint16) and kept in the user cache dir (platformdirs), checked by a header with their
version and shapes and a checksum.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numba import njit

from screenbot.game.rules import Grid, Move

TABLE_VERSION = 3
PROB_SCALE = 65535  # probabilities are kept as uint16
MIN_BLOCK_TILE = 8192  # the tables are for the endgame: the block's largest tile at least this
MAX_SEGMENTS = 8
_VECTORS = {Move.UP: (-1, 0), Move.DOWN: (1, 0), Move.LEFT: (0, -1), Move.RIGHT: (0, 1)}
Cell = tuple[int, int]


@dataclass(frozen=True)
class Shape:
    """A block of big tiles (frame cells), the cell of its smallest tile T, the free cells in index order,
    and the target ranks it is solved for."""

    name: str
    block: tuple[Cell, ...]
    target: Cell
    free: tuple[Cell, ...]
    ranks: tuple[int, ...]
    goals: tuple[int, ...] = field(init=False)  # indices of the free cells beside the target
    segments: np.ndarray = field(init=False, repr=False, compare=False)  # (4, MAX_SEGMENTS, 4) free-cell indices, front first; -1 pads
    rigid: np.ndarray = field(init=False, repr=False, compare=False)  # (4, MAX_SEGMENTS): a block cell slides into it unless it stays

    def __post_init__(self) -> None:
        assert len(set(self.block) | set(self.free)) == 16 and not set(self.block) & set(self.free)
        ti, tj = self.target
        goals = tuple(k for k, (i, j) in enumerate(self.free) if abs(i - ti) + abs(j - tj) == 1)
        segments = np.full((4, MAX_SEGMENTS, 4), -1, np.int64)
        rigid = np.zeros((4, MAX_SEGMENTS), np.bool_)
        for move in Move:
            di, dj = _VECTORS[move]
            n = 0
            for line in range(4):
                # the line's cells from the front (the side the tiles move to) to the back
                if dj == 0:
                    cells = [(i, line) for i in (range(4) if di < 0 else range(3, -1, -1))]
                else:
                    cells = [(line, j) for j in (range(4) if dj < 0 else range(3, -1, -1))]
                run: list[int] = []
                for cell in cells + [None]:
                    if cell is not None and cell in self.free:
                        run.append(self.free.index(cell))
                        continue
                    if len(run) > 0:
                        segments[int(move), n, : len(run)] = run
                        rigid[int(move), n] = cell is not None  # a block cell right behind the run
                        n += 1
                    run = []
            assert n <= MAX_SEGMENTS
        object.__setattr__(self, "goals", goals)
        object.__setattr__(self, "segments", segments)
        object.__setattr__(self, "rigid", rigid)

    def size(self, rank: int) -> int:
        return (rank + 1) ** len(self.free)


def _cells(rows: Iterable[int], cols: Iterable[int]) -> tuple[Cell, ...]:
    return tuple((i, j) for i in rows for j in cols)


SHAPES = (
    # a 3x3 block, T in its inner corner, the seven cells of the L around it (macroxue's "next 64
    # from the bottom row and the right column"); seven cells rarely make more than a 256
    Shape("L7", _cells(range(3), range(3)), (2, 2),
          ((0, 3), (1, 3), (2, 3), (3, 3), (3, 2), (3, 1), (3, 0)), tuple(range(3, 10))),
    # two full rows, T in the second (at its end or one in; the other two are mirror images)
    Shape("R8end", _cells(range(2), range(4)), (1, 0), _cells(range(2, 4), range(4)), tuple(range(3, 8))),
    Shape("R8in", _cells(range(2), range(4)), (1, 1), _cells(range(2, 4), range(4)), tuple(range(3, 8))),
    # a 2x3 block, T in its inner corner, ten free cells (macroxue's larger table; small T only here:
    # a T of 64 would take 280 M states)
    Shape("B10", _cells(range(2), range(3)), (1, 2),
          ((0, 3), (1, 3)) + _cells(range(2, 4), range(4)), tuple(range(3, 6))),
)


@njit(cache=True)
def _index(cells, base):
    idx = 0
    for i in range(cells.shape[0] - 1, -1, -1):
        idx = idx * base + cells[i]
    return idx


@njit(cache=True, inline="always")
def _slide(after, segment, cap):
    """Slide the free cells after[segment[...]] (front first, -1 ends it) toward the front, 2048 rules;
    returns (changed, a merge went above cap)."""
    changed = False
    over = False
    write = 0  # the next cell to fill
    pending = 0  # a tile read but not yet written (it may merge with the next one)
    for k in range(4):
        c = segment[k]
        if c < 0:
            break
        v = after[c]
        if v == 0:
            continue
        if pending == 0:
            pending = v
        elif pending == v:
            merged = v + 1
            over = over or merged > cap
            cell = segment[write]
            changed = changed or after[cell] != merged
            after[cell] = merged
            write += 1
            pending = 0
        else:
            cell = segment[write]
            changed = changed or after[cell] != pending
            after[cell] = pending
            write += 1
            pending = v
    if pending:
        cell = segment[write]
        changed = changed or after[cell] != pending
        after[cell] = pending
        write += 1
    for k in range(write, 4):
        c = segment[k]
        if c < 0:
            break
        changed = changed or after[c] != 0
        after[c] = 0
    return changed, over


@njit(cache=True)
def _move_values(rank, prob, one, cells, after, values, segments, rigid, goals):
    """values[m] = the chance of success after frame move m from the free cells' ranks `cells`, with best
    play from then on (states with larger tile sums, solved already), in the units of `prob` where `one`
    is certain; -1 where m is not a legal move that keeps the block."""
    base = rank + 1
    n_cells = cells.shape[0]
    for move in range(4):
        values[move] = -1.0
        for i in range(n_cells):
            after[i] = cells[i]
        changed = False
        over = False
        keeps_block = True
        for s in range(segments.shape[1]):
            if segments[move, s, 0] < 0:
                break
            if rigid[move, s]:
                for k in range(4):
                    c = segments[move, s, k]
                    if c >= 0 and after[c] == 0:
                        keeps_block = False  # the block cell behind this run would slide into the gap
            seg_changed, seg_over = _slide(after, segments[move, s], rank)
            if seg_changed and rigid[move, s]:
                keeps_block = False  # ... or into the gap a merge opens
            changed = changed or seg_changed
            over = over or seg_over
        if not changed or not keeps_block:
            continue
        reached = False
        for g in goals:
            if after[g] == rank:
                reached = True
        if reached:
            values[move] = one  # (also when two targets merged elsewhere)
        elif over:
            values[move] = 0.0
        else:
            total = 0.0
            empties = 0
            for i in range(n_cells):
                if after[i] == 0:
                    empties += 1
                    after[i] = 1
                    total += 0.9 * prob[_index(after, base)]
                    after[i] = 2
                    total += 0.1 * prob[_index(after, base)]
                    after[i] = 0
            values[move] = total / empties  # a legal move leaves an empty free cell: the block is full


@njit(cache=True)
def _solve(rank, prob, first, last, order, n_cells, segments, rigid, goals):
    """Solve the states order[first:last] (their children are solved already)."""
    base = rank + 1
    cells = np.zeros(n_cells, np.int64)
    after = np.zeros(n_cells, np.int64)
    values = np.zeros(4, np.float64)
    for n in range(first, last):
        idx = order[n]
        x = idx
        for i in range(n_cells):
            cells[i] = x % base
            x //= base
        reached = False
        for g in goals:
            if cells[g] == rank:
                reached = True
        if reached:  # the goal already (the search merges it)
            prob[idx] = 1.0
            continue
        _move_values(rank, prob, 1.0, cells, after, values, segments, rigid, goals)
        top = 0.0
        for move in range(4):
            top = max(top, values[move])
        prob[idx] = top


@njit(cache=True)
def _order_by_falling_sum(rank, n_cells):
    """Every state index, in falling order of the free cells' tile sum (a counting sort), and where each
    sum's states start."""
    base = rank + 1
    size = base**n_cells
    weight = np.zeros(base, np.int64)
    for v in range(1, base):
        weight[v] = 1 << (v - 1)  # tile / 2
    top = n_cells * weight[rank]
    sums = np.zeros(size, np.int32)
    counts = np.zeros(top + 2, np.int64)
    for idx in range(size):
        x = idx
        s = 0
        for _ in range(n_cells):
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


def solve(shape: Shape, rank: int, progress: Callable[[int], None] | None = None) -> np.ndarray:
    """The success probability (float64) of every state of `shape` with target rank `rank`;
    progress(states just solved) now and then."""
    size = shape.size(rank)
    order, starts = _order_by_falling_sum(rank, len(shape.free))
    prob = np.zeros(size, np.float64)
    goals = np.array(shape.goals, np.int64)
    step = max(1, size // 40)
    edges = [0]
    for b in starts:  # whole sums per call: a call's children have larger sums, solved by earlier calls
        if b - edges[-1] >= step and b < size:
            edges.append(int(b))
    edges.append(size)
    for a, b in zip(edges, edges[1:]):
        _solve(rank, prob, a, b, order, len(shape.free), shape.segments, shape.rigid, goals)
        if progress is not None:
            progress(b - a)
    return prob


def _header(shapes: tuple[Shape, ...]) -> bytes:
    parts = [f"{s.name}:{s.block}:{s.target}:{s.free}:{s.ranks}" for s in shapes]
    return f"screenbot endgame tables v{TABLE_VERSION} " .encode() + ";".join(parts).encode()


def default_table_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("screenbot")) / f"endgame_v{TABLE_VERSION}.npz"


class TableError(Exception):
    """An endgame table file that cannot be used (corrupt, another version)."""


@dataclass(frozen=True)
class Suggestion:
    move: Move  # the tables' best move (on a tie the first in Move order)
    probability: float  # of building the target beside the block's with the block kept, best play
    target: int  # the tile being built
    shape: str
    chances: dict[Move, float]  # every move the tables allow, with its probability


@dataclass
class EndgameTables:
    """Solved tables: prob[(shape name, rank)] = uint16 success probability (/ PROB_SCALE) per state."""

    shapes: tuple[Shape, ...]
    prob: dict[tuple[str, int], np.ndarray]

    @staticmethod
    def states(shapes: tuple[Shape, ...] | None = None) -> int:
        return sum(s.size(r) for s in (shapes or SHAPES) for r in s.ranks)

    @classmethod
    def build(cls, shapes: tuple[Shape, ...] | None = None,
              progress: Callable[[int, int], None] | None = None) -> EndgameTables:
        """Solve every shape (default: SHAPES) and rank; progress(states done so far, states in all)."""
        shapes = shapes or SHAPES
        total = cls.states(shapes)
        done = 0

        def step(n: int) -> None:
            nonlocal done
            done += n
            if progress is not None:
                progress(done, total)

        prob = {}
        for shape in shapes:
            for r in shape.ranks:
                prob[(shape.name, r)] = np.round(solve(shape, r, step) * PROB_SCALE).astype(np.uint16)
        return cls(shapes, prob)

    def checksum(self) -> str:
        h = hashlib.sha256(_header(self.shapes))
        for key in sorted(self.prob):
            h.update(self.prob[key].tobytes())
        return h.hexdigest()

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays = {f"{name}_{r}": a for (name, r), a in self.prob.items()}
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            np.savez(f, header=np.frombuffer(_header(self.shapes), np.uint8),
                     checksum=np.frombuffer(self.checksum().encode(), np.uint8), **arrays)
        os.replace(tmp, path)  # whole or not at all, also with two processes building at once

    @classmethod
    def load(cls, path: Path, shapes: tuple[Shape, ...] | None = None) -> EndgameTables:
        shapes = shapes or SHAPES
        try:
            with np.load(path, allow_pickle=False) as data:
                if bytes(data["header"]) != _header(shapes):
                    raise TableError(f"{path} holds other endgame tables (another version)")
                prob = {(s.name, r): data[f"{s.name}_{r}"] for s in shapes for r in s.ranks}
                stored = bytes(data["checksum"]).decode()
        except TableError:
            raise
        except Exception as exc:  # a truncated or foreign file: zipfile, KeyError, ValueError ...
            raise TableError(f"{path} is not a readable endgame table file ({type(exc).__name__})") from None
        for s in shapes:
            for r in s.ranks:
                if prob[(s.name, r)].shape != (s.size(r),) or prob[(s.name, r)].dtype != np.uint16:
                    raise TableError(f"{path} has a table of the wrong size")
        tables = cls(shapes, prob)
        if tables.checksum() != stored:
            raise TableError(f"{path} is corrupt (checksum mismatch)")
        return tables

    @classmethod
    def load_or_build(cls, path: Path | None = None, shapes: tuple[Shape, ...] | None = None,
                      progress: Callable[[int, int], None] | None = None) -> tuple[EndgameTables, float | None]:
        """The tables from `path` (default: the user cache dir), built and saved there when missing or
        unusable; (tables, seconds the build took, or None when loaded)."""
        path = default_table_path() if path is None else path
        if path.exists():
            try:
                return cls.load(path, shapes), None
            except TableError:
                pass  # rebuilt below and saved over it
        start = time.perf_counter()
        tables = cls.build(shapes, progress)
        seconds = time.perf_counter() - start
        tables.save(path)
        return tables, seconds

    def suggest(self, grid: Grid, min_block_tile: int = MIN_BLOCK_TILE, min_target: int = 0) -> Suggestion | None:
        """Where `grid` (tile values), in one of the 8 symmetries, has a shape's block full of different
        tiles (its largest at least `min_block_tile`, a chain of big tiles) with T smallest in the target
        cell, the free cells' tiles at most T and the goal not there yet: every move's chance of
        success (moves the tables do not allow left out), from the shape and symmetry with the best
        chance; None elsewhere, or where no move keeps the block. Targets below `min_target` are left out."""
        found = None
        values = np.zeros(4, np.float64)
        for frame in FRAMES:
            g = [[grid[frame.at(i, j)[0]][frame.at(i, j)[1]] for j in range(4)] for i in range(4)]
            for shape in self.shapes:
                target = g[shape.target[0]][shape.target[1]]
                if target < min_target:
                    continue
                rank = _rank(target)
                table = self.prob.get((shape.name, rank))
                if table is None:
                    continue
                block = [g[i][j] for i, j in shape.block]
                if min(block) != target or len(set(block)) != len(block) or max(block) < min_block_tile:
                    continue  # (a chain of big tiles: no tile twice)
                free = [_rank(g[i][j]) for i, j in shape.free]
                if max(free) > rank or any(free[k] == rank for k in shape.goals):
                    continue
                cells = np.array(free, np.int64)
                _move_values(rank, table, PROB_SCALE, cells, np.zeros_like(cells), values,
                             shape.segments, shape.rigid, np.array(shape.goals, np.int64))
                chances = {frame.to_original(Move(m)): float(values[m]) / PROB_SCALE for m in range(4) if values[m] >= 0}
                if not chances:
                    continue
                best = max(chances.values())
                if found is None or best > found.probability:
                    move = min((m for m, p in chances.items() if p == best))
                    found = Suggestion(move, best, target, shape.name, chances)
        return found


def _rank(value: int) -> int:
    return value.bit_length() - 1 if value else 0


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
