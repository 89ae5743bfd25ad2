"""Whole seeded games of a player at a fixed depth on one thread: no time limit, so the same code plays
the same moves on any machine, busy or not. Prints one JSON line per game (seed, score, moves, max
tile); two versions of the player chose the same moves wherever their lines agree.

    python -m benchmarks.fixed_depth_games --player corner-v4 --games 10 --seed 1 --depth 2
    python -m benchmarks.fixed_depth_games --player corner-v4 --games 10 --seed 1 --depth 2 --late

`--late`: game i starts from the i-th of the pair table's start boards (a 16384, 8192, 4096 block in
a corner), so that the block tables choose most of its moves.
"""

from __future__ import annotations

import argparse
import json
import time

from screenbot.agent.corner import pair_starts
from screenbot.agent.players import PLAYERS, make_player
from screenbot.game.rules import Game, max_tile


def play(agent, seed: int, depth: int, start=None) -> dict:
    game = Game(seed=seed)
    game.reset(start=start)
    started = time.perf_counter()
    while True:
        move = agent.choose(game.grid, depth=depth).move
        if move is None:
            break
        game.step(move)
    return {"seed": seed, "score": game.score, "moves": game.moves, "max_tile": max_tile(game.grid),
            "seconds": round(time.perf_counter() - started, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--player", default="corner-v4", choices=tuple(PLAYERS))
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--late", action="store_true", help="start from the pair table's start boards")
    args = ap.parse_args()
    agent = make_player(args.player, threads=1, wait=True)
    starts = pair_starts() if args.late else [None]
    for i, seed in enumerate(range(args.seed, args.seed + args.games)):
        print(json.dumps(play(agent, seed, args.depth, starts[i % len(starts)])), flush=True)


if __name__ == "__main__":
    main()
