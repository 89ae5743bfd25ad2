"""Start PyPI `tuinty-forpy-eight` (Textual) unmodified in this terminal, reporting its true board (see
harness.py).

Wraps Game.on_mount and Game.action_reset (a new game: at start and on `r`) and Game.action_move (a move
key). Truth: the 16 `Cell` widgets (`#cell-<row>-<column>`, their `value`) and GameHeader.score.
The game keeps its save and high-score files in its own package folder; they are pointed into
$TARGET_DATA_DIR here, so a start never resumes a saved game and writes nothing into the venv.
"""

import os
import sys
from pathlib import Path

import corpus_launch
import truthlog

sys.argv = ["tuinty-forpy-eight"]  # the module parses the command line when imported
from tuinty_forpy_eight import main as game  # noqa: E402 - argv first

_on_mount, _reset, _move = game.Game.on_mount, game.Game.action_reset, game.Game.action_move
_mounting = [False]


def _truth(screen):
    board = [[screen.cell(row, column).get_val() for column in range(4)] for row in range(4)]
    return board, screen.query_one(game.GameHeader).score


def on_mount(self):
    _mounting[0] = True
    try:
        _on_mount(self)  # resets (one 2), then would load a saved game
    finally:
        _mounting[0] = False
    truthlog.new_game(*_truth(self))


def action_reset(self):
    _reset(self)
    if not _mounting[0]:
        truthlog.new_game(*_truth(self))


def action_move(self, direction):
    before, _ = _truth(self)
    _move(self, direction)
    board, score = _truth(self)
    truthlog.move(direction, board != before, board, score)


def run():
    data = Path(os.environ.get("TARGET_DATA_DIR") or ".")
    data.mkdir(parents=True, exist_ok=True)
    game.SAVE_FILE_PATH, game.SCR_FL_PATH = data / "save.pkl", data / "score.pkl"
    game.main()


game.Game.on_mount, game.Game.action_reset, game.Game.action_move = on_mount, action_reset, action_move

if __name__ == "__main__":
    corpus_launch.run(run)
