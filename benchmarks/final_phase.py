"""The corner player's last phase on its own: from the first board holding 16384, 8192, 4096, 2048 and 1024
to 32768 (or game over), many times over.

Games at play's defaults that reach 16384 but not 32768 mostly die in the last ~500 moves
(results/strength_32768_corner_100_games.json, 2026-11-24: 22 of 26 such games ended at a score of
382.8k-387.4k, most of them one 64 short of merging the whole chain). A whole game costs about 2.5
minutes of a core; this phase about a second (the tables play ~92 % of its moves), so settings for it
can be compared over hundreds of runs:

    # 1. continue benchmarks.late_game's snapshots (seeded games at their first 16384) with the corner player
    #    until the phase's first board (one line per game; the continuation uses the game's own stream),
    #    or (--seeds) play whole seeded games with it from their start, as `screenbot bench` does
    python -m benchmarks.final_phase record --snaps benchmarks/results/late_game/snaps_60001-60020.jsonl \\
        --out runs/final_snaps.jsonl [--part 1/2]
    python -m benchmarks.final_phase record --seeds 60001-60040 --out runs/final_from_start.jsonl [--part 1/2]
    # 2. each phase board played on K random streams with some setting (one line per run)
    python -m benchmarks.final_phase go --snaps runs/final_snaps.jsonl --streams 8 --out runs/A.jsonl \\
        [--deepen-ms MS] [--big-min P] [--threads T] [--part 1/2]
    # 3. the figures, and runs of two files compared pair by pair (same board, same stream)
    python -m benchmarks.final_phase show runs/A.jsonl runs/B.jsonl

Stream s of a phase board from seed S is the rules engine's generator seeded with S * 1000 + s (as in
benchmarks.chain_phase, whose `stream_games` deals them out). Every step appends one JSON line as a
run ends and skips what --out already holds (a stopped run resumes); --part K/N plays every N-th job
only (one process per core). Each process loads play's corner tables from the user cache dir (1.8 GB).

The variants (--big-min, --small-sure, --ahead, --l7, --small256, --no-pair, --pair-min, --corner-depth,
--corner-loss) are research/final_tables.py's and research/macroxue.py's tables and agents; macroxue's pruning
by pass score is not reproduced (--pass-score says so).

play's tables (version 4) hold the pair table (block_tables.PAIR); `go --no-pair` plays with the big and
small tables alone (version 2's set); `buildpair --out FILE` solves the pair table alone (~4 min, 4.4 GB)
as play's build does.

The small table taken up to 256 (block_tables.SMALL_256, an experiment: results/final_phase/small256_sure_*.jsonl,
2026-11-25):
    python -m benchmarks.final_phase build256 --snaps PHASE_BOARDS --out small256.npz   # ~40 min, 11 GB
    python -m benchmarks.final_phase go --snaps PHASE_BOARDS --small256 small256.npz --out runs/B.jsonl ...
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from benchmarks.chain_phase import stream_games
from benchmarks.late_game import _mine, _rng_state, _seeds, append_line, command_line, read_lines, resume

from research.final_tables import AheadAgent, L7Agent, load_small256, phase_tables, play_tables
from research.macroxue import LOSS_RULES, PASS_SCORE, MacroxueAgent
from screenbot.agent.block_tables import PAIR, SMALL_256, BlockTables
from screenbot.agent.corner import CornerAgent, solve_pair_table
from screenbot.agent.players import PLAY_SOLVE_BUDGET
from screenbot.bench.summary import percentile
from screenbot.errors import TableError
from screenbot.game.rules import Game, max_tile

PHASE_TILES = (16384, 8192, 4096, 2048, 1024)
GOAL = 32768


def in_phase(grid) -> bool:
    tiles = {v for row in grid for v in row}
    return all(t in tiles for t in PHASE_TILES)


def _agent(args) -> MacroxueAgent:
    if getattr(args, "pass_score", False):
        sys.exit(f"final_phase: {PASS_SCORE}")
    try:
        tables = play_tables()
        small256 = load_small256(Path(args.small256)) if getattr(args, "small256", None) else None
    except TableError as exc:
        sys.exit(f"final_phase: {exc}")
    tables = phase_tables(tables, small256=small256, pair=not getattr(args, "no_pair", False),
                          small_sure=getattr(args, "small_sure", None), pair_min=getattr(args, "pair_min", None),
                          big_min=getattr(args, "big_min", None))
    budget = getattr(args, "solve_budget", None)
    how = dict(threads=getattr(args, "threads", 1), deepen_ms=getattr(args, "deepen_ms", None),
               solve_budget=PLAY_SOLVE_BUDGET if budget is None else budget, fixed_depth=_corner_depth(args),
               loss=getattr(args, "corner_loss", None) or "fixed")
    if getattr(args, "ahead", None) is not None:
        agent = AheadAgent(tables, args.ahead, **how)
    elif getattr(args, "l7", None):
        from screenbot.agent.endgame import SHAPES, EndgameTables

        l7 = EndgameTables.build(shapes=SHAPES[:1])  # about 10 s, kept in memory only
        agent = L7Agent(tables, l7, args.l7, **how)
    else:
        agent = MacroxueAgent(tables, **how)
    if _corner_depth(args) is not None:
        print(f"final_phase: note: {PASS_SCORE}", file=sys.stderr)
    agent.warm_up()
    return agent


def _corner_depth(args) -> int | None:
    """macroxue's fixed depth (without its pass-score pruning: research/macroxue.py), or None for the
    adaptive rule (play's)."""
    depth = getattr(args, "corner_depth", "adaptive")
    return None if depth == "adaptive" else int(depth)


def _variant(args) -> dict:
    return {k: v for k, v in {"big_min": getattr(args, "big_min", None), "loss": getattr(args, "corner_loss", None)}.items()
            if v is not None}


def _settings(args) -> dict:
    depth = _corner_depth(args)
    return {"deepen_ms": getattr(args, "deepen_ms", None), "threads": getattr(args, "threads", 1),
            "l7": getattr(args, "l7", None), "ahead": getattr(args, "ahead", None), "small_sure": getattr(args, "small_sure", None),
            "small256": getattr(args, "small256", None), **_variant(args),
            **({"pair": False} if getattr(args, "no_pair", False) else {}),
            **({"pair_min": args.pair_min} if getattr(args, "pair_min", None) is not None else {}),
            **({"solve_budget": args.solve_budget} if getattr(args, "solve_budget", None) is not None else {}),
            **({"corner_depth": depth, "pass_score": False} if depth is not None else {})}


CHANCES = (0.1, 0.5, 0.9)  # table moves are counted by their chance: below 0.1, below 0.5, below 0.9, from 0.9


def _play(game: Game, agent, stop_at: int, stop=None, chances: list[int] | None = None
          ) -> tuple[list[float], int, bool]:
    """Play until stop_at, stop(grid) or game over: (each move's ms, table moves, whether it ended over);
    `chances` (len(CHANCES) + 1 counters) counts the table moves by their chance."""
    move_ms: list[float] = []
    table = 0
    while max_tile(game.grid) < stop_at and not (stop and stop(game.grid)):
        decision = agent.choose(game.grid)
        if decision.move is None:
            return move_ms, table, True
        if decision.chance is not None:
            table += 1
            if chances is not None:
                chances[sum(decision.chance >= c for c in CHANCES)] += 1
        game.step(decision.move)
        move_ms.append(decision.ms)
    return move_ms, table, False


def _starts(args) -> list[tuple[int, Game, int]]:
    """record's games as (seed, game, moves played before it): benchmarks.late_game's snapshots (--snaps) to go
    on with each game's own stream, or whole seeded games from their first tiles (--seeds), as
    `screenbot bench` plays them."""
    if args.seeds:
        games = []
        for seed in _seeds(args.seeds):
            game = Game(seed=seed)
            game.reset()
            games.append((seed, game, 0))
        return games
    snaps = [s for s in read_lines(Path(args.snaps)) if s["reached"]]
    return [(s["seed"], resume(s, _rng_state(s["seed"], s["moves"])), s["moves"]) for s in snaps]


def record(args) -> None:
    if bool(args.snaps) == bool(args.seeds):
        sys.exit("final_phase record: give --snaps or --seeds")
    out = Path(args.out)
    done = {line["seed"] for line in read_lines(out)}
    agent = _agent(args)
    for seed, game, before in _mine(_starts(args), args.part):
        if seed in done:
            continue
        started = time.perf_counter()
        move_ms, table, over = _play(game, agent, GOAL, in_phase)
        phase = None if over or not in_phase(game.grid) else {
            "move": before + game.moves, "score": game.score, "grid": [list(r) for r in game.grid]}
        line = {"seed": seed, "phase": phase, "over": over, "final": [list(r) for r in game.grid],
                "moves": before + game.moves, "score": game.score, "table_moves": table,
                "seconds": time.perf_counter() - started, "command": command_line()}
        append_line(out, line)
        print(f"record seed {seed}: {'phase' if phase else 'lost'} at move {line['moves']}", flush=True)


def go(args) -> None:
    out = Path(args.out)
    agent = _agent(args)
    for snap, stream, game in stream_games(Path(args.snaps), args.streams, out, args.part):
        started = time.perf_counter()
        chances = [0] * (len(CHANCES) + 1)
        move_ms, table, over = _play(game, agent, GOAL, chances=chances)
        line = {"seed": snap["seed"], "stream": stream, "reached": max_tile(game.grid) >= GOAL,
                "moves": game.moves, "score_gain": game.score, "table_moves": table,
                "table_moves_by_chance": dict(zip(("<0.1", "<0.5", "<0.9", ">=0.9"), chances)),
                "final": [list(r) for r in game.grid],
                "ms_median": percentile(move_ms, 0.5), "ms_p95": percentile(move_ms, 0.95),
                "seconds": time.perf_counter() - started, "settings": _settings(args),
                "command": command_line()}
        append_line(out, line)
        print(f"go seed {snap['seed']} stream {stream}: {'32768' if line['reached'] else 'lost'} "
              f"({game.moves} moves, {line['seconds']:.0f} s)", flush=True)


def build256(args) -> None:
    """The variant small table with anchors up to 256 (5.7 G keys, dense: 11.3 GB of address space),
    solved for the phase boards: every state their roots reach (shared out between --threads), then
    each board played once (stream 999, not one of go's) with it, solving what play asks for; saved
    compact to --out."""
    try:
        play = play_tables()
    except TableError as exc:
        sys.exit(f"final_phase: {exc}")
    wide = BlockTables(kinds=(SMALL_256,))
    snaps = [s for s in read_lines(Path(args.snaps)) if s["phase"]]
    started = time.perf_counter()
    for i, s in enumerate(snaps):
        wide.solve_shared(tuple(tuple(r) for r in s["phase"]["grid"]), SMALL_256, args.threads)
        print(f"build256: board {i + 1}/{len(snaps)} (seed {s['seed']}): {wide.solved:,} states, "
              f"{time.perf_counter() - started:.0f} s", flush=True)
    tables = phase_tables(play, small256=wide)  # what play asks for is solved into wide
    agent = CornerAgent(tables, threads=1, solve_budget=np.inf)
    agent.warm_up()
    for s in snaps:
        game = Game(seed=s["seed"] * 1000 + 999)
        game.reset(start=tuple(tuple(r) for r in s["phase"]["grid"]))
        _play(game, agent, GOAL)
        print(f"build256: played seed {s['seed']}: {tables.states_solved():,} states solved, "
              f"{time.perf_counter() - started:.0f} s", flush=True)
    size = wide.save(Path(args.out))
    print(f"build256: {wide.states_solved():,} states, {size / 1e9:.2f} GB in {args.out}, "
          f"{time.perf_counter() - started:.0f} s", flush=True)


def buildpair(args) -> None:
    """The pair table alone (block_tables.PAIR): every state reachable from its starts (pair_starts in corner.py),
    solved densely (2.2 G keys: 4.4 GB) and saved compact to --out (play's build does the same)."""
    started = time.perf_counter()
    pair = BlockTables(kinds=())
    pair.tables[PAIR] = solve_pair_table(args.threads)
    size = pair.save(Path(args.out))
    print(f"buildpair: {pair.states_solved():,} states, {size / 1e9:.2f} GB in {args.out}, "
          f"{time.perf_counter() - started:.0f} s", flush=True)


def _wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return mid - half, mid + half


def show(args) -> None:
    runs = {}
    for name in args.files:
        lines = read_lines(Path(name))
        runs[name] = {(r["seed"], r["stream"]): r for r in lines}
        if not lines:
            print(f"{name}: no runs")
            continue
        won = sum(r["reached"] for r in lines)
        lo, hi = _wilson(won, len(lines))
        print(f"{name}: {len(lines)} runs from {len({r['seed'] for r in lines})} phase boards, 32768 in {won} "
              f"({100 * won / len(lines):.1f} %, Wilson 95 % {100 * lo:.0f}-{100 * hi:.0f} %); "
              f"moves median {statistics.median(r['moves'] for r in lines)}, table moves "
              f"{100 * sum(r['table_moves'] for r in lines) / max(1, sum(r['moves'] for r in lines)):.1f} %, "
              f"ms/move median of runs {statistics.median(r['ms_median'] for r in lines):.1f}, "
              f"p95 median {statistics.median(r['ms_p95'] for r in lines):.1f}")
        buckets = {}
        for r in lines:
            for k, v in r.get("table_moves_by_chance", {}).items():
                buckets[k] = buckets.get(k, 0) + v
        if buckets:
            print("    table moves by chance: " + ", ".join(f"{k} {v}" for k, v in buckets.items()))
    names = list(runs)
    for a, b in zip(names, names[1:]):
        both = sorted(set(runs[a]) & set(runs[b]))
        only_a = sum(runs[a][k]["reached"] and not runs[b][k]["reached"] for k in both)
        only_b = sum(runs[b][k]["reached"] and not runs[a][k]["reached"] for k in both)
        # exact two-sided sign test on the discordant pairs (McNemar)
        n = only_a + only_b
        tail = sum(math.comb(n, i) for i in range(min(only_a, only_b) + 1)) / 2 ** n if n else 1.0
        print(f"{a} vs {b}: {len(both)} common runs; 32768 in {sum(runs[a][k]['reached'] for k in both)} vs "
              f"{sum(runs[b][k]['reached'] for k in both)}; only the first {only_a}, only the second {only_b} "
              f"(sign test p = {min(1.0, 2 * tail):.3f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="step", required=True)
    for name in ("record", "go"):
        p = sub.add_parser(name)
        p.add_argument("--snaps", required=name == "go", help="record: benchmarks.late_game's snapshots; go: record's lines")
        p.add_argument("--out", required=True)
        p.add_argument("--part", default="1/1")
        p.add_argument("--corner-loss", choices=LOSS_RULES,
                       help="where a lost board lies below the evaluation's 0 (default fixed, play's; see "
                            "research.macroxue.lost_value)")
        p.add_argument("--corner-depth", default="adaptive",
                       help="macroxue's search at this depth, without its pass-score pruning (research/macroxue.py; "
                            "final_phase/d8_*.jsonl, 2026-11-25, searched at 8 with it); default 'adaptive': nneonneo's "
                            "rule with the corner evaluation, as play searches")
        p.add_argument("--pass-score", action="store_true",
                       help="macroxue's pruning by pass score: not reproduced (the script says so and stops)")
        if name == "record":
            p.add_argument("--seeds", help="record: whole seeded games from their start instead, e.g. 60001-60040")
        if name == "go":
            p.add_argument("--streams", type=int, default=8)
            p.add_argument("--deepen-ms", type=float, help="the deepening's bound (default: play's, 80)")
            p.add_argument("--big-min", type=float, help="play the big table only from this chance (a variant)")
            p.add_argument("--threads", type=int, default=1, help="search threads (default 1; play uses 2)")
            p.add_argument("--small-sure", type=float, help="play the small table from this chance (default 0.9)")
            p.add_argument("--ahead", type=int, help="solve the big table at the board's anchor + this (a variant)")
            p.add_argument("--l7", type=int, help="play the exact L7 endgame table from this target (a variant)")
            p.add_argument("--small256", metavar="FILE", help="the small table up to 256 (from build256) in place of play's")
            p.add_argument("--no-pair", action="store_true", help="without the pair table (tables version 2's set)")
            p.add_argument("--pair-min", type=float, help="play the pair table from this chance (default: above 0)")
            p.add_argument("--solve-budget", type=float,
                           help=f"table states one decision may solve (default: play's, {PLAY_SOLVE_BUDGET:,})")
    p = sub.add_parser("build256")
    p.add_argument("--snaps", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--threads", type=int, default=2)
    p = sub.add_parser("buildpair")
    p.add_argument("--out", required=True)
    p.add_argument("--threads", type=int, default=2)
    p = sub.add_parser("show")
    p.add_argument("files", nargs="+")
    args = parser.parse_args()
    {"record": record, "go": go, "build256": build256, "buildpair": buildpair, "show": show}[args.step](args)


if __name__ == "__main__":
    main()
