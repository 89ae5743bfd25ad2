"""When play's tables first answer in a game: the move index of the first decision they make.

    .venv/bin/python -m benchmarks.first_table_move [--seeds 60001-60040] [--json FILE]

Plays each seed's game as bench does (`make_player("corner-v4", threads=1)`, play's defaults, the
tables mapped before the first move) up to the first decision the tables make, and prints that
move's index per seed, with the minimum and the median. Play takes its tables in the background
(table_supply.py): a game whose tables are taken before this move plays exactly the player it plays
with them from the start, since until then the tables have answered nothing.
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import time

from benchmarks.jsonl import emit


def first_table_move(agent, seed: int, limit: int = 60_000) -> tuple[int | None, int]:
    """(the index of the first move the tables chose, or None; the game's max tile then)."""
    from screenbot.game.rules import Game, legal_moves

    game = Game(seed=seed)
    game.reset()
    for i in range(limit):
        if not legal_moves(game.grid):
            break
        decision = agent.choose(game.grid)
        if decision.chance is not None:
            return i, max(max(row) for row in game.grid)
        game.step(decision.move)
    return None, max(max(row) for row in game.grid)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="60001-60040", help="A-B (inclusive)")
    parser.add_argument("--json", metavar="FILE", help="append one JSON line per seed, then a summary line")
    args = parser.parse_args(argv)
    first, last = (int(x) for x in args.seeds.split("-"))
    from screenbot.agent.players import make_player

    agent = make_player("corner-v4", threads=1, wait=True)
    agent.warm_up()
    found = []
    for seed in range(first, last + 1):
        start = time.monotonic()
        move, tile = first_table_move(agent, seed)
        row = {"seed": seed, "first_table_move": move, "max_tile_then": tile, "seconds": round(time.monotonic() - start)}
        emit(row, args.json)
        if move is not None:
            found.append(move)
    summary = {"date": datetime.date.today().isoformat(),
               "command": "python -m benchmarks.first_table_move " + " ".join(argv or sys.argv[1:]),
               "seeds": last - first + 1, "answered": len(found),
               "min": min(found) if found else None, "median": statistics.median(found) if found else None}
    emit(summary, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
