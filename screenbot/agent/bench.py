"""Simulated games for measuring the agent: seeded games on the rules engine, in one process or several
(their summary: bench_summary.py)."""

from __future__ import annotations

import multiprocessing
import os
import queue as queue_module
import random
import signal
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Sequence

from screenbot.agent.endgame import EndgameTables, TablesAgent
from screenbot.agent.limits import ENDGAME_CAP
from screenbot.agent.search import (DEFAULT_BUDGET_MS, DEFAULT_DEEPEN_GAP, DEFAULT_DEEPEN_MS, DEFAULT_DEPTH,
                                   DEFAULT_DEPTH_CAP, ENDGAME_TILE, RULE_MAX_DEPTH, ExpectimaxAgent,
                                   default_threads)
from screenbot.game.rules import EMPTY, Game, Grid, apply_move, empty_cells, max_tile, place

# With shared_table: before each move's board, up to this many of its siblings are searched
# (a random number of them, 0 included), into the same table.
SHARED_SIBLINGS = 2
PROGRESS_EVERY = 25  # moves between progress reports from a game


@dataclass(frozen=True)
class BenchSettings:
    """How the agent plays: a time budget or a depth (neither: the default budget), and when a game stops."""

    budget_ms: float | None = None
    depth: int | str | None = None
    stop_at: int | None = None  # stop a game once this tile is on the board
    depth_cap: int | str | None = None  # cap on the adaptive depth (None: the agent's default; or ENDGAME_CAP)
    # as play searches: each board in a table that some of its siblings (the new tile of the move
    # before in another empty cell) filled first, as when play's guesses came before it
    shared_table: bool = False
    endgame_tables: bool = False  # the endgame tables' move where they know the board
    deepen_gap: float | None = None  # decisions deepen past the cap (None: the agent's default, every decision; 0: off)
    corner: str | None = None  # "table": the corner evaluation and the block table (agent/corner.py); "eval": the evaluation alone
    corner_depth: int | None = None  # with corner: macroxue's pruned search at this depth (None: the adaptive depth)
    corner_loss: str = "fixed"  # with corner: where a lost board lies below the evaluation's 0 (corner.lost_value)

    def describe(self) -> str:
        cap = {None: str(DEFAULT_DEPTH_CAP), ENDGAME_CAP: f"{DEFAULT_DEPTH_CAP}, uncapped from {ENDGAME_TILE}"}.get(
            self.depth_cap, str(self.depth_cap))
        if self.corner and self.corner_depth is not None and self.depth is None:
            budget = DEFAULT_BUDGET_MS if self.budget_ms is None else self.budget_ms
            how = (f"macroxue's search (depth {self.corner_depth}, paths below 2**-{self.corner_depth + 4} cut, "
                   f"formation breaks not searched further; at most {budget:g} ms)")
        elif self.depth is None and self.budget_ms is None:
            name = "the defaults" if self.depth_cap is None else f"depth cap {self.depth_cap}"
            how = f"{name} ({DEFAULT_DEPTH} depth up to {cap}, at most {DEFAULT_BUDGET_MS:g} ms)"
        elif self.budget_ms is None:
            how = f"depth {self.depth}" + (f" up to {cap}" if self.depth == "adaptive" else "")
        else:
            how = f"budget {self.budget_ms:g} ms"
        shared = f", a table shared with up to {SHARED_SIBLINGS} sibling boards searched first" if self.shared_table else ""
        tables = ", endgame tables" if self.endgame_tables else ""
        tables += {None: "", "eval": ", the corner evaluation", "table": ", the corner evaluation and block table"}[
            self.corner]
        if self.corner and self.corner_loss == "tile":
            tables += ", a loss worth -max(2**17, 2 s(largest tile))"
        # only the adaptive depth within a budget (the defaults are one) can deepen past its cap, and
        # only a cap below the rule's deepest can bind
        deepen, gap = "", self.resolved_deepen_gap()
        binds = not isinstance(self.depth_cap, int) or self.depth_cap < RULE_MAX_DEPTH
        if ((self.budget_ms is None) == (self.depth is None) and self.depth in (None, "adaptive") and binds
                and not (self.corner and self.corner_depth is not None)):
            if gap >= 1:
                deepen = f", every decision deepened toward the uncapped rule (up to {DEFAULT_DEEPEN_MS:g} ms)"
            elif gap:
                deepen = f", close calls (within {gap:g}, up to {DEFAULT_DEEPEN_MS:g} ms) deepened"
            else:
                deepen = ", close calls not deepened"
        return how + deepen + shared + tables + (f", stop at {self.stop_at}" if self.stop_at else "")

    def resolved_deepen_gap(self) -> float:
        """The gap the agent plays with (the agent's default when not given)."""
        return DEFAULT_DEEPEN_GAP if self.deepen_gap is None else float(self.deepen_gap)

    @classmethod
    def from_summary(cls, settings: dict) -> "BenchSettings":
        """The settings as `summarize` wrote them. Older results lack the later fields; those without
        `deepen_gap` were played before close calls were deepened, so they read as 0 (off)."""
        return cls(settings["budget_ms"], settings["depth"], settings["stop_at"], settings.get("depth_cap"),
                   settings.get("shared_table", False), settings.get("endgame_tables", False),
                   settings.get("deepen_gap", 0.0), settings.get("corner"), settings.get("corner_depth"),
                   settings.get("corner_loss", "fixed"))


