"""Expectimax move choice on the compiled kernel: `ExpectimaxAgent(depth_cap).choose(board, budget_ms, depth)`.

The tree: the root tries each legal move with the exact plain-grid rules (so a merge of two
32768s, which the bitboard cannot represent, is still seen at the root), then the kernel
(`screenbot.agent.expectimax`) alternates chance nodes (every empty cell x {2: 0.9, 4: 0.1}) and
max nodes down to `depth` chance layers, pruning paths less likely than `cutoff` (1e-4), with a
transposition table shared by the root moves and by the depths of one decision.

Depth counts chance layers after the root move, as nneonneo/2048-ai counts them: depth 1 is
move, spawn, move, evaluate. `depth="adaptive"` is nneonneo's rule max(3, distinct tiles - 2),
capped at the agent's `depth_cap` (DEFAULT_DEPTH_CAP unless told otherwise; ENDGAME_CAP lifts the
cap once the board holds ENDGAME_TILE).

With `budget_ms` the search deepens 1, 2, 3, ... while time remains: it keeps the deepest depth
that finished, does not start a depth that the growth of the previous ones says cannot finish
in the time left, and abandons one that overruns (the kernel stops after a node allowance worked
out from the node rate measured so far). It also stops deepening once no path reaches the depth
limit any more (every path ended at the probability cutoff: deeper would search the same tree).

Each agent owns its table and the kernel's work arrays (~16 MB, allocated once) and serves one
search at a time, on `threads` threads (each depth from 2 on is shared out by the root moves'
spawns, see `_Search`). Another thread may stop the search under way with `cancel()`: that
`choose` raises SearchCancelled within a few thousand nodes, and searches stay cancelled until
`allow()`. A cancelled search stores no value it did not finish, so what it stored stays good.

Each decision starts a new generation of the table (an empty table, in effect): no value stored
for one decision is read by another.
"""

from __future__ import annotations

import itertools
import os
import queue
import threading
import time

import numpy as np

from screenbot.agent import expectimax as kernel
from screenbot.agent.base import Agent, Decision, SearchCancelled
from screenbot.agent.heuristic import ROW_SCORE, Weights, row_score_table
from screenbot.agent.limits import (DEFAULT_DEEPEN_GAP, DEFAULT_DEEPEN_MS, ENDGAME_CAP, MAX_FIXED_DEPTH, check_budget,
                                    check_deepen_gap, check_depth, check_depth_cap)
from screenbot.errors import UsageError
from screenbot.game.bitboard import distinct_ranks, to_bitboard
from screenbot.game.rules import FOUR_SHARE, Grid, Move, apply_move, legal_moves, max_tile, to_grid

DEFAULT_CUTOFF = 1e-4  # chance paths less likely than this are scored by the heuristic
# When neither budget nor depth is given (what `play` and `bench` use): nneonneo's adaptive depth,
# reached by iterative deepening that stops at DEFAULT_BUDGET_MS. The depth rule spends little time
# on easy boards and more on crowded ones; the budget only caps the rare very slow move.
DEFAULT_DEPTH = "adaptive"
DEFAULT_BUDGET_MS = 500.0
# The deepest the adaptive rule goes unless told otherwise (`depth_cap`; docs/strength.md: how it was chosen).
DEFAULT_DEPTH_CAP = 6
# depth_cap=ENDGAME_CAP: DEFAULT_DEPTH_CAP until a tile this big is on the board, and from then on
# (the endgame, where games are lost) no cap, as in nneonneo/2048-ai. Stronger, but too slow for
# live play's default on 2 cores (docs/strength.md: what it gave).
ENDGAME_TILE = 16384
MAX_DEPTH = 16  # iterative deepening stops here
HELPER_NICE = 5  # the helper search threads are this much nicer than the caller (Linux: per thread)
assert MAX_FIXED_DEPTH <= kernel.MAX_TREE_DEPTH


