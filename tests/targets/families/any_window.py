"""A windowed 2048 (Tk) whose look is drawn at random from a seed: one program for many families of window
looks, as pygame, Tk, GTK, Qt and web games draw them.

    TARGET_SEED=3 FAMILY_LOOK=17 python any_window.py

`look(seed)` chooses, from `$FAMILY_LOOK`, how the board is drawn:
 - the window's colour (light, dark or any), and a board that stands on it (a frame of another colour, with
   or without an outline) or none (the board the window's colour);
 - cells 44 to 120 px, square or not, 0 to 18 px apart; empty cells drawn in their own colour, or not drawn
   (the board painted one colour);
 - tiles: square, rounded, inset in their cell, or an outline of the value's colour; a palette of the
   classic colours, a ramp of one hue, hues around the wheel, or dark tiles with coloured numbers;
 - numbers: the font, bold or not, their size, their colour (by the tile's lightness, one colour for all,
   or close to the tile's), centred or small in a corner;
 - a title and score over the board, a help line under it, and whether the tiles slide or jump.

The same seed gives the same look every time (random.Random(seed)). Arrow keys. Truth: the board after every
key (engine.py).
"""

from __future__ import annotations

import colorsys
import os
import random

CLASSIC = {2: "#eee4da", 4: "#ede0c8", 8: "#f2b179", 16: "#f59563", 32: "#f67c5f", 64: "#f65e3b",
           128: "#edcf72", 256: "#edcc61", 512: "#edc850", 1024: "#edc53f", 2048: "#edc22e"}
FONTS = ["DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono", "Liberation Sans", "Liberation Serif",
         "Liberation Sans Narrow"]
VALUES = [2 ** k for k in range(1, 18)]


def _hex(rgb) -> str:
    return "#%02x%02x%02x" % tuple(max(0, min(255, int(v))) for v in rgb)


def _hsv(h: float, s: float, v: float) -> str:
    return _hex(tuple(255 * c for c in colorsys.hsv_to_rgb(h % 1.0, s, v)))


def _light(colour: str) -> float:
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return (r * 299 + g * 587 + b * 114) / 1000


def look(seed: int) -> dict:
    """The look of seed `seed`: every choice the drawing makes."""
    rng = random.Random(seed)
    theme = rng.choice(["light", "light", "dark", "any"])
    if theme == "light":
        window = _hsv(rng.random(), rng.uniform(0, 0.12), rng.uniform(0.9, 1.0))
    elif theme == "dark":
        window = _hsv(rng.random(), rng.uniform(0, 0.3), rng.uniform(0.08, 0.25))
    else:
        window = _hsv(rng.random(), rng.uniform(0.2, 0.7), rng.uniform(0.3, 0.9))
    framed = rng.random() < 0.7
    board = _hsv(rng.random(), rng.uniform(0, 0.25), rng.uniform(0.3, 0.8)) if framed else window
    cell = rng.randint(44, 120)
    cell_h = cell if rng.random() < 0.7 else int(cell * rng.uniform(0.8, 1.2))
    gap = rng.choice([0, 2, 4, 6, 8, 10, 12, 15, 18])
    empty = rng.choice(["cells", "cells", "cells", "none"])
    if gap == 0 and empty == "none":
        empty = "cells"
    shift = rng.choice([-1, 1]) * rng.uniform(0.05, 0.2)
    empty_colour = _hex(tuple(c + 255 * shift for c in (int(board[i:i + 2], 16) for i in (1, 3, 5))))
    palette = rng.choice(["classic", "ramp", "wheel", "dark"])
    tile = rng.choice(["square", "square", "rounded", "inset", "outline"])
    if tile == "outline" and empty == "none":
        tile = "square"
    return {
        "window": window, "framed": framed, "board": board, "outline": framed and rng.random() < 0.3,
        "cell": (cell, cell_h), "gap": gap, "margin": rng.choice([0, 4, 8, 12, 20]) if framed else rng.choice([0, 4]),
        "empty": empty, "empty_colour": empty_colour,
        "palette": palette, "hue": rng.random(), "tile": tile, "radius": rng.uniform(0.08, 0.2),
        "inset": rng.randint(2, 6),
        "font": rng.choice(FONTS), "bold": rng.random() < 0.6, "text_size": rng.uniform(0.28, 0.5),
        "ink": rng.choice(["contrast", "contrast", "one", "near"]),
        "ink_colour": rng.choice(["#ffffff", "#222222", "#776e65", _hsv(rng.random(), 0.6, 0.5)]),
        "corner": rng.random() < 0.12,
        "title": rng.choice(["2048", "Score: {score}", "2048    score {score}", None]),
        "help": rng.choice(["Use the arrow keys", "Arrows: move    Esc: quit", None]),
        "animate": rng.random() < 0.6,
    }


def tile_colour(spec: dict, value: int) -> str:
    i = VALUES.index(value)
    if spec["palette"] == "classic":
        return CLASSIC.get(value, "#3c3a32")
    if spec["palette"] == "ramp":  # one hue from pale to deep
        return _hsv(spec["hue"], 0.12 + 0.06 * min(i, 13), 0.97 - 0.035 * min(i, 13))
    if spec["palette"] == "wheel":
        return _hsv(spec["hue"] + 0.11 * i, 0.55, 0.85 - 0.02 * (i % 8))
    return _hsv(spec["hue"] + 0.07 * i, 0.5, 0.22 + 0.02 * (i % 6))  # dark tiles


