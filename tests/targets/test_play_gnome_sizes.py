"""GNOME 2048 (Debian gnome-2048) at 3x3, 5x5 and 4x6, calibrated and played by the `screenbot` commands with
no option about the board: the size found on the screen, every believed board following from the one
before by the rules, and play ending on the board and score the game itself saves. (The benchmark,
benchmarks/gnome_sizes.py, plays 300 moves or to game over.)"""

from __future__ import annotations

import pytest

from gnome_sizes_play import believed_history, play_by_command
from target_processes import VirtualDisplay
from truth_check import history_errors

# moves per size: enough to fill the board with tiles of several colours, few enough for CI
MOVES = {"3x3": 60, "5x5": 80, "4x6": 80}
SHAPES = {"3x3": (3, 3), "5x5": (5, 5), "4x6": (4, 6)}


@pytest.mark.live
@pytest.mark.slow
@pytest.mark.parametrize("size", sorted(MOVES))
def test_gnome_2048_of_another_size_is_played_by_the_commands_within_the_rules(size, tmp_path):
    shape, moves = SHAPES[size], MOVES[size]
    with VirtualDisplay((1280, 800)) as xvfb:
        run = play_by_command(xvfb.display, shape, moves, tmp_path)
    assert run.profile_shape == shape and run.profile_kind == "tiles", run.output
    summary = run.summary
    assert summary.get("ok"), run.output
    assert summary["moves"] == moves or summary["reason"] == "game over", summary["reason"]
    assert summary["moves"] >= min(moves, 20) and len(run.entries) == summary["moves"]
    assert run.rule_errors == []
    assert run.ended_as_saved, (summary.get("board"), summary.get("score"), run.saved)


# -- the judge itself, on logs of boards other than 4x4 (no display)
LOG_4X6 = [
    {"board": [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 2], [0, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0]], "move": "left"},
    {"board": [[0, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 2]], "move": "down"},
]
END_4X6 = {"board": [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 4], [0, 0, 0, 0, 0, 0], [4, 0, 0, 0, 0, 2]], "score": 4}


def test_a_log_of_a_rectangle_that_follows_the_rules_has_no_rule_break():
    history = believed_history(LOG_4X6, END_4X6)
    assert [r["move"] for r in history] == [None, "left", "down"]
    assert history[-1]["score"] == 4
    assert history_errors(history) == []


def test_a_misread_tile_in_the_last_column_of_a_rectangle_is_a_rule_break():
    misread = {"board": [row[:] for row in END_4X6["board"]], "score": 4}
    misread["board"][0][5] = 2  # a second new tile, in a column a 4x4 board has not
    errors = history_errors(believed_history(LOG_4X6, misread))
    assert len(errors) == 1 and "differs in 2 cells" in errors[0], errors


def test_a_3x3_log_without_its_last_board_is_judged_up_to_its_last_key():
    log = [{"board": [[0, 2, 0], [0, 0, 0], [0, 0, 2]], "move": "up"}]
    history = believed_history(log, {})
    assert len(history) == 1 and history_errors(history) == []
