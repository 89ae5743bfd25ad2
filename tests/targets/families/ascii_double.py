"""A curses 2048 in a terminal whose grid is drawn with `‖` and `=` (one colour), the numbers written in
the 16 terminal colours, a colour for each value; empty cells are blank.

    TARGET_SEED=3 LC_ALL=C.UTF-8 xterm -e python ascii_double.py

Cells are 8 columns by 3 lines inside the grid, the number centred on the middle line (bold from 128 up).
`Score: n` stands over the grid, "GAME OVER" beside it when no move is left. Truth: the board after every
key (engine.py).
"""

import curses

import cursesgame
from engine import COLS, ROWS

import corpus_launch  # tests/targets, put on sys.path by engine.py

CELL_W, CELL_H = 8, 3
GRID = 12  # bright blue
INK = {2: 7, 4: 11, 8: 3, 16: 9, 32: 1, 64: 13, 128: 5, 256: 10, 512: 2, 1024: 14, 2048: 6, 4096: 15, 8192: 12}


def draw(screen, game, colour):
    status = f"Score: {game.score}" + ("   GAME OVER" if game.over() else "")
    screen.addstr(0, 1, status, colour(7, curses.COLOR_BLACK))
    grid = colour(GRID, curses.COLOR_BLACK)
    top = 2
    width = COLS * (CELL_W + 1) + 1
    for r in range(ROWS):
        y = top + r * (CELL_H + 1)
        screen.addstr(y, 0, ("‖" + "=" * CELL_W) * COLS + "‖", grid)
        for dy in range(1, CELL_H + 1):
            for c in range(COLS + 1):
                screen.addstr(y + dy, c * (CELL_W + 1), "‖", grid)
        for c in range(COLS):
            value = game.board[r][c]
            if value:
                ink = colour(INK.get(value, 15), curses.COLOR_BLACK) | (curses.A_BOLD if value >= 128 else 0)
                screen.addstr(y + 2, c * (CELL_W + 1) + 1, str(value).center(CELL_W), ink)
    screen.addstr(top + ROWS * (CELL_H + 1), 0, ("‖" + "=" * CELL_W) * COLS + "‖", grid)
    assert width <= screen.getmaxyx()[1]


if __name__ == "__main__":
    corpus_launch.run(lambda: cursesgame.run(draw))
