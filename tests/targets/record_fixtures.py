"""Record a target's screens for the tests: still boards along a game, frames caught mid-move, and the
game-over overlay, each with the game's own board beside it.

    PYTHONPATH=. .venv/bin/python tests/targets/record_fixtures.py quantum2048 --out tests/fixtures/targets/quantum2048

The target runs unmodified on a fresh Xvfb (harness.py). A depth-2 agent plays (so the board fills
with bigger tiles); at the --still moves the window is saved once the game has taken the key and
stood still; at the --mid moves the key is sent and the window grabbed --mid-ms after it (the
label holds the board before and after the move: a reading must be one of them, or unsettled);
then, with --over, random keys until no move is left and the game-over screen is saved.
Each picture X.png has X.json: {"board", "kind": static | mid-animation | overlay-over,
"board_before" (mid-animation), "program"}.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import PROGRAMS, TARGETS  # noqa: E402
from harness import MOVES, VirtualDisplay  # noqa: E402


def save(out: Path, name: str, picture: Image.Image, label: dict) -> None:
    picture.save(out / f"{name}.png", optimize=True)
    (out / f"{name}.json").write_text(json.dumps(label) + "\n")
    print(name, label["kind"], label["board"], flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("target", choices=sorted(TARGETS))
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--still", default="0,25,80,160,260", help="moves after which a still board is saved")
    ap.add_argument("--mid", default="40,41,120,121", help="moves whose key is caught mid-move")
    ap.add_argument("--mid-ms", default="40,90", help="ms after the key to grab a mid-move frame (cycled)")
    ap.add_argument("--over", action="store_true", help="then play random keys to game over and save it")
    args = ap.parse_args()
    from screenbot.agent.search import ExpectimaxAgent
    from screenbot.game.rules import legal_moves, to_grid

    still = {int(v) for v in args.still.split(",") if v}
    mid = sorted(int(v) for v in args.mid.split(",") if v)
    mid_ms = [float(v) for v in args.mid_ms.split(",")]
    program = PROGRAMS[args.target]
    args.out.mkdir(parents=True, exist_ok=True)
    agent = ExpectimaxAgent(threads=1)
    last = max(still | set(mid))
    with VirtualDisplay((1280, 800)) as display, TARGETS[args.target](display.display, seed=args.seed) as game:
        game.focus()
        for n in range(last + 1):
            board = to_grid(game.board())
            if n in still:
                time.sleep(0.8)
                save(args.out, f"still{n:03d}", game.screenshot(), {"board": game.board(), "kind": "static",
                                                                               "program": program})
            if not legal_moves(board):
                break
            move = agent.choose(board, depth=2).move
            if n in mid:
                game.wait_ready()
                before = len(game.history())
                delay = mid_ms[mid.index(n) % len(mid_ms)]
                game._xdotool("key", "--clearmodifiers", game.key_for(move.key))
                time.sleep(delay / 1000)
                picture = game.screenshot()
                deadline = time.monotonic() + 3
                while len(game.history()) <= before and time.monotonic() < deadline:
                    time.sleep(0.01)
                save(args.out, f"mid{n:03d}_{delay:.0f}ms", picture,
                     {"board": game.board(), "board_before": [list(r) for r in board], "kind": "mid-animation",
                      "program": program})
                time.sleep(0.5)
            else:
                game.press(move.key)
        if args.over:
            rng = random.Random(args.seed)
            for _ in range(3000):
                if not legal_moves(to_grid(game.board())):
                    break
                game.press(rng.choice(MOVES))
            time.sleep(1.5)
            save(args.out, "over", game.screenshot(), {"board": game.board(), "kind": "overlay-over",
                                                                  "program": program})


if __name__ == "__main__":
    main()
