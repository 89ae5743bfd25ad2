"""A terminal 2048 that prints its board as a plain matrix of numbers (ANSI clear, then text): no lines,
no boxes, no colour; every cell written, an empty one as `$FAMILY_EMPTY` (`0` by default, or `.`).

    TARGET_SEED=3 FAMILY_EMPTY=0 FAMILY_ALIGN=right FAMILY_KEYS=arrows LC_ALL=C.UTF-8 xterm -e python printed.py

Each number sits in a column `$FAMILY_WIDTH` characters wide (6 by default), right-aligned, centred or
left-aligned (`$FAMILY_ALIGN`), one blank line between the rows. `2048 -- score: n` stands over the
board and the key help under it; "Game over" under that at the end. Keys (`$FAMILY_KEYS`):
`arrows` (read in cbreak mode), `wasd` (letters only, cbreak mode), or `wasd_return` (a letter then
Return, read by `input()`; any other line says "Invalid move"). q quits. `$FAMILY_CLEAR=0`: no clear,
each screen printed under the last (the terminal scrolls). Truth: the board after every key (engine.py).
"""

import os
import sys

from engine import Game

import corpus_launch  # tests/targets, put on sys.path by engine.py
from plain_boxes import play_in_cbreak

LETTERS = {"w": "up", "s": "down", "a": "left", "d": "right"}
EMPTY = os.environ.get("FAMILY_EMPTY", "0")
ALIGN = os.environ.get("FAMILY_ALIGN", "right")
WIDTH = int(os.environ.get("FAMILY_WIDTH", "6"))
KEYS = os.environ.get("FAMILY_KEYS", "arrows")
CLEAR = os.environ.get("FAMILY_CLEAR", "1") == "1"  # 0: each board printed under the last, the terminal scrolling
HELP = {"arrows": "arrow keys: move   q: quit", "wasd": "w a s d: move   q: quit",
        "wasd_return": "type w a s d and press Enter to move, q to quit"}


def cell(value: int) -> str:
    text = str(value) if value else EMPTY
    return {"right": text.rjust, "left": text.ljust}.get(ALIGN, text.center)(WIDTH)


def screen(game, said: str = "") -> str:
    lines = [f"2048 -- score: {game.score}", ""]
    for row in game.board:
        lines += ["".join(cell(v) for v in row).rstrip(), ""]
    lines.append(HELP[KEYS])
    if game.over():
        lines += ["", "Game over"]
    if said:
        lines += ["", said]
    if KEYS == "wasd_return":
        lines += ["", "Your move: "]
    return ("\x1b[H\x1b[2J" if CLEAR else "\r\n\r\n") + "\r\n".join(lines)


def main() -> None:
    out = sys.stdout
    game = Game()
    if KEYS == "wasd_return":
        out.write(screen(game))
        out.flush()
        while True:
            try:
                line = input().strip().lower()
            except EOFError:
                return
            if line == "q":
                return
            if line in LETTERS:
                game.press(LETTERS[line])
                out.write(screen(game))
            else:
                out.write(screen(game, "Invalid move"))
            out.flush()
    play_in_cbreak(game, screen, LETTERS if KEYS == "wasd" else None)


if __name__ == "__main__":
    corpus_launch.run(main)
