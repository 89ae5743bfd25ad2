"""Start PyPI `py2048-cli-game` unmodified in this terminal, reporting its true board (see harness.py).

Wraps Game2048.__init__ (a new game: at start, on `n`, after "Play again? y") and Game2048.move_up,
move_down, move_left, move_right (a move: the game reads a line, `w a s d` or `k j h l`, then Return).
move_right, move_up and move_down call the others inside; only the outer call is reported.
"""

import corpus_launch
import truthlog
from py2048.cli import main
from py2048.game import Game2048

_init = Game2048.__init__
_depth = [0]


def __init__(self, *args, **kwargs):
    _init(self, *args, **kwargs)
    truthlog.new_game(self.grid, self.score)


def reporting(direction, move):
    def wrapped(self):
        _depth[0] += 1
        try:
            moved = move(self)
        finally:
            _depth[0] -= 1
        if _depth[0] == 0:
            truthlog.move(direction, moved, self.grid, self.score)
        return moved
    return wrapped


Game2048.__init__ = __init__
for _direction in ("up", "down", "left", "right"):
    setattr(Game2048, f"move_{_direction}", reporting(_direction, getattr(Game2048, f"move_{_direction}")))

if __name__ == "__main__":
    corpus_launch.run(main)
