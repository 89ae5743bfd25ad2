"""Record the screens of a target that has no board truth (has_truth False): still boards along a game,
frames caught mid-move and the game-over screen, each with a label whose boards are left to write by hand.

    PYTHONPATH=. .venv/bin/python tests/targets/record_untruthed.py gnome2048 --out tests/fixtures/corpus/gnome2048

The target runs unmodified on a fresh Xvfb. A corner player that cannot see the board plays: down and
left by turns, then right, then up, each tried until one changes the window (so bigger tiles appear).
At the --still steps the window is saved once it stands still. At the --mid steps the key is sent and
the window grabbed --mid-ms after it; the still boards just before and after that key are saved too,
so its label can be written from them. With --over it plays on until no key changes the window and
saves the game-over screen (a game that saves its board as it quits, gnome-2048, labels that one itself).

Each picture X.png gets X.json as record_fixtures.py writes it: {"board", "kind": static |
mid-animation | overlay-over, "board_before" (mid-animation), "program"}, with the boards null and,
for a mid-animation frame, "before" and "after" naming the still frames around it. Look at every
picture, write its boards (rows top to bottom, 0 = empty) and drop "before"/"after".
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import PROGRAMS, TARGETS  # noqa: E402
from record_fixtures import save  # noqa: E402
from target_processes import VirtualDisplay  # noqa: E402


def preferences(step: int) -> list[str]:
    """The corner player's order of keys at `step`: down and left by turns, then right, then up."""
    first = ["down", "left"] if step % 2 == 0 else ["left", "down"]
    return first + ["right", "up"]


def whole_window_still(game) -> None:
    """Wait until the whole window (not only the watched part) has stood still for 0.5 s."""
    watch, game.watch = game.watch, None
    try:
        game.wait_still(still_s=0.5)
    finally:
        game.watch = watch


def play_step(game, step: int) -> bool:
    """Press the corner player's keys until one changes the window; False if none did (game over)."""
    for move in preferences(step):
        record = game.press(move)
        if record is not None and record["changed"]:
            return True
    return False


def mid_step(game, step: int, delay_ms: float):
    """Like play_step, but grab the window `delay_ms` after the key that changes it: that picture,
    or None if no key changed the window."""
    for move in preferences(step):
        before = game.grab()
        game._xdotool("key", "--clearmodifiers", game.key_for(move))
        time.sleep(delay_ms / 1000)
        picture = game.screenshot()
        changed = game.grab() != before or game.wait_change(before, game.change_timeout_s) is not None
        if game.wait_still() is None:
            raise RuntimeError(f"{game.name}: the window did not stand still after {move}")
        if changed:
            return picture
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("target", choices=sorted(n for n, t in TARGETS.items() if not t.has_truth))
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--still", default="0,15,60,130,200", help="steps before which a still board is saved")
    ap.add_argument("--mid", default="40,100,170", help="steps whose key is caught mid-move")
    ap.add_argument("--mid-ms", default="40,70,55", help="ms after the key to grab a mid-move frame (cycled)")
    ap.add_argument("--over", action="store_true", help="then play on to game over and save it")
    ap.add_argument("--max-steps", type=int, default=2000)
    args = ap.parse_args()

    mid = sorted(int(v) for v in args.mid.split(",") if v)
    mid_ms = [float(v) for v in args.mid_ms.split(",")]
    still = {int(v) for v in args.still.split(",") if v} | set(mid) | {m + 1 for m in mid}
    program = PROGRAMS[args.target]
    args.out.mkdir(parents=True, exist_ok=True)
    last = max(still | set(mid))
    with VirtualDisplay((1280, 800)) as display, TARGETS[args.target](display.display) as game:
        game.focus()
        # a key counts when it changes the board (a dialog or a score beside it may change on its own)
        game.watch = getattr(game, "board_area", None)
        over = False
        for step in range(args.max_steps):
            if step > last and not args.over:
                break
            if step in still:
                whole_window_still(game)
                save(args.out, f"still{step:03d}", game.screenshot(), {"board": None, "kind": "static",
                                                                       "program": program})
            if step in mid:
                delay = mid_ms[mid.index(step) % len(mid_ms)]
                picture = mid_step(game, step, delay)
                moved = picture is not None
                if moved:
                    save(args.out, f"mid{step:03d}_{delay:.0f}ms", picture,
                         {"board": None, "board_before": None, "kind": "mid-animation", "program": program,
                          "before": f"still{step:03d}", "after": f"still{step + 1:03d}"})
            else:
                moved = play_step(game, step)
            if not moved:
                print(f"no key changes the window at step {step}: game over", flush=True)
                over = True
                break
        if args.over and over:
            time.sleep(1.5)  # overlays and dialogs fade in
            whole_window_still(game)
            picture, label = game.screenshot(), {"board": None, "kind": "overlay-over", "program": program}
            if hasattr(game, "quit_and_read_saved"):  # gnome-2048 writes its board as it quits
                label["board"] = game.quit_and_read_saved().board
            save(args.out, "over", picture, label)


if __name__ == "__main__":
    main()
