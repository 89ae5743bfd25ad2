"""Seeded simulated games of any board size with the any-size expectimax, one or more evaluations on the same seeds.

    nice -n 10 .venv/bin/python -m benchmarks.sizes --size 5x5 --eval corner --eval lines --games 20 \\
        --stop-at 2048 --out benchmarks/results/sizes_5x5.jsonl
    nice -n 10 .venv/bin/python -m benchmarks.sizes --size 4x3 --eval corner --games 100 --start twos

Each evaluation plays game i from seed (--seed + i) on the rules engine (screenbot.game.rules.Game);
`--start twos` starts every game from two 2s on two cells drawn from the seed (as arXiv 2510.04580
counts 4x3's expected score), otherwise from the game's own two spawns. A game ends at game over or
once a tile of --stop-at is on the board. An evaluation is a name from
screenbot.agent.any_size_eval.EVALUATIONS, optionally with changed settings: `corner:empty=500,penalty=8`.

Prints per evaluation: the games, the mean score with its 95 % interval, the share of games that
reached each tile, the moves per game and the milliseconds per decision (median, 90th percentile,
max), and for two or more evaluations a sign test of each against the first over the same seeds
(the games' scores: wins, losses, two-sided p). The milliseconds are wall time (what play waits);
the CPU milliseconds of a decision (its thread's) tell a busy machine's share apart. By default the
budget itself is measured in the search thread's CPU time (`--clock cpu`): the games are then the
ones an idle machine would play, and the CPU milliseconds are what an idle machine would wait. With --out, one JSON line per evaluation (dated, with
the command and each game's seed, score, moves and largest tile) is appended to the file.
At most two worker processes; each lowers its own priority to nice 10 at least.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from pathlib import Path

from screenbot.game.rules import Game, max_tile
from screenbot.game.sizes import format_size, parse_size

DATE = "2026-11-26"
MAX_WORKERS = 2
NICE = 10


def parse_evaluation(text: str):
    """'name' or 'name:key=value,key=value' as an Evaluation."""
    from screenbot.agent.any_size_eval import Evaluation, evaluation_named

    name, _, settings = text.partition(":")
    evaluation = evaluation_named(name)
    changes = {}
    for item in filter(None, settings.split(",")):
        key, _, value = item.partition("=")
        if key not in Evaluation.__dataclass_fields__ or key in ("name", "kind"):
            raise SystemExit(f"{key!r} is not a setting of an evaluation")
        changes[key] = value.lower() in ("1", "true", "yes") if key == "oriented" else float(value)
    return evaluation.with_(**changes) if changes else evaluation


def twos_start(size: tuple[int, int], seed: int) -> tuple[tuple[int, ...], ...]:
    """An empty board of `size` with a 2 on two distinct cells drawn from `seed`."""
    rows, cols = size
    cells = random.Random(seed).sample(range(rows * cols), 2)
    return tuple(tuple(2 if r * cols + c in cells else 0 for c in range(cols)) for r in range(rows))


_AGENTS: dict = {}


def _agent(spec: str, budget_ms: float, cutoff: float | None, clock: str, network: str | None):
    from screenbot.agent.any_size import DEFAULT_CUTOFF, AnySizeAgent

    key = (spec, budget_ms, cutoff, clock, network)
    if key not in _AGENTS:
        agent = AnySizeAgent(parse_evaluation(spec), budget_ms=budget_ms,
                             cutoff=DEFAULT_CUTOFF if cutoff is None else cutoff,
                             clock=time.thread_time if clock == "cpu" else time.perf_counter,
                             network_path=None if network is None else Path(network))
        agent.warm_up()
        _AGENTS[key] = agent
    return _AGENTS[key]


def play_game(task: tuple) -> dict:
    """One game: (spec, size, seed, start, stop_at, budget_ms, depth, cutoff, clock, network) -> its record."""
    spec, size, seed, start, stop_at, budget_ms, depth, cutoff, clock, network = task
    agent = _agent(spec, budget_ms, cutoff, clock, network)
    game = Game(seed=seed, size=size)
    game.reset(start=twos_start(size, seed) if start == "twos" else None)
    ms, cpu_ms, depths = [], [], []
    started = time.perf_counter()
    while not (stop_at and max_tile(game.grid) >= stop_at):
        cpu = time.thread_time()
        decision = agent.choose(game.grid, depth=depth) if depth is not None else agent.choose(game.grid)
        if decision.move is None:
            break
        cpu_ms.append((time.thread_time() - cpu) * 1000.0)
        ms.append(decision.ms)
        depths.append(decision.depth)
        game.step(decision.move)
    return {"spec": spec, "seed": seed, "score": game.score, "moves": game.moves, "max_tile": max_tile(game.grid),
            "ms": ms, "cpu_ms": cpu_ms, "depths": depths, "seconds": time.perf_counter() - started}


def _worker_init() -> None:
    try:
        os.nice(max(0, NICE - os.nice(0)))
    except OSError:
        pass


def mean_interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95 % interval (normal approximation)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, float("nan")
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact binomial p of this many wins and losses (ties left out) under no difference."""
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def summarize(spec: str, games: list[dict]) -> dict:
    games = sorted(games, key=lambda g: g["seed"])
    scores = [g["score"] for g in games]
    mean, half = mean_interval(scores)
    ms = [m for g in games for m in g["ms"]]
    cpu_ms = [m for g in games for m in g["cpu_ms"]]
    depths = [d for g in games for d in g["depths"]]
    top = max(g["max_tile"] for g in games)
    rates = {}
    tile = 256
    while tile <= top:
        rates[str(tile)] = sum(g["max_tile"] >= tile for g in games) / len(games)
        tile *= 2
    return {"evaluation": spec, "games": len(games), "mean_score": round(mean, 1), "score_95": round(half, 1),
            "tile_rates": rates, "moves_per_game": round(statistics.fmean(g["moves"] for g in games), 1),
            "ms_median": round(statistics.median(ms), 2) if ms else None, "ms_p90": round(percentile(ms, 0.9), 2),
            "ms_max": round(max(ms), 1) if ms else None,
            "cpu_ms_median": round(statistics.median(cpu_ms), 2) if cpu_ms else None,
            "depth_mean": round(statistics.fmean(depths), 2) if depths else None,
            "per_game": [[g["seed"], g["score"], g["moves"], g["max_tile"]] for g in games]}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", required=True, help="rows x columns, e.g. 5x5 or 4x3")
    ap.add_argument("--eval", dest="evals", action="append", help="an evaluation (repeat to compare; the first is "
                    "the one the others are tested against); default: the agent's default for the size")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stop-at", type=int, default=None, help="stop a game once this tile is on the board")
    ap.add_argument("--start", choices=("spawn", "twos"), default="spawn")
    ap.add_argument("--budget-ms", type=float, default=None, help="the agent's time per decision (its default)")
    ap.add_argument("--depth", type=int, default=None, help="a fixed depth instead of a budget")
    ap.add_argument("--cutoff", type=float, default=None)
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="what the budget is measured on: the "
                    "search thread's CPU time (default: games as strong as on an idle machine) or wall time")
    ap.add_argument("--network", default=None, help="the trained network the ntuple evaluation plays (default: "
                    "the user cache dir's)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default=None, help="append the summaries to this JSON-lines file")
    args = ap.parse_args(argv)
    from screenbot.agent.any_size import DEFAULT_BUDGET_MS, default_evaluation

    size = parse_size(args.size)
    specs = args.evals or [default_evaluation(*size).name]
    for spec in specs:
        parse_evaluation(spec)  # a bad one fails here, not in a worker
    budget = DEFAULT_BUDGET_MS if args.budget_ms is None else args.budget_ms
    workers = max(1, min(MAX_WORKERS, args.workers))
    seeds = range(args.seed, args.seed + args.games)
    tasks = [(spec, size, seed, args.start, args.stop_at, budget, args.depth, args.cutoff, args.clock, args.network)
             for seed in seeds for spec in specs]
    command = "nice -n 10 .venv/bin/python -m benchmarks.sizes " + " ".join(sys.argv[1:] if argv is None else argv)
    results: dict[str, list[dict]] = {spec: [] for spec in specs}
    started = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(workers, initializer=_worker_init) as pool:
        for game in pool.imap_unordered(play_game, tasks):
            results[game["spec"]].append(game)
            print(f"{game['spec']:>24} seed {game['seed']:>6}: score {game['score']:>8} moves {game['moves']:>6} "
                  f"max {game['max_tile']:>6} ({game['seconds']:.0f} s)", file=sys.stderr, flush=True)
    minutes = (time.perf_counter() - started) / 60
    first = {g["seed"]: g["score"] for g in results[specs[0]]}
    for spec in specs:
        row = {"date": DATE, "command": command, "size": format_size(size), "start": args.start,
               "stop_at": args.stop_at, "budget_ms": None if args.depth is not None else budget, "depth": args.depth,
               "clock": None if args.depth is not None else args.clock, "network": args.network,
               "cutoff": args.cutoff, "workers": workers, "minutes": round(minutes, 1), **summarize(spec, results[spec])}
        if spec != specs[0]:
            wins = sum(g["score"] > first[g["seed"]] for g in results[spec])
            losses = sum(g["score"] < first[g["seed"]] for g in results[spec])
            row["against"] = {"evaluation": specs[0], "wins": wins, "losses": losses, "p": sign_test(wins, losses)}
        per_game = row.pop("per_game")
        print(" ".join(f"{k}={v}" for k, v in row.items() if k not in ("command", "date")), flush=True)
        row["per_game"] = per_game
        if args.out:
            _append(row, args.out)


def _append(row: dict, path: str) -> None:
    with open(path, "a") as f:
        f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
