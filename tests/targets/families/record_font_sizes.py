"""Still frames of the terminal programs at other font sizes than their own, each with the game's true
board: a terminal's font is the user's choice. The family programs at 9, 11, 18 and 24 px DejaVu Sans
Mono; with --corpus, the corpus's terminal programs (real PyPI and npm games) at 10 and 18 px; with
--sizes (and --font), both at those sizes (in another font), named NAME_FONT_SIZE.

    PYTHONPATH=. .venv/bin/python tests/targets/families/record_font_sizes.py --out tests/fixtures/families_fonts
    PYTHONPATH=. .venv/bin/python tests/targets/families/record_font_sizes.py --corpus --out tests/fixtures/corpus_fonts
    PYTHONPATH=. .venv/bin/python tests/targets/families/record_font_sizes.py --font "Liberation Mono" --sizes 12,16 \
        --out tests/fixtures/other_fonts
    PYTHONPATH=. .venv/bin/python tests/targets/families/record_font_sizes.py --sizes 13,15 --out tests/fixtures/other_fonts

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


OWN_FONT = "DejaVu Sans Mono"  # the font every target's xterm is started with


def record(name: str, size: int, out: Path, targets: dict = TARGETS, font: str = OWN_FONT, tagged: bool = False) -> None:
    """One still frame of program `name` at `size` px: NAME_SIZE, or with `tagged` NAME_FONT_SIZE (its label
    saying the font)."""
    base = targets[name]
    attrs: dict = {"font_size": size}
    if targets is TARGETS:
        attrs.update(columns=base.columns + 10, rows=base.rows + 4)
    if font != OWN_FONT:
        def _spawn(self, args, *rest, **kw):  # the xterm started in another font, the game unchanged
            return base._spawn(self, [font if a == OWN_FONT else a for a in args], *rest, **kw)
        attrs["_spawn"] = _spawn
    target = type(base.__name__, (base,), attrs)
    stem = f"{name}_{font.replace(' ', '')}_{size}" if tagged else f"{name}_{size}"
    with VirtualDisplay((1920, 1440)) as xvfb, target(xvfb.display, seed=size) as game:
        game.focus()
        rng = random.Random(size)
        for _ in range(40):
            game.press(rng.choice(["left", "down", "right", "up"]))
        time.sleep(0.5)  # the terminal has drawn the last key's board
        game.screenshot().save(out / f"{stem}.png", optimize=True)
        label = {"board": game.board(), "program": name, "font_size": size, **({"font": font} if tagged else {})}
        (out / f"{stem}.json").write_text(json.dumps(label) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--corpus", action="store_true", help="the corpus's terminal programs instead")
    ap.add_argument("--font", default=OWN_FONT, help="both the family and the corpus programs in this font")
    ap.add_argument("--sizes", help="both the family and the corpus programs at these font sizes, e.g. 12,16")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    from corpus import TARGETS as corpus_targets
    if args.font != OWN_FONT or args.sizes:
        sizes = tuple(int(v) for v in args.sizes.split(","))
        runs = [(n, TARGETS) for n in PROGRAMS] + [(n, corpus_targets) for n in CORPUS_PROGRAMS]
    else:
        sizes = CORPUS_SIZES if args.corpus else SIZES
        runs = [(n, corpus_targets) for n in CORPUS_PROGRAMS] if args.corpus else [(n, TARGETS) for n in PROGRAMS]
    for name, targets in runs:
        for size in sizes:
            record(name, size, args.out, targets, args.font, tagged=bool(args.sizes))
            print(name, size, flush=True)


if __name__ == "__main__":
    main()
