"""Record the frames of a random look (any_look.py) after given moves of a seeded game: a board a logged
game reached, shown again for the tests.

    PYTHONPATH=. .venv/bin/python tests/targets/families/replay_moves.py 111 rdlr... --game-seed 7 --at 39 --out DIR

MOVES: one letter per move (u d l r). Each frame is saved as DIR/any_look_<seed>/moveNNN.png with the true
board beside it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

TARGETS_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TARGETS_DIR))
from families.corpus_families import any_look_target  # noqa: E402
from target_processes import VirtualDisplay  # noqa: E402

MOVES = {"u": "up", "d": "down", "l": "left", "r": "right"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("look", type=int)
    ap.add_argument("moves")
    ap.add_argument("--game-seed", type=int, default=7)
    ap.add_argument("--at", default="", help="move counts to record at: 0,39")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    at = {int(v) for v in args.at.split(",") if v} or {len(args.moves)}
    target = any_look_target(args.look)
    folder = args.out / target.name
    folder.mkdir(parents=True, exist_ok=True)
    with VirtualDisplay((1280, 800)) as display, target(display.display, seed=args.game_seed) as game:
        game.focus()
        for n in range(len(args.moves) + 1):
            if n in at:
                time.sleep(0.5)
                game.screenshot().save(folder / f"move{n:03d}.png")
                (folder / f"move{n:03d}.json").write_text(json.dumps(
                    {"board": game.board(), "kind": "static", "program": target.name}))
                print(n, game.board(), flush=True)
            if n < len(args.moves):
                game.press(MOVES[args.moves[n]])


if __name__ == "__main__":
    main()