def ink_colour(spec: dict, value: int) -> str:
    body = tile_colour(spec, value)
    if spec["palette"] == "dark":
        return _hsv(spec["hue"] + 0.07 * VALUES.index(value) + 0.5, 0.5, 0.95)
    if spec["ink"] == "one" and abs(_light(spec["ink_colour"]) - _light(body)) > 70:
        return spec["ink_colour"]
    if spec["ink"] == "near":  # the tile's own colour, a little darker or lighter
        r, g, b = (int(body[i:i + 2], 16) for i in (1, 3, 5))
        k = 0.45 if _light(body) > 110 else 1.9
        return _hex((r * k + (0 if k < 1 else 40), g * k + (0 if k < 1 else 40), b * k + (0 if k < 1 else 40)))
    return "#776e65" if _light(body) > 170 else "#f9f6f2"


def build(spec: dict):
    from tkgame import Look

    cw, ch = spec["cell"]
    gap, margin = spec["gap"], spec["margin"]
    top = 70 if spec["title"] else 16
    bw, bh = 4 * cw + 3 * gap + 2 * margin, 4 * ch + 3 * gap + 2 * margin
    left = 16
    help_h = 40 if spec["help"] else 16

    class AnyWindowLook(Look):
        size = (bw + 2 * left, top + bh + help_h)
        background = spec["window"]
        score = 0

        def cell_xy(self, r, c):
            return left + margin + c * (cw + gap), top + margin + r * (ch + gap)

        def draw_board(self, canvas):
            if spec["title"]:
                canvas.create_text(left, 34, anchor="w", text=spec["title"].format(score=self.score),
                                   fill="#f0f0f0" if _light(spec["window"]) < 110 else "#555555",
                                   font=(spec["font"], -30, "bold"))
            if spec["framed"]:
                canvas.create_rectangle(left, top, left + bw, top + bh, fill=spec["board"],
                                        outline="#333333" if spec["outline"] else "", width=3 if spec["outline"] else 0)
            if spec["empty"] == "cells":
                for r in range(4):
                    for c in range(4):
                        x, y = self.cell_xy(r, c)
                        self.shape(canvas, x, y, 1.0, spec["empty_colour"])

        def shape(self, canvas, x, y, scale, colour, outline=False):
            w, h = cw * scale, ch * scale
            x0, y0 = x + (cw - w) / 2, y + (ch - h) / 2
            if spec["tile"] == "inset":
                x0, y0, w, h = x0 + spec["inset"], y0 + spec["inset"], w - 2 * spec["inset"], h - 2 * spec["inset"]
            if outline:
                canvas.create_rectangle(x0 + 2, y0 + 2, x0 + w - 2, y0 + h - 2, outline=colour, width=4)
            elif spec["tile"] == "rounded":
                k = spec["radius"] * min(w, h)
                pts = [x0 + k, y0, x0 + w - k, y0, x0 + w, y0, x0 + w, y0 + k, x0 + w, y0 + h - k, x0 + w, y0 + h,
                       x0 + w - k, y0 + h, x0 + k, y0 + h, x0, y0 + h, x0, y0 + h - k, x0, y0 + k, x0, y0]
                canvas.create_polygon(pts, smooth=True, fill=colour, outline="")
            else:
                canvas.create_rectangle(x0, y0, x0 + w, y0 + h, fill=colour, outline="")

        def draw_body(self, canvas, x, y, value, scale):
            self.shape(canvas, x, y, scale, tile_colour(spec, value), outline=spec["tile"] == "outline")

        def draw_number(self, canvas, x, y, value, scale):
            colour = tile_colour(spec, value) if spec["tile"] == "outline" else ink_colour(spec, value)
            if spec["tile"] == "outline" and _light(colour) > 200:
                colour = "#555555" if _light(spec["empty_colour"]) > 128 else "#dddddd"
            digits = len(str(value))
            if spec["corner"]:
                if scale >= 1:
                    canvas.create_text(x + 6, y + 4, anchor="nw", text=str(value), fill=colour,
                                       font=(spec["font"], -max(10, int(min(cw, ch) * 0.2)), "bold"))
                return
            size = min(cw, ch) * spec["text_size"] * (1.0, 1.0, 0.85, 0.7, 0.58, 0.5)[min(digits, 5)]
            weight = "bold" if spec["bold"] else "normal"
            canvas.create_text(x + cw / 2, y + ch / 2, text=str(value), fill=colour,
                               font=(spec["font"], -max(1, int(size * scale)), weight))

        def draw_extras(self, canvas):
            if spec["help"]:
                canvas.create_text(left, top + bh + 22, anchor="w", text=spec["help"],
                                   fill="#f0f0f0" if _light(spec["window"]) < 110 else "#555555",
                                   font=(spec["font"], -14))

    return AnyWindowLook()


def main() -> None:
    import tkgame
    from tkgame import TkGame

    import corpus_launch  # tests/targets, put on sys.path by engine.py

    spec = look(int(os.environ.get("FAMILY_LOOK", "1")))
    if not spec["animate"]:
        tkgame.SLIDE_MS, tkgame.GROW_MS = 0, 0
    corpus_launch.run(lambda: TkGame(os.environ.get("FAMILY_TITLE", "any_window"), build(spec)).run())


if __name__ == "__main__":
    main()
