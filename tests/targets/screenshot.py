"""Show a target: start it on a fresh Xvfb, play some seeded random keys, save its window as PNG.

    PYTHONPATH=. .venv/bin/python tests/targets/screenshot.py term2048 --moves 40 --out tests/targets/screens/term2048.png
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import MOVES, TARGETS, VirtualDisplay  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("target", choices=sorted(TARGETS))
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    with VirtualDisplay((1280, 800)) as display, TARGETS[args.target](display.display, seed=args.seed) as game:
        game.focus()
        rng = random.Random(args.seed)
        for _ in range(args.moves):
            game.press(rng.choice(MOVES))
        time.sleep(0.8)  # let the last animation end
        args.out.parent.mkdir(parents=True, exist_ok=True)
        game.screenshot().save(args.out, optimize=True)
        print(args.out, "board", game.board())


if __name__ == "__main__":
    main()
