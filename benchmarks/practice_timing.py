#!/usr/bin/env python3
"""How fast the practice page answers a real key on the rig: key -> page, first visible change, still again."""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

from screenbot.game.rules import Move, apply_move, to_grid
from screenbot.practice.rig import Rig


def measure(rig: Rig, moves: int, still_ms: float) -> list[dict[str, float]]:
    region = rig.board_box().rect().inset(-8)
    rows = []
    order = (Move.LEFT, Move.DOWN, Move.RIGHT, Move.DOWN)
    for i in range(moves):
        rig.wait_still(still_ms=still_ms)
        st0 = rig.state()
        grid = to_grid(st0["board"])
        legal = [m for m in order if apply_move(grid, m)[0] != grid] or list(Move)
        move = legal[i % len(legal)]
        before = rig.grab(region)
        t_send = rig.press(move)
        first = last = None
        while True:
            now = time.time()
            pixels = rig.grab(region)
            if not np.array_equal(pixels, before):
                first = first or now
                last = now
                before = pixels
            elif last is not None and (now - last) * 1000 >= still_ms:
                break
            if now - t_send > 3:
                break
        st = rig.wait_for_moves(st0["moves"] + 1)
        t_key = st["t_key"] / 1000.0
        if first is None or last is None:
            continue
        rows.append({
            "send_to_page_ms": (t_key - t_send) * 1000,
            "key_to_first_change_ms": (first - t_key) * 1000,
            "key_to_still_ms": (last - t_key) * 1000,
        })
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--anim", type=float, default=1.0, help="page animation multiplier")
    parser.add_argument("--still-ms", type=float, default=120.0, help="no change for this long = still")
    args = parser.parse_args(argv)
    with Rig(screen=(1600, 1000), window_size=(1000, 950), seed=1, anim=args.anim) as rig:
        rows = measure(rig, args.moves, args.still_ms)
    print(f"practice page on the rig, anim={args.anim:g}, {len(rows)} moves (median, min-max):")
    for key in ("send_to_page_ms", "key_to_first_change_ms", "key_to_still_ms"):
        values = [r[key] for r in rows]
        print(f"  {key:24s} {statistics.median(values):7.1f}   ({min(values):.1f}-{max(values):.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
