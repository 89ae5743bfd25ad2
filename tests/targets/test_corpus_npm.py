"""The npm programs of corpus_npm.py tell the truth: each on a fresh Xvfb, real X keys, every reported
board follows the program's own rules from the one before, and a seed gives the same game again."""

from __future__ import annotations

import random
import time

import pytest

from corpus_npm import TARGETS
from harness import MOVES, VirtualDisplay
from truth_check import history_errors, rules_of
from screenbot.practice.processes import process_alive

KEYS_PER_TARGET = 20


def _play(name: str, seed: int, keys: int) -> tuple[list[dict], list[int]]:
    """Start target `name` on a fresh display, press `keys` seeded random arrows; its history and
    every process it and the display ran."""
    display = VirtualDisplay((1280, 800)).start()
    target = TARGETS[name](display.display, seed=seed)
    pids: list[int] = []
    try:
        target.start()
        pids = display.pids + target.pids
        x, y, w, h = target.window_rect()
        assert w > 100 and h > 100 and 0 <= x < 1280 and 0 <= y < 800, (x, y, w, h)
        target.focus()
        rng = random.Random(name)
        sent = [rng.choice(MOVES) for _ in range(keys)]
        for i, move in enumerate(sent):
            record = target.press(move)
            assert record is not None, f"{name} took no key for press {i} ({move}){target._logs()}"
            assert record["move"] == move
        pids = sorted(set(pids + target.pids))
        history = target.history()
        assert [r["move"] for r in history] == [None] + sent
        assert target.board() == history[-1]["board"]
        errors = history_errors(history, target.spawns_on_first_2048, rules_of(target))
        assert errors == [], errors
    finally:
        target.cleanup()
        display.stop()
    return history, pids


@pytest.mark.live
@pytest.mark.parametrize("name", sorted(TARGETS))
def test_npm_target_reports_every_move_by_its_rules(name):
    started = time.monotonic()
    history, pids = _play(name, seed=7, keys=KEYS_PER_TARGET)
    assert sum(v != 0 for row in history[0]["board"] for v in row) == 2
    assert any(r["changed"] for r in history[1:])  # the keys did move tiles
    assert not [pid for pid in pids if process_alive(pid)], "processes left running after stop()"
    assert time.monotonic() - started < 90  # the first use installs the package


@pytest.mark.live
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(TARGETS))
def test_npm_target_repeats_its_game_with_the_same_seed(name):
    first, _ = _play(name, seed=3, keys=8)
    again, _ = _play(name, seed=3, keys=8)
    assert [r["board"] for r in again] == [r["board"] for r in first]
    other, _ = _play(name, seed=4, keys=8)
    assert [r["board"] for r in other] != [r["board"] for r in first]
