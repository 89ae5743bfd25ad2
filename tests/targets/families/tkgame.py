"""What the Tk family programs share: a window with one canvas, the arrow keys, a drawn slide.

A program gives a Look: where each cell's tile stands, and how to draw the board under the tiles, a tile's
body, its number, anything drawn over the tiles, and the game-over overlay. Every frame is drawn in that
order: the background, every tile's body, then every number (so a number wider than its cell lies over
its neighbours), then the extras. A key slides the tiles for SLIDE_MS, then the new tile grows in for
GROW_MS; keys that come meanwhile wait their turn, none is lost.
"""

from __future__ import annotations

import tkinter

from engine import Game

SLIDE_MS = 100
GROW_MS = 60
FRAME_MS = 20
KEYS = {"Up": "up", "Down": "down", "Left": "left", "Right": "right"}


class Look:
    """How a program draws; the numbers are canvas pixels."""

    size = (400, 400)  # the window's width and height
    background = "#bbada0"

    def cell_xy(self, r: int, c: int) -> tuple[float, float]:
        raise NotImplementedError

    def draw_board(self, canvas: tkinter.Canvas) -> None:
        """Everything under the tiles (frame, empty cells)."""

    def draw_body(self, canvas: tkinter.Canvas, x: float, y: float, value: int, scale: float) -> None:
        raise NotImplementedError

    def draw_number(self, canvas: tkinter.Canvas, x: float, y: float, value: int, scale: float) -> None:
        """The number of the tile whose cell's top-left is at x, y."""

    def draw_extras(self, canvas: tkinter.Canvas) -> None:
        """Anything drawn over the tiles (help text)."""

    def draw_cells(self, canvas: tkinter.Canvas, cell: float, colour: str) -> None:
        """The sixteen empty cells, squares of side `cell`."""
        for r in range(4):
            for c in range(4):
                x, y = self.cell_xy(r, c)
                canvas.create_rectangle(x, y, x + cell, y + cell, fill=colour, outline="")

    @staticmethod
    def draw_square(canvas: tkinter.Canvas, x: float, y: float, cell: float, scale: float, colour: str) -> None:
        """A tile's body: a square of side `cell * scale` centred in the cell whose top-left is x, y."""
        half = cell * scale / 2
        cx, cy = x + cell / 2, y + cell / 2
        canvas.create_rectangle(cx - half, cy - half, cx + half, cy + half, fill=colour, outline="")

    def draw_over(self, canvas: tkinter.Canvas) -> None:
        w, h = self.size
        canvas.create_rectangle(0, 0, w, h, fill="#eee4da", stipple="gray50", outline="")
        canvas.create_text(w / 2, h / 2, text="Game over!", fill="#776e65", font=("DejaVu Sans", -40, "bold"))


class TkGame:
    def __init__(self, title: str, look: Look, spawns: dict[int, int] | None = None) -> None:
        self.look = look
        self.root = tkinter.Tk()
        self.root.title(title)
        self.root.resizable(False, False)
        w, h = look.size
        self.root.geometry(f"{w}x{h}+0+0")
        self.canvas = tkinter.Canvas(self.root, width=w, height=h, bg=look.background, highlightthickness=0, bd=0)
        self.canvas.pack()
        self.queue: list[str] = []
        self.busy = False
        for key, move in KEYS.items():
            self.root.bind(f"<{key}>", lambda _e, m=move: self.on_key(m))
        self.game = Game(spawns)
        self.draw()

    def run(self) -> None:
        self.root.mainloop()

    def on_key(self, move: str) -> None:
        self.queue.append(move)
        if not self.busy:
            self.next_key()

    def next_key(self) -> None:
        if not self.queue:
            self.busy = False
            return
        self.busy = True
        move = self.queue.pop(0)
        before = [row[:] for row in self.game.board]
        if self.game.over() or not self.game.press(move):
            self.draw()
            self.root.after(1, self.next_key)
            return
        self.animate(before, 0)

    def animate(self, before: list[list[int]], elapsed: int) -> None:
        if elapsed < SLIDE_MS:
            t = elapsed / SLIDE_MS
            tiles = []
            for (r0, c0), (r1, c1), value in self.game.last_paths:
                x0, y0 = self.look.cell_xy(r0, c0)
                x1, y1 = self.look.cell_xy(r1, c1)
                tiles.append((x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, value, 1.0))
            self.draw_tiles(tiles)
        elif elapsed < SLIDE_MS + GROW_MS:
            self.draw(grow=0.3 + 0.7 * (elapsed - SLIDE_MS) / GROW_MS)
        else:
            self.draw()
            self.root.after(1, self.next_key)
            return
        self.root.after(FRAME_MS, self.animate, before, elapsed + FRAME_MS)

    def draw(self, grow: float = 1.0) -> None:
        board = self.game.board
        tiles = [(*self.look.cell_xy(r, c), board[r][c], grow if (r, c) == self.game.new_cell else 1.0)
                 for r in range(4) for c in range(4) if board[r][c]]
        self.draw_tiles(tiles, over=self.game.over())

    def draw_tiles(self, tiles: list[tuple[float, float, int, float]], over: bool = False) -> None:
        canvas = self.canvas
        canvas.delete("all")
        self.look.draw_board(canvas)
        for x, y, value, scale in tiles:
            self.look.draw_body(canvas, x, y, value, scale)
        for x, y, value, scale in tiles:
            self.look.draw_number(canvas, x, y, value, scale)
        self.look.draw_extras(canvas)
        if over:
            self.look.draw_over(canvas)