class _Search:
    """The transposition table, one work array per thread, the helper threads and the measured node
    rate, reused by every decision.

    With more than one thread, a depth of 2 or more is searched by all of them at once: the root
    moves' spawns (every empty cell x {2, 4} of every move's result) are handed out one at a time,
    2s first (they are the bigger searches), and every thread searches the spawns it takes into the
    one shared table (see `screenbot.agent.expectimax` on sharing it without locks). The root
    values are then put together in the order the single-thread kernel adds them."""

    def __init__(self, threads: int = 1, scores: np.ndarray = ROW_SCORE) -> None:
        self.scores = scores  # the heuristic's row table
        self.tt = np.zeros(2 * kernel.TT_ENTRIES, np.uint64)
        self.works = [np.zeros(kernel.WORK_SIZE, np.float64)]
        self.nodes_per_ms = 15000.0  # per thread; refined by every timed search
        self.four_share = FOUR_SHARE  # the chance that a new tile is a 4
        self.cancelled = False  # set by ExpectimaxAgent.cancel() from another thread
        self._jobs: list[queue.SimpleQueue] = []
        self._done: queue.SimpleQueue = queue.SimpleQueue()
        self.set_threads(threads)

    @property
    def threads(self) -> int:
        return len(self.works)

    def set_threads(self, threads: int) -> None:
        """Search with this many threads from now on (the caller's plus helpers)."""
        threads = max(1, int(threads))
        gen = self.works[0][kernel.W_GEN]
        while len(self.works) < threads:
            work = np.zeros(kernel.WORK_SIZE, np.float64)
            work[kernel.W_GEN] = gen
            jobs: queue.SimpleQueue = queue.SimpleQueue()
            helper = threading.Thread(target=self._helper, args=(jobs, work), name="screenbot-search", daemon=True)
            self.works.append(work)
            self._jobs.append(jobs)
            helper.start()
        while len(self.works) > threads:
            self.works.pop()
            self._jobs.pop().put(None)  # that helper ends

    def _helper(self, jobs: queue.SimpleQueue, work: np.ndarray) -> None:
        try:  # spare CPU only: on a busy machine (a browser drawing the game) the others go first
            tid = threading.get_native_id()
            os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + HELPER_NICE))
        except (AttributeError, OSError):  # not on this system (Windows), or not allowed
            pass
        while (job := jobs.get()) is not None:
            failure = None
            try:
                job(work)
            except BaseException as exc:  # handed to the caller, which raises it
                failure = exc
            self._done.put(failure)

    def stop_all(self) -> None:
        """Make every thread's kernel give up at its next node (a cancel, or one thread gave up)."""
        for work in self.works:
            work[kernel.W_LIMIT] = -1.0

    def new_generation(self) -> None:
        gen = int(self.works[0][kernel.W_GEN]) + 1
        if gen >= kernel.GENERATIONS:  # tags cannot tell older generations apart: wipe the table
            self.tt[:] = 0
            gen = 1
        for work in self.works:
            work[kernel.W_GEN] = gen

    def run(self, afters: np.ndarray, depth: int, cutoff: float, node_limit: float) -> tuple[np.ndarray | None, int, bool]:
        """Search every root move's result `depth` deep: (values, or None if abandoned; nodes; whether a
        deeper search would see more). `node_limit`: nodes each thread may search."""
        parallel = self.threads > 1 and depth >= 2
        works = self.works if parallel else self.works[:1]
        for work in works:
            work[kernel.W_NODES] = 0.0
            work[kernel.W_LIMIT] = node_limit
            work[kernel.W_ABORTED] = 0.0
            work[kernel.W_DEPTH_CUT] = 0.0
            work[kernel.W_CUTOFF] = cutoff
            work[kernel.W_FOUR] = self.four_share
        if self.cancelled:  # a cancel that came just before the limits above were set
            self.stop_all()
        started = time.perf_counter()
        if parallel:
            out = self._run_parallel(afters, depth, cutoff)
        else:
            out = np.zeros(afters.shape[0], np.float64)
            kernel.search_root(afters, depth, self.tt, works[0], out, self.scores)
        took_ms = (time.perf_counter() - started) * 1000.0
        nodes = int(sum(work[kernel.W_NODES] for work in works))
        if self.cancelled:
            raise SearchCancelled("the search was cancelled")
        if took_ms > 2.0 and nodes > 1000:
            self.nodes_per_ms = 0.7 * self.nodes_per_ms + 0.3 * (nodes / len(works) / took_ms)
        aborted = any(work[kernel.W_ABORTED] for work in works)
        return (None if aborted else out), nodes, any(work[kernel.W_DEPTH_CUT] for work in works)

    def _run_parallel(self, afters: np.ndarray, depth: int, cutoff: float) -> np.ndarray:
        spawns = []  # (root move, cell, tile rank) in the order the kernel adds them up
        empties = []
        for k, after in enumerate(afters.tolist()):
            cells = [i for i in range(16) if not (after >> (4 * i)) & 0xF]
            empties.append(len(cells))
            spawns += [(k, i, rank) for i in cells for rank in (1, 2)]
        order = sorted(range(len(spawns)), key=lambda j: spawns[j][2])  # the 2s first
        boards = [int(afters[k]) | (rank << (4 * i)) for k, i, rank in spawns]
        four = self.four_share
        probs = [(1.0 - four if rank == 1 else four) / empties[k] for k, i, rank in spawns]
        values = [0.0] * len(spawns)
        taken = itertools.count()
        tt = self.tt
        scores = self.scores

        def job(work: np.ndarray) -> None:
            for j in iter(taken.__next__, None):
                if j >= len(order) or work[kernel.W_LIMIT] < 0:
                    return
                j = order[j]
                values[j] = kernel.max_value(np.uint64(boards[j]), depth - 1, probs[j], tt, work, scores)
                if work[kernel.W_ABORTED]:
                    self.stop_all()
                    return

        for jobs in self._jobs:
            jobs.put(job)
        try:
            job(self.works[0])
        finally:
            failures = [self._done.get() for _ in self._jobs]
        for failure in failures:
            if failure is not None:
                raise failure
        self.works[0][kernel.W_NODES] += 2 * sum(empties)  # the root chance nodes themselves
        out = np.zeros(afters.shape[0], np.float64)
        for j in range(0, len(spawns), 2):  # per cell: 0.9 x best after a 2, then 0.1 x best after a 4
            k = spawns[j][0]
            out[k] += (1.0 - four) * values[j]
            out[k] += four * values[j + 1]
        for k, n in enumerate(empties):
            out[k] /= n
        return out


