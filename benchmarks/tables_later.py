"""What play loses when its tables come late: whole games whose tables are taken only after K moves.

    .venv/bin/python -m benchmarks.tables_later [--after 4000] [--seeds 60001-60040] [--workers 2]
                                                [--stop-at 32768] [--json FILE]

On a fresh install play's tables are made in the background (table_supply.py: about 11 minutes, some
4,000 moves of live play), and until then the corner search plays alone. This plays bench's games
(`screenbot.bench.games.play_game`, play's player and defaults, one search thread per game) with the
tables held back for the first K decisions, one JSON line per game, so that the games can be set
beside bench's games of the same seeds with the tables from the start
(`strength_32768_corner_v4_60_games.json`): which seeds reached the target with one and not the other.
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import sys

from benchmarks.jsonl import emit
from screenbot.agent.table_supply import TableSupply


class HeldBack(TableSupply):
    """The made tables, handed over at the `after`-th time they are asked for (once per decision)."""

    def __init__(self, after: int) -> None:
        super().__init__(build=False)
        self.after = after
        self.asked = 0
        self.tables = None

    def start(self):
        if self.tables is None:
            self.tables = TableSupply(build=False).wait()
            if self.tables is None:
                raise SystemExit("the tables are not made: run `screenbot bench --games 1` first")
        return self

    def poll(self, playing: bool = True):
        self.asked += 1
        return self.tables if self.asked == self.after else None

    def note(self):
        return None


def one_game(job: tuple[int, int, int]) -> dict:
    seed, after, stop_at = job
    from screenbot.agent.corner import CornerAgent
    from screenbot.agent.players import PLAY_SOLVE_BUDGET
    from screenbot.bench.games import BenchSettings, play_game

    supply = HeldBack(after).start()
    agent = CornerAgent(None, threads=1, solve_budget=PLAY_SOLVE_BUDGET, later=supply)
    try:
        result = play_game(seed, BenchSettings(player="corner-v4", stop_at=stop_at), agent=agent)
    finally:
        agent.close()
    return {"seed": seed, "after": after, "score": result.score, "moves": result.moves,
            "max_tile": result.max_tile, "reached": result.max_tile >= stop_at}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--after", type=int, default=4000, help="decisions played before the tables are taken")
    parser.add_argument("--seeds", default="60001-60040", help="A-B (inclusive)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--stop-at", type=int, default=32768)
    parser.add_argument("--json", metavar="FILE", help="append one JSON line per game (seeds already there are skipped)")
    args = parser.parse_args(argv)
    first, last = (int(x) for x in args.seeds.split("-"))
    done = set()
    if args.json:
        try:
            with open(args.json) as f:
                done = {r["seed"] for r in map(json.loads, f) if r.get("after") == args.after}
        except FileNotFoundError:
            pass
    jobs = [(s, args.after, args.stop_at) for s in range(first, last + 1) if s not in done]
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        for row in pool.imap_unordered(one_game, jobs):
            row["date"] = datetime.date.today().isoformat()
            emit(row, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
