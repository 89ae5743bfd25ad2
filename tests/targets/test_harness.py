"""The targets' harnesses tell the truth: real programs on a fresh Xvfb, real X key events, and
every reported board follows the 2048 rules from the one before (no test of screenbot's vision)."""

from __future__ import annotations

import random
import time

import pytest

from harness import MOVES, TARGETS, VirtualDisplay
from truth_check import history_errors, step_errors
from screenbot.practice.processes import process_alive

KEYS_PER_TARGET = 20


@pytest.mark.live
@pytest.mark.parametrize("name", sorted(TARGETS))
def test_target_reports_every_move_by_the_rules(name):
    started = time.monotonic()
    display = VirtualDisplay((1280, 800)).start()
    target = TARGETS[name](display.display, seed=7)
    pids: list[int] = []
    try:
        target.start()
        pids = display.pids + target.pids
        x, y, w, h = target.window_rect()
        assert w > 100 and h > 100 and 0 <= x < 1280 and 0 <= y < 800, (x, y, w, h)
        first = target.board()
        assert sum(v != 0 for row in first for v in row) == 2

        target.focus()
        rng = random.Random(name)
        sent = [rng.choice(MOVES) for _ in range(KEYS_PER_TARGET)]
        for i, move in enumerate(sent):
            record = target.press(move)
            assert record is not None, f"{name} took no key for press {i} ({move})"
            assert record["move"] == move
        pids = sorted(set(pids + target.pids))

        history = target.history()
        assert [r["move"] for r in history] == [None] + sent
        assert history_errors(history, target.spawns_on_first_2048) == []
        assert any(r["changed"] for r in history[1:])  # the keys did move tiles
        assert target.board() == history[-1]["board"]
    finally:
        target.cleanup()
        display.stop()
    assert not [pid for pid in pids if process_alive(pid)], "processes left running after stop()"
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
