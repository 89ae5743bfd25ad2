"""Train the line network (research.lines) by TD(0) on afterstates, greedy one-ply play.

    python -m benchmarks.train_lines --kinds 1 --games 800000 --out runs/lines.npz [--endgame-share 0.5]

Games start fresh, or (a share `--endgame-share` of them) from a board with big tiles already in a
corner (16384; 16384 and 8192 along an edge; ...) plus two new tiles, so that the lines a late
game makes get trained too: one-ply play from a fresh board rarely gets past 4096. Prints one line
(and with --log, one JSON line) per `--report` games: the mean score, the share of games reaching
2048 / 4096 / 8192 (fresh games only) and games per second.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from research import lines
from screenbot.game.bitboard import to_bitboard

# big tiles placed along the top row from the left corner; the symmetric network learns all corners from these
_ENDGAME_ROWS = [(16384,), (16384, 8192), (16384, 8192, 4096), (8192,), (8192, 4096)]


def endgame_starts(rng: np.random.Generator, count: int) -> np.ndarray:
    """`count` boards: one of _ENDGAME_ROWS in the top-left corner and two 2s/4s in other cells."""
    out = np.zeros(count, np.uint64)
    for n in range(count):
        tiles = _ENDGAME_ROWS[rng.integers(len(_ENDGAME_ROWS))]
        grid = [[0] * 4 for _ in range(4)]
        for c, v in enumerate(tiles):
            grid[0][c] = v
        free = [(r, c) for r in range(4) for c in range(4) if grid[r][c] == 0]
        for k in rng.choice(len(free), 2, replace=False):
            r, c = free[k]
            grid[r][c] = 2 if rng.random() < 0.9 else 4
        out[n] = to_bitboard(tuple(tuple(row) for row in grid))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kinds", type=int, choices=(1, 2), default=1)
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--alpha", type=float, default=0.0025)
    parser.add_argument("--endgame-share", type=float, default=0.0)
    parser.add_argument("--report", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True)
    parser.add_argument("--log")
    args = parser.parse_args()
    if not 0 <= args.endgame_share < 1:
        sys.exit("train_lines: --endgame-share must be from 0 to below 1")
    rng = np.random.default_rng(args.seed)
    # a pool of starts: 0 = a fresh game; the endgame share as a share of the pool
    pool = 1000
    ends = int(round(args.endgame_share * pool))
    starts = np.concatenate([np.zeros(pool - ends, np.uint64), endgame_starts(rng, ends)])
    fresh = starts == 0
    S = lines.new_table(args.kinds)
    score = np.zeros(args.report, np.int64)
    rank = np.zeros(args.report, np.int64)
    done = 0
    begun = time.perf_counter()
    log = Path(args.log).open("a") if args.log else None
    while done < args.games:
        n = min(args.report, args.games - done)
        lines.train(S, starts, n, args.alpha, args.seed * 1_000_003 + done, score[:n], rank[:n], True)
        done += n
        probe = min(2000, args.report)  # then fresh games without learning, for the report
        lines.train(S, starts[fresh][:1], probe, args.alpha, 7 + done, score[:probe], rank[:probe], False)
        line = {"games": done, "seconds": round(time.perf_counter() - begun, 1),
                "fresh_mean_score": float(score[:probe].mean()),
                "fresh_reach": {str(1 << k): float(np.mean(rank[:probe] >= k)) for k in (11, 12, 13)}}
        print(json.dumps(line), flush=True)
        if log:
            log.write(json.dumps(line) + "\n")
            log.flush()
    lines.save(args.out, S, {"kinds": args.kinds, "games": done, "alpha": args.alpha,
                             "endgame_share": args.endgame_share, "seed": args.seed,
                             "command": " ".join(["python -m benchmarks.train_lines", *sys.argv[1:]])})
    print(f"saved {args.out}")


if __name__ == "__main__":
    main()
