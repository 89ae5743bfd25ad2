"""A Tk 2048 whose board is one painted rectangle with no empty cells drawn: the tiles stand on the board's
own colour, so a fresh game shows two tiles on a plain brown square.

    TARGET_SEED=3 python tk_painted.py

A #faf8ef window; the board a #bbada0 rectangle 14 px beyond its cells; cells 96 px apart, tiles 84 px
squares in the classic colours with their numbers (dark on 2 and 4, white from 8); nothing where a cell is
empty. Tiles slide for 100 ms and the new one grows in. Truth: the board after every key (engine.py).
"""

from tkgame import Look, TkGame

import corpus_launch  # tests/targets, put on sys.path by engine.py

STEP, TILE, EDGE, MARGIN = 96, 84, 14, 30
TILES = {2: "#eee4da", 4: "#ede0c8", 8: "#f2b179", 16: "#f59563", 32: "#f67c5f", 64: "#f65e3b", 128: "#edcf72",
         256: "#edcc61", 512: "#edc850", 1024: "#edc53f", 2048: "#edc22e"}


class PaintedLook(Look):
    size = (2 * MARGIN + 2 * EDGE + 3 * STEP + TILE, 2 * MARGIN + 2 * EDGE + 3 * STEP + TILE)
    background = "#faf8ef"

    def cell_xy(self, r, c):
        return MARGIN + EDGE + c * STEP, MARGIN + EDGE + r * STEP

    def draw_board(self, canvas):
        side = 2 * EDGE + 3 * STEP + TILE
        canvas.create_rectangle(MARGIN, MARGIN, MARGIN + side, MARGIN + side, fill="#bbada0", outline="")

    def draw_body(self, canvas, x, y, value, scale):
        half = TILE * scale / 2
        cx, cy = x + TILE / 2, y + TILE / 2
        canvas.create_rectangle(cx - half, cy - half, cx + half, cy + half, fill=TILES.get(value, "#3c3a32"),
                                outline="")

    def draw_number(self, canvas, x, y, value, scale):
        if scale >= 1:
            size = -36 if value < 100 else -30 if value < 1000 else -24
            canvas.create_text(x + TILE / 2, y + TILE / 2, text=str(value), fill="#776e65" if value < 8 else "#f9f6f2",
                               font=("DejaVu Sans", size, "bold"))


if __name__ == "__main__":
    corpus_launch.run(lambda: TkGame("tk_painted", PaintedLook()).run())
