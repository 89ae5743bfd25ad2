"""Start PyPI `py-cui-2048` (on py-cui 0.0.3) unmodified in this terminal, reporting its true board (see
harness.py).

Wraps CUI2048.initialize_new_game (a new game: at start and on the menu's "New Game") and CUI2048.shift_up,
shift_down, shift_left, shift_right (the keys w s a d). Truth: game_instance.game_board.board_positions
(rows) and game_instance.score. Undo and Redo (menu items) are not reported: do not use them.
"""

import corpus_launch
import py_cui_2048
import truthlog
from py_cui_2048 import CUI2048

_new_game = CUI2048.initialize_new_game


def _truth(cui):
    return cui.game_instance.game_board.board_positions, cui.game_instance.score


def initialize_new_game(self):
    _new_game(self)
    truthlog.new_game(*_truth(self))


def reporting(direction, shift):
    def wrapped(self):
        before = truthlog.rows_of(self.game_instance.game_board.board_positions)
        shift(self)
        board, score = _truth(self)
        truthlog.move(direction, board != before, board, score)
    return wrapped


CUI2048.initialize_new_game = initialize_new_game
for _direction in ("up", "down", "left", "right"):
    setattr(CUI2048, f"shift_{_direction}", reporting(_direction, getattr(CUI2048, f"shift_{_direction}")))

if __name__ == "__main__":
    corpus_launch.run(py_cui_2048.main)