@dataclass(frozen=True)
class GameResult:
    seed: int
    score: int
    moves: int
    max_tile: int
    seconds: float  # wall time of the whole game
    over: bool  # ended with no legal move (rather than at stop_at)
    final: Grid = field(default=EMPTY, repr=False)  # the last board
    move_ms: list[float] = field(default_factory=list, repr=False)  # the agent's time for each move
    depths: dict[int, int] = field(default_factory=dict, repr=False)  # the depth of each move's search: depth -> moves


@dataclass(frozen=True)
class Progress:
    """A game's state, reported while it runs and when it ends."""

    index: int
    moves: int
    score: int
    max_tile: int
    done: bool = False


def play_game(
    seed: int,
    settings: BenchSettings,
    index: int = 0,
    report: Callable[[Progress], None] | None = None,
    agent: ExpectimaxAgent | None = None,
) -> GameResult:
    """One seeded game of the agent on the rules engine, until no move is legal or stop_at is reached."""
    agent = agent or ExpectimaxAgent()
    game = Game(seed=seed)
    game.reset()
    move_ms: list[float] = []
    depths: Counter = Counter()
    started = time.perf_counter()
    over = False
    siblings_rng = random.Random(seed)
    after = None  # the board after the last move, before its new tile
    while True:
        if settings.stop_at and max_tile(game.grid) >= settings.stop_at:
            break
        how = dict(budget_ms=settings.budget_ms, depth=settings.depth, depth_cap=settings.depth_cap,
                   deepen_gap=settings.deepen_gap)
        if settings.shared_table:
            agent.new_table()
            for sibling in _some_siblings(after, game.grid, siblings_rng):
                agent.choose(sibling, keep_table=True, **how)
        decision = agent.choose(game.grid, keep_table=settings.shared_table, **how)
        if decision.move is None:
            over = True
            break
        after = apply_move(game.grid, decision.move)[0]
        game.step(decision.move)
        move_ms.append(decision.ms)
        depths[decision.depth] += 1
        if report and game.moves % PROGRESS_EVERY == 0:
            report(Progress(index, game.moves, game.score, max_tile(game.grid)))
    result = GameResult(
        seed, game.score, game.moves, max_tile(game.grid), time.perf_counter() - started, over, game.grid, move_ms,
        dict(sorted(depths.items())),
    )
    if report:
        report(Progress(index, result.moves, result.score, result.max_tile, done=True))
    return result


def _some_siblings(after: Grid | None, board: Grid, rng: random.Random) -> list[Grid]:
    """A random number (0 to SHARED_SIBLINGS) of the boards `after` could have become instead of
    `board`: the same new tile in another empty cell."""
    if after is None:
        return []
    cells = empty_cells(after)
    new = [(r, c) for r, c in cells if board[r][c] != 0]
    if len(new) != 1:
        return []
    (nr, nc), = new
    others = [cell for cell in cells if cell != (nr, nc)]
    picked = rng.sample(others, rng.randint(0, min(SHARED_SIBLINGS, len(others))))
    return [place(after, r, c, board[nr][nc]) for r, c in picked]


_worker: dict = {}  # in each worker process: its progress queue and its agent


def _bench_block_tables():
    """play's corner tables from the user cache dir when they are there (same states, same values: a
    state's solved value does not depend on when it was solved), else empty ones each game solves into
    (up to 11 GB per worker, about 9 minutes of solving on one core in its first game, more for the pair
    table in its last phase)."""
    from screenbot.agent.block_tables import BlockTables, TableError, default_table_path

    path = default_table_path()
    if path.exists():
        try:
            return BlockTables.load(path)
        except TableError:
            pass
    return BlockTables()


