"""How often the capped search (depth 6) picks another move than nneonneo's uncapped rule, and what
deepening only the close calls buys: the evidence behind ExpectimaxAgent's `deepen_gap`.

    # 1. endgame positions: each snapshot at 16384 played on at depth 3 and sampled at 8 random moves;
    #    every depth 1 .. the rule's depth (at most 11) searched and kept (one line per position)
    python -m benchmarks.close_calls sample --out runs/positions.jsonl [--part 1/2]
    # 2. each way of choosing against the rule's move, on the positions where the rule says > 6
    python -m benchmarks.close_calls analyse runs/positions.jsonl

"Agreement" is how often a way of choosing picks the move the full rule's depth picks; "ms" sums
the depths it would search (each decision searches every depth up to its last, one thread).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from benchmarks.late_game import _rng_state, command_line, resume

from screenbot.agent.search import ExpectimaxAgent, adaptive_depth

SNAPS = ["benchmarks/results/late_game/snaps_60001-60020.jsonl", "benchmarks/results/late_game/snaps_60021-60040.jsonl"]
CAP = 6


def sample(args) -> None:
    snaps = [json.loads(line) for name in SNAPS for line in Path(name).read_text().splitlines() if line.strip()]
    snaps = [s for s in snaps if s["reached"]]
    agent = ExpectimaxAgent(threads=1)
    rnd = random.Random(5)
    k, n_parts = (int(x) for x in args.part.split("/"))
    with Path(args.out).open("a") as out:
        for i, s in enumerate(snaps):
            stops = sorted(rnd.sample(range(100, 6000), 8))  # drawn for every snapshot: parts agree
            if i % n_parts != k - 1:
                continue
            game = resume(s, _rng_state(s["seed"], s["moves"]))
            played = 0
            for stop in stops:
                decision = None
                while played < stop:
                    decision = agent.choose(game.grid, depth=3)
                    if decision.move is None:
                        break
                    game.step(decision.move)
                    played += 1
                if decision is not None and decision.move is None:
                    break
                grid = game.grid
                rule = adaptive_depth(grid)
                line = {"seed": s["seed"], "n": played, "grid": grid, "adaptive": rule, "depths": []}
                for depth in range(1, min(rule, 11) + 1):
                    started = time.perf_counter()
                    d = agent.choose(grid, depth=depth)
                    line["depths"].append({"d": depth, "values": {int(m): v for m, v in d.values.items()},
                                           "ms": (time.perf_counter() - started) * 1000})
                out.write(json.dumps(line) + "\n")
                out.flush()
                print(s["seed"], played, rule, flush=True)


def _best(values: dict) -> str:
    return max(values, key=lambda m: (values[m], -int(m)))


def analyse(args) -> None:
    positions = [json.loads(line) for line in Path(args.positions).read_text().splitlines() if line.strip()]
    deep = []
    for p in positions:
        by_depth = {x["d"]: x for x in p["depths"]}
        if max(by_depth) > CAP:
            deep.append(by_depth)
    print(f"{len(positions)} positions, {len(deep)} where the rule searches deeper than {CAP}")

    def up_to(by_depth, last):
        return sum(by_depth[d]["ms"] for d in range(1, last + 1))

    def capped(k):
        def choose(by_depth):
            last = min(max(by_depth), k)
            return _best(by_depth[last]["values"]), up_to(by_depth, last)
        return choose

    def close(gap):
        def choose(by_depth):
            values = by_depth[CAP]["values"]
            top = sorted(values.values(), reverse=True)
            if len(top) > 1 and top[0] > 0 and top[0] - top[1] < gap * top[0]:
                last = max(by_depth)
                return _best(by_depth[last]["values"]), up_to(by_depth, last)
            return _best(values), up_to(by_depth, CAP)
        return choose

    ways = [(f"cap {k}", capped(k)) for k in (6, 7, 8, 9, 99)]
    ways += [(f"cap 6, close calls (gap {g:g}) to the rule", close(g)) for g in (1e-4, 3e-4, 1e-3, 3e-3)]
    rows = []
    for name, choose in ways:
        agree, ms = 0, []
        for by_depth in deep:
            move, cost = choose(by_depth)
            agree += move == _best(by_depth[max(by_depth)]["values"])
            ms.append(cost)
        rows.append({"way": name, "agreement": agree / len(deep), "ms_median": statistics.median(ms),
                     "ms_mean": statistics.mean(ms)})
        print(f"{name:40s} agreement {agree / len(deep):6.1%}  ms median {statistics.median(ms):6.1f}  mean {statistics.mean(ms):6.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps({"positions": len(positions), "deeper_than_cap": len(deep), "ways": rows,
                                               "command": command_line()}, indent=1) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="step", required=True)
    p = sub.add_parser("sample")
    p.add_argument("--out", required=True)
    p.add_argument("--part", default="1/1")
    p = sub.add_parser("analyse")
    p.add_argument("positions")
    p.add_argument("--json")
    args = parser.parse_args()
    {"sample": sample, "analyse": analyse}[args.step](args)


if __name__ == "__main__":
    main()
