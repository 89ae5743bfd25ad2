"""A Tk 2048 whose game spawns any of 2, 4, ..., 512 (small ones far more often), and whose numbers from
1024 up are written in a font wider than the cell, so the text runs over the cell's edges.

    TARGET_SEED=3 FAMILY_BIG_START=1 python tk_wide.py

A beige window, a board with 12 px gaps between 100 px square cells, every number bold. All tile bodies are
drawn first and then all numbers, so a wide number lies over the gaps and the neighbouring tiles on both
sides. Tiles slide for 100 ms and the new one grows in. Truth: the board after every key (engine.py).
"""

from tkgame import Look, TkGame

import corpus_launch  # tests/targets, put on sys.path by engine.py

SPAWNS = {2: 60, 4: 20, 8: 8, 16: 5, 32: 3, 64: 2, 128: 1, 256: 0.6, 512: 0.4}
COLOURS = {2: "#eee4da", 4: "#ede0c8", 8: "#f2b179", 16: "#f59563", 32: "#f67c5f", 64: "#f65e3b",
           128: "#edcf72", 256: "#edcc61", 512: "#edc850", 1024: "#edc53f", 2048: "#edc22e"}
CELL, GAP, MARGIN = 100, 12, 10


class WideLook(Look):
    size = (480, 480)
    background = "#faf8ef"

    def cell_xy(self, r, c):
        return MARGIN + GAP + c * (CELL + GAP), MARGIN + GAP + r * (CELL + GAP)

    def draw_board(self, canvas):
        w, h = self.size
        canvas.create_rectangle(MARGIN, MARGIN, w - MARGIN, h - MARGIN, fill="#bbada0", outline="")
        self.draw_cells(canvas, CELL, "#cdc1b4")

    def draw_body(self, canvas, x, y, value, scale):
        self.draw_square(canvas, x, y, CELL, scale, COLOURS.get(value, "#3c3a32"))

    def draw_number(self, canvas, x, y, value, scale):
        digits = len(str(value))
        size = 44 if digits <= 2 else 34 if digits == 3 else 44  # 1024 and up: wider than the cell
        colour = "#776e65" if value <= 4 else "#f9f6f2"
        canvas.create_text(x + CELL / 2, y + CELL / 2, text=str(value), fill=colour,
                           font=("DejaVu Sans", -max(1, int(size * scale)), "bold"))  # size < 0: pixels


if __name__ == "__main__":
    corpus_launch.run(lambda: TkGame("tk_wide", WideLook(), SPAWNS).run())
