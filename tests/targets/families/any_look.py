"""A terminal 2048 whose look is drawn at random from a seed: one program for many families of terminal looks.

    TARGET_SEED=3 FAMILY_LOOK=17 LC_ALL=C.UTF-8 xterm -e python any_look.py

`look(seed)` chooses, from `$FAMILY_LOOK`, how the board is drawn:
 - lines: none, a whole grid (box-drawing light, heavy or double, or ASCII `+ - |`), rules between the rows
   only, bars between the columns only, a box round each cell, or a frame round the board only;
 - cells 5 to 9 columns wide and 1 to 4 lines tall, with or without room between them;
 - an empty cell blank or marked (`.`, `·`, `0`, `-`, `_`);
 - colour: none, the number's colour per value (16 or 256 colours), or each tile a block of its value's
   colour (16, 256 or 24-bit colours), the empty cells a grey or the terminal's own background;
 - numbers left-aligned, centred or right-aligned, bold or not, on the cell's middle or top line;
 - where the board stands, a title and score over it, key help under it, the terminal black or white and
   its font size.

The same seed gives the same look every time (random.Random(seed)), so a look that reads wrong can be started
again. Arrow keys; q quits. Truth: the board after every key (engine.py).
"""

from __future__ import annotations

import colorsys
import os
import random

LINE_SETS = {  # corners, tees, cross, horizontal, vertical: ┌ ┬ ┐ ├ ┼ ┤ └ ┴ ┘ ─ │
    "light": "┌┬┐├┼┤└┴┘─│",
    "heavy": "┏┳┓┣╋┫┗┻┛━┃",
    "double": "╔╦╗╠╬╣╚╩╝═║",
    "ascii": "+++++++++-|",
    "rounded": "╭┬╮├┼┤╰┴╯─│",
}
FG16 = [31, 32, 33, 34, 35, 36, 91, 92, 93, 94, 95, 96]
BG16 = [41, 42, 43, 44, 45, 46, 101, 102, 103, 104, 105, 106]
VIVID256 = [196, 202, 208, 214, 220, 226, 190, 118, 46, 49, 51, 39, 27, 93, 129, 165, 201, 199]


def look(seed: int) -> dict:
    """The look of seed `seed`: every choice the drawing makes."""
    rng = random.Random(seed)
    lines = rng.choice(["none", "grid", "grid", "rows", "bars", "cellbox", "frame"])
    colour = rng.choice(["mono", "fg16", "fg256", "bg16", "bg256", "bg24", "bg24"])
    if lines == "frame" and colour in ("mono", "fg16", "fg256"):
        colour = rng.choice(["bg256", "bg24"])  # tiles with nothing round them need a block to stand apart
    cell_w = rng.randint(5, 9)
    cell_h = rng.choice([1, 1, 2, 3, 3, 4]) if lines != "cellbox" else rng.choice([1, 1, 3])
    if colour.startswith("bg") and cell_h == 1 and lines in ("none", "bars", "frame"):
        cell_h = rng.choice([1, 2, 3])
    gap_x = rng.choice([0, 1, 2]) if lines in ("none", "cellbox", "frame") else 0
    gap_y = rng.choice([0, 1]) if lines in ("none", "cellbox", "frame", "bars") else 0
    if lines == "none" and not colour.startswith("bg"):
        gap_y = 1 if cell_h == 1 else gap_y  # a bare matrix: a blank line between its rows
    empty = rng.choice(["", ".", "·", "0", "-", "_"])
    if not colour.startswith("bg") and lines in ("none", "bars") and empty == "":
        empty = rng.choice([".", "·", "0", "-"])  # a bare matrix shows where its empty cells are
    dark = rng.random() < 0.6
    empty_grey = rng.choice([None, rng.randint(60, 200)]) if colour.startswith("bg") else None
    if colour.startswith("bg") and lines == "none" and empty_grey is None and empty == "":
        empty_grey = rng.randint(60, 200)  # blocks on nothing: the empty cells are drawn
    return {
        "lines": lines,
        "line_set": rng.choice(list(LINE_SETS)),
        "line_colour": rng.choice([None, None, 90, 37, 34, 36, 33]),
        "colour": colour,
        "cell": (cell_w, cell_h),
        "gap": (gap_x, gap_y),
        "empty": empty,
        "empty_grey": empty_grey,
        "align": rng.choice(["left", "center", "center", "right"]),
        "bold": rng.random() < 0.4,
        "top_line": cell_h > 1 and rng.random() < 0.25,
        "margin": (rng.randint(0, 6), rng.randint(0, 3)),
        "title": rng.choice(["2048   score {score}", "Score: {score}   Best: 0", None]),
        "help": rng.choice(["arrows: move   q: quit", "Use the arrow keys. Press q to quit.", None]),
        "dark": dark,
        "font_size": rng.choice([11, 12, 13, 14, 16]),
        "palette_seed": rng.randint(0, 10**6),
    }


