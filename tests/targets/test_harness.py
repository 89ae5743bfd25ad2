"""The targets' harnesses tell the truth: real programs on a fresh Xvfb, real X key events, and
every reported board follows the 2048 rules from the one before (no test of screenbot's vision)."""

from __future__ import annotations

import time

import pytest

from harness import TARGETS
from target_runs import play_seeded
from truth_check import history_errors, step_errors

KEYS_PER_TARGET = 20


@pytest.mark.live
@pytest.mark.parametrize("name", sorted(TARGETS))
def test_target_reports_every_move_by_the_rules(name):
    started = time.monotonic()
    # play_seeded checks the window, every board by the rules, and that no process is left
    game = play_seeded(TARGETS[name], seed=7, keys=KEYS_PER_TARGET)
    assert sum(v != 0 for row in game.history[0]["board"] for v in row) == 2
    assert any(r["changed"] for r in game.history[1:])  # the keys did move tiles
    assert time.monotonic() - started < 60


def _rec(move, board, score=0, changed=True):
    return {"kind": "board", "move": move, "board": board, "score": score, "changed": changed}


START = [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]


def test_history_check_accepts_a_legal_history():
    history = [_rec(None, START),
               _rec("left", [[2, 0, 0, 0], [0, 0, 0, 0], [0, 4, 0, 0], [2, 0, 0, 0]]),
               _rec("up", [[4, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 2, 0]], 4),
               _rec("up", [[4, 4, 2, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], 4, changed=True)]
    assert history_errors(history[:3]) == []
    # the last one moved the 2 up but spawned nothing
    assert len(history_errors(history)) == 1


@pytest.mark.parametrize("bad, what", [
    (_rec("left", [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [2, 0, 0, 0]]), "differs in 0 cells"),
    (_rec("left", [[2, 2, 0, 0], [0, 0, 0, 0], [0, 4, 0, 0], [2, 0, 0, 0]]), "differs in 2 cells"),
    (_rec("left", [[2, 0, 0, 0], [0, 0, 0, 0], [0, 8, 0, 0], [2, 0, 0, 0]]), "became 8"),
    (_rec("left", [[2, 0, 0, 0], [0, 0, 0, 0], [0, 2, 0, 0], [2, 0, 0, 0]], 4), "score 4"),
    (_rec("left", START, changed=False), "says nothing changed"),
])
def test_history_check_finds_a_broken_step(bad, what):
    errors = history_errors([_rec(None, START), bad])
    assert errors and what in " ".join(errors), errors


def test_history_check_illegal_move_must_change_nothing():
    top = _rec(None, [[2, 0, 0, 4], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    assert step_errors(top, _rec("up", top["board"], changed=False)) == []
    spawned = _rec("up", [[2, 0, 0, 4], [0, 0, 2, 0], [0, 0, 0, 0], [0, 0, 0, 0]], changed=True)
    assert "illegal" in " ".join(step_errors(top, spawned))


def test_history_check_first_2048_without_a_tile_only_when_allowed():
    before = _rec("left", [[1024, 1024, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], 10000)
    after = _rec("left", [[2048, 0, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], 12048)
    assert step_errors(before, after, spawns_on_first_2048=False) == []
    assert "differs in 0 cells" in " ".join(step_errors(before, after))
