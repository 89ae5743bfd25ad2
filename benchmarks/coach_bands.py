"""The size of a bad move's loss under each player's evaluation, for setting the coach's bands.

Plays seeded games with a player (depth 2, one thread), and on every `--every`-th board measures,
with each judging player, the loss (screenbot.coach.evaluate.loss_of) of a random other legal move
and of the worst legal move. Prints the medians by phase of the game (moves 0-999, 1000-4999,
5000 on), per judging player, and writes them as JSON.

    python -m benchmarks.coach_bands --games 3 --json benchmarks/results/coach_bands.json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from screenbot.agent.players import make_player
from screenbot.coach.evaluate import loss_of
from screenbot.game.rules import Game, legal_moves

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
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args()
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


if __name__ == "__main__":
    main()