def default_threads() -> int:
    """Search threads when nothing says otherwise: $SCREENBOT_THREADS, else the CPU count up to 4."""
    env = os.environ.get("SCREENBOT_THREADS", "").strip()
    if env:
        try:
            return max(1, int(env))
        except ValueError:
            raise UsageError(f"SCREENBOT_THREADS must be a whole number, not {env!r}") from None
    return max(1, min(4, os.cpu_count() or 1))


RULE_MAX_DEPTH = 13  # the deepest the rule asks for: 15 distinct tiles (2 to 32768, what a cell holds) - 2


def adaptive_depth(grid: Grid) -> int:
    """nneonneo's depth rule: max(3, number of distinct tiles - 2)."""
    return max(3, int(distinct_ranks(np.uint64(to_bitboard(grid)))) - 2)


def cap_for(grid: Grid, depth_cap: int | str) -> int:
    """The adaptive rule's cap on this board: `depth_cap` (checked); ENDGAME_CAP: DEFAULT_DEPTH_CAP,
    or none (MAX_DEPTH) once ENDGAME_TILE is on the board."""
    if depth_cap != ENDGAME_CAP:
        return depth_cap
    return MAX_DEPTH if max_tile(grid) >= ENDGAME_TILE else DEFAULT_DEPTH_CAP


