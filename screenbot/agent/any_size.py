"""Expectimax for boards of any size (3 to 8 cells each way, rectangles too): `AnySizeAgent().choose(grid)`.

The search is the 4x4 search's (`screenbot.agent.search`) on a kernel that takes any shape
(`screenbot.agent.any_size_kernel`): the root tries each legal move, then chance nodes (every empty
cell x {2, 4}) and move nodes alternate down to `depth` chance layers, paths less likely than
`cutoff` end at the evaluation, and a transposition table serves the root moves and the depths of
one decision. With a time budget the search deepens 1, 2, 3 ... while time remains (a depth that
cannot finish is abandoned, see `_deepen`) and stops once no path reaches the depth limit.

The evaluation (`screenbot.agent.any_size_eval`) is chosen by name; an evaluation that drives tiles
to a corner sees the board in each of its orientations (turns and mirrors; a rectangle's transpose
is a board of the other shape, which the kernel plays as well) and searches the one it scores
highest, so it keeps building in the corner where the big tiles already are.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from screenbot.agent import any_size_kernel as kernel
from screenbot.agent import any_size_lines as lines
from screenbot.agent.any_size_eval import Evaluation, evaluation_named
from screenbot.agent.base import Agent, Decision, SearchCancelled
from screenbot.game.rules import FOUR_SHARE, Grid, Move, to_grid

DEFAULT_BUDGET_MS = 40.0  # live play: the median decision stays under 50 ms
DEFAULT_CUTOFF = 1e-4  # as the 4x4 search
MAX_DEPTH = 20
GROWTH_FROM_MS = 1.0  # a depth faster than this says nothing of the next one's time
LEVELS = MAX_DEPTH + 2
# The board's symmetries: (transpose first?, mirror left-right?, mirror top-bottom?) and each oriented
# move's original move.
_NO_NETWORK = (np.zeros((1, 1), np.float32), np.zeros((1, 2), np.int64))  # what the kernel gets without a network
_VECTORS = {Move.UP: (-1, 0), Move.DOWN: (1, 0), Move.LEFT: (0, -1), Move.RIGHT: (0, 1)}
SYMMETRIES = [(t, h, v) for t in (False, True) for h in (False, True) for v in (False, True)]


def orient(grid: Grid, sym: tuple[bool, bool, bool]) -> Grid:
    """The grid transposed (if sym[0]), then mirrored left-right (sym[1]) and top-bottom (sym[2])."""
    g = tuple(zip(*grid)) if sym[0] else grid
    if sym[1]:
        g = tuple(row[::-1] for row in g)
    if sym[2]:
        g = g[::-1]
    return tuple(tuple(row) for row in g)


def original_move(move: Move, sym: tuple[bool, bool, bool]) -> Move:
    """The move on the original board that `move` on the oriented board is."""
    dr, dc = _VECTORS[move]
    if sym[2]:
        dr = -dr
    if sym[1]:
        dc = -dc
    if sym[0]:
        dr, dc = dc, dr
    return next(m for m, v in _VECTORS.items() if v == (dr, dc))


def load(st: np.ndarray, grid: Grid) -> tuple[int, int]:
    """Write the grid into stack row 0 (its row and column words); returns its shape."""
    rows, cols = len(grid), len(grid[0])
    st[0, :] = 0
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            rank = v.bit_length() - 1 if v else 0
            st[0, r] |= np.uint64(rank << (8 * c))
            st[0, lines.COLS_AT + c] |= np.uint64(rank << (8 * r))
    return rows, cols


class AnySizeAgent(Agent):
    """The expectimax agent for a board of any size up to 8x8, on one thread. The board's shape comes
    with each board (`choose` takes a grid of any R x C).

    `evaluation`: a name from `screenbot.agent.any_size_eval.EVALUATIONS` or an `Evaluation`
    (default: `default_evaluation(rows, cols)` for each board's shape); `budget_ms`: the time a
    decision may take when `choose` is not told (DEFAULT_BUDGET_MS); `depth_cap`: the deepest
    search (MAX_DEPTH); `cutoff`: the path probability below which the evaluation ends a path; `clock`:
    what the budget is measured on (seconds; wall time by default; `time.thread_time`, the thread's CPU
    time, makes a benchmark's games as strong on a busy machine as on an idle one); `network_path`: the
    trained network the `ntuple` evaluation plays (`screenbot.agent.any_size_ntuple`)."""

    def __init__(self, evaluation: str | Evaluation | None = None, budget_ms: float = DEFAULT_BUDGET_MS,
                 depth_cap: int = MAX_DEPTH, cutoff: float = DEFAULT_CUTOFF,
                 clock: Callable[[], float] = time.perf_counter, network_path: Path | None = None) -> None:
        if not 1 <= depth_cap <= MAX_DEPTH:
            raise ValueError(f"depth_cap must be from 1 to {MAX_DEPTH}, got {depth_cap}")
        if not budget_ms > 0:
            raise ValueError(f"budget_ms must be above 0, got {budget_ms}")
        self.evaluation = None if evaluation is None else evaluation_named(evaluation)
        self.budget_ms = float(budget_ms)
        self.depth_cap = int(depth_cap)
        self.cutoff = float(cutoff)
        self.clock = clock
        self.network_path = network_path
        self._network = None
        self.st = np.zeros((LEVELS, lines.STACK_WIDTH), np.uint64)
        self.pre = np.zeros((LEVELS, 4, kernel.PRE_WIDTH), np.uint64)
        self.pref = np.zeros((LEVELS, 4, kernel.PREF_WIDTH), np.float64)
        self.keys = np.zeros(kernel.TT_ENTRIES, np.uint64)
        self.info = np.zeros(kernel.TT_ENTRIES, np.uint64)
        self.vals = np.zeros(kernel.TT_ENTRIES, np.float64)
        self.work = np.zeros(kernel.WORK_SIZE, np.float64)
        self.work[kernel.W_FOUR] = FOUR_SHARE
        self.nodes_per_ms = 2000.0  # refined by every timed search
        self.cancelled = False
        self._arrays: dict[tuple[Evaluation, int, int], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._sym = SYMMETRIES[0]

    # --- the Agent interface ---
    def cancel(self) -> None:
        self.cancelled = True  # first the flag, then the limit: _run checks them in the other order
        self.work[kernel.W_LIMIT] = -1.0

    def allow(self) -> None:
        self.cancelled = False

    def set_four_share(self, share: float) -> None:
        if not 0.0 <= share <= 1.0:
            raise ValueError(f"the share of 4s must lie between 0 and 1, not {share}")
        self.work[kernel.W_FOUR] = float(share)

    def warm_up(self) -> float:
        """Compile the kernel (or load it from numba's cache); returns the seconds it took."""
        start = time.perf_counter()
        self.choose(((2, 4, 0), (0, 2, 0), (0, 0, 8), (0, 0, 0)), depth=2)  # 4x3: what every evaluation plays
        return time.perf_counter() - start

    def evaluation_for(self, rows: int, cols: int) -> Evaluation:
        return self.evaluation if self.evaluation is not None else default_evaluation(rows, cols, self.network_path)

    def choose(self, board, budget_ms: float | None = None, depth: int | None = None) -> Decision:
        """The best move for `board` (rows of tile values, any size from 3x3 to 8x8: rules.to_grid checks it).

        - `depth` alone: one search that deep (chance layers after the root move), however long it takes.
        - `budget_ms` alone, or neither (the agent's budget): iterative deepening within about that long.
        - both: iterative deepening within the budget, never deeper than `depth`.
        """
        start = time.perf_counter()
        clock_start = self.clock()
        grid = to_grid(board)
        if self.cancelled:
            raise SearchCancelled("the search was cancelled")
        evaluation = self.evaluation_for(len(grid), len(grid[0]))
        if evaluation.kind == lines.NTUPLE:  # the network's own shape (3x4 is played turned to 4x3)
            sym = self._network_orientation(grid)
        else:
            sym = self._orientation(grid, evaluation) if evaluation.oriented else SYMMETRIES[0]
        oriented = orient(grid, sym)
        rows, cols = load(self.st, oriented)
        arrays = self._prepare(evaluation, rows, cols)
        self.work[kernel.W_GAIN] = evaluation.gain
        self.work[kernel.W_CUTOFF] = self.cutoff
        values, legal = self._root(arrays, rows, cols, 0, np.inf)
        if not legal.any():
            return Decision(None, {}, 0, (time.perf_counter() - start) * 1000.0, 0)
        if depth == "adaptive":  # the 4x4 search's word for its own depth rule: here, the agent's deepening
            depth = None
        if depth is not None and not 0 <= int(depth) <= MAX_DEPTH:
            raise ValueError(f"depth must be from 0 to {MAX_DEPTH}, got {depth}")
        if depth is not None and budget_ms is None:
            d = int(depth)
            values, nodes = self._run(arrays, rows, cols, d, np.inf)
        else:
            cap = self.depth_cap if depth is None else int(depth)
            values, d, nodes = self._deepen(arrays, rows, cols, cap, self.budget_ms if budget_ms is None else budget_ms,
                                            clock_start, values)
        by_move = {original_move(Move(m), sym): float(values[m]) for m in range(4) if legal[m]}
        best = max(sorted(by_move), key=lambda m: by_move[m])  # on a tie the first in Move order
        return Decision(best, by_move, d, (time.perf_counter() - start) * 1000.0, nodes)

    # --- the search ---
    def _prepare(self, evaluation: Evaluation, rows: int, cols: int) -> tuple:
        """The kernel's (kind, tab, coef, wmat) for the board in stack row 0."""
        key = (evaluation, rows, cols)
        if key not in self._arrays:
            self._arrays[key] = evaluation.arrays(rows, cols)
        tab, coef, wmat = self._arrays[key]
        net, looks = _NO_NETWORK
        if evaluation.kind == lines.NTUPLE:
            network, net = self.network()
            looks = network.looks()
            coef[lines.C_NT_BASE] = network.base
        if evaluation.loss:  # losing costs `loss` times this board's own score
            coef[lines.C_BOARD] = 0.0
            own = lines.evaluate(self.st, 0, rows, cols, evaluation.kind, tab, coef, wmat, net, looks)
            coef[lines.C_BOARD] = evaluation.loss * own
        return evaluation.kind, tab, coef, wmat, net, looks

    def network(self):
        """The n-tuple network (any_size_ntuple.Network, its weights), loaded from `network_path` on first use."""
        if self._network is None:
            from screenbot.agent import any_size_ntuple

            path = self.network_path or any_size_ntuple.default_path()
            if not Path(path).exists():
                raise FileNotFoundError(f"no n-tuple network at {path}: train one with "
                                        f"python -m screenbot.agent.any_size_ntuple --out {path}")
            self._network = any_size_ntuple.load(Path(path))[:2]
        return self._network

    def _network_orientation(self, grid) -> tuple[bool, bool, bool]:
        network = self.network()[0]
        shape = (len(grid), len(grid[0]))
        if shape == (network.rows, network.cols):
            return SYMMETRIES[0]
        if shape == (network.cols, network.rows):
            return (True, False, False)
        raise ValueError(f"the network plays {network.rows}x{network.cols} boards (and turned, "
                         f"{network.cols}x{network.rows}), not {shape[0]}x{shape[1]}")

    def _orientation(self, grid, evaluation: Evaluation) -> tuple[bool, bool, bool]:
        """The symmetry whose oriented board the evaluation scores highest (the one searched last time on a tie)."""
        best, best_value = self._sym, None
        for sym in [self._sym] + [s for s in SYMMETRIES if s != self._sym]:
            oriented = orient(grid, sym)
            rows, cols = load(self.st, oriented)
            value = lines.evaluate(self.st, 0, rows, cols, *self._prepare(evaluation.with_(loss=0.0), rows, cols))
            if best_value is None or value > best_value:
                best, best_value = sym, value
        self._sym = best
        return best

    def _root(self, arrays, rows: int, cols: int, depth: int, limit: float) -> tuple[np.ndarray | None, np.ndarray]:
        """Each move's value `depth` deep (None if abandoned) and which moves are legal."""
        work = self.work
        work[kernel.W_NODES] = 0.0
        work[kernel.W_LIMIT] = limit
        work[kernel.W_ABORTED] = 0.0
        work[kernel.W_DEPTH_CUT] = 0.0
        if self.cancelled:  # a cancel that came just before the limit above was set
            work[kernel.W_LIMIT] = -1.0
        out = np.zeros(4, np.float64)
        kernel.search_root(self.st, self.pre, self.pref, depth, rows, cols, self.keys, self.info, self.vals, work, *arrays, out)
        if self.cancelled:
            raise SearchCancelled("the search was cancelled")
        return (None if work[kernel.W_ABORTED] else out), out >= 0.0

    def _run(self, arrays, rows: int, cols: int, depth: int, limit: float):
        """One search `depth` deep in a new generation of the table: (values or None, nodes)."""
        gen = int(self.work[kernel.W_GEN]) + 1
        if gen >= 1 << 40:
            self.info[:] = 0
            gen = 1
        self.work[kernel.W_GEN] = gen
        started = self.clock()
        values, _ = self._root(arrays, rows, cols, depth, limit)
        took_ms = (self.clock() - started) * 1000.0
        nodes = int(self.work[kernel.W_NODES])
        if took_ms > 2.0 and nodes > 1000:
            self.nodes_per_ms = 0.7 * self.nodes_per_ms + 0.3 * (nodes / took_ms)
        return values, nodes

    def _deepen(self, arrays, rows: int, cols: int, cap: int, budget_ms: float, start: float, static):
        """Iterative deepening 1, 2, ... up to `cap` within the budget from `start` (on the agent's clock):
        (values, depth, nodes) of the deepest depth that finished (depth 0's `static` values when none did)."""
        deadline = start + budget_ms / 1000.0
        best, best_depth, best_nodes = static, 0, 0
        last_ms, growth = 0.0, 0.0
        for d in range(1, cap + 1):
            now = self.clock()
            left_ms = (deadline - now) * 1000.0
            if d == 1:
                limit = np.inf  # depth 1 always finishes, so there is always a searched answer
            elif left_ms <= 0 or (growth and last_ms * growth > left_ms):
                break
            else:
                limit = max(1.0, left_ms * self.nodes_per_ms)
            values, nodes = self._run(arrays, rows, cols, d, limit)
            if values is None:
                break
            took_ms = (self.clock() - now) * 1000.0
            if last_ms > GROWTH_FROM_MS:
                growth = max(1.5, took_ms / last_ms)
            best, best_depth, best_nodes, last_ms = values, d, nodes, took_ms
            if not self.work[kernel.W_DEPTH_CUT]:
                break  # no path reached the depth limit: deeper searches the same tree
        return best, best_depth, best_nodes


def default_evaluation(rows: int, cols: int, network_path: Path | None = None) -> Evaluation:
    """The evaluation a board of this shape is played with when none is named: on 4x3 and 3x4 the trained
    network when there is one (at `network_path`, by default the user cache dir's:
    `screenbot.agent.any_size_ntuple.default_path`), else (and on every other size) the corner lines
    (docs/sizes.md: how they were chosen)."""
    if {rows, cols} == {3, 4}:
        from screenbot.agent.any_size_ntuple import default_path

        if (network_path or default_path()).exists():
            return evaluation_named("ntuple")
    return evaluation_named("corner")
