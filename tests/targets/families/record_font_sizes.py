"""Still frames of the terminal family programs at other font sizes than their own (9, 11, 18, 24 px
DejaVu Sans Mono), each with the game's true board: a terminal's font is the user's choice.

    PYTHONPATH=. .venv/bin/python tests/targets/families/record_font_sizes.py --out tests/fixtures/families_fonts

Each program is started on a fresh Xvfb (1920x1440) in an xterm 10 columns and 4 lines larger than its
own, takes 40 seeded random keys, and its screen is saved as NAME_SIZE.png beside NAME_SIZE.json
({"board", "program", "font_size"}). Read by tests/vision/test_family_font_sizes.py.
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


def record(name: str, size: int, out: Path) -> None:
    base = TARGETS[name]
    target = type(base.__name__, (base,), {"font_size": size, "columns": base.columns + 10, "rows": base.rows + 4})
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
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name in PROGRAMS:
        for size in SIZES:
            record(name, size, args.out)
            print(name, size, flush=True)


if __name__ == "__main__":
    main()
