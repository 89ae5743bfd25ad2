"""Expectimax move choice: `choose_move(grid, budget_ms=None, depth=None) -> Decision`, on the compiled kernel.

The tree: the root tries each legal move with the exact plain-grid rules (so a merge of two
32768s, which the bitboard cannot represent, is still seen at the root), then the kernel
(`screenbot.agent.expectimax`) alternates chance nodes (every empty cell x {2: 0.9, 4: 0.1}) and
max nodes down to `depth` chance layers, pruning paths less likely than `cutoff` (1e-4), with a
transposition table shared by the root moves and by the depths of one decision.

Depth counts chance layers after the root move, as nneonneo/2048-ai counts them: depth 1 is
move, spawn, move, evaluate. `depth="adaptive"` is nneonneo's rule max(3, distinct tiles - 2).

With `budget_ms` the search deepens 1, 2, 3, ... while time remains: it keeps the deepest depth
that finished, does not start a depth that the growth of the previous ones says cannot finish
in the time left, and abandons one that overruns (the kernel stops after a node allowance worked
out from the node rate measured so far). It also stops deepening once no path reaches the depth
limit any more (every path ended at the probability cutoff: deeper would search the same tree).

The table and the kernel's work arrays are allocated once per process (~16 MB): one search at a
time per process (use processes, not threads, to search in parallel). Another thread may stop the
search under way with `cancel_search()` (play does, when the board it was thinking ahead about
did not come): that choose_move raises SearchCancelled within a few thousand nodes, and searches
stay cancelled until `allow_search()`. A cancelled search leaves nothing that later decisions
use: each decision starts a new generation of the table.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from screenbot.agent import expectimax as kernel
from screenbot.game.bitboard import distinct_ranks, to_bitboard
from screenbot.game.rules import Grid, Move, apply_move, legal_moves, to_grid

DEFAULT_CUTOFF = 1e-4  # chance paths less likely than this are scored by the heuristic
# When neither budget nor depth is given (what `play` and `bench` use): nneonneo's adaptive depth,
# reached by iterative deepening that stops at DEFAULT_BUDGET_MS. The depth rule spends little time
# on easy boards and more on crowded ones; the budget only caps the rare very slow move.
DEFAULT_DEPTH = "adaptive"
DEFAULT_BUDGET_MS = 500.0
MAX_DEPTH = 16  # iterative deepening stops here
MAX_FIXED_DEPTH = kernel.MAX_TREE_DEPTH


class SearchCancelled(Exception):
    """The search was stopped by `cancel_search()` from another thread; it has no answer."""


@dataclass(frozen=True)
class Decision:
    """The chosen move (None when no move is legal) and what the search saw."""

    move: Move | None
    values: dict[Move, float] = field(default_factory=dict)  # expected heuristic value of each legal move
    depth: int = 0  # the depth the values come from (chance layers after the root move)
    ms: float = 0.0  # wall time of the whole decision
    nodes: int = 0  # move nodes searched at that depth


class _Search:
    """The transposition table, the kernel's work array and the measured node rate, reused by every decision."""

    def __init__(self) -> None:
        self.tt = np.zeros(2 * kernel.TT_ENTRIES, np.uint64)
        self.work = np.zeros(kernel.WORK_SIZE, np.float64)
        self.nodes_per_ms = 15000.0  # refined by every timed search
        self.cancelled = False  # set by cancel_search() from another thread

    def new_generation(self) -> None:
        gen = int(self.work[kernel.W_GEN]) + 1
        if gen >= kernel.GENERATIONS:  # tags cannot tell older generations apart: wipe the table
            self.tt[:] = 0
            gen = 1
        self.work[kernel.W_GEN] = gen

    def run(self, afters: np.ndarray, depth: int, cutoff: float, node_limit: float) -> tuple[np.ndarray | None, int, bool]:
        """Search every root move's result `depth` deep: (values, or None if abandoned; nodes; whether a
        deeper search would see more)."""
        work = self.work
        work[kernel.W_NODES] = 0.0
        work[kernel.W_LIMIT] = node_limit
        if self.cancelled:  # a cancel that came just before the limit above was set
            work[kernel.W_LIMIT] = -1.0
        work[kernel.W_ABORTED] = 0.0
        work[kernel.W_DEPTH_CUT] = 0.0
        work[kernel.W_CUTOFF] = cutoff
        out = np.zeros(afters.shape[0], np.float64)
        started = time.perf_counter()
        kernel.search_root(afters, depth, self.tt, work, out)
        took_ms = (time.perf_counter() - started) * 1000.0
        nodes = int(work[kernel.W_NODES])
        if self.cancelled:
            raise SearchCancelled("the search was cancelled")
        if took_ms > 2.0 and nodes > 1000:
            self.nodes_per_ms = 0.7 * self.nodes_per_ms + 0.3 * (nodes / took_ms)
        values = None if work[kernel.W_ABORTED] else out
        return values, nodes, bool(work[kernel.W_DEPTH_CUT])


