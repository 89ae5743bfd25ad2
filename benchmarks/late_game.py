"""The plain player's endgame on its own: seeded games played to their first 16384, then continued from there.

The player is `plain` (nneonneo's evaluation; other evaluations with --weights or --lines). Reaching
32768 is decided after the first 16384 (games at its defaults die at ~340-390k, while
building the second 16384), and a full game spends half its moves getting to the first 16384.
So settings are compared on the second half only:

    # 1. play seeded games at the defaults to their first 16384 (one line per game)
    python -m benchmarks.late_game snap --seeds 60001-60020 --out runs/snaps.jsonl
    # 2. continue every snapshot with some settings until 32768 or game over (one line per game)
    python -m benchmarks.late_game go --snaps runs/snaps.jsonl --depth-cap 8 --out runs/cap8.jsonl
    #    (or with the endgame tables choosing where they know the board:
    #     go --snaps runs/snaps.jsonl --tables [--table-threshold P --table-margin M --table-min-target T])
    # 3. the figures side by side
    python -m benchmarks.late_game show runs/cap6.jsonl runs/cap8.jsonl
    # 4. snapshots + one continuation as whole games, in `screenbot bench --json`'s shape (and its plot)
    python -m benchmarks.late_game whole --snaps runs/snaps.jsonl runs/cap8.jsonl --json out.json --plot out.png

Each step appends one JSON line per game as it ends, skips games already in --out (so a run that
is stopped resumes) and takes --part K/N to play every N-th game only (one process per core).
A continuation goes on with the game's own random stream (the generator's state after the
snapshot's spawns), so a snapshot and its continuation are exactly the full seeded game that plays
the defaults up to the first 16384 and the continuation's settings after it; two settings meet the
same tiles as long as they make the same moves.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from research import lines
from research.tables_agent import TABLE_MARGIN, TablesAgent
from research.weights import load_weights
from screenbot.agent.endgame import EndgameTables
from screenbot.agent.search import ExpectimaxAgent
from screenbot.bench.summary import percentile
from screenbot.game.rules import Game, max_tile

_RNG_STEP = 0x6D2B79F5  # mulberry32 adds this per draw; a game draws 2 per spawn (cell, value)


def _rng_state(seed: int, moves: int) -> int:
    """The generator's state after a seeded game's 2 first tiles and `moves` moves."""
    return (seed + 2 * (moves + 2) * _RNG_STEP) & 0xFFFFFFFF


def _seeds(text: str) -> list[int]:
    """Seeds given as ranges and single seeds: "60001-60020", "60014,60045", "1-3,7"."""
    seeds: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        seeds += range(int(lo), int(hi or lo) + 1)
    return seeds


def read_lines(path: Path) -> list[dict]:
    """A JSON-lines file's objects (none when it does not exist yet)."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def append_line(path: Path, line: dict) -> None:
    """One more object at the end of a JSON-lines file (a run that stops keeps every line before)."""
    with path.open("a") as f:
        f.write(json.dumps(line) + "\n")


def command_line() -> str:
    """The running command as typed from the repository's root (`python -m benchmarks.NAME ARGS`), for the
    "command" field every result line carries."""
    return " ".join([f"python -m benchmarks.{Path(sys.argv[0]).stem}", *sys.argv[1:]])


def _done(path: Path) -> set[int]:
    return {line["seed"] for line in read_lines(path)}


def _play(game: Game, agent: ExpectimaxAgent, stop_at: int, how: dict,
          table_moves: list[int] | None = None) -> tuple[list[float], bool]:
    """Play until stop_at or game over: (each move's ms, whether it ended over). table_moves, if given,
    counts the boards the endgame tables knew and the moves where they overrode the search."""
    move_ms: list[float] = []
    while max_tile(game.grid) < stop_at:
        decision = agent.choose(game.grid, **how)
        if decision.move is None:
            return move_ms, True
        if decision.chance is not None and table_moves is not None:
            table_moves[0] += 1
            table_moves[1] += decision.move != max(decision.values, key=lambda m: (decision.values[m], -m))
        game.step(decision.move)
        move_ms.append(decision.ms)
    return move_ms, False


def resume(snap: dict, rng_state: int) -> Game:
    """The game of a snapshot line (its board and score), to go on with the random stream at `rng_state`."""
    game = Game(seed=snap["seed"])
    game.reset(start=tuple(tuple(r) for r in snap["grid"]))
    game.score = snap["score"]
    game.rng.state = rng_state
    return game


