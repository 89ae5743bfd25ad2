"""Record and read terminal looks drawn at random (any_look.py), to find looks screenbot does not read.

    PYTHONPATH=. .venv/bin/python tests/targets/families/sweep_looks.py 1-40 --out /tmp/looks
    PYTHONPATH=. .venv/bin/python tests/targets/families/sweep_looks.py 1-40 --windows --out /tmp/windows

For each look seed: the program in xterm on a fresh Xvfb, still frames after a few moves of a depth-1 player
(`--still`), saved as OUT/any_look_<seed>/stillNNN.png with the true board beside it; then every frame read as
tests/vision/test_family_frames.py reads them (calibrated on the sparsest). One line per look: its choices and
how many frames were exact / unsettled / error / wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

TARGETS_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TARGETS_DIR))
from families import any_look, any_window  # noqa: E402
from families.corpus_families import any_look_target, any_window_target  # noqa: E402
from families.family_frames import read_family_frames  # noqa: E402
from target_processes import VirtualDisplay  # noqa: E402


def seeds_of(text: str) -> list[int]:
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


def record(seed: int, out: Path, still: set[int], game_seed: int, shape: tuple[int, int], windows: bool) -> None:
    from screenbot.agent.search import ExpectimaxAgent
    from screenbot.game.rules import legal_moves, to_grid

    agent = ExpectimaxAgent(threads=1)
    target = (any_window_target if windows else any_look_target)(seed)
    folder = out / target.name
    folder.mkdir(parents=True, exist_ok=True)
    with VirtualDisplay((1280, 800)) as display, target(display.display, seed=game_seed, shape=shape) as game:
        game.focus()
        for n in range(max(still) + 1):
            board = game.board()
            if n in still:
                time.sleep(0.5)
                game.screenshot().save(folder / f"still{n:03d}.png")
                (folder / f"still{n:03d}.json").write_text(json.dumps(
                    {"board": board, "kind": "static", "program": target.name}))
            grid = to_grid(board) if shape == (4, 4) else None
            if grid is not None and not legal_moves(grid):
                break
            if grid is not None:
                move = agent.choose(grid, depth=1).move.key
            else:
                move = ("left", "down", "right", "down")[n % 4]
            game.press(move)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seeds", help="look seeds: 1-40 or 3,7,9")
    ap.add_argument("--out", type=Path, default=Path("/tmp/looks"))
    ap.add_argument("--still", default="0,15,60,150")
    ap.add_argument("--game-seed", type=int, default=5)
    ap.add_argument("--size", default="4x4")
    ap.add_argument("--read-only", action="store_true", help="read frames recorded before")
    ap.add_argument("--windows", action="store_true", help="window looks (any_window.py) in place of terminal ones")
    args = ap.parse_args()
    still = {int(v) for v in args.still.split(",")}
    shape = tuple(int(v) for v in args.size.split("x"))
    for seed in seeds_of(args.seeds):
        name = f"any_window_{seed}" if args.windows else f"any_look_{seed}"
        if not args.read_only:
            try:
                record(seed, args.out, still, args.game_seed, shape, args.windows)
            except Exception as exc:  # noqa: BLE001 - one look failing to start is reported, the sweep goes on
                print(f"{name}: not recorded: {type(exc).__name__}: {exc}", flush=True)
                continue
        frames = read_family_frames(name, args.out)
        counts = {k: sum(f.outcome == k for f in frames) for k in ("exact", "unsettled", "error", "wrong")}
        if args.windows:
            spec = any_window.look(seed)
            brief = {k: spec[k] for k in ("framed", "cell", "gap", "empty", "palette", "tile", "font", "ink",
                                          "corner", "animate")}
        else:
            spec = any_look.look(seed)
            brief = {k: spec[k] for k in ("lines", "line_set", "colour", "cell", "gap", "empty", "align", "dark",
                                          "font_size")}
        bad = [f"{f.name}: {f.outcome}: {f.seen}" for f in frames if f.outcome != "exact"]
        print(json.dumps({"look": seed, **counts, "spec": brief, "bad": bad[:3]}), flush=True)


if __name__ == "__main__":
    main()
