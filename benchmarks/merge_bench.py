"""Merge `screenbot bench --json` files (e.g. one game per process, so a stopped run loses one game at
most) into one summary of the same shape, and optionally draw it beside the published players.
(`screenbot bench --keep-games DIR` keeps one such file per game and merges them itself.) A `.jsonl`
file holds one summary per line: the kept games of a run in benchmarks/results/runs/ are kept that way.

    .venv/bin/python -m benchmarks.merge_bench RUN1.json RUN2.json ... [--json OUT.json] [--plot OUT.png]
    .venv/bin/python -m benchmarks.merge_bench benchmarks/results/runs/strength_32768_corner_v4.jsonl

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

from screenbot.bench.summary import merge_summaries
from screenbot.commands.bench import format_merged


def summaries(path: Path) -> list[dict]:
    """The bench summaries in one file: the whole file, or each line of a `.jsonl` file."""
    text = path.read_text()
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    return [json.loads(text)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--json", type=Path, help="write the merged summary here")
    parser.add_argument("--plot", type=Path, help="draw the tile-reach bars beside the published players (PNG)")
    args = parser.parse_args()
    try:
        merged = merge_summaries([s for f in args.files for s in summaries(f)])
    except ValueError as exc:
        raise SystemExit(f"merge_bench: {exc}") from None
    print(format_merged(merged))
    if args.json:
        args.json.write_text(json.dumps(merged, indent=1) + "\n")
    if args.plot:
        from screenbot.bench.plot import plot_reach

        plot_reach(merged, str(args.plot))
    return 0


if __name__ == "__main__":
    sys.exit(main())