def _agent(args) -> ExpectimaxAgent:
    if getattr(args, "tables", False):  # (go only)
        agent = TablesAgent(EndgameTables.load_or_build()[0], threads=args.threads, threshold=args.table_threshold,
                            margin=args.table_margin, min_target=args.table_min_target)
    else:
        weights = getattr(args, "weights", None)  # (go only: every board of a continuation holds 16384)
        network = getattr(args, "lines", None)
        try:
            table = load_weights(*weights) if weights else lines.row_table(lines.load(network)[0]) if network else None
        except ValueError as exc:
            sys.exit(f"late_game: {exc}")
        agent = ExpectimaxAgent(threads=args.threads, weights=table,
                                deepen_gap=getattr(args, "deepen_gap", None), deepen_ms=getattr(args, "deepen_ms", None))
    agent.warm_up()
    return agent


def _depth(text: str) -> int | str:
    return text if text == "adaptive" else int(text)


def _mine(items: list, part: str) -> list:
    k, n = (int(x) for x in part.split("/"))
    return items[k - 1::n]


def snap(args) -> None:
    out = Path(args.out)
    done = _done(out)
    agent = _agent(args)
    for seed in _mine(_seeds(args.seeds), args.part):
        if seed in done:
            continue
        game = Game(seed=seed)
        game.reset()
        started = time.perf_counter()
        move_ms, over = _play(game, agent, 16384, {} if args.depth is None else {"depth": _depth(args.depth)})
        assert game.rng.state == _rng_state(seed, game.moves)
        line = {"seed": seed, "grid": [list(r) for r in game.grid], "score": game.score, "moves": game.moves,
                "reached": not over, "seconds": time.perf_counter() - started,
                "ms_median": percentile(move_ms, 0.5), "max_tile": max_tile(game.grid),
                "settings": {"depth": args.depth, "lines": args.lines}, "command": command_line()}
        append_line(out, line)
        print(f"snap seed {seed}: {'16384' if not over else 'lost'} after {game.moves} moves", flush=True)


def go(args) -> None:
    out = Path(args.out)
    done = _done(out)
    agent = _agent(args)
    how = {"depth_cap": args.depth_cap, "budget_ms": args.budget_ms}
    extra = {"weights": args.weights} if args.weights else {}
    extra |= {"deepen_gap": args.deepen_gap, "deepen_ms": agent.deepen_ms} if args.deepen_gap else {}
    extra |= {"lines": args.lines} if args.lines else {}
    extra |= {"tables": True, "table_threshold": args.table_threshold, "table_margin": args.table_margin,
             "table_min_target": args.table_min_target} if args.tables else {}
    if args.cutoff is not None:
        how["cutoff"] = args.cutoff
    if args.depth is not None:
        how["depth"] = _depth(args.depth)
    snaps = read_lines(Path(args.snaps))
    for s in _mine([s for s in snaps if s["reached"]], args.part):
        if s["seed"] in done:
            continue
        game = resume(s, _rng_state(s["seed"], s["moves"]))
        started = time.perf_counter()
        table_moves = [0, 0]
        move_ms, over = _play(game, agent, args.stop_at, how, table_moves)
        line = {"seed": s["seed"], "max_tile": max_tile(game.grid), "score": game.score,
                "moves": s["moves"] + game.moves, "over": over, "seconds": time.perf_counter() - started,
                "ms_median": percentile(move_ms, 0.5), "ms_p95": percentile(move_ms, 0.95),
                "final": [list(r) for r in game.grid], "table_moves": table_moves[0],
                "table_moves_not_the_searchs": table_moves[1], "settings": {**how, **extra, "stop_at": args.stop_at, "threads": args.threads},
                "command": command_line()}
        append_line(out, line)
        print(f"go seed {s['seed']}: {max_tile(game.grid)} score {game.score}", flush=True)


def show(args) -> None:
    for name in args.files:
        games = read_lines(Path(name))
        if not games:
            print(f"{name}: no games")
            continue
        won = sum(g["max_tile"] >= 32768 for g in games)
        print(f"{name}: {len(games)} games from 16384, 32768 in {won} ({100 * won / len(games):.0f} %), "
              f"mean score {statistics.fmean(g['score'] for g in games):,.0f}, "
              f"ms/move median of games {statistics.median(g['ms_median'] for g in games):.1f}, "
              f"p95 median {statistics.median(g['ms_p95'] for g in games):.1f}")


def continued_with(settings: dict) -> str | None:
    """A go line's settings other than BenchSettings' own (the snapshots played the plain player's defaults),
    in words for its `variant`; None when there are none."""
    own = ("depth_cap", "deepen_gap", "stop_at", "threads")
    shown = {k: v for k, v in settings.items() if k not in own and v is not None}
    return "from the first 16384 on: " + ", ".join(f"{k} {v}" for k, v in shown.items()) if shown else None


