"""Merge `screenbot bench --json` files (e.g. one game per process, so an ended session loses one game at
most) into one summary of the same shape, and optionally draw it beside the published players.

    .venv/bin/python benchmarks/merge_bench.py RUN1.json RUN2.json ... [--json OUT.json] [--plot OUT.png]

All files must have the same settings (the number of workers aside). Tile shares, scores and moves
are over every game. Time per move: the moves' own times are not kept in the files, so the figures
are the median of the games' medians and the median of their p95s (each file's own figures for a
one-game file), with the range across games.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path


def game_figures(games: list[dict], tiles: list[int]) -> dict:
    """The figures over games given as bench's per_game entries: seeds, tile shares, scores, moves."""
    n = len(games)
    return {
        "games": n,
        "seed": games[0]["seed"],  # the first (plot_reach names it)
        "seeds": [g["seed"] for g in games],
        "reached": {str(t): sum(g["max_tile"] >= t for g in games) / n for t in tiles},
        "reached_games": {str(t): sum(g["max_tile"] >= t for g in games) for t in tiles},
        "mean_score": statistics.fmean(g["score"] for g in games),
        "median_score": statistics.median(g["score"] for g in games),
        "moves_mean": statistics.fmean(g["moves"] for g in games),
        "moves_total": sum(g["moves"] for g in games),
    }


def merge(summaries: list[dict]) -> dict:
    settings = [{k: v for k, v in s["settings"].items() if k != "workers"} for s in summaries]
    if any(s != settings[0] for s in settings):
        raise SystemExit("merge_bench: the files were made with different settings")
    games = []
    for s in summaries:
        for g in s["per_game"]:
            game = dict(g)
            if len(s["per_game"]) == 1:  # a one-game file: its figures are the game's
                game.setdefault("ms_per_move_median", s["ms_per_move_median"])
                game.setdefault("ms_per_move_p95", s["ms_per_move_p95"])
            games.append(game)
    games.sort(key=lambda g: g["seed"])
    seeds = [g["seed"] for g in games]
    if len(set(seeds)) != len(seeds):
        raise SystemExit("merge_bench: a seed appears twice")
    tiles = [int(t) for t in summaries[0]["reached"]]
    medians = [g["ms_per_move_median"] for g in games if "ms_per_move_median" in g]
    p95s = [g["ms_per_move_p95"] for g in games if "ms_per_move_p95" in g]
    return {
        **game_figures(games, tiles),
        "settings": summaries[0]["settings"],
        "ms_per_move_median_of_games": statistics.median(medians) if medians else None,
        "ms_per_move_median_range": [min(medians), max(medians)] if medians else None,
        "ms_per_move_p95_median_of_games": statistics.median(p95s) if p95s else None,
        "ms_per_move_p95_range": [min(p95s), max(p95s)] if p95s else None,
        "per_game": games,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--json", type=Path, help="write the merged summary here")
    parser.add_argument("--plot", type=Path, help="draw the tile-reach bars beside the published players (PNG)")
    args = parser.parse_args()
    merged = merge([json.loads(f.read_text()) for f in args.files])
    counts = "  ".join(f"{t} {merged['reached_games'][t]}/{merged['games']}" for t in merged["reached"])
    print(f"{merged['games']} games ({merged['settings']['described']}): {counts}")
    print(f"score: mean {merged['mean_score']:,.0f}, median {merged['median_score']:,.0f}; "
          f"moves: mean {merged['moves_mean']:,.0f}, total {merged['moves_total']:,}")
    if merged["ms_per_move_median_of_games"] is not None:
        lo, hi = merged["ms_per_move_median_range"]
        plo, phi = merged["ms_per_move_p95_range"]
        print(f"time per move: median {merged['ms_per_move_median_of_games']:.1f} ms (games {lo:.1f}-{hi:.1f}), "
              f"p95 {merged['ms_per_move_p95_median_of_games']:.1f} ms (games {plo:.1f}-{phi:.1f})")
    if args.json:
        args.json.write_text(json.dumps(merged, indent=1) + "\n")
    if args.plot:
        from screenbot.agent.bench import plot_reach

        plot_reach(merged, str(args.plot))
    return 0


if __name__ == "__main__":
    sys.exit(main())