def _palette(spec: dict) -> dict[int, str]:
    """The SGR of each value's tile (its number, and its block where the look has blocks)."""
    rng = random.Random(spec["palette_seed"])
    bold = "1;" if spec["bold"] else ""
    out: dict[int, str] = {}
    values = [2 ** k for k in range(1, 18)]
    if spec["colour"] == "mono":
        return {v: bold for v in values}
    # the indexed looks: a shuffled palette, each value's SGR from its hue (and, on a block, its ink)
    indexed = {
        "fg16": (FG16, lambda i, hue: f"{hue};"),
        "fg256": (VIVID256, lambda i, hue: f"38;5;{hue};"),
        "bg16": (BG16, lambda i, hue: f"{hue};{30 if i % 3 else 97};"),
        "bg256": (VIVID256, lambda i, hue: f"48;5;{hue};38;5;{16 if i % 2 else 231};"),
    }
    if spec["colour"] in indexed:
        palette, sgr = indexed[spec["colour"]]
        hues = rng.sample(palette, len(palette))
        return {v: bold + sgr(i, hues[i % len(hues)]) for i, v in enumerate(values)}
    start = rng.random()
    for i, v in enumerate(values):  # 24-bit: hues around the wheel, light to dark
        r, g, b = (int(255 * c) for c in colorsys.hsv_to_rgb((start + 0.13 * i) % 1.0, 0.35 + 0.04 * (i % 12),
                                                               0.95 - 0.03 * (i % 10)))
        text = "30;" if (r * 299 + g * 587 + b * 114) / 1000 > 150 else "97;"
        out[v] = f"{bold}48;2;{r};{g};{b};{text}"
    return out


def _sgr(codes: str) -> str:
    codes = codes.rstrip(";")
    return f"\x1b[0;{codes}m" if codes else "\x1b[0m"


class Canvas:
    """Characters with their SGR, written out line by line."""

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], tuple[str, str]] = {}

    def put(self, row: int, col: int, text: str, sgr: str = "") -> None:
        for i, ch in enumerate(text):
            self.cells[(row, col + i)] = (ch, sgr)

    def text(self) -> str:
        if not self.cells:
            return ""
        rows = max(r for r, _ in self.cells) + 1
        out = []
        for r in range(rows):
            cols = [c for rr, c in self.cells if rr == r]
            line, current = "", None
            for c in range(max(cols) + 1 if cols else 0):
                ch, sgr = self.cells.get((r, c), (" ", ""))
                if sgr != current:
                    line += _sgr(sgr)
                    current = sgr
                line += ch
            out.append(line + "\x1b[0m")
        return "\r\n".join(out)


def layout(spec: dict, rows: int, cols: int) -> tuple[list[int], list[int], int, int]:
    """The first line of each cell row, the first column of each cell column, and the board's size in
    lines and columns, from the board's own top-left corner."""
    cw, ch = spec["cell"]
    gx, gy = spec["gap"]
    lines = spec["lines"]
    if lines == "grid":
        xs = [1 + c * (cw + 1) for c in range(cols)]
        ys = [1 + r * (ch + 1) for r in range(rows)]
        return ys, xs, rows * (ch + 1) + 1, cols * (cw + 1) + 1
    if lines == "rows":
        ys = [1 + r * (ch + 1) for r in range(rows)]
        xs = [c * cw for c in range(cols)]
        return ys, xs, rows * (ch + 1) + 1, cols * cw
    if lines == "bars":
        xs = [1 + c * (cw + 1) for c in range(cols)]
        ys = [r * (ch + gy) for r in range(rows)]
        return ys, xs, rows * (ch + gy) - gy, cols * (cw + 1) + 1
    if lines == "cellbox":
        xs = [1 + c * (cw + 2 + gx) for c in range(cols)]
        ys = [1 + r * (ch + 2 + gy) for r in range(rows)]
        return ys, xs, rows * (ch + 2 + gy) - gy, cols * (cw + 2 + gx) - gx
    if lines == "frame":
        xs = [1 + gx + c * (cw + gx) for c in range(cols)]
        ys = [1 + gy + r * (ch + gy) for r in range(rows)]
        return ys, xs, rows * (ch + gy) + gy + 2, cols * (cw + gx) + gx + 2
    xs = [c * (cw + gx) for c in range(cols)]
    ys = [r * (ch + gy) for r in range(rows)]
    return ys, xs, rows * (ch + gy) - gy, cols * (cw + gx) - gx


