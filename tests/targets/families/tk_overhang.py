"""A Tk 2048 drawn as many pygame games draw theirs: a title and score over a framed board whose tiles
do not fit the frame (the right column overhangs the frame by 25 px), and a line of help text written
across the bottom row of tiles.

    TARGET_SEED=3 python tk_overhang.py

Cells are 100 px squares 110 px apart; the frame is a 6 px dark outline. The help line lies over the lower
part of the bottom row, tiles and gaps alike, in every frame. Tiles slide for 100 ms and the new one grows
in. Truth: the board after every key (engine.py).
"""

from tkgame import Look, TkGame

import corpus_launch  # tests/targets, put on sys.path by engine.py

COLOURS = {2: "#eee4da", 4: "#ede0c8", 8: "#f2b179", 16: "#f59563", 32: "#f67c5f", 64: "#f65e3b",
           128: "#edcf72", 256: "#edcc61", 512: "#edc850", 1024: "#edc53f", 2048: "#edc22e"}
CELL, STEP, LEFT, TOP = 100, 110, 30, 90
FRAME = (20, 80, LEFT + 3 * STEP + CELL - 25, TOP + 3 * STEP + CELL + 10)  # right edge: 25 px short of the tiles
HELP = "Arrows: move the tiles    Esc: quit"


class OverhangLook(Look):
    size = (490, 560)
    background = "#faf8ef"

    def cell_xy(self, r, c):
        return LEFT + c * STEP, TOP + r * STEP

    def draw_board(self, canvas):
        canvas.create_text(20, 40, text="2048", anchor="w", fill="#776e65", font=("DejaVu Sans", -40, "bold"))
        canvas.create_rectangle(*FRAME, fill="#bbada0", outline="#5a4f45", width=6)
        self.draw_cells(canvas, CELL, "#cdc1b4")

    def draw_body(self, canvas, x, y, value, scale):
        self.draw_square(canvas, x, y, CELL, scale, COLOURS.get(value, "#3c3a32"))

    def draw_number(self, canvas, x, y, value, scale):
        size = {1: 48, 2: 44, 3: 36}.get(len(str(value)), 28)
        canvas.create_text(x + CELL / 2, y + CELL / 2 - 6, text=str(value), fill="#776e65" if value <= 4 else "#f9f6f2",
                           font=("DejaVu Sans", -max(1, int(size * scale)), "bold"))

    def draw_extras(self, canvas):
        canvas.create_text(LEFT + 6, TOP + 3 * STEP + 84, text=HELP, anchor="w", fill="#3a3a3a",
                           font=("DejaVu Sans", -15))


if __name__ == "__main__":
    corpus_launch.run(lambda: TkGame("tk_overhang", OverhangLook()).run())
