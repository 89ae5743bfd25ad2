"""Record the practice board at other sizes than 4x4 into tests/fixtures/sizes/ (a live rig: Xvfb + Chromium).

Run: `.venv/bin/python tests/practice/record_sizes.py [--out DIR]`. For every size and look it
keeps still boards cropped to the board (an 8 px margin): the opening board, a board reached by
playing seeded random keys, and for some a board set through the page's `board=` option with
large tiles (up to 2048, or the largest tile the size can hold). Beside each `NAME.png` a
`NAME.json` holds the page's true board and where the board and its cells lie in the picture.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np
from PIL import Image

from screenbot.game.rules import Move, to_grid
from screenbot.game.sizes import format_size, tile_limit
from screenbot.practice.rig import Rig

OUT = Path(__file__).resolve().parents[1] / "fixtures" / "sizes"
MARGIN = 8  # screen px of page kept round the board
SIZES = [(3, 3), (5, 5), (8, 8), (4, 6)]
# look -> the boards kept for it: opening, played (random keys from the opening), large (set).
PLAN = {"classic": ("opening", "played", "large"), "lines": ("played", "large"), "terminal": ("played", "large")}
KEYS_PLAYED = 40
LARGE = (2048, 1024, 512, 256, 128, 64, 32, 16, 8, 4, 2)


def large_board(size: tuple[int, int]) -> list[list[int]]:
    """A board full of large tiles in a snake from the top-left corner (the largest the size can
    hold first, down to 2), then a few empty cells."""
    rows, cols = size
    values = [v for v in LARGE if v <= tile_limit(size)]
    order = [(r, c if r % 2 == 0 else cols - 1 - c) for r in range(rows) for c in range(cols)]
    board = [[0] * cols for _ in range(rows)]
    pattern = values + values[1:-1][::-1]  # down, then up again, and round
    for i, (r, c) in enumerate(order[: rows * cols - 3]):
        board[r][c] = pattern[i % len(pattern)]
    return board


def truth_text(truth: dict) -> str:
    """The truth as JSON, one field a line (a board or a list of rectangles on its line)."""
    return "{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in truth.items()) + "\n}\n"


def crop_box(rig: Rig) -> tuple[int, int, int, int]:
    """The board's whole-pixel rectangle with MARGIN round it, on the screen."""
    rect = rig.board_rect()
    return rect.x - MARGIN, rect.y - MARGIN, rect.w + 2 * MARGIN, rect.h + 2 * MARGIN


def keep(rig: Rig, out: Path, name: str, look: str, size: tuple[int, int], seed: int) -> Path:
    """Grab the still board and write NAME.png and NAME.json."""
    rig.wait_still(still_ms=250)
    x, y, w, h = crop_box(rig)
    pixels = rig.screenshot()[y:y + h, x:x + w]
    state = rig.state(history=False)
    board = to_grid(state["board"], size)

    def in_picture(box) -> list[float]:
        return [round(box.x - x, 2), round(box.y - y, 2), round(box.w, 2), round(box.h, 2)]

    png = out / f"{name}.png"
    Image.fromarray(np.ascontiguousarray(pixels[:, :, ::-1])).save(png, optimize=True)
    truth = {
        "board": [list(row) for row in board],
        "size": list(size),
        "look": look,
        "program": "practice",
        "kind": "static",
        "score": state["score"],
        "seed": seed,
        "board_rect": in_picture(rig.board_box()),
        "cell_rects": [in_picture(b) for b in rig.cell_boxes()],
        "recorded": time.strftime("%Y-%m-%d"),
        "command": "tests/practice/record_sizes.py",
    }
    png.with_suffix(".json").write_text(truth_text(truth))
    return png


def record(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with Rig(screen=(1000, 1000), anim=0) as rig:
        for look, kinds in PLAN.items():
            for size in SIZES:
                seed = 100 * size[0] + size[1]
                stem = f"{look}_{format_size(size)}"
                for index, kind in enumerate(kinds):
                    board = large_board(size) if kind == "large" else None
                    rig.load(theme=look, shape=size, seed=seed, board=board, keep=True)
                    time.sleep(0.4)
                    rig.focus_page()
                    if kind == "played":
                        rnd = random.Random(seed)
                        rig.press_many([rnd.choice(list(Move)) for _ in range(KEYS_PLAYED)], delay_ms=20)
                        rig.wait_for_keys(KEYS_PLAYED, timeout=10)
                    written.append(keep(rig, out, f"{stem}__{index:02d}_{kind}", look, size, seed))
                    print(written[-1].name, flush=True)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"where to write (default {OUT})")
    args = parser.parse_args(argv)
    record(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
