"""Still frames of the terminal programs in other xterm colour schemes than their own, each with the game's
true board: a terminal's colours are the user's choice, and a curses game's default colours are the
terminal's.

    PYTHONPATH=. .venv/bin/python tests/targets/families/record_colour_schemes.py --out tests/fixtures/colour_schemes

Each program (the terminal family programs and the corpus's real terminal games) is started on a fresh Xvfb
(1920x1440) in an xterm of each scheme (SCHEMES: foreground, background), takes 40 seeded random keys, and
its screen is saved as NAME_SCHEME.png beside NAME_SCHEME.json ({"board", "program", "scheme"}). Read by
tests/vision/test_terminal_colour_schemes.py.
"""

from __future__ import annotations

import argparse
import inspect
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from families.corpus_families import TARGETS  # noqa: E402
from target_processes import VirtualDisplay  # noqa: E402

FAMILY_PROGRAMS = ("printed_zeros", "printed_wasd", "plain_boxes", "ascii_double", "curses_boxes", "blocks24")
CORPUS_PROGRAMS = ("term2048", "tui2048", "curses2048", "tuinty2048", "py2048cli", "pycui2048", "npm2048term",
                   "npm2048terminal")
SCHEMES = {"dark": ("grey90", "black"), "light": ("black", "white"), "sol": ("#839496", "#002b36"),
           "lightsol": ("#586e75", "#fdf6e3")}  # Solarized dark and light


def in_scheme(base, fg: str, bg: str):
    """The target class `base` with its xterm started in these colours (a class attribute on most targets,
    an argument of the constructor on the others)."""
    attrs: dict = {"fg": fg, "bg": bg}
    if "fg" in inspect.signature(base.__init__).parameters:
        def __init__(self, *args, _base=base.__init__, **kw):
            kw.setdefault("fg", fg)
            kw.setdefault("bg", bg)
            _base(self, *args, **kw)
        attrs["__init__"] = __init__
    return type(base.__name__, (base,), attrs)


def record(name: str, scheme: str, out: Path, targets: dict) -> None:
    fg, bg = SCHEMES[scheme]
    stem = f"{name}_{scheme}"
    with VirtualDisplay((1920, 1440)) as xvfb, in_scheme(targets[name], fg, bg)(xvfb.display, seed=5) as game:
        game.focus()
        rng = random.Random(5)
        for _ in range(40):
            game.press(rng.choice(["left", "down", "right", "up"]))
        time.sleep(0.5)  # the terminal has drawn the last key's board
        game.screenshot().save(out / f"{stem}.png", optimize=True)
        (out / f"{stem}.json").write_text(json.dumps({"board": game.board(), "program": name, "scheme": scheme}) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    from corpus import TARGETS as corpus_targets
    runs = [(n, TARGETS) for n in FAMILY_PROGRAMS] + [(n, corpus_targets) for n in CORPUS_PROGRAMS]
    for name, targets in runs:
        for scheme in SCHEMES:
            record(name, scheme, args.out, targets)
            print(name, scheme, flush=True)


if __name__ == "__main__":
    main()
