"""Record GNOME 2048 (Debian gnome-2048) at board sizes other than 4x4, each frame labelled by the game's own
saved board.

    PYTHONPATH=. .venv/bin/python tests/targets/record_gnome_sizes.py --out tests/fixtures/corpus/gnome2048_sizes

Each size (--sizes, rows x cols) runs unmodified on a fresh Xvfb and is played by record_untruthed.py's
corner player, which cannot see the board. At the --still steps the window is saved once it stands
still; at the --mid step the key is sent and the window grabbed --mid-ms after it. gnome-2048 writes its
board to a file only as it quits, and resumes that game when it starts again: so after each picture
it is quit (Ctrl+Q), its board read from the file (the label), and started again on the same game. A
mid-move frame's board before the key is read the same way just before it. A game that ends before a
step has no picture for it.

Pictures go to OUT/<rows>x<cols>/X.png with X.json as record_fixtures.py writes them: {"board", "kind":
static | mid-animation, "board_before" (mid-animation), "program"}, the window alone (optimize=True).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_debian import Gnome2048  # noqa: E402
from corpus import PROGRAMS  # noqa: E402
from record_fixtures import save  # noqa: E402
from record_untruthed import mid_step, play_step, whole_window_still  # noqa: E402
from target_processes import VirtualDisplay  # noqa: E402

PROGRAM = PROGRAMS[Gnome2048.name]


def parse_size(text: str) -> tuple[int, int]:
    rows, cols = (int(v) for v in text.lower().split("x"))
    return rows, cols


def saved_board(game: Gnome2048) -> list[list[int]]:
    """The board the game holds now, from the file it writes as it quits; then the same game again,
    started and focused."""
    board = game.quit_and_read_saved().board
    game.start()
    game.focus()
    game.watch = game.board_area
    return board


def record_size(shape: tuple[int, int], out: Path, still: set[int], mid: int | None, mid_ms: float,
                max_steps: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    last = max(still | ({mid} if mid is not None else set()))
    with VirtualDisplay((1280, 800)) as display, Gnome2048(display.display, rows=shape[0], cols=shape[1]) as game:
        game.focus()
        game.watch = game.board_area  # a key counts when it changes the board (the score beside it animates)
        for step in range(min(last + 1, max_steps)):
            if step in still:
                whole_window_still(game)
                picture = game.screenshot()
                save(out, f"still{step:03d}", picture, {"board": saved_board(game), "kind": "static",
                                                        "program": PROGRAM})
            if step == mid:
                before = saved_board(game)
                picture = mid_step(game, step, mid_ms)
                if picture is None:
                    print(f"{shape}: game over at step {step}", flush=True)
                    return
                save(out, f"mid{step:03d}_{mid_ms:.0f}ms", picture,
                     {"board": saved_board(game), "board_before": before, "kind": "mid-animation",
                      "program": PROGRAM})
            elif not play_step(game, step):
                print(f"{shape}: game over at step {step}", flush=True)
                return
            time.sleep(0.02)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--sizes", default="3x3,5x5,4x6", help="rows x cols, comma-separated")
    ap.add_argument("--still", default="0,20,60,150", help="steps before which a still board is saved")
    ap.add_argument("--mid", type=int, default=40, help="the step whose key is caught mid-move (-1: none)")
    ap.add_argument("--mid-ms", default="40,70,55", help="ms after the key to grab it, one per size (cycled)")
    ap.add_argument("--max-steps", type=int, default=2000)
    args = ap.parse_args()
    still = {int(v) for v in args.still.split(",") if v}
    mid_ms = [float(v) for v in args.mid_ms.split(",")]
    for i, text in enumerate(args.sizes.split(",")):
        shape = parse_size(text)
        record_size(shape, args.out / f"{shape[0]}x{shape[1]}", still, args.mid if args.mid >= 0 else None,
                    mid_ms[i % len(mid_ms)], args.max_steps)


if __name__ == "__main__":
    main()
