#!/usr/bin/env python3
"""Agent speed on nneonneo's reference positions: our time per move with its depth rule, beside its own figures.

    .venv/bin/python -m benchmarks.agent_speed --positions ../shared/anchors/positions.json [--json]

For each position: choose_move with nneonneo/2048-ai's settings (depth max(3, distinct tiles - 2),
paths below probability 1e-4 cut off, no time budget), timed `--repeat` times after a warm-up;
the best of those runs counts (other processes on a shared machine only ever add time). Prints a
table, then the median time per move, nneonneo's median from the file, their ratio and the share
of positions where both choose the same move. With --json the last line is one JSON object.
Target (issue 2): median <= 1.0x nneonneo's C++.

The table is one search thread, like nneonneo's program. Then the same positions are searched
again with the threads play uses (`--threads`, default: screenbot's default), and both medians
are printed side by side.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from screenbot.agent.limits import MAX_FIXED_DEPTH
from screenbot.agent.search import DEFAULT_CUTOFF, ExpectimaxAgent, adaptive_depth, default_threads
from screenbot.game.rules import to_grid

ROOT = Path(__file__).resolve().parents[1]  # the repository: its test fixtures and ../shared
DEFAULT_POSITIONS = ROOT.parent / "shared" / "anchors" / "positions.json"


def time_position(agent, grid, repeat: int, cutoff: float) -> tuple[float, float, object]:
    """(best wall ms, best CPU ms, the decision) over `repeat` searches of one position."""
    wall, cpu, decision = [], [], None
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.thread_time()
        decision = agent.choose(grid, depth="adaptive", cutoff=cutoff, depth_cap=MAX_FIXED_DEPTH)
        cpu.append((time.thread_time() - c0) * 1000.0)
        wall.append((time.perf_counter() - w0) * 1000.0)
    return min(wall), min(cpu), decision


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", default=str(DEFAULT_POSITIONS), help="the anchors file (positions.json)")
    parser.add_argument("--repeat", type=int, default=3, help="timed searches per position; the best counts")
    parser.add_argument("--cutoff", type=float, default=DEFAULT_CUTOFF, help="path-probability cutoff (1e-4)")
    parser.add_argument("--threads", type=int, default=None, help="search threads for the second pass (default: play's)")
    parser.add_argument("--json", action="store_true", help="end with one JSON object on the last line")
    args = parser.parse_args()

    positions = json.loads(Path(args.positions).read_text())["positions"]
    threads = args.threads or default_threads()
    agent = ExpectimaxAgent(threads=1)
    compile_s = agent.warm_up()
    rows = []
    print(f"warm-up (JIT from cache or compile): {compile_s:.2f} s; {len(positions)} positions, best of {args.repeat}")
    print(f"{'#':>3} {'depth':>5} {'ours ms':>9} {'cpu ms':>8} {'nneonneo ms':>11} {'ratio':>6}  move  theirs")
    for i, position in enumerate(positions):
        grid = to_grid(position["grid"])
        wall_ms, cpu_ms, decision = time_position(agent, grid, args.repeat, args.cutoff)
        theirs_ms = float(position["nneonneo_ms"])
        ours = decision.move.letter if decision.move is not None else "-"
        same = ours == position["nneonneo_move"]
        rows.append({"ms": wall_ms, "cpu_ms": cpu_ms, "nneonneo_ms": theirs_ms, "same": same,
                     "depth": adaptive_depth(grid)})
        print(f"{i:>3} {decision.depth:>5} {wall_ms:>9.2f} {cpu_ms:>8.2f} {theirs_ms:>11.2f} "
              f"{wall_ms / theirs_ms:>6.2f}  {ours:^4}  {position['nneonneo_move']:^6}{'' if same else '  (differs)'}")

    median_ms = statistics.median(r["ms"] for r in rows)
    theirs_median = statistics.median(r["nneonneo_ms"] for r in rows)
    summary = {
        "positions": len(rows),
        "median_ms": round(median_ms, 3),
        "cpu_median_ms": round(statistics.median(r["cpu_ms"] for r in rows), 3),
        "nneonneo_median_ms": round(theirs_median, 3),
        "ratio": round(median_ms / theirs_median, 3),
        "median_of_ratios": round(statistics.median(r["ms"] / r["nneonneo_ms"] for r in rows), 3),
        "total_ms": round(sum(r["ms"] for r in rows), 1),
        "nneonneo_total_ms": round(sum(r["nneonneo_ms"] for r in rows), 1),
        "same_move_share": round(sum(r["same"] for r in rows) / len(rows), 3),
        "repeat": args.repeat,
        "cutoff": args.cutoff,
    }
    agent.set_threads(threads)
    threaded = [time_position(agent, to_grid(p["grid"]), args.repeat, args.cutoff)[0] for p in positions]
    summary["threads"] = threads
    summary["threaded_median_ms"] = round(statistics.median(threaded), 3)
    summary["threaded_speedup_median"] = round(statistics.median(r["ms"] / t for r, t in zip(rows, threaded)), 3)
    print(f"median per move: ours {median_ms:.1f} ms (CPU {summary['cpu_median_ms']:.1f} ms), "
          f"nneonneo {theirs_median:.1f} ms -> {summary['ratio']:.2f}x; "
          f"total {summary['total_ms'] / 1000:.2f} s vs {summary['nneonneo_total_ms'] / 1000:.2f} s; "
          f"same move in {100 * summary['same_move_share']:.0f}% of positions")
    print(f"with {threads} search threads: median {summary['threaded_median_ms']:.1f} ms per move, "
          f"{summary['threaded_speedup_median']:.2f}x faster than one thread (median of the per-position ratios)")
    if args.json:
        print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
