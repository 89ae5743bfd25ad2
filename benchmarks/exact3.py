#!/usr/bin/env python3
"""The exact 3x3 solution: its build (time, file size, peak memory) and seeded games played by it.

    nice -n 10 .venv/bin/python -m benchmarks.exact3 --path /tmp/exact3.bin --games 10000 --seed 1 \
        --jsonl benchmarks/results/exact3.jsonl

Builds the solution into --path (unless it is there already and --reuse), loads it (the checksum
read once), then plays --games games from the classic start (screenbot.game.rules.Game on 3x3,
seeds seed, seed+1, ...), each move the agent's choice. The mean final score, with its 95 %
interval (mean +- 1.96 standard errors), is set beside the solution's exact expected score, which
should lie inside it. --packed N plays N more games on the solution's own packed engine (numba,
numpy's generator seeded with --seed): many more games, for a tighter interval. One JSON line per
part (build, load, games, packed_games); --jsonl appends them to a file.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import threading
import time
from collections import Counter
from pathlib import Path

from benchmarks.jsonl import emit

DATE = "2026-11-26"


class PeakMemory:
    """The process's largest resident set while it runs, sampled every 50 ms (psutil)."""

    def __init__(self) -> None:
        import psutil

        self._process = psutil.Process()
        self.peak = self._process.memory_info().rss
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        while not self._done.wait(0.05):
            self.peak = max(self.peak, self._process.memory_info().rss)

    def __enter__(self) -> PeakMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._done.set()
        self._thread.join()
        self.peak = max(self.peak, self._process.memory_info().rss)


def measure_build(path: Path, command: str) -> dict:
    from screenbot.agent.exact3 import build, load

    last = [-1]

    def progress(done: int, total: int) -> None:
        if 10 * done // total > last[0]:
            last[0] = 10 * done // total
            print(f"  built {100 * done // total}%", file=sys.stderr, flush=True)

    with PeakMemory() as memory:
        started = time.perf_counter()
        build(path, progress)
        seconds = time.perf_counter() - started
    head = load(path, verify=False).head
    return dict(date=DATE, part="build", command=command, seconds=round(seconds, 1),
                solve_seconds=head["solve_seconds"], file_bytes=path.stat().st_size,
                peak_rss_mb=round(memory.peak / 2**20), **{k: head[k] for k in (
                    "states", "states_raw", "afterstates", "afterstates_raw", "largest_tile", "largest_layer",
                    "largest_sum", "expected_score", "expected_score_two_twos")})


def play(path: Path, games: int, seed: int, command: str) -> list[dict]:
    from screenbot.agent.exact3 import Exact3Agent, load
    from screenbot.game.rules import Game

    stamped = path.with_name(path.name + ".checked").exists()
    started = time.perf_counter()
    solution = load(path)
    load_row = dict(date=DATE, part="load", command=command, seconds=round(time.perf_counter() - started, 2),
                    checksum_read=not stamped)
    agent = Exact3Agent(solution=solution)
    agent.choose(((2, 0, 0), (0, 2, 0), (0, 0, 0)))  # compile before the clock starts
    scores, lengths, tops, choose_s = [], [], Counter(), []
    started = time.perf_counter()
    for i in range(games):
        game = Game(seed=seed + i, size=(3, 3))
        grid = game.reset()
        while True:
            t = time.perf_counter()
            decision = agent.choose(grid)
            choose_s.append(time.perf_counter() - t)
            if decision.move is None:
                break
            grid, _, changed = game.step(decision.move)
            assert changed, "the agent chose a move that does nothing"
        scores.append(game.score)
        lengths.append(game.moves)
        tops[max(max(row) for row in grid)] += 1
        if (i + 1) % 1000 == 0:
            print(f"  {i + 1} games, mean {statistics.fmean(scores):.1f}", file=sys.stderr, flush=True)
    mean = statistics.fmean(scores)
    half = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores))
    exact = solution.expected_score
    choose_s.sort()
    rates = {str(t): round(sum(n for top, n in tops.items() if top >= t) / games, 4) for t in (256, 512, 1024)}
    games_row = dict(
        date=DATE, part="games", command=command, games=games, seeds=f"{seed}-{seed + games - 1}",
        mean_score=round(mean, 2), sd=round(statistics.stdev(scores), 1),
        interval_95=[round(mean - half, 2), round(mean + half, 2)], exact_expected=round(exact, 4),
        exact_inside=bool(mean - half <= exact <= mean + half), median_moves=statistics.median(lengths),
        reached=rates, largest_tiles=dict(sorted((str(k), v) for k, v in tops.items())),
        median_choose_us=round(1e6 * choose_s[len(choose_s) // 2], 1),
        seconds=round(time.perf_counter() - started, 1))
    return [load_row, games_row]


def play_packed(path: Path, games: int, seed: int, command: str) -> dict:
    """`games` games on the packed engine, the agent's choice made the agent's way (gain plus the
    file's afterstate value, the first best in Move order), spawns from numpy's seeded generator."""
    import numpy as np
    from numba import njit

    from screenbot.agent.exact3 import load
    from screenbot.agent.exact3_build import canonical, lookup, move

    @njit
    def spawn(b: int) -> int:
        empty = np.empty(9, np.int64)
        n = 0
        for i in range(9):
            if (b >> (4 * i)) & 0xF == 0:
                empty[n] = i
                n += 1
        cell = empty[np.random.randint(n)]
        return b | ((1 if np.random.random() < 0.9 else 2) << (4 * cell))

    @njit
    def run(n: int, seed: int, offsets, keys, values) -> np.ndarray:
        np.random.seed(seed)
        scores = np.empty(n)
        for g in range(n):
            b, score = spawn(spawn(0)), 0
            while True:
                best, chosen, gained = -1.0, -1, 0
                for m in range(4):
                    after, gain = move(b, m)
                    if after != b:
                        value = gain + lookup(offsets, keys, values, canonical(after))
                        if value > best:
                            best, chosen, gained = value, after, gain
                if chosen < 0:
                    break
                score += gained
                b = spawn(chosen)
            scores[g] = score
        return scores

    solution = load(path)
    started = time.perf_counter()
    scores = run(games, seed, solution.offsets, solution.keys, solution.values)
    mean, sd = float(scores.mean()), float(scores.std(ddof=1))
    half = 1.96 * sd / math.sqrt(games)
    exact = solution.expected_score
    return dict(date=DATE, part="packed_games", command=command, games=games, numpy_seed=seed,
                mean_score=round(mean, 2), sd=round(sd, 1), interval_95=[round(mean - half, 2), round(mean + half, 2)],
                exact_expected=round(exact, 4), exact_inside=bool(mean - half <= exact <= mean + half),
                seconds=round(time.perf_counter() - started, 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", type=Path, required=True, help="where the solution is built")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--packed", type=int, default=0, help="games on the packed engine after the others")
    parser.add_argument("--reuse", action="store_true", help="play from the file at --path, without building")
    parser.add_argument("--jsonl", help="append the JSON lines to this file")
    args = parser.parse_args()
    command = "nice -n 10 .venv/bin/python -m benchmarks.exact3 " + " ".join(sys.argv[1:])
    if not (args.reuse and args.path.exists()):
        emit(measure_build(args.path, command), args.jsonl)
    if args.games:
        for row in play(args.path, args.games, args.seed, command):
            emit(row, args.jsonl)
    if args.packed:
        emit(play_packed(args.path, args.packed, args.seed, command), args.jsonl)


if __name__ == "__main__":
    main()