def draw_lines(canvas: Canvas, spec: dict, top: int, left: int, ys: list[int], xs: list[int], height: int,
               width: int) -> None:
    tl, tt, tr, lt, cross, rt, bl, bt, br, hz, vt = LINE_SETS[spec["line_set"]]
    sgr = str(spec["line_colour"]) if spec["line_colour"] else ""
    cw, ch = spec["cell"]
    lines = spec["lines"]
    if lines == "grid":
        for r in range(len(ys) + 1):
            y = top + r * (ch + 1)
            left_ch, mid_ch, right_ch = (tl, tt, tr) if r == 0 else (bl, bt, br) if r == len(ys) else (lt, cross, rt)
            row = left_ch + mid_ch.join(hz * cw for _ in xs) + right_ch
            canvas.put(y, left, row, sgr)
        for r in range(len(ys)):
            for k in range(ch):
                for c in range(len(xs) + 1):
                    canvas.put(top + ys[r] + k, left + c * (cw + 1), vt, sgr)
    elif lines == "rows":
        for r in range(len(ys) + 1):
            canvas.put(top + r * (ch + 1), left, hz * width, sgr)
    elif lines == "bars":
        for y in range(height):
            for c in range(len(xs) + 1):
                canvas.put(top + y, left + c * (cw + 1), vt, sgr)
    elif lines == "cellbox":
        for y0 in ys:
            for x0 in xs:
                canvas.put(top + y0 - 1, left + x0 - 1, tl + hz * cw + tr, sgr)
                for k in range(ch):
                    canvas.put(top + y0 + k, left + x0 - 1, vt, sgr)
                    canvas.put(top + y0 + k, left + x0 + cw, vt, sgr)
                canvas.put(top + y0 + ch, left + x0 - 1, bl + hz * cw + br, sgr)
    elif lines == "frame":
        canvas.put(top, left, tl + hz * (width - 2) + tr, sgr)
        for y in range(1, height - 1):
            canvas.put(top + y, left, vt, sgr)
            canvas.put(top + y, left + width - 1, vt, sgr)
        canvas.put(top + height - 1, left, bl + hz * (width - 2) + br, sgr)


def screen_of(spec: dict):
    palette = _palette(spec)
    cw, ch = spec["cell"]
    mx, my = spec["margin"]
    blocks = spec["colour"].startswith("bg")
    empty_sgr = f"48;5;{232 + spec['empty_grey'] * 23 // 255};90;" if blocks and spec["empty_grey"] else "90;"
    if not blocks:
        empty_sgr = ""

    def screen(game) -> str:
        canvas = Canvas()
        top = my
        if spec["title"]:
            canvas.put(top, mx, spec["title"].format(score=game.score))
            top += 2
        rows, cols = len(game.board), len(game.board[0])
        ys, xs, height, width = layout(spec, rows, cols)
        draw_lines(canvas, spec, top, mx, ys, xs, height, width)
        number_line = 0 if spec["top_line"] else ch // 2
        for r, row in enumerate(game.board):
            for c, value in enumerate(row):
                y0, x0 = top + ys[r], mx + xs[c]
                sgr = palette[value] if value else empty_sgr
                text = str(value) if value else spec["empty"]
                if spec["align"] == "left":
                    text = " " + text
                    text = text.ljust(cw)
                elif spec["align"] == "right":
                    text = (text + " ").rjust(cw)
                else:
                    text = text.center(cw)
                for k in range(ch):
                    canvas.put(y0 + k, x0, text if k == number_line else " " * cw, sgr if (blocks or k == number_line) else "")
        below = top + height + 1
        if spec["help"]:
            canvas.put(below, mx, spec["help"])
            below += 2
        if game.over():
            canvas.put(below, mx, "Game over")
        return "\x1b[H\x1b[2J" + canvas.text()

    return screen


def main() -> None:
    from engine import Game
    from plain_boxes import play_in_cbreak

    spec = look(int(os.environ.get("FAMILY_LOOK", "1")))
    play_in_cbreak(Game(), screen_of(spec))


if __name__ == "__main__":  # (look() is imported by the tests without the game's modules)
    from engine import ROWS  # noqa: F401 - puts tests/targets on sys.path

    import corpus_launch

    corpus_launch.run(main)