def whole(args) -> None:
    """The snapshots and one continuation of each as whole games (a game lost before 16384 is its snapshot)."""
    from dataclasses import asdict

    from screenbot.bench.games import BenchSettings
    from screenbot.bench.summary import game_figures, reported_tiles
    from screenbot.bench.plot import plot_reach

    snaps = {s["seed"]: s for s in map(json.loads, Path(args.snaps).read_text().splitlines()) if s}
    conts = {c["seed"]: c for c in map(json.loads, Path(args.cont).read_text().splitlines()) if c}
    games = []
    for seed, s in sorted(snaps.items()):
        if s["reached"]:
            if seed not in conts:
                continue  # not continued yet
            c = conts[seed]
            games.append({"seed": seed, "score": c["score"], "moves": c["moves"], "max_tile": c["max_tile"],
                          "over": c["over"], "ms_per_move_median_before_16384": s["ms_median"],
                          "ms_per_move_median_after_16384": c["ms_median"], "ms_per_move_p95_after_16384": c["ms_p95"]})
        else:
            games.append({"seed": seed, "score": s["score"], "moves": s["moves"],
                          "max_tile": max(max(r) for r in s["grid"]), "over": True,
                          "ms_per_move_median_before_16384": s["ms_median"]})
    after_16384 = next(iter(conts.values()))["settings"]
    settings = BenchSettings(stop_at=32768, depth_cap=after_16384.get("depth_cap"),
                             deepen_gap=after_16384.get("deepen_gap"), player="plain",
                             variant=continued_with(after_16384))
    after = [g["ms_per_move_median_after_16384"] for g in games if "ms_per_move_median_after_16384" in g]
    summary = {
        **game_figures(games, reported_tiles(32768)),
        "settings": {**asdict(settings), "workers": 2, "described": settings.describe()
                     + "; one search thread per game, two games at a time"},
        "command": "python -m benchmarks.late_game snap (the defaults to the first 16384), then "
                   + next(iter(conts.values())).get("command", "go").split("/benchmarks/")[-1],
        "ms_per_move_median_of_games_before_16384": statistics.median(g["ms_per_move_median_before_16384"] for g in games),
        "ms_per_move_median_of_games_after_16384": statistics.median(after) if after else None,
        "ms_per_move_p95_median_of_games_after_16384":
            statistics.median(g["ms_per_move_p95_after_16384"] for g in games if "ms_per_move_p95_after_16384" in g)
            if after else None,
        "per_game": games,
    }
    print(json.dumps({k: v for k, v in summary.items() if k != "per_game"}, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1) + "\n")
    if args.plot:
        plot_reach(summary, args.plot)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="step", required=True)
    p = sub.add_parser("snap")
    p.add_argument("--seeds", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--part", default="1/1")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--depth", help="a fixed depth (or adaptive) without a budget, instead of play's defaults")
    p.add_argument("--lines", help="evaluate with this line network (benchmarks.train_lines) instead of nneonneo's heuristic")
    p = sub.add_parser("go")
    p.add_argument("--snaps", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--part", default="1/1")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--tables", action="store_true", help="the endgame tables' move where they know the board")
    p.add_argument("--table-threshold", type=float, default=0.0)
    p.add_argument("--table-margin", type=float, default=TABLE_MARGIN)
    p.add_argument("--table-min-target", type=int, default=0)
    p.add_argument("--weights", nargs="+", metavar=("FILE", "KEY"),
                   help="the heuristic's weights from this JSON file (benchmarks.tune_weights --best), under KEY (default: weights)")
    p.add_argument("--depth")
    p.add_argument("--lines", help="evaluate with this line network (benchmarks.train_lines) instead of nneonneo's heuristic")
    p.add_argument("--depth-cap")
    p.add_argument("--deepen-gap", type=float, help="close calls deepen up to the uncapped rule (ExpectimaxAgent's deepen_gap)")
    p.add_argument("--deepen-ms", type=float, help="... within this long from the decision's start (default: the agent's)")
    p.add_argument("--budget-ms", type=float)
    p.add_argument("--cutoff", type=float)
    p.add_argument("--stop-at", type=int, default=32768)
    p = sub.add_parser("whole")
    p.add_argument("--snaps", required=True)
    p.add_argument("cont")
    p.add_argument("--json")
    p.add_argument("--plot")
    p = sub.add_parser("show")
    p.add_argument("files", nargs="+")
    args = parser.parse_args()
    if len(getattr(args, "weights", None) or ()) > 2:
        parser.error("--weights takes a file and at most one key")
    if getattr(args, "weights", None) and args.lines:
        parser.error("--weights and --lines are two evaluations: give one")
    {"snap": snap, "go": go, "show": show, "whole": whole}[args.step](args)


if __name__ == "__main__":
    main()
