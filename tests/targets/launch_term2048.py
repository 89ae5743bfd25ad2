"""Start PyPI `term2048` unmodified in this terminal, reporting its true board (see harness.py).

Wraps Game.__init__ (the first board), Board.move + Game.incScore (a key: the board, then the
score it adds) and Game.readMove (about to read a key); seeds `random`.

One addition that is not a report: before each key read, the wrapper waits until the terminal
has taken everything printed so far (a status request the terminal answers in order). term2048
empties the terminal's input AND output queues (tcflush TCIOFLUSH) each time it starts reading a
key, so a terminal slower than the game (xterm on a loaded machine) otherwise loses the board
the game has just printed, and the window stays blank until the next key.
"""

import os
import select
import sys
import termios
import time
import tty

import truthlog
from term2048.board import Board
from term2048.game import Game
from term2048.ui import start_game

DIRECTIONS = {Board.UP: "up", Board.DOWN: "down", Board.LEFT: "left", Board.RIGHT: "right"}
STATUS_REQUEST, STATUS_OK = b"\033[5n", b"\033[0n"  # DSR: "are you there?" -> "I am"
_pending = []

_init, _move, _inc_score, _read_move = Game.__init__, Board.move, Game.incScore, Game.readMove


def __init__(self, *args, **kwargs):
    _init(self, *args, **kwargs)
    truthlog.new_game(self.board.cells, self.score)


def move(self, d, add_tile=True):
    before = [row[:] for row in self.cells]
    points = _move(self, d, add_tile)
    if d in DIRECTIONS and add_tile:
        _pending.append((DIRECTIONS[d], self.cells != before, [row[:] for row in self.cells]))
    return points


def incScore(self, pts):
    _inc_score(self, pts)
    while _pending:  # the game adds the move's points right after the move
        direction, changed, cells = _pending.pop(0)
        truthlog.move(direction, changed, cells, self.score)


def sync_terminal(timeout_s=2.0):
    """Return once the terminal has read all output so far (or after `timeout_s`)."""
    fd = sys.stdin.fileno()
    if not (os.isatty(fd) and os.isatty(sys.stdout.fileno())):
        return
    sys.stdout.flush()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)  # the answer must not be echoed
        os.write(sys.stdout.fileno(), STATUS_REQUEST)
        got = b""
        deadline = time.monotonic() + timeout_s
        while not got.endswith(STATUS_OK):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                break
            got += os.read(fd, 1)  # a key pressed meanwhile is dropped, as term2048's flush drops it
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def readMove(self):
    sync_terminal()
    truthlog.ready()
    return _read_move(self)


Game.__init__, Board.move, Game.incScore, Game.readMove = __init__, move, incScore, readMove

if __name__ == "__main__":
    truthlog.seed_random()
    sys.argv = ["term2048"]
    sys.exit(start_game())
