"""The family programs tell the truth: each on a fresh Xvfb takes real X keys and reports every board by
its rules (its Target's rule_variant), with no process left (no test of screenbot's vision here)."""

from __future__ import annotations

import functools

import pytest

from families.corpus_families import TARGETS
from target_runs import on_fresh_display, play_seeded, press_seeded
from truth_check import rules_of, step_errors

KEYS = 20


@pytest.mark.live
@pytest.mark.parametrize("name", sorted(TARGETS))
def test_a_family_program_reports_every_move_by_its_rules(name):
    # a first board of two tiles (tk_wide starts with big ones only when asked: not a board the rules make)
    game = play_seeded(functools.partial(TARGETS[name], big_start=False), seed=7, keys=KEYS)
    assert sum(v != 0 for row in game.history[0]["board"] for v in row) == 2
    assert any(r["changed"] for r in game.history[1:])


@pytest.mark.live
def test_tk_wide_spawns_values_above_4():
    game = play_seeded(functools.partial(TARGETS["tk_wide"], big_start=False), seed=7, keys=40)
    spawned = {v for before, after in zip(game.history, game.history[1:])
               for row_b, row_a in zip(before["board"], after["board"]) for b, v in zip(row_b, row_a) if not b and v}
    assert spawned - {2, 4}, spawned


@pytest.mark.live
def test_tk_wide_starts_with_wide_numbers_and_plays_on_by_its_rules():
    with on_fresh_display(TARGETS["tk_wide"], seed=7) as game:
        press_seeded(game, 10, "tk_wide")
        history = game.history()
    assert history[0]["board"][0] == [2048, 1024, 4096, 8192]
    assert sum(v != 0 for row in history[0]["board"][1:] for v in row) == 2
    rules = rules_of(game)
    assert [e for a, b in zip(history, history[1:]) for e in step_errors(a, b, True, rules)] == []
