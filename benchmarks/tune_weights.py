"""Tune the heuristic's weights for the endgame with CMA-ES over seeded continuations of 16384 boards.

The six weights of `screenbot.agent.heuristic.Weights` (base stays: it only keeps a live board above
a lost one) are searched as log multipliers of nneonneo's values (empty, merges, monotonicity, sum)
and offsets of its powers (monotonicity power, sum power). A candidate's fitness is the mean score
gained when it plays on from every snapshot (`python -m benchmarks.late_game snap`) at a fixed, shallow depth until
32768 or game over. Every candidate of a generation plays the same continuations (the same random
stream per snapshot, new ones each generation), and nneonneo's weights play them too, so each
generation says how the candidates compare with the defaults on the same tiles.

    pip install 'screenbot[tune]'   # the cma package
    python -m benchmarks.tune_weights --snaps benchmarks/results/late_game/snaps_60001-60020.jsonl \\
        --depth 3 --generations 30 --workers 2 --out runs/tune.jsonl

One JSON line per generation goes to --out. A stopped run does not resume (CMA-ES's state is not
saved): the file's lines stay, and --best keeps the last generation's CMA-ES mean under "weights"
(and under "best_candidate" the candidate that beat the defaults by most on its generation's
continuations), ready for `python -m benchmarks.late_game go --weights FILE [KEY]`.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import sys
import time
from dataclasses import asdict
from pathlib import Path

from benchmarks.late_game import _play, command_line, resume
from research.weights import POWER_RANGE
from screenbot.agent.heuristic import Weights
from screenbot.agent.search import ExpectimaxAgent

DEFAULT = Weights()


def weights_of(x: list[float]) -> Weights:
    return Weights(
        base=DEFAULT.base,
        empty=DEFAULT.empty * math.exp(x[0]),
        merges=DEFAULT.merges * math.exp(x[1]),
        monotonicity=DEFAULT.monotonicity * math.exp(x[2]),
        sum=DEFAULT.sum * math.exp(x[3]),
        monotonicity_power=min(POWER_RANGE[1], max(POWER_RANGE[0], DEFAULT.monotonicity_power + x[4])),
        sum_power=min(POWER_RANGE[1], max(POWER_RANGE[0], DEFAULT.sum_power + x[5])),
    )


def _continue(task: tuple) -> int:
    """The final score playing on from one snapshot with one candidate's weights."""
    weights, snap, state, depth, stop_at = task
    game = resume(snap, state)
    _play(game, ExpectimaxAgent(threads=1, weights=Weights(**weights)), stop_at, {"depth": depth})
    return game.score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--snaps", required=True, help="benchmarks.late_game snap's lines (those that reached 16384 are used)")
    parser.add_argument("--depth", type=int, default=3, help="fixed search depth of every move (default 3)")
    parser.add_argument("--generations", type=int, default=30)
    parser.add_argument("--popsize", type=int, default=8)
    parser.add_argument("--sigma", type=float, default=0.3, help="CMA-ES's first step size (default 0.3)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--streams", type=int, default=2, help="continuations of each snapshot per candidate (default 2)")
    parser.add_argument("--stop-at", type=int, default=32768)
    parser.add_argument("--seed", type=int, default=1, help="CMA-ES's and the continuations' seed")
    parser.add_argument("--out", required=True, help="one JSON line per generation")
    parser.add_argument("--best", required=True, help="the best weights so far (JSON)")
    args = parser.parse_args()
    try:
        import cma
    except ImportError:
        sys.exit("tune_weights: needs the cma package: pip install 'screenbot[tune]'")

    snaps = [json.loads(line) for line in Path(args.snaps).read_text().splitlines() if line.strip()]
    snaps = [s for s in snaps if s["reached"]] * args.streams
    es = cma.CMAEvolutionStrategy([0.0] * 6, args.sigma, {"popsize": args.popsize, "seed": args.seed, "verbose": -9})
    best_gain, best_weights = -math.inf, DEFAULT
    with multiprocessing.Pool(args.workers) as pool:
        for gen in range(args.generations):
            started = time.perf_counter()
            xs = es.ask()
            candidates = [DEFAULT] + [weights_of(list(x)) for x in xs]
            states = [(s["seed"] * 7919 + 104729 * (gen + 1) + 15485863 * j + args.seed) & 0xFFFFFFFF
                      for j, s in enumerate(snaps)]
            tasks = [(asdict(w), s, st, args.depth, args.stop_at)
                     for w in candidates for s, st in zip(snaps, states)]
            scores = pool.map(_continue, tasks, chunksize=1)
            n = len(snaps)
            gains = [statistics.mean(scores[k * n + i] - snaps[i]["score"] for i in range(n)) for k in range(len(candidates))]
            es.tell(xs, [-g for g in gains[1:]])
            k = max(range(1, len(candidates)), key=lambda j: gains[j])
            mean_w = weights_of(list(es.mean))
            line = {"generation": gen, "default_gain": gains[0], "gains": gains[1:], "best_gain": gains[k],
                    "best": asdict(candidates[k]), "mean": asdict(mean_w), "sigma": es.sigma,
                    "seconds": time.perf_counter() - started, "command": command_line()}
            with open(args.out, "a") as f:
                f.write(json.dumps(line) + "\n")
            if gains[k] - gains[0] > best_gain:  # judged against the defaults on the same continuations
                best_gain, best_weights = gains[k] - gains[0], candidates[k]
            Path(args.best).write_text(json.dumps({"weights": asdict(mean_w), "best_candidate": asdict(best_weights),
                                                   "best_candidate_gain_over_default": best_gain,
                                                   "generations": gen + 1, "command": command_line()}, indent=1))
            print(f"gen {gen}: default {gains[0]:,.0f}  best {gains[k]:,.0f}  mean of candidates "
                  f"{statistics.mean(gains[1:]):,.0f}  sigma {es.sigma:.3f}  {line['seconds']:.0f} s", flush=True)


if __name__ == "__main__":
    main()