_search: _Search | None = None


def _get_search() -> _Search:
    global _search
    if _search is None:
        _search = _Search()
    return _search


def cancel_search() -> None:
    """Stop the search under way (called from another thread): its choose_move raises
    SearchCancelled. Every search raises it at once until allow_search() is called."""
    search = _get_search()
    search.cancelled = True  # first the flag, then the limit: run() checks them in the other order
    search.work[kernel.W_LIMIT] = -1.0


def allow_search() -> None:
    """Searches run again after cancel_search()."""
    _get_search().cancelled = False


def adaptive_depth(grid: Grid) -> int:
    """nneonneo's depth rule: max(3, number of distinct tiles - 2)."""
    return max(3, int(distinct_ranks(np.uint64(to_bitboard(grid)))) - 2)


def choose_move(
    grid: Grid,
    budget_ms: float | None = None,
    depth: int | str | None = None,
    *,
    cutoff: float = DEFAULT_CUTOFF,
) -> Decision:
    """The best move for `grid` (4x4 tile values) by expectimax.

    - `depth` alone (an int from 0, or "adaptive"): one search at that depth, however long it takes.
    - `budget_ms` alone: iterative deepening within about that many milliseconds.
    - both: iterative deepening within the budget, never deeper than `depth`.
    - neither: `depth=DEFAULT_DEPTH` within `budget_ms=DEFAULT_BUDGET_MS` (the defaults for play).
    """
    start = time.perf_counter()
    grid = to_grid(grid)
    if budget_ms is None and depth is None:
        budget_ms, depth = DEFAULT_BUDGET_MS, DEFAULT_DEPTH
    if depth == "adaptive":
        depth = adaptive_depth(grid)
    elif depth is not None:
        if isinstance(depth, str) or not 0 <= int(depth) <= MAX_FIXED_DEPTH:
            raise ValueError(f"depth must be an integer from 0 to {MAX_FIXED_DEPTH} or 'adaptive', not {depth!r}")
        depth = int(depth)
    if budget_ms is not None and not budget_ms > 0:
        raise ValueError(f"budget_ms must be positive, not {budget_ms!r}")
    moves = legal_moves(grid)
    if not moves:
        return Decision(None, {}, 0, (time.perf_counter() - start) * 1000.0, 0)
    afters = np.array([to_bitboard(apply_move(grid, m)[0]) for m in moves], np.uint64)
    search = _get_search()
    if search.cancelled:
        raise SearchCancelled("the search was cancelled")
    search.new_generation()

    if budget_ms is None:
        values, nodes, _ = search.run(afters, depth, cutoff, np.inf)
        return _decision(moves, values, depth, start, nodes)

    cap = MAX_DEPTH if depth is None else depth
    deadline = start + budget_ms / 1000.0
    best_values, best_depth, best_nodes = None, 0, 0
    last_ms = 0.0
    growth = 0.0  # how much longer each depth took than the one before
    d = min(1, cap)
    while d <= cap:
        now = time.perf_counter()
        left_ms = (deadline - now) * 1000.0
        if best_values is None:
            limit = np.inf  # the first depth always finishes, so there is always an answer
        elif left_ms <= 0 or (growth and last_ms * growth > left_ms):
            break
        else:
            limit = max(1.0, left_ms * search.nodes_per_ms)
        values, nodes, deeper_sees_more = search.run(afters, d, cutoff, limit)
        if values is None:
            break
        took_ms = (time.perf_counter() - now) * 1000.0
        if last_ms > 0.05:
            growth = max(1.5, took_ms / last_ms)
        best_values, best_depth, best_nodes, last_ms = values, d, nodes, took_ms
        if not deeper_sees_more:
            break
        d += 1
    return _decision(moves, best_values, best_depth, start, best_nodes)


def _decision(moves: list[Move], values: np.ndarray, depth: int, start: float, nodes: int) -> Decision:
    by_move = {m: float(v) for m, v in zip(moves, values)}
    best = max(moves, key=lambda m: by_move[m])  # on a tie the first in Move order
    return Decision(best, by_move, depth, (time.perf_counter() - start) * 1000.0, nodes)


def warm_up() -> float:
    """Compile the kernels, or load them from numba's disk cache; returns the seconds it took."""
    start = time.perf_counter()
    choose_move(((2, 4, 8, 16), (0, 2, 0, 0), (0, 0, 0, 0), (0, 0, 0, 2)), depth=2)
    return time.perf_counter() - start
