"""Start PyPI `tui-2048` (curses) unmodified in this terminal, reporting its true board (see harness.py).

Wraps Game2048.reset (a new game: at start and on `r`) and GameUI.handle_input (a key); the key the game
read is seen through the screen it reads from (GameUI gets a screen whose getch notes the key).
"""

import curses

import corpus_launch
import truthlog
from game2048.game import Game2048
from game2048.tui import GameUI, run_game

MOVES = {curses.KEY_UP: "up", curses.KEY_DOWN: "down", curses.KEY_LEFT: "left", curses.KEY_RIGHT: "right"}
MOVES.update({ord(k): m for keys, m in (("wW", "up"), ("sS", "down"), ("aA", "left"), ("dD", "right")) for k in keys})


class KeyNotingScreen:
    """The curses screen, except that getch keeps the last key read."""

    def __init__(self, screen):
        self._screen = screen
        self.last_key = None

    def getch(self, *args):
        self.last_key = self._screen.getch(*args)
        return self.last_key

    def __getattr__(self, name):
        return getattr(self._screen, name)


_reset, _ui_init, _handle_input = Game2048.reset, GameUI.__init__, GameUI.handle_input


def reset(self):
    _reset(self)
    truthlog.new_game(self.board, self.score)


def ui_init(self, stdscr):
    _ui_init(self, KeyNotingScreen(stdscr))


def handle_input(self):
    before = truthlog.rows_of(self.game.board)
    going_on = _handle_input(self)
    move = MOVES.get(self.stdscr.last_key)
    if move:  # won or lost: the key reaches the game but moves nothing
        truthlog.move(move, self.game.board != before, self.game.board, self.game.score)
    return going_on


Game2048.reset, GameUI.__init__, GameUI.handle_input = reset, ui_init, handle_input

if __name__ == "__main__":
    corpus_launch.run(run_game)