class ExpectimaxAgent(Agent):
    """The expectimax agent on the compiled kernel. It owns its table and threads: one search at a
    time (play's thinker thread), `cancel()` from any thread.

    `depth_cap` caps the depth the adaptive rule gives (default DEFAULT_DEPTH_CAP; ENDGAME_CAP:
    that until the first ENDGAME_TILE and none after, see `cap_for`); `threads` (default
    `default_threads()`) is how many threads one search uses; `weights` (default: nneonneo's) are
    the heuristic's, or a ready row table (another evaluation of the same shape, such as the corner
    evaluation's). `deepen_gap` (default DEFAULT_DEEPEN_GAP; 0: off): with a budget and the
    adaptive depth, a decision whose two best moves at the capped depth lie within this share of
    the best value deepens on, up to the uncapped rule's depth, within the budget and `deepen_ms`
    (default DEFAULT_DEEPEN_MS) from the decision's start (searched as deep as nneonneo's rule would, as far
    as time allows; the default 1 deepens every decision whose second-best move is not lost)."""

    def __init__(self, depth_cap: int | str | None = None, threads: int | None = None,
                 weights: Weights | np.ndarray | None = None, deepen_gap: float | None = None,
                 deepen_ms: float | None = None) -> None:
        depth_cap = check_depth_cap(depth_cap)
        deepen_gap = check_deepen_gap(deepen_gap)
        self.deepen_gap = DEFAULT_DEEPEN_GAP if deepen_gap is None else deepen_gap
        self.deepen_ms = DEFAULT_DEEPEN_MS if check_budget(deepen_ms, "deepen_ms") is None else float(deepen_ms)
        self.depth_cap = DEFAULT_DEPTH_CAP if depth_cap is None else depth_cap
        self._scores = _row_table(weights, ROW_SCORE)
        self._search = _Search(default_threads() if threads is None else threads, self._scores)

    @property
    def threads(self) -> int:
        return self._search.threads

    def set_threads(self, threads: int) -> None:
        """Search with this many threads from the next decision on (1: the calling thread only)."""
        self._search.set_threads(threads)

    def cancel(self) -> None:
        search = self._search
        search.cancelled = True  # first the flag, then the limits: run() checks them in the other order
        search.stop_all()

    def allow(self) -> None:
        self._search.cancelled = False

    def close(self) -> None:
        self._search.set_threads(1)

    def set_four_share(self, share: float) -> None:
        """Search with this chance of a 4 among new tiles from the next decision on (the classic 0.1
        by default; play passes on what it learned of the game on screen)."""
        if not 0.0 <= share <= 1.0:
            raise ValueError(f"the share of 4s must lie between 0 and 1, not {share}")
        self._search.four_share = float(share)

    def warm_up(self) -> float:
        """Compile the kernels, or load them from numba's disk cache; returns the seconds it took. Depth 1
        runs on the calling thread alone and the adaptive depth (3 here) is shared out among the threads:
        between them every kernel a decision runs."""
        start = time.perf_counter()
        for depth in (1, "adaptive"):
            self.choose(((2, 4, 8, 16), (0, 2, 0, 0), (0, 0, 0, 0), (0, 0, 0, 2)), depth=depth)
        return time.perf_counter() - start

    def choose(
        self,
        board: Grid,
        budget_ms: float | None = None,
        depth: int | str | None = None,
        *,
        cutoff: float = DEFAULT_CUTOFF,
        depth_cap: int | str | None = None,
        deepen_gap: float | str | None = None,
    ) -> Decision:
        """The best move for `board` (4x4 tile values) by expectimax.

        - `depth` alone (an int from 0, or "adaptive"): one search at that depth, however long it takes.
        - `budget_ms` alone: iterative deepening within about that many milliseconds.
        - both: iterative deepening within the budget, never deeper than `depth`.
        - neither: `depth=DEFAULT_DEPTH` within `budget_ms=DEFAULT_BUDGET_MS` (the defaults for play).
        `depth_cap` (default: the agent's) caps the depth the adaptive rule gives.
        `deepen_gap` (default: the agent's) deepens a close call past the cap (see the class).
        """
        start = time.perf_counter()
        grid = to_grid(board, (4, 4))  # the bitboard search plays 4x4 boards only
        check_depth(depth)
        check_budget(budget_ms)
        cap = check_depth_cap(depth_cap)
        cap = self.depth_cap if cap is None else cap
        gap = check_deepen_gap(deepen_gap)
        gap = self.deepen_gap if gap is None else gap
        if budget_ms is None and depth is None:
            budget_ms, depth = DEFAULT_BUDGET_MS, DEFAULT_DEPTH
        deepen_to = None
        if depth == "adaptive":
            full = adaptive_depth(grid)
            depth = min(full, cap_for(grid, cap))
            if gap > 0 and full > depth:
                deepen_to = full
        elif depth is not None:
            depth = int(depth)
        moves = legal_moves(grid)
        if not moves:
            return Decision(None, {}, 0, (time.perf_counter() - start) * 1000.0, 0)
        afters = np.array([to_bitboard(apply_move(grid, m)[0]) for m in moves], np.uint64)
        search = self._search
        if search.cancelled:
            raise SearchCancelled("the search was cancelled")
        search.new_generation()
        search.scores = self.row_table_for(grid)
        if budget_ms is None:
            values, nodes, _ = search.run(afters, depth, cutoff, np.inf)
            return _decision(moves, values, depth, start, nodes)
        return _deepen(search, moves, afters, depth, cutoff, budget_ms, start, deepen_to, gap, self.deepen_ms)

    def row_table_for(self, grid: Grid) -> np.ndarray:
        """The row table a search from this board evaluates with (one for every board here; a subclass
        may choose by board)."""
        return self._scores


