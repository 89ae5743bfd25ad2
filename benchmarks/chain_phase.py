"""Where the plain player's games (nneonneo's evaluation, `--player plain`) at its defaults die before 16384:
the last phase (8192, 4096 and 2048 on the board) on its own.

Most games lost before 16384 die in its last ~900 moves (bench's last boards: 8192, 4096, 2048, 1024,
512 ... on a full board), so this plays that phase alone, many times over, from the boards games
at the defaults actually reached:

    # 1. seeded games at the defaults; each line keeps the game's first board holding 8192, 4096
    #    and 2048 (the phase's start) and how the game ended
    python -m benchmarks.chain_phase record --seeds 60014,60045 --out runs/phase_snaps.jsonl [--part 1/2]
    # 2. each phase board played on to 16384 (or game over) with K random streams
    python -m benchmarks.chain_phase go --snaps runs/phase_snaps.jsonl --streams 8 --out runs/A.jsonl [--depth-cap D]
    # 3. the figures
    python -m benchmarks.chain_phase show runs/A.jsonl runs/B.jsonl

Stream s of the game with seed S is the rules engine's generator seeded with S * 1000 + s (the
phase board is the same, the tiles that come after it differ). Every step appends one JSON line as
a game ends and skips what --out already holds, so a stopped run resumes; --part K/N plays every
N-th game only (one process per core).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from benchmarks.late_game import _done, _mine, _play, _seeds, append_line, command_line, read_lines

from screenbot.agent import make_player
from screenbot.agent.base import Agent
from screenbot.bench.summary import percentile
from screenbot.game.rules import Game, max_tile

PHASE_TILES = (8192, 4096, 2048)  # the phase starts on the first board holding all of them
GOAL = 16384
STREAM_SEED = 1000  # stream s of seed S: Game(seed=S * STREAM_SEED + s)


def in_phase(grid) -> bool:
    tiles = {v for row in grid for v in row}
    return all(t in tiles for t in PHASE_TILES)


def _agent(args) -> Agent:
    agent = make_player("plain", depth_cap=args.depth_cap, threads=1)
    agent.warm_up()
    return agent


def _how(args) -> dict:
    return {} if args.cutoff is None else {"cutoff": args.cutoff}


def _settings(args) -> dict:
    """What a line says it was played with."""
    return {"depth_cap": args.depth_cap, "cutoff": args.cutoff}


def record(args) -> None:
    out = Path(args.out)
    done = _done(out)
    agent = _agent(args)
    for seed in _mine(_seeds(args.seeds), args.part):
        if seed in done:
            continue
        game = Game(seed=seed)
        game.reset()
        phase = None
        over = False
        while max_tile(game.grid) < GOAL:
            if phase is None and in_phase(game.grid):
                phase = {"move": game.moves, "score": game.score, "grid": [list(r) for r in game.grid]}
            decision = agent.choose(game.grid, **_how(args))
            if decision.move is None:
                over = True
                break
            game.step(decision.move)
        line = {"seed": seed, "reached": not over, "moves": game.moves, "score": game.score,
                "max_tile": max_tile(game.grid), "phase": phase, "final": [list(r) for r in game.grid],
                "settings": _settings(args), "command": command_line()}
        append_line(out, line)
        print(f"record seed {seed}: {'16384' if not over else 'lost'} after {game.moves} moves", flush=True)


def stream_games(snaps: Path, streams: int, out: Path, part: str):
    """The continuations still to play: (phase line, stream, its game at the phase board) for each phase
    board in `snaps` and stream 0 .. streams - 1 that `out` does not hold yet, this part's share only."""
    done = {(line["seed"], line["stream"]) for line in read_lines(out)}
    jobs = [(s, k) for s in read_lines(snaps) if s["phase"] for k in range(streams)]
    for snap, stream in _mine(jobs, part):
        if (snap["seed"], stream) in done:
            continue
        game = Game(seed=snap["seed"] * STREAM_SEED + stream)
        game.reset(start=tuple(tuple(r) for r in snap["phase"]["grid"]))
        yield snap, stream, game


def go(args) -> None:
    out = Path(args.out)
    agent = _agent(args)
    for snap, stream, game in stream_games(Path(args.snaps), args.streams, out, args.part):
        started = time.perf_counter()
        move_ms, _ = _play(game, agent, GOAL, _how(args))
        line = {"seed": snap["seed"], "stream": stream, "from_move": snap["phase"]["move"],
                "reached": max_tile(game.grid) >= GOAL, "moves": game.moves, "final": [list(r) for r in game.grid],
                "ms_median": percentile(move_ms, 0.5), "ms_p95": percentile(move_ms, 0.95),
                "seconds": time.perf_counter() - started,
                "settings": _settings(args), "command": command_line()}
        append_line(out, line)
        print(f"go seed {snap['seed']} stream {stream}: {'16384' if line['reached'] else 'lost'}", flush=True)


def show(args) -> None:
    for name in args.files:
        games = read_lines(Path(name))
        if not games:
            print(f"{name}: no games")
            continue
        won = sum(g["reached"] for g in games)
        print(f"{name}: {len(games)} continuations from {len({g['seed'] for g in games})} phase boards, "
              f"16384 in {won} ({100 * won / len(games):.1f} %), ms/move median of games "
              f"{statistics.median(g['ms_median'] for g in games):.1f}, p95 median "
              f"{statistics.median(g['ms_p95'] for g in games):.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="step", required=True)
    for name in ("record", "go"):
        p = sub.add_parser(name)
        p.add_argument("--out", required=True)
        p.add_argument("--part", default="1/1")
        p.add_argument("--depth-cap", type=int, help="the adaptive depth's cap (default: the agent's, 6)")
        p.add_argument("--cutoff", type=float, help="the search's chance cutoff (default: the agent's, 1e-4)")
        if name == "record":
            p.add_argument("--seeds", required=True, help="e.g. 60001-60010 or 60014,60045")
        else:
            p.add_argument("--snaps", required=True)
            p.add_argument("--streams", type=int, default=8)
    p = sub.add_parser("show")
    p.add_argument("files", nargs="+")
    args = parser.parse_args()
    {"record": record, "go": go, "show": show}[args.step](args)


if __name__ == "__main__":
    main()
