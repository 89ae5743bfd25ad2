"""Merge `screenbot bench --json` files (e.g. one game per process, so a stopped run loses one game at
most) into one summary of the same shape, and optionally draw it beside the published players.
(`screenbot bench --keep-games DIR` keeps one such file per game and merges them itself.)

    .venv/bin/python -m benchmarks.merge_bench RUN1.json RUN2.json ... [--json OUT.json] [--plot OUT.png]

All files must have the same settings (the number of workers aside). Tile shares, scores and moves
are over every game. Time per move: the moves' own times are not kept in the files, so the figures
are the median of the games' medians and the median of their p95s (each file's own figures for a
one-game file), with the range across games.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from screenbot.agent.bench_summary import merge_summaries
from screenbot.commands.bench import format_merged


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--json", type=Path, help="write the merged summary here")
    parser.add_argument("--plot", type=Path, help="draw the tile-reach bars beside the published players (PNG)")
    args = parser.parse_args()
    try:
        merged = merge_summaries([json.loads(f.read_text()) for f in args.files])
    except ValueError as exc:
        raise SystemExit(f"merge_bench: {exc}") from None
    print(format_merged(merged))
    if args.json:
        args.json.write_text(json.dumps(merged, indent=1) + "\n")
    if args.plot:
        from screenbot.agent.bench_plot import plot_reach

        plot_reach(merged, str(args.plot))
    return 0


if __name__ == "__main__":
    sys.exit(main())
