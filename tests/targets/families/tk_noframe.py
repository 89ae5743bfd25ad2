"""A Tk 2048 with no frame: the whole window is the board's colour, the cells stand 84 px apart across and
80 px down (not square), and each tile is a picture: a disc of the value's colour with a ring inside it,
the number small in the cell's top-left corner.

    TARGET_SEED=3 python tk_noframe.py

Cells are 76 x 72 px with 8 px between them and 4 px to the window's edge; an empty cell is a rectangle a
little lighter than the board. Tiles slide for 100 ms and the new one grows in. Truth: the board after
every key (engine.py).
"""

from tkgame import Look, TkGame

import corpus_launch  # tests/targets, put on sys.path by engine.py

STEP_X, STEP_Y, CELL_W, CELL_H, EDGE = 84, 80, 76, 72, 4
DISC = {2: "#4e9a06", 4: "#73d216", 8: "#c4a000", 16: "#f57900", 32: "#ce5c00", 64: "#cc0000", 128: "#a40000",
        256: "#75507b", 512: "#5c3566", 1024: "#3465a4", 2048: "#204a87", 4096: "#2e3436", 8192: "#888a85"}
RING = "#eeeeec"


class NoFrameLook(Look):
    size = (4 * STEP_X, 4 * STEP_Y)
    background = "#2e3b4a"

    def cell_xy(self, r, c):
        return EDGE + c * STEP_X, EDGE + r * STEP_Y

    def draw_board(self, canvas):
        for r in range(4):
            for c in range(4):
                x, y = self.cell_xy(r, c)
                canvas.create_rectangle(x, y, x + CELL_W, y + CELL_H, fill="#3a4959", outline="")

    def draw_body(self, canvas, x, y, value, scale):
        cx, cy = x + CELL_W / 2, y + CELL_H / 2
        radius = 33 * scale
        canvas.create_oval(cx - radius, cy - radius, cx + radius, cy + radius, fill=DISC.get(value, "#555753"),
                           outline="")
        inner = radius * 0.55
        canvas.create_oval(cx - inner, cy - inner, cx + inner, cy + inner, outline=RING, width=max(1, int(4 * scale)))

    def draw_number(self, canvas, x, y, value, scale):
        if scale >= 1:
            canvas.create_text(x + 3, y + 2, text=str(value), anchor="nw", fill="#ffffff",
                               font=("DejaVu Sans", -11, "bold"))


if __name__ == "__main__":
    corpus_launch.run(lambda: TkGame("tk_noframe", NoFrameLook()).run())
