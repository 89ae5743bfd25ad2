"""Start PyPI `curses-2048` unmodified in this terminal, reporting its true board (see harness.py).

The module `2048` runs its game when imported, and is Python 2 code: it hands curses float rows and
columns (`/`), a TypeError in Python 3. So before the import, `curses.wrapper` is replaced by one that
gives the game a screen whose addstr truncates coordinates to int (the only change to how it runs), and
that wraps, once the module exists, Board.__init__ (a new game), Board.move_* (a key) and Board.check_win
(the tile the game adds after a key). Each getch says `ready` (the game waits for a key) and reports a new
game's first board. The score is what the game shows: the sum of its tiles (`Board.score` stays 0).
"""

import curses
import importlib
import sys

import corpus_launch
import truthlog

MODULE = "2048"
_state = {"board": None, "new": False, "pending": None}
_real_wrapper = curses.wrapper


class IntCoordinateScreen:
    """The curses screen, with float coordinates truncated (Python 2's `/` gave ints) and getch reporting."""

    def __init__(self, screen):
        self._screen = screen

    def addstr(self, y, x, *args):
        return self._screen.addstr(int(y), int(x), *args)

    def getch(self):
        board = _state["board"]
        if board is not None and _state["new"]:
            _state["new"] = False
            truthlog.new_game(board.board, _shown_score(board))
        truthlog.ready()
        return self._screen.getch()

    def __getattr__(self, name):
        return getattr(self._screen, name)


def _shown_score(board):
    return sum(map(sum, board.board))  # what Board.draw prints under SCORE:


def _wrap_board(Board):
    init, check_win = Board.__init__, Board.check_win

    def __init__(self, screen):
        init(self, screen)
        _state.update(board=self, new=True, pending=None)

    def moving(direction, move):
        def wrapped(self):
            if _state["pending"] is None:  # move_left and the others call move_right inside
                _state["pending"] = (direction, truthlog.rows_of(self.board))
            return move(self)
        return wrapped

    def checking(self, some_movement):
        result = check_win(self, some_movement)  # adds the new tile after a move
        if _state["pending"] is not None:
            direction, before = _state["pending"]
            _state["pending"] = None
            truthlog.move(direction, self.board != before, self.board, _shown_score(self))
        return result

    Board.__init__, Board.check_win = __init__, checking
    for direction in ("up", "down", "left", "right"):
        name = f"move_{direction}"
        setattr(Board, name, moving(direction, getattr(Board, name)))


def wrapper(func, *args, **kwargs):
    """curses.wrapper as the game calls it at import: wrap its Board, hand it the int-coordinate screen."""
    _wrap_board(sys.modules[MODULE].Board)
    return _real_wrapper(lambda screen: func(IntCoordinateScreen(screen), *args, **kwargs))


def main():
    curses.wrapper = wrapper
    importlib.import_module(MODULE)  # plays the game (its last line calls main())


if __name__ == "__main__":
    corpus_launch.run(main)
