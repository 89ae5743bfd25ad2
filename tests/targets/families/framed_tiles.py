"""A curses 2048 in a terminal whose empty cells are the terminal's own background: a box-drawing frame
around the board and nothing else but the tiles, so a fresh game shows two tiles in an empty frame.

    TARGET_SEED=3 FAMILY_TILE=blocks xterm -tn xterm-256color -e python framed_tiles.py

FAMILY_TILE=blocks: each tile a block of a 256-colour pair, 7 columns by 3 lines, its number black on its
middle line. FAMILY_TILE=boxes: each tile a box of line-drawing characters in its value's colour, 7 by 3,
its number inside in that colour, on the terminal's background. FAMILY_TILE=painted: no frame lines; the
board's whole rectangle painted dark grey (the empty cells too), the tiles blocks on it. FAMILY_FRAME=ascii:
the frame drawn with `+`, `-` and `|`. Cells are 8 columns by 4 lines (a column
and a line of background between tiles), inside a frame one character away. "2048" and the score above.
Truth: the board after every key (engine.py).
"""

import curses
import os

import cursesgame
from engine import COLS, ROWS

import corpus_launch  # tests/targets, put on sys.path by engine.py

TILE_W, TILE_H = 7, 3
PITCH_W, PITCH_H = 8, 4
COLOUR = {2: 229, 4: 222, 8: 215, 16: 209, 32: 203, 64: 196, 128: 227, 256: 220, 512: 214, 1024: 45, 2048: 39,
          4096: 33, 8192: 129, 16384: 93}
BOX_COLOUR = {2: 250, 4: 187, 8: 215, 16: 209, 32: 203, 64: 196, 128: 227, 256: 220, 512: 214, 1024: 45,
              2048: 39, 4096: 33, 8192: 129, 16384: 93}
STYLE = os.environ.get("FAMILY_TILE", "blocks")
PAPER = 238  # the painted board's grey
ASCII = os.environ.get("FAMILY_FRAME") == "ascii"  # the frame drawn with + - | instead of line drawing


def draw(screen, game, colour):
    curses.use_default_colors()  # -1: the terminal's own colours (the empty cells are its background)
    top, left = 2, 1
    width, height = COLS * PITCH_W + 3, ROWS * PITCH_H + 1
    plain = colour(-1, -1)
    screen.addstr(0, left, f"2048   score {game.score}" + ("   GAME OVER" if game.over() else ""), plain)
    if STYLE == "painted":
        paper = colour(-1, PAPER)
        for y in range(height):
            screen.addstr(top + y, left, " " * width, paper)
    for y in range(height if STYLE != "painted" else 0):
        for x in range(width):
            edge_y, edge_x = y in (0, height - 1), x in (0, width - 1)
            if edge_y and edge_x:
                char = ord("+") if ASCII else (curses.ACS_ULCORNER if y == 0 and x == 0 else curses.ACS_URCORNER
                                               if y == 0 else curses.ACS_LLCORNER if x == 0 else curses.ACS_LRCORNER)
            elif edge_y:
                char = ord("-") if ASCII else curses.ACS_HLINE
            elif edge_x:
                char = ord("|") if ASCII else curses.ACS_VLINE
            else:
                continue
            screen.addch(top + y, left + x, char, plain)
    for r in range(ROWS):
        for c in range(COLS):
            value = game.board[r][c]
            if not value:
                continue
            x0, y0 = left + 2 + c * PITCH_W, top + 1 + r * PITCH_H
            if STYLE == "boxes":
                ink = colour(BOX_COLOUR.get(value, 21), -1)
                screen.addch(y0, x0, curses.ACS_ULCORNER, ink)
                screen.addch(y0, x0 + TILE_W - 1, curses.ACS_URCORNER, ink)
                screen.addch(y0 + 2, x0, curses.ACS_LLCORNER, ink)
                screen.addch(y0 + 2, x0 + TILE_W - 1, curses.ACS_LRCORNER, ink)
                for x in range(x0 + 1, x0 + TILE_W - 1):
                    screen.addch(y0, x, curses.ACS_HLINE, ink)
                    screen.addch(y0 + 2, x, curses.ACS_HLINE, ink)
                screen.addch(y0 + 1, x0, curses.ACS_VLINE, ink)
                screen.addch(y0 + 1, x0 + TILE_W - 1, curses.ACS_VLINE, ink)
                screen.addstr(y0 + 1, x0 + 1, str(value).center(TILE_W - 2), ink | curses.A_BOLD)
            else:
                block = colour(curses.COLOR_BLACK, COLOUR.get(value, 21))
                for dy in range(TILE_H):
                    text = str(value).center(TILE_W) if dy == 1 else " " * TILE_W
                    screen.addstr(y0 + dy, x0, text, block)


if __name__ == "__main__":
    corpus_launch.run(lambda: cursesgame.run(draw))