def _row_table(weights: Weights | np.ndarray | None, default: np.ndarray) -> np.ndarray:
    """The kernel's row table for `weights`: `default` for None, built for a `Weights`, or an evaluation's
    ready table (float64, one value per row word)."""
    if weights is None:
        return default
    if isinstance(weights, Weights):
        return row_score_table(weights)
    table = np.asarray(weights)
    if table.dtype != np.float64 or table.shape != ROW_SCORE.shape:
        raise ValueError(f"a row table must be float64 of shape {ROW_SCORE.shape}, not {table.dtype} {table.shape}")
    return table


def close_call(values: np.ndarray, gap: float) -> bool:
    """Whether the two best values lie within `gap` of the best one (a share of it); False with one
    move or when the best is not above 0 (every move loses)."""
    if len(values) < 2:
        return False
    top, second = np.sort(values)[-2:][::-1]
    return bool(top > 0 and top - second < gap * top)


GROWTH_FROM_MS = 1.0  # a depth faster than this says nothing of the next one's time (a pause of the process
# between two sub-millisecond depths made one look 100 times slower, and a 500 ms budget stop at depth 2)


def _deepen(search: _Search, moves: list[Move], afters: np.ndarray, depth: int | None, cutoff: float,
            budget_ms: float, start: float, deepen_to: int | None = None, gap: float | None = None,
            deepen_ms: float | None = None) -> Decision:
    """Iterative deepening 1, 2, 3 ... up to `depth` (None: MAX_DEPTH) within the budget; then, when
    `deepen_to` is given and the values at `depth` are a close call (`gap`), on up to `deepen_to`
    within `deepen_ms` of the start if given (a depth that cannot finish by then is not started or is
    abandoned)."""
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
        if last_ms > GROWTH_FROM_MS:
            growth = max(1.5, took_ms / last_ms)
        best_values, best_depth, best_nodes, last_ms = values, d, nodes, took_ms
        if not deeper_sees_more:
            break
        if d == cap and deepen_to is not None and deepen_to > cap and close_call(values, gap):
            cap = deepen_to
            if deepen_ms is not None:
                deadline = min(deadline, start + deepen_ms / 1000.0)
        d += 1
    return _decision(moves, best_values, best_depth, start, best_nodes)


def _decision(moves: list[Move], values: np.ndarray, depth: int, start: float, nodes: int) -> Decision:
    by_move = {m: float(v) for m, v in zip(moves, values)}
    best = max(moves, key=lambda m: by_move[m])  # on a tie the first in Move order
    return Decision(best, by_move, depth, (time.perf_counter() - start) * 1000.0, nodes)


