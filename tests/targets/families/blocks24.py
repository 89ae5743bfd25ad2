"""A terminal 2048 of 24-bit colour blocks that touch: no gap, no line, nothing written on an empty cell.

    TARGET_SEED=3 FAMILY_CELL=8x3 LC_ALL=C.UTF-8 xterm -e python blocks24.py

Each cell is `$FAMILY_CELL` (columns x lines, 8x3 by default) filled edge to edge with its value's colour
in 24-bit SGR (`ESC[48;2;r;g;bm`): the web game's palette, empty cells its beige, the number centred on
the middle line in dark brown (2, 4) or white, bold. The board starts two lines and two columns in from
the terminal's corner, under `2048  score n`; the key help and "Game over" under it. Arrow keys; q quits.
Truth: the board after every key (engine.py).
"""

import os

from engine import Game

import corpus_launch  # tests/targets, put on sys.path by engine.py
from plain_boxes import play_in_cbreak

CELL_W, CELL_H = (int(v) for v in os.environ.get("FAMILY_CELL", "8x3").split("x"))
EMPTY = (205, 193, 180)
COLOURS = {2: (238, 228, 218), 4: (237, 224, 200), 8: (242, 177, 121), 16: (245, 149, 99), 32: (246, 124, 95),
           64: (246, 94, 59), 128: (237, 207, 114), 256: (237, 204, 97), 512: (237, 200, 80),
           1024: (237, 197, 63), 2048: (237, 194, 46)}
DARK, LIGHT = (119, 110, 101), (249, 246, 242)
MORE = (60, 58, 50)  # 4096 and up


def block(value: int, line: int) -> str:
    """One line of one cell: its colour, and on the middle line its number centred."""
    r, g, b = COLOURS.get(value, MORE) if value else EMPTY
    text = str(value) if value and line == CELL_H // 2 else ""
    fr, fg, fb = DARK if value in (2, 4) else LIGHT
    return f"\x1b[48;2;{r};{g};{b}m\x1b[1;38;2;{fr};{fg};{fb}m{text.center(CELL_W)}\x1b[0m"


def screen(game) -> str:
    lines = [f"  2048  score {game.score}", ""]
    for row in game.board:
        for line in range(CELL_H):
            lines.append("  " + "".join(block(v, line) for v in row))
    lines += ["", "  arrow keys: move   q: quit"]
    if game.over():
        lines += ["", "  Game over"]
    return "\x1b[H\x1b[2J" + "\r\n".join(lines)


def main() -> None:
    play_in_cbreak(Game(), screen)


if __name__ == "__main__":
    corpus_launch.run(main)
