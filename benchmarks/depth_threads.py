"""How deep a player's search gets at its defaults on one search thread and on several, within its time bounds.

    .venv/bin/python -m benchmarks.depth_threads [--threads 1 2] [--moves 150] [--board "..."] [--player NAME]
                                                 [--json OUT.json]

From each of the ten chain-phase boards in `benchmarks/results/chain_phase/snaps_defaults.jsonl`
(8192, 4096 and 2048 on the board: where games before 16384 are lost), plays MOVES moves with
`make_player(NAME, threads=T)` (default `plain`) at its defaults, the same random stream per board for every T, and
prints the time per move and the share of moves searched at each depth. Play searches on all the
machine's threads (2 here), `bench` on one per game: the depths say how far apart they are.
With --board, from that one board instead (as `python -m benchmarks.live --board` plays it live).
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import sys
from pathlib import Path

from screenbot.agent.players import PLAYERS

SNAPS = Path(__file__).parent / "results" / "chain_phase" / "snaps_defaults.jsonl"


def run(threads: int, moves: int, boards: list, player: str = "plain") -> dict:
    from screenbot.agent import make_player
    from screenbot.game.rules import Game

    agent = make_player(player, threads=threads, wait=True)
    agent.warm_up()
    depths: collections.Counter = collections.Counter()
    ms = []
    for k, board in enumerate(boards):
        game = Game(seed=1000 + k)
        game.reset(start=board)
        for _ in range(moves):
            decision = agent.choose(game.grid)
            if decision.move is None:
                break
            depths[decision.depth] += 1
            ms.append(decision.ms)
            game.step(decision.move)
    agent.close()
    total = sum(depths.values())
    ms.sort()
    return {"player": player, "threads": threads, "moves": total, "ms_median": statistics.median(ms), "ms_p95": ms[int(0.95 * (len(ms) - 1))],
            "depth_share": {str(d): depths[d] / total for d in sorted(depths)}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--moves", type=int, default=150, help="moves from each board (default 150)")
    parser.add_argument("--board", help='one board to play from instead, rows split by "/"')
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--player", default="plain", choices=tuple(PLAYERS),
                        help="the player whose search is measured (default 'plain', what results/depth_threads_*.json measured)")
    args = parser.parse_args()
    if args.board:
        from screenbot.game.rules import parse_board

        boards = [parse_board(args.board)]
    else:
        boards = [json.loads(line)["phase"]["grid"] for line in SNAPS.read_text().splitlines() if line.strip()]
    rows = []
    for threads in args.threads:
        row = run(threads, args.moves, boards, args.player)
        rows.append(row)
        shares = ", ".join(f"{d}: {100 * s:.1f}%" for d, s in row["depth_share"].items())
        print(f"{threads} search thread(s): {row['moves']} moves, {row['ms_median']:.1f} ms median, "
              f"p95 {row['ms_p95']:.1f} ms; depth {shares}", flush=True)
    if args.json:
        args.json.write_text(json.dumps({"command": "python -m benchmarks.depth_threads " + " ".join(sys.argv[1:]),
                                         "runs": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
