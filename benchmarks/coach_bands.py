"""The size of a bad move's loss under each player's evaluation, for setting the coach's bands.

Plays seeded games with a player (depth 2, one thread), and on every `--every`-th board measures,
with each judging player, the loss (screenbot.coach.evaluate.loss_of) of a random other legal move
and of the worst legal move. Prints the medians by phase of the game (moves 0-999, 1000-4999,
5000 on), per judging player, and writes them as JSON.

    python -m benchmarks.coach_bands --games 3 --json benchmarks/results/coach_bands.json

With `--size RxC` (not 4x4) the games are played, and judged, by that size's own player (exact-3x3 on
3x3, any-size elsewhere: screenbot.agent.players.default_player) through the coach's own Judge, as
`review` judges; its games are split into thirds (early, mid, late) by their own length, since games
of other sizes last from a few hundred moves (3x3) to tens of thousands:

    python -m benchmarks.coach_bands --size 5x5 --games 2 --every 10 --max-moves 3000 --json FILE
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from screenbot.agent.players import make_player
from screenbot.coach.evaluate import Judge, loss_of
from screenbot.game.rules import Game, legal_moves
from screenbot.game.sizes import CLASSIC, format_size, parse_size

PHASES = ((0, 1000, "early"), (1000, 5000, "mid"), (5000, 10**9, "late"))


def phase_of(i: int) -> str:
    return next(name for lo, hi, name in PHASES if lo <= i < hi)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=70001)
    ap.add_argument("--every", type=int, default=25, help="measure every N-th board")
    ap.add_argument("--depth", default="2", help="the judges' depth: an int or 'adaptive' (play's rule)")
    ap.add_argument("--play", default="corner-eval", help="the player that plays the games")
    ap.add_argument("--judges", default="plain,corner-eval", help="the judging players, comma-separated")
    ap.add_argument("--max-moves", type=int, default=8000)
    ap.add_argument("--size", default="4x4", help="the board's size, RxC: other sizes are judged by their own player")
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args()
    shape = parse_size(args.size)
    if shape != CLASSIC:
        return other_size(args, shape)
    depth = args.depth if args.depth == "adaptive" else int(args.depth)
    player = make_player(args.play, threads=1, wait=True)
    judges = {name: make_player(name, threads=1, wait=True) for name in args.judges.split(",")}
    losses = {name: {p: {"other": [], "worst": []} for _, _, p in PHASES} for name in judges}
    rng = random.Random(args.seed)
    started = time.time()
    for g in range(args.games):
        game = Game(seed=args.seed + g)
        game.reset()
        i = 0
        while legal_moves(game.grid) and i < args.max_moves:
            if i % args.every == 0 and len(legal_moves(game.grid)) >= 2:
                legal = legal_moves(game.grid)
                for name, judge in judges.items():
                    d = judge.choose(game.grid, depth=depth)
                    others = [m for m in legal if m != d.move]
                    pick = others[rng.randrange(len(others))]
                    worst = min(legal, key=lambda m: d.values.get(m, float("-inf")))
                    losses[name][phase_of(i)]["other"].append(loss_of(d.values, pick, d.move))
                    losses[name][phase_of(i)]["worst"].append(loss_of(d.values, worst, d.move))
            game.step(player.choose(game.grid, depth=2).move)
            i += 1
        print(f"game {g + 1}: {i} moves, max tile {max(max(r) for r in game.grid)}", flush=True)
    out = {"date": time.strftime("%Y-%m-%d"), "command": "python -m benchmarks.coach_bands " + " ".join(
        f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items() if v is not None and k != "json"),
           "seconds": round(time.time() - started), "median_loss": {}}
    for name, by_phase in losses.items():
        out["median_loss"][name] = {}
        for phase, kinds in by_phase.items():
            if not kinds["other"]:
                continue
            row = {k: round(statistics.median(v), 5) for k, v in kinds.items()}
            row["boards"] = len(kinds["other"])
            out["median_loss"][name][phase] = row
            print(f"{name:12} {phase:6} boards {row['boards']:4}  random other {100 * row['other']:.2f} %  "
                  f"worst {100 * row['worst']:.2f} %")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n")


def other_size(args, shape) -> None:
    """Games of another size than 4x4, each move chosen by the size's own player, every `every`-th board
    judged by the coach's Judge: the loss of a random other legal move and of the worst legal move."""
    judge = Judge(shape=shape)
    name = judge.settings["player"]
    by_phase = {p: {"other": [], "worst": []} for p in ("early", "mid", "late")}
    rng = random.Random(args.seed)
    started = time.time()
    for g in range(args.games):
        game = Game(seed=args.seed + g, size=shape)
        game.reset()
        seen = []  # (move number, loss of a random other move, loss of the worst move)
        i = 0
        while legal_moves(game.grid) and i < args.max_moves:
            decision = judge.decision(game.grid)
            legal = legal_moves(game.grid)
            if i % args.every == 0 and len(legal) >= 2:
                others = [m for m in legal if m != decision.move]
                pick = others[rng.randrange(len(others))]
                worst = min(legal, key=lambda m: decision.values.get(m, float("-inf")))
                seen.append((i, loss_of(decision.values, pick, decision.move), loss_of(decision.values, worst, decision.move)))
            game.step(decision.move)
            judge.cache.clear()  # a board is seldom met twice: keep the memory flat
            i += 1
        for k, other, worst in seen:
            phase = ("early", "mid", "late")[min(2, 3 * k // max(i, 1))]
            by_phase[phase]["other"].append(other)
            by_phase[phase]["worst"].append(worst)
        print(f"game {g + 1}: {i} moves, max tile {max(max(r) for r in game.grid)}, score {game.score}", flush=True)
    command = "python -m benchmarks.coach_bands " + " ".join(
        f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items()
        if v is not None and k in ("size", "games", "seed", "every", "max_moves"))
    out = {"date": time.strftime("%Y-%m-%d"), "command": command, "size": format_size(shape), "judge": judge.described,
           "seconds": round(time.time() - started), "phases": "thirds of each game's moves", "median_loss": {name: {}}}
    by_phase["all"] = {k: [x for p in ("early", "mid", "late") for x in by_phase[p][k]] for k in ("other", "worst")}
    for phase, kinds in by_phase.items():
        if not kinds["other"]:
            continue
        row = {k: round(statistics.median(v), 5) for k, v in kinds.items()}
        row.update({f"{k}_p90": round(sorted(v)[int(0.9 * (len(v) - 1))], 5) for k, v in kinds.items()})
        row["boards"] = len(kinds["other"])
        out["median_loss"][name][phase] = row
        print(f"{name:12} {phase:6} boards {row['boards']:4}  random other {100 * row['other']:.2f} %  "
              f"worst {100 * row['worst']:.2f} %", flush=True)
    if args.json:
        with open(args.json, "a") as f:
            f.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
