"""What the curses family programs share: the arrow keys, a redraw after every key, a game-over line.

A program gives `draw(screen, game, colour)`: it draws the board with `colour(fg, bg)`, which returns the
curses attribute of that colour pair (made on first use). Keys that come while it draws wait in the
terminal; none is lost.
"""

from __future__ import annotations

import curses
import locale

from engine import Game

KEYS = {curses.KEY_UP: "up", curses.KEY_DOWN: "down", curses.KEY_LEFT: "left", curses.KEY_RIGHT: "right"}


def run(draw, spawns: dict[int, int] | None = None) -> None:
    locale.setlocale(locale.LC_ALL, "")
    curses.wrapper(_main, draw, spawns)


def _main(screen, draw, spawns) -> None:
    curses.curs_set(0)
    curses.start_color()
    screen.keypad(True)
    pairs: dict[tuple[int, int], int] = {}

    def colour(fg: int, bg: int) -> int:
        if (fg, bg) not in pairs:
            pairs[(fg, bg)] = len(pairs) + 1
            curses.init_pair(pairs[(fg, bg)], fg, bg)
        return curses.color_pair(pairs[(fg, bg)])

    game = Game(spawns)
    while True:
        screen.erase()
        draw(screen, game, colour)
        screen.refresh()
        key = screen.getch()
        if key in (ord("q"), 27):
            return
        if key in KEYS:
            game.press(KEYS[key])  # on a game that is over: a record that nothing changed