def make_agent(threads: int | None = None, endgame_tables: bool = False, corner: str | None = None,
               corner_depth: int | None = None, corner_loss: str = "fixed") -> ExpectimaxAgent:
    """The agent a bench game plays with (the tables loaded from the user cache dir, built there first if need be)."""
    if corner:
        from screenbot.agent.corner import CornerAgent

        return CornerAgent(_bench_block_tables() if corner == "table" else None, threads=threads,
                           fixed_depth=corner_depth, loss=corner_loss)
    if endgame_tables:
        return TablesAgent(EndgameTables.load_or_build()[0], threads=threads)
    return ExpectimaxAgent(threads=threads)


def _die_with_parent() -> None:
    """Linux: this process is killed when the process that started it dies, even by SIGKILL (else a
    worker left behind would go on playing, with nobody to report to)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    parent = multiprocessing.parent_process()
    if parent is not None and os.getppid() != parent.pid:  # it died while this worker was starting
        os._exit(1)


def _stop_on_sigterm():
    """In the main thread: SIGTERM stops the run as Ctrl-C does (the pool's workers are terminated on
    the way out); returns the handler it replaced, or None when it could not be set."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def stop(signum, frame):
        raise KeyboardInterrupt

    return signal.signal(signal.SIGTERM, stop)


def _worker_start(progress_queue, threads: int, endgame_tables: bool, corner: str | None = None,
                  corner_depth: int | None = None, corner_loss: str = "fixed") -> None:
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent ends the workers
    agent = make_agent(threads, endgame_tables, corner, corner_depth, corner_loss)  # the workers share the cores
    agent.warm_up()  # loads the compiled kernels from numba's disk cache
    _worker.update(queue=progress_queue, agent=agent)


def _worker_game(seed: int, index: int, settings: BenchSettings) -> GameResult:
    return play_game(seed, settings, index, _worker["queue"].put, _worker["agent"])


def run_games(
    seeds: Sequence[int],
    settings: BenchSettings,
    workers: int = 1,
    report: Callable[[Progress], None] | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    threads: int | None = None,
) -> list[GameResult]:
    """Play one game per seed, in this process or in `workers` processes, each searching on `threads`
    threads (default `bench_threads(workers, len(seeds))`).

    Results come back in seed order; `report` sees progress as it happens and `on_result` each game
    as soon as it ends (both in this process), so that a run stopped half-way keeps its finished games.
    """
    seeds = list(seeds)
    threads = bench_threads(workers, len(seeds)) if threads is None else threads
    if workers <= 1 or len(seeds) == 1:
        agent = make_agent(threads, settings.endgame_tables, settings.corner, settings.corner_depth,
                           settings.corner_loss)
        agent.warm_up()
        results = []
        try:
            for i, seed in enumerate(seeds):
                results.append(play_game(seed, settings, i, report, agent))
                if on_result:
                    on_result(results[-1])
            return results
        finally:
            agent.close()
    context = multiprocessing.get_context("spawn")  # fresh interpreters: each loads the JIT cache itself
    progress_queue = context.Queue()
    results: list[GameResult | None] = [None] * len(seeds)
    previous = _stop_on_sigterm()
    try:
        return _run_pool(context, progress_queue, results, seeds, settings, workers, threads, report, on_result)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _run_pool(context, progress_queue, results, seeds, settings, workers, threads, report, on_result):
    with context.Pool(min(workers, len(seeds)), initializer=_worker_start,
                      initargs=(progress_queue, threads, settings.endgame_tables, settings.corner,
                                settings.corner_depth, settings.corner_loss)) as pool:
        pending = {i: pool.apply_async(_worker_game, (seed, i, settings)) for i, seed in enumerate(seeds)}
        while pending:
            try:
                event = progress_queue.get(timeout=0.2)
                if report:
                    report(event)
            except queue_module.Empty:
                pass
            for i in [i for i, job in pending.items() if job.ready()]:
                results[i] = pending.pop(i).get()
                if on_result:
                    on_result(results[i])
        while True:  # the last reports
            try:
                event = progress_queue.get_nowait()
            except queue_module.Empty:
                break
            if report:
                report(event)
    return [r for r in results if r is not None]


def bench_threads(workers: int, games: int) -> int:
    """Search threads per game when not told: the machine's search threads (`default_threads()`)
    shared out among the games played at once."""
    return max(1, default_threads() // max(1, min(workers, games)))
