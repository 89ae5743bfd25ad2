"""Still frames of the terminal programs at other font sizes than their own, each with the game's true
board: a terminal's font is the user's choice. The family programs at 9, 11, 18 and 24 px DejaVu Sans
Mono; with --corpus, the corpus's terminal programs (real PyPI and npm games) at 10 and 18 px.

    PYTHONPATH=. .venv/bin/python tests/targets/families/record_font_sizes.py --out tests/fixtures/families_fonts
    PYTHONPATH=. .venv/bin/python tests/targets/families/record_font_sizes.py --corpus --out tests/fixtures/corpus_fonts

Each program is started on a fresh Xvfb (1920x1440), a family program in an xterm 10 columns and 4 lines
larger than its own, takes 40 seeded random keys, and its screen is saved as NAME_SIZE.png beside
NAME_SIZE.json ({"board", "program", "font_size"}). Read by tests/vision/test_terminal_font_sizes.py.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from families.corpus_families import TARGETS  # noqa: E402
from target_processes import VirtualDisplay  # noqa: E402

PROGRAMS = ("printed_zeros", "printed_wasd", "plain_boxes", "ascii_double", "curses_boxes")
SIZES = (9, 11, 18, 24)
CORPUS_PROGRAMS = ("term2048", "tui2048", "curses2048", "tuinty2048", "py2048cli", "pycui2048", "npm2048term")
CORPUS_SIZES = (10, 18)


def record(name: str, size: int, out: Path, targets: dict = TARGETS) -> None:
    base = targets[name]
    grown = {} if targets is not TARGETS else {"columns": base.columns + 10, "rows": base.rows + 4}
    target = type(base.__name__, (base,), {"font_size": size, **grown})
    with VirtualDisplay((1920, 1440)) as xvfb, target(xvfb.display, seed=size) as game:
        game.focus()
        rng = random.Random(size)
        for _ in range(40):
            game.press(rng.choice(["left", "down", "right", "up"]))
        time.sleep(0.5)  # the terminal has drawn the last key's board
        game.screenshot().save(out / f"{name}_{size}.png", optimize=True)
        (out / f"{name}_{size}.json").write_text(json.dumps({"board": game.board(), "program": name, "font_size": size}) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--corpus", action="store_true", help="the corpus's terminal programs instead")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    targets = TARGETS
    if args.corpus:
        from corpus import TARGETS as targets  # noqa: N811
    for name in CORPUS_PROGRAMS if args.corpus else PROGRAMS:
        for size in CORPUS_SIZES if args.corpus else SIZES:
            record(name, size, args.out, targets)
            print(name, size, flush=True)


if __name__ == "__main__":
    main()
