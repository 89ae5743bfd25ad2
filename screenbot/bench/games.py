"""Simulated games for measuring a player: seeded games on the rules engine, in one process or several
(their summary: screenbot.bench.summary)."""

from __future__ import annotations

import multiprocessing
import os
import queue as queue_module
import signal
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Sequence

from screenbot.agent.base import Agent
from screenbot.agent.limits import ENDGAME_CAP
from screenbot.agent.players import DEFAULT_PLAYER, make_player
from screenbot.agent.search import (DEFAULT_BUDGET_MS, DEFAULT_DEEPEN_GAP, DEFAULT_DEEPEN_MS, DEFAULT_DEPTH,
                                   DEFAULT_DEPTH_CAP, ENDGAME_TILE, RULE_MAX_DEPTH, default_threads)
from screenbot.game.rules import EMPTY, Game, Grid, max_tile

PROGRESS_EVERY = 25  # moves between progress reports from a game


@dataclass(frozen=True)
class BenchSettings:
    """How the player plays: a time budget or a depth (neither: the default budget), and when a game stops.
    `variant`: how the games' agent differs from the named player's, in words (research scripts play
    their own agents through `play_game`; a summary records it so that other games are never mixed in)."""

    budget_ms: float | None = None
    depth: int | str | None = None
    stop_at: int | None = None  # stop a game once this tile is on the board
    depth_cap: int | str | None = None  # cap on the adaptive depth (None: the agent's default; or ENDGAME_CAP)
    deepen_gap: float | None = None  # decisions deepen past the cap (None: the agent's default, every decision; 0: off)
    player: str = DEFAULT_PLAYER  # screenbot.agent.players
    variant: str | None = None
    shape: tuple[int, int] = (4, 4)  # the board's rows and columns

    def describe(self) -> str:
        if tuple(self.shape) != (4, 4):  # the 4x4 search's depth rule and deepening do not apply
            rows, cols = self.shape
            how = ("its own budget" if self.depth is None and self.budget_ms is None
                   else f"depth {self.depth}" if self.budget_ms is None else f"budget {self.budget_ms:g} ms")
            return (f"{rows}x{cols} board, player {self.player}, {how}"
                    + (f", stop at {self.stop_at}" if self.stop_at else ""))
        cap = {None: str(DEFAULT_DEPTH_CAP), ENDGAME_CAP: f"{DEFAULT_DEPTH_CAP}, uncapped from {ENDGAME_TILE}"}.get(
            self.depth_cap, str(self.depth_cap))
        if self.depth is None and self.budget_ms is None:
            name = "the defaults" if self.depth_cap is None else f"depth cap {self.depth_cap}"
            how = f"{name} ({DEFAULT_DEPTH} depth up to {cap}, at most {DEFAULT_BUDGET_MS:g} ms)"
        elif self.budget_ms is None:
            how = f"depth {self.depth}" + (f" up to {cap}" if self.depth == "adaptive" else "")
        else:
            how = f"budget {self.budget_ms:g} ms"
        # only the adaptive depth within a budget (the defaults are one) can deepen past its cap, and
        # only a cap below the rule's deepest can bind
        deepen, gap = "", self.resolved_deepen_gap()
        binds = not isinstance(self.depth_cap, int) or self.depth_cap < RULE_MAX_DEPTH
        if (self.budget_ms is None) == (self.depth is None) and self.depth in (None, "adaptive") and binds:
            if gap >= 1:
                deepen = f", every decision deepened toward the uncapped rule (up to {DEFAULT_DEEPEN_MS:g} ms)"
            elif gap:
                deepen = f", close calls (within {gap:g}, up to {DEFAULT_DEEPEN_MS:g} ms) deepened"
            else:
                deepen = ", close calls not deepened"
        variant = f" ({self.variant})" if self.variant else ""
        return (f"player {self.player}{variant}, " + how + deepen
                + (f", stop at {self.stop_at}" if self.stop_at else ""))

    def resolved_deepen_gap(self) -> float:
        """The gap the agent plays with (the agent's default when not given)."""
        return DEFAULT_DEEPEN_GAP if self.deepen_gap is None else float(self.deepen_gap)

    @classmethod
    def from_summary(cls, settings: dict) -> "BenchSettings":
        """The settings as `summarize` wrote them, older summaries' fields read as screenbot.bench.summary's
        `normal_settings` gives them."""
        from screenbot.bench.summary import normal_settings

        s = normal_settings(settings)
        return cls(s["budget_ms"], s["depth"], s["stop_at"], s["depth_cap"], s["deepen_gap"], s["player"], s["variant"],
                   tuple(s["shape"]))


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
    agent: Agent | None = None,
) -> GameResult:
    """One seeded game of `agent` (default: the settings' player) on the rules engine, until no move is
    legal or stop_at is reached."""
    agent = agent or make_agent(settings)
    game = Game(seed=seed, size=settings.shape)
    game.reset()
    classic = tuple(settings.shape) == (4, 4)
    move_ms: list[float] = []
    depths: Counter = Counter()
    started = time.perf_counter()
    over = False
    while True:
        if settings.stop_at and max_tile(game.grid) >= settings.stop_at:
            break
        how = dict(budget_ms=settings.budget_ms, depth=settings.depth)
        if classic:  # the 4x4 search's own settings
            how.update(depth_cap=settings.depth_cap, deepen_gap=settings.deepen_gap)
        decision = agent.choose(game.grid, **how)
        if decision.move is None:
            over = True
            break
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


_worker: dict = {}  # in each worker process: its progress queue and its agent


def make_agent(settings: BenchSettings, threads: int | None = None, tables=None) -> Agent:
    """The agent a bench game plays with: the settings' player (its tables given, or loaded from the
    user cache dir: built there first if need be)."""
    if tuple(settings.shape) != (4, 4):
        return make_player(settings.player, shape=settings.shape, wait=True)
    return make_player(settings.player, tables=tables, threads=threads, wait=True)


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


def _worker_start(progress_queue, threads: int, settings: BenchSettings) -> None:
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent ends the workers
    agent = make_agent(settings, threads)  # the workers share the cores
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
    tables=None,
) -> list[GameResult]:
    """Play one game per seed, in this process or in `workers` processes, each searching on `threads`
    threads (default `bench_threads(workers, len(seeds))`).

    Results come back in seed order; `report` sees progress as it happens and `on_result` each game
    as soon as it ends (both in this process), so that a run stopped half-way keeps its finished games.
    `tables`: the player's tables, already loaded (in this process; the workers load their own).
    """
    seeds = list(seeds)
    threads = bench_threads(workers, len(seeds)) if threads is None else threads
    if workers <= 1 or len(seeds) == 1:
        agent = make_agent(settings, threads, tables)
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
                      initargs=(progress_queue, threads, settings)) as pool:
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
