"""The bench's summary: its figures over seeded games (one JSON-ready object), how the games were played, and
several summaries merged into one (screenbot.bench.games plays the games)."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import asdict, fields
from typing import Sequence

from screenbot.bench.games import BenchSettings, GameResult
from screenbot.agent.search import DEFAULT_DEEPEN_MS

REPORTED_TILES = (2048, 4096, 8192, 16384, 32768, 65536)


def reported_tiles(stop_at: int | None) -> list[int]:
    """The tiles whose reach is reported: 2048 ... 65536, none above stop_at (unreachable then), and
    stop_at itself when it is below 2048."""
    if not stop_at:
        return list(REPORTED_TILES)
    return [t for t in REPORTED_TILES if t <= stop_at] or [stop_at]


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    k = (len(ordered) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def _depths_over(per_game: list[dict]) -> dict:
    """The games' depth counts (depth as text -> moves) added up, shallowest first."""
    total: Counter = Counter()
    for depths in per_game:
        total.update({int(d): n for d, n in depths.items()})
    return {str(d): total[d] for d in sorted(total)}


def summary_settings(settings: BenchSettings, workers: int, threads: int) -> dict:
    """How the games were played, as a summary writes it: every default resolved (defaults change)."""
    return {**asdict(settings), "shape": list(settings.shape), "deepen_gap": settings.resolved_deepen_gap(),
            "deepen_ms": DEFAULT_DEEPEN_MS, "threads": threads, "workers": workers, "described": settings.describe()}


def summarize(results: list[GameResult], settings: BenchSettings, seed: int, workers: int, elapsed_s: float,
              threads: int) -> dict:
    """The bench's figures as one JSON-ready object (`threads`: search threads per game)."""
    n = len(results)
    tiles = reported_tiles(settings.stop_at)
    move_ms = [ms for r in results for ms in r.move_ms]
    total_moves = sum(r.moves for r in results)
    game_seconds = sum(r.seconds for r in results)
    return {
        "games": n,
        "seed": seed,
        "settings": summary_settings(settings, workers, threads),
        "reached": {str(t): sum(r.max_tile >= t for r in results) / n for t in tiles},
        "mean_score": statistics.fmean(r.score for r in results),
        "median_score": statistics.median(r.score for r in results),
        "moves_mean": statistics.fmean(r.moves for r in results),
        "moves_median": statistics.median(r.moves for r in results),
        "moves_total": total_moves,
        "ms_per_move_median": percentile(move_ms, 0.5),
        "ms_per_move_p95": percentile(move_ms, 0.95),
        "depths": _depths_over([{str(d): n for d, n in r.depths.items()} for r in results]),
        "moves_per_s": total_moves / game_seconds if game_seconds > 0 else 0.0,  # one process
        "moves_per_s_all_workers": total_moves / elapsed_s if elapsed_s > 0 else 0.0,
        "elapsed_s": elapsed_s,
        "per_game": [
            {"seed": r.seed, "score": r.score, "moves": r.moves, "max_tile": r.max_tile, "over": r.over,
             "ms_per_move_median": percentile(r.move_ms, 0.5), "ms_per_move_p95": percentile(r.move_ms, 0.95),
             "depths": {str(d): n for d, n in r.depths.items()},  # how deep its moves were searched
             "final": [list(row) for row in r.final]}  # the last board: where a lost game died
            for r in results
        ],
    }


_DEFAULTS = {f.name: f.default for f in fields(BenchSettings)}
# Summaries in benchmarks/results name the agent by the fields below rather than by `player`: read
# they give the player and, for agents that are none of screenbot's players, a variant in words.
# A field a summary lacks reads as its default; a summary without `deepen_gap` predates deepening
# past the cap, so it reads as 0 (off); corner tables without a version are version 2.
_AGENT_FIELDS = ("corner", "corner_tables", "corner_depth", "corner_loss", "endgame_tables", "shared_table")


def normal_settings(settings: dict) -> dict:
    """A summary's settings in the current fields (see _AGENT_FIELDS), everything else as written."""
    s = {**_DEFAULTS, "deepen_gap": 0.0, **settings}
    s["shape"] = list(s["shape"])  # a summary without one: 4x4
    if "player" in settings:
        return s
    corner = settings.get("corner")
    s["player"] = {"table": f"corner-v{settings.get('corner_tables', 2)}", "eval": "corner-eval"}.get(corner, "plain")
    variant = []
    if settings.get("corner_depth") is not None:
        variant.append(f"macroxue's search at depth {settings['corner_depth']}")
    if settings.get("corner_loss", "fixed") != "fixed":
        variant.append(f"loss rule {settings['corner_loss']}")
    if settings.get("endgame_tables"):
        variant.append("endgame tables")
    if settings.get("shared_table"):
        variant.append("a table shared with sibling boards")
    s["variant"] = ", ".join(variant) or None
    for key in _AGENT_FIELDS:
        s.pop(key, None)
    return s


def same_settings(a: dict, b: dict) -> bool:
    """Whether two summaries' settings played the same games: everything but how many processes ran
    them (and the description, which follows from the rest)."""
    def played(s: dict) -> dict:
        return {k: v for k, v in normal_settings(s).items() if k not in ("workers", "described")}
    return played(a) == played(b)


def game_figures(games: list[dict], tiles: list[int]) -> dict:
    """The figures over games given as the summaries' per_game entries: seeds, tile shares, scores, moves."""
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


def merge_summaries(summaries: list[dict]) -> dict:
    """One summary over the games of several (e.g. one game per process, or a run resumed from the
    games it kept). They must share their settings (see `same_settings`) and no seed may come twice.
    The moves' own times are not kept in a summary, so time per move is the median of the games'
    medians and of their p95s, with the range across games. ValueError when they cannot be merged."""
    if not summaries:
        raise ValueError("no results to merge")
    if any(not same_settings(s["settings"], summaries[0]["settings"]) for s in summaries):
        raise ValueError("the results were made with different settings")
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
        raise ValueError("a seed appears twice")
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
        "depths": _depths_over([g["depths"] for g in games if "depths" in g]) if any("depths" in g for g in games) else None,
        "per_game": games,
    }
