"""A terminal 2048 that prints its board (ANSI clear, then plain text): a box of line characters around
each cell, one space between the boxes, and no colour at all.

    TARGET_SEED=3 LC_ALL=C.UTF-8 xterm -e python plain_boxes.py

Boxes are 8 columns by 5 lines (a number centred on the middle line, an empty cell blank). `2048  Score: n`
stands over the boxes and "Game over" under them. Keys: the arrows, read from the terminal in cbreak mode;
q quits. Truth: the board after every key (engine.py).
"""

import os
import sys
import termios
import tty

from engine import Game

import corpus_launch  # tests/targets, put on sys.path by engine.py

ARROWS = {b"A": "up", b"B": "down", b"C": "right", b"D": "left"}
INNER = 6


def screen(game) -> str:
    lines = [f"2048  Score: {game.score}", ""]
    for row in game.board:
        lines.append(" ".join("┌" + "─" * INNER + "┐" for _ in row))
        for middle in (False, True, False):
            lines.append(" ".join("│" + (str(v).center(INNER) if middle and v else " " * INNER) + "│" for v in row))
        lines.append(" ".join("└" + "─" * INNER + "┘" for _ in row))
    if game.over():
        lines += ["", "Game over"]
    return "\x1b[H\x1b[2J" + "\r\n".join(lines)


def keys(fd: int, letters: dict[str, str] | None = None):
    """The moves typed, one at a time (an arrow is ESC [ A..D; with `letters`, those letters instead);
    stops at q."""
    while True:
        byte = os.read(fd, 1)
        if byte == b"q":
            return
        if letters is not None:
            move = letters.get(byte.decode(errors="replace"))
            if move:
                yield move
        elif byte == b"\x1b" and os.read(fd, 1) == b"[":
            move = ARROWS.get(os.read(fd, 1))
            if move:
                yield move


def play_in_cbreak(game, screen, letters: dict[str, str] | None = None) -> None:
    """Draw `screen(game)` (a str), then after every move typed (keys()) play it and draw again, the
    terminal in cbreak mode with no cursor until q."""
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    out = sys.stdout.buffer
    try:
        out.write(b"\x1b[?25l")  # no cursor
        out.write(screen(game).encode())
        out.flush()
        for move in keys(fd, letters):
            game.press(move)
            out.write(screen(game).encode())
            out.flush()
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def main() -> None:
    play_in_cbreak(Game(), screen)


if __name__ == "__main__":
    corpus_launch.run(main)
