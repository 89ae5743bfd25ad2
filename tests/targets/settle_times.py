"""How long a target's window keeps changing after a key: its own animation time, the least wait a
player can leave between keys. A target without board truth (has_truth False) on a fresh Xvfb takes
seeded random keys; the time from each key that changed the window to its last change is measured.

    PYTHONPATH=. .venv/bin/python tests/targets/settle_times.py qt2048 --keys 20 [--board]

--board watches the target's board_area only (a score animating beside the board is left out).
Prints one JSON line: the target, the keys, and the median, lowest and highest time in seconds.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import TARGETS  # noqa: E402
from target_base import MOVES  # noqa: E402
from target_processes import VirtualDisplay  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("target", choices=sorted(n for n, t in TARGETS.items() if not t.has_truth))
    ap.add_argument("--keys", type=int, default=20, help="keys that changed the window to measure")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--board", action="store_true", help="watch the board area only")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    times: list[float] = []
    sent = 0
    with VirtualDisplay((1280, 800)) as display, TARGETS[args.target](display.display) as game:
        if args.board:
            game.watch = getattr(game, "board_area", None)
            if game.watch is None:
                raise SystemExit(f"{args.target} names no board_area")
        game.focus()
        while len(times) < args.keys and sent < 20 * args.keys:
            record = game.press(rng.choice(MOVES))
            sent += 1
            if record is None:
                raise SystemExit(f"{args.target}: the window did not stand still after key {sent}")
            if record["changed"]:
                times.append(record["settle_s"])
    print(json.dumps({"target": args.target, "watch": "board" if args.board else "window", "keys_sent": sent,
                      "keys_measured": len(times), "median_s": round(statistics.median(times), 3),
                      "min_s": min(times), "max_s": max(times)}))


if __name__ == "__main__":
    main()
