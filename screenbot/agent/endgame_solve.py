"""Endgame tables, the solving half: block shapes and the exact solve of every state (numba).

A `Shape` names the block's cells and the target's cell (in a frame: one of the board's 8
symmetries); everything else follows from the geometry. With the block full and T its only
smallest tile, no move can merge across the block's border except T into T (the goal), so a move
keeps the block iff every run of free cells that some block cell would slide into is full and
stays as it is. A state's index is sum(rank(free cell i) * (r + 1) ** i) for target rank r; a merge
of two T's in the free cells (a rank above r) counts as failure unless the same move reached the
goal. Every move keeps the tile sum and every spawn adds 2 or 4, so states are solved in falling
order of tile sum, each from states already solved. `screenbot.agent.endgame` keeps, loads and
looks the tables up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from screenbot.game.rules import Move

MAX_SEGMENTS = 8
VECTORS = {Move.UP: (-1, 0), Move.DOWN: (1, 0), Move.LEFT: (0, -1), Move.RIGHT: (0, 1)}  # (row, column) steps
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
    goal_cells: np.ndarray = field(init=False, repr=False, compare=False)  # the same, for the kernels
    segments: np.ndarray = field(init=False, repr=False, compare=False)  # (4, MAX_SEGMENTS, 4) free-cell indices, front first; -1 pads
    rigid: np.ndarray = field(init=False, repr=False, compare=False)  # (4, MAX_SEGMENTS): a block cell slides into it unless it stays

    def __post_init__(self) -> None:
        assert len(set(self.block) | set(self.free)) == 16 and not set(self.block) & set(self.free)
        ti, tj = self.target
        goals = tuple(k for k, (i, j) in enumerate(self.free) if abs(i - ti) + abs(j - tj) == 1)
        segments = np.full((4, MAX_SEGMENTS, 4), -1, np.int64)
        rigid = np.zeros((4, MAX_SEGMENTS), np.bool_)
        for move in Move:
            di, dj = VECTORS[move]
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
        object.__setattr__(self, "goal_cells", np.array(goals, np.int64))
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
    step = max(1, size // 40)
    edges = [0]
    for b in starts:  # whole sums per call: a call's children have larger sums, solved by earlier calls
        if b - edges[-1] >= step and b < size:
            edges.append(int(b))
    edges.append(size)
    for a, b in zip(edges, edges[1:]):
        _solve(rank, prob, a, b, order, len(shape.free), shape.segments, shape.rigid, shape.goal_cells)
        if progress is not None:
            progress(b - a)
    return prob



def move_chances(shape: Shape, rank: int, prob: np.ndarray, one: float, ranks: list[int]) -> np.ndarray:
    """Each frame move's chance of success from the free cells' `ranks` (-1: not a move that keeps the
    block), from the solved table `prob` whose certainty is `one`."""
    cells = np.array(ranks, np.int64)
    values = np.zeros(4, np.float64)
    _move_values(rank, prob, one, cells, np.zeros_like(cells), values, shape.segments, shape.rigid, shape.goal_cells)
    return values

