"""Where the corner player's lost games went: each seeded game replayed as bench plays it with play's player
(`corner-v4`: block tables, else the search; --corner-depth D: research.macroxue's search at depth D, without
macroxue's pruning by pass score), with every move's source kept,
and for the games that end short of the stop tile, how their last moves were chosen.

    .venv/bin/python -m benchmarks.lost_games --seeds 60028,60029 [--corner-depth 8] [--stop-at 32768] [--last 200]
                                              [--json out.jsonl]

Per game: the end (max tile, score, moves), the phase it ended in (before 16384; after it, before the board
that holds 16384, 8192, 4096, 2048 and 1024; in that last phase; or won), the share of table moves over the
whole game and over its last N moves, the last move a table chose and how many searched moves followed it,
and the boards at the moment the tables last knew the board and at the end. Games replay move for move only
while no search meets its time budget (bench's rule too), so a replay on a busy machine can part from bench's.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from benchmarks.final_phase import PHASE_TILES
from benchmarks.late_game import _seeds, command_line

from research.macroxue import PASS_SCORE, MacroxueAgent
from screenbot.agent.corner import load_or_build
from screenbot.agent.players import PLAY_SOLVE_BUDGET
from screenbot.bench.games import BenchSettings, make_agent
from screenbot.game.rules import Game, max_tile


def phase(grid, stop_at: int) -> str:
    tiles = {v for row in grid for v in row}
    if max_tile(grid) >= stop_at:
        return "won"
    if max_tile(grid) < 16384:
        return "before 16384"
    return "last phase" if set(PHASE_TILES) <= tiles else "after 16384, before the last phase"


def replay(seed: int, agent, stop_at: int, last: int) -> dict:
    game = Game(seed=seed)
    game.reset()
    sources = []  # per move: the table's chance, or None for a searched move
    table_board = None
    started = time.perf_counter()
    while max_tile(game.grid) < stop_at:
        decision = agent.choose(game.grid)
        if decision.move is None:
            break
        if decision.chance is not None:
            table_board = game.grid
        sources.append(decision.chance)
        game.step(decision.move)
    tail = sources[-last:]
    searched_after = next((i for i, s in enumerate(reversed(sources)) if s is not None), len(sources))
    return {"seed": seed, "max_tile": max_tile(game.grid), "score": game.score, "moves": game.moves,
            "end": phase(game.grid, stop_at),
            "table_share": round(sum(s is not None for s in sources) / max(1, len(sources)), 3),
            f"table_share_last_{last}": round(sum(s is not None for s in tail) / max(1, len(tail)), 3),
            "low_chance_table_moves_last": sum(s is not None and s < 0.5 for s in tail),
            "searched_moves_after_the_last_table_move": searched_after,
            "board_at_the_last_table_move": [list(r) for r in table_board] if table_board else None,
            "final": [list(r) for r in game.grid], "seconds": round(time.perf_counter() - started, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", required=True, help='seeds as ranges and single seeds, e.g. "60001-60020,60045"')
    parser.add_argument("--stop-at", type=int, default=32768)
    parser.add_argument("--last", type=int, default=200, help="how many of the last moves to count (default 200)")
    parser.add_argument("--corner-depth", type=int,
                        help="macroxue's search at this depth, without its pass-score pruning (research/macroxue.py; "
                             "default: play's adaptive depth)")
    parser.add_argument("--pass-score", action="store_true",
                        help="macroxue's pruning by pass score: not reproduced (the script says so and stops)")
    parser.add_argument("--json", help="append one JSON line per game here")
    args = parser.parse_args()
    if args.pass_score:
        sys.exit(f"lost_games: {PASS_SCORE}")
    tables, _ = load_or_build()  # play's, from the user cache dir (built there first when missing, as bench does)
    if args.corner_depth is None:
        agent = make_agent(BenchSettings(player="corner-v4"), 1, tables)
    else:
        agent = MacroxueAgent(tables, threads=1, solve_budget=PLAY_SOLVE_BUDGET, fixed_depth=args.corner_depth)
    agent.warm_up()
    for seed in _seeds(args.seeds):
        line = replay(seed, agent, args.stop_at, args.last)
        line["command"] = command_line()
        print(json.dumps(line), flush=True)
        if args.json:
            with open(args.json, "a") as out:
                out.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
