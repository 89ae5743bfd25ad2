"""Play's tables solved as the game asks, against the made file: the same boards, both asked.

    .venv/bin/python -m benchmarks.tables_on_demand [--seed 60001] [--moves 4000] [--json FILE]

Plays one seeded game with play's player and its made tables (`make_player("corner-v4", wait=True)`,
one search thread); on every board it also asks tables that start empty and solve what each decision
needs within play's budget (`PLAY_SOLVE_BUDGET` states), and counts: the made tables' moves, how many of
them the empty tables gave too, the time their decisions took, and the memory their solved states took.
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import time

from benchmarks.jsonl import emit


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=60001)
    parser.add_argument("--moves", type=int, default=4000)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    from screenbot.agent.block_tables import BlockTables
    from screenbot.agent.corner import CornerAgent
    from screenbot.agent.players import PLAY_SOLVE_BUDGET, make_player
    from screenbot.game.rules import Game, legal_moves

    made = make_player("corner-v4", threads=1, wait=True)
    asked = CornerAgent(BlockTables.empty_compact(), threads=1, solve_budget=PLAY_SOLVE_BUDGET)
    game = Game(seed=args.seed)
    game.reset()
    table_moves = same = 0
    ms = []
    for i in range(args.moves):
        if not legal_moves(game.grid):
            break
        decision = made.choose(game.grid)
        start = time.perf_counter()
        answer = asked.table_decision(game.grid)
        ms.append((time.perf_counter() - start) * 1000)
        if decision.chance is not None:
            table_moves += 1
            same += answer is not None and answer.move == decision.move
        game.step(decision.move)
    overlay = sum(t.okeys.nbytes + t.ovals.nbytes for t in asked.block.tables.values())
    emit({"date": datetime.date.today().isoformat(),
          "command": "python -m benchmarks.tables_on_demand " + " ".join(argv or sys.argv[1:]),
          "seed": args.seed, "moves": i + 1, "made_tables_moves": table_moves, "same_move_on_demand": same,
          "on_demand_ms_median": round(statistics.median(ms), 2), "on_demand_ms_max": round(max(ms), 1),
          "on_demand_mb": round(overlay / 2**20), "states_solved": asked.block.solved,
          "unfinished": asked.block.unfinished}, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
