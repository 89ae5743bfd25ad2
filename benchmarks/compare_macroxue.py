"""Move by move against macroxue/2048-ai itself: does the corner player choose what macroxue's program chooses?

The corner player is macroxue's ideas written anew (screenbot/agent/corner.py, block_tables.py). Its figures
sit a few points below macroxue's own (32768: 64.4 % at depth 8, strength_32768_corner_d8_160_games.json,
2026-11-25, against its 72.1 %), so this asks macroxue's
program, built locally and run in its server mode, for its move on every board of our seeded games and
counts where the two part. Nothing of macroxue's is in this repository: build it yourself, outside the
checkout (its README: `make`, then `./2048 -S PORT -d D` answers GET /move?board=<16 ranks> with u/l/r/d;
its first run solves its two tables, 4-8 minutes).

    .venv/bin/python -m benchmarks.compare_macroxue --server 127.0.0.1:8080 --seeds 60001 --depth 6 \\
        [--moves 3000] [--json out.jsonl]

Our player (research.macroxue.MacroxueAgent) plays each game (block tables, else macroxue's search at --depth:
paths below 2**-(D+4) cut; its pruning by pass score is not reproduced, see research/macroxue.py); at every
board macroxue's program is asked too. Per game: how many
moves each source chose, how many of them macroxue chose alike, and for the searched boards where the two
part, our values of both moves (how far apart they were for us).

Measured 2026-11-25 with the pass score's pruning (commit 20335a7; macroxue at fee3359, `./2048 -S 8080 -d 6`,
its small tables): the searched moves agree in 94-96 %,
the rest near-ties (median value gap 2e-5); the table moves in 67 %, because macroxue's tables keep chances cut
down to 1/16000 at every step (ours: rounded to 1/16382), break ties up, left, right, down (ours: up, down,
left, right) and put no new tile in the small shape's built cell. Tables with those three details (commit
276d4b2, tables version 3) agreed in 85.7 % of seed 60002's 8,005 table moves (the rest within a step or two of
1/16000, float32 sums in macroxue's), but played no better (2026-11-25: results/final_phase/tables_v3.jsonl,
strength_32768_corner_tables_v3_40_games.json; the README, "macroxue's model to the detail").
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import time

from benchmarks.late_game import _seeds, command_line

from research.final_tables import play_tables
from research.macroxue import PASS_SCORE, MacroxueAgent
from screenbot.errors import TableError
from screenbot.game.rules import Game, Move, legal_moves, max_tile

_REPLY_MOVES = {"u": Move.UP, "d": Move.DOWN, "l": Move.LEFT, "r": Move.RIGHT}
_RANK_CHARS = "0123456789abcdefg"


def board_text(grid) -> str:
    """The board as macroxue's server reads it: 16 ranks, row by row from the top."""
    return "".join(_RANK_CHARS[v.bit_length() - 1 if v else 0] for row in grid for v in row)


class Macroxue:
    """One connection to macroxue's program in server mode (one request at a time)."""

    def __init__(self, address: str) -> None:
        host, port = address.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)))

    def move(self, grid) -> Move | None:
        self.sock.sendall(f"GET /move?board={board_text(grid)} HTTP/1.1\r\n\r\n".encode())
        reply = b""
        while b"\n\n" not in reply or reply.endswith(b"\n\n"):  # the headers end with a blank line, then 1 char
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("macroxue's server closed the connection")
            reply += chunk
        answer = reply.split(b"\n\n", 1)[1].decode().strip()
        return _REPLY_MOVES.get(answer[:1])


def compare(seed: int, agent, mx: Macroxue, moves: int, stop_at: int) -> dict:
    game = Game(seed=seed)
    game.reset()
    counts = {"table": [0, 0], "search": [0, 0]}  # source -> [moves, macroxue alike]
    parted = []
    started = time.perf_counter()
    while game.moves < moves and max_tile(game.grid) < stop_at and legal_moves(game.grid):
        ours = agent.choose(game.grid)
        theirs = mx.move(game.grid)
        source = "search" if ours.chance is None else "table"
        counts[source][0] += 1
        if theirs == ours.move:
            counts[source][1] += 1
        else:
            part = {"move": game.moves, "grid": [list(r) for r in game.grid], "ours": ours.move.name,
                    "theirs": theirs.name if theirs is not None else None}
            if source == "table":
                part["table_chance"] = ours.chance
            else:
                mine, other = ours.values.get(ours.move), ours.values.get(theirs)
                part.update(our_value=mine, our_value_of_theirs=other,
                            gap=None if mine is None or other is None else (mine - other) / max(abs(mine), 1.0))
            parted.append(part)
        game.step(ours.move)
    gaps = sorted(p["gap"] for p in parted if p.get("gap") is not None)
    return {"seed": seed, "moves": game.moves, "max_tile": max_tile(game.grid), "score": game.score,
            "table_moves": counts["table"][0], "table_alike": counts["table"][1],
            "searched_moves": counts["search"][0], "searched_alike": counts["search"][1],
            "searched_parted_gap_median": gaps[len(gaps) // 2] if gaps else None,
            "parted": parted, "seconds": round(time.perf_counter() - started, 1)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--server", required=True, help="macroxue's program in server mode, HOST:PORT")
    p.add_argument("--seeds", required=True, help="e.g. 60001 or 60001-60004")
    p.add_argument("--depth", type=int, required=True, help="our macroxue search depth (the server's -d)")
    p.add_argument("--moves", type=int, default=100_000, help="stop each game after this many moves")
    p.add_argument("--stop-at", type=int, default=32768)
    p.add_argument("--json", help="append one line per game here")
    p.add_argument("--pass-score", action="store_true",
                   help="macroxue's pruning by pass score: not reproduced (the script says so and stops)")
    args = p.parse_args(argv)
    if args.pass_score:
        sys.exit(f"compare_macroxue: {PASS_SCORE}")
    try:
        tables = play_tables()
    except TableError as exc:
        sys.exit(f"compare_macroxue: {exc}")
    agent = MacroxueAgent(tables, threads=1, fixed_depth=args.depth)  # the tables answer every board they know
    mx = Macroxue(args.server)
    try:
        for seed in _seeds(args.seeds):
            line = compare(seed, agent, mx, args.moves, args.stop_at)
            line["command"] = command_line()
            t, s = line["table_moves"], line["searched_moves"]
            print(f"seed {seed}: {line['moves']} moves (max {line['max_tile']}), table moves {t}, alike "
                  f"{line['table_alike']} ({line['table_alike'] / max(t, 1):.1%}); searched {s}, alike "
                  f"{line['searched_alike']} ({line['searched_alike'] / max(s, 1):.1%}); parted searched moves' "
                  f"value gap, median {line['searched_parted_gap_median']}; {line['seconds']} s", flush=True)
            if args.json:
                with open(args.json, "a") as f:
                    f.write(json.dumps(line) + "\n")
    finally:
        agent.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
