"""The npm programs of corpus_npm.py tell the truth: each on a fresh Xvfb, real X keys, every reported
board follows the program's own rules from the one before, and a seed gives the same game again."""

from __future__ import annotations

import time

import pytest

from corpus_npm import TARGETS
from target_runs import play_seeded

KEYS_PER_TARGET = 20


@pytest.mark.live
@pytest.mark.parametrize("name", sorted(TARGETS))
def test_npm_target_reports_every_move_by_its_rules(name):
    started = time.monotonic()
    # play_seeded checks the window, every board by its rules, and that no process is left
    game = play_seeded(TARGETS[name], seed=7, keys=KEYS_PER_TARGET)
    assert sum(v != 0 for row in game.history[0]["board"] for v in row) == 2
    assert any(r["changed"] for r in game.history[1:])  # the keys did move tiles
    assert time.monotonic() - started < 90  # the first use installs the package


@pytest.mark.live
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(TARGETS))
def test_npm_target_repeats_its_game_with_the_same_seed(name):
    def boards(seed):
        return [r["board"] for r in play_seeded(TARGETS[name], seed=seed, keys=8).history]

    first = boards(3)
    assert boards(3) == first
    assert boards(4) != first
