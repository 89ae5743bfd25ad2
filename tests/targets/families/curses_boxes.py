"""A curses 2048 in a terminal: white box-drawing lines between the cells, black empty cells, and each
tile a block of its own colour (a 256-colour pair) with a black margin inside its cell and black digits.

    TARGET_SEED=3 xterm -tn xterm-256color -e python curses_boxes.py

Cells are 9 columns by 5 lines inside the lines; a tile's block is the middle 7 columns by 3 lines, the
number on its middle line. The score stands under the board, "GAME OVER" beside it when no move is left.
Truth: the board after every key (engine.py).
"""

import curses

import cursesgame
from engine import COLS, ROWS

import corpus_launch  # tests/targets, put on sys.path by engine.py

CELL_W, CELL_H = 9, 5
BLOCK = {2: 229, 4: 222, 8: 215, 16: 209, 32: 203, 64: 196, 128: 227, 256: 220, 512: 214, 1024: 45, 2048: 39,
         4096: 33, 8192: 129, 16384: 93}


def draw(screen, game, colour):
    lines = colour(15, curses.COLOR_BLACK)
    width, height = COLS * (CELL_W + 1) + 1, ROWS * (CELL_H + 1) + 1
    for y in range(height):
        for x in range(width):
            on_row, on_col = y % (CELL_H + 1) == 0, x % (CELL_W + 1) == 0
            if on_row and on_col:
                top, bottom, left, right = y == 0, y == height - 1, x == 0, x == width - 1
                char = (curses.ACS_ULCORNER if top and left else curses.ACS_URCORNER if top and right
                        else curses.ACS_LLCORNER if bottom and left else curses.ACS_LRCORNER if bottom and right
                        else curses.ACS_TTEE if top else curses.ACS_BTEE if bottom
                        else curses.ACS_LTEE if left else curses.ACS_RTEE if right else curses.ACS_PLUS)
            elif on_row:
                char = curses.ACS_HLINE
            elif on_col:
                char = curses.ACS_VLINE
            else:
                continue
            screen.addch(y, x, char, lines)
    for r in range(ROWS):
        for c in range(COLS):
            value = game.board[r][c]
            if not value:
                continue
            block = colour(curses.COLOR_BLACK, BLOCK.get(value, 21))
            x0, y0 = c * (CELL_W + 1) + 2, r * (CELL_H + 1) + 2
            for dy in range(CELL_H - 2):
                text = str(value).center(CELL_W - 2) if dy == 1 else " " * (CELL_W - 2)
                screen.addstr(y0 + dy, x0, text, block)  # not bold: xterm draws bold black as grey
    status = f"Score: {game.score}" + ("   GAME OVER" if game.over() else "")
    screen.addstr(height + 1, 1, status, lines)


if __name__ == "__main__":
    corpus_launch.run(lambda: cursesgame.run(draw))
