"""The six PyPI corpus targets (corpus_pypi.py) tell the truth: each started unmodified on a fresh Xvfb
takes 20 real X keys, and every board it reports follows its own rules from the one before."""

from __future__ import annotations

import time

import pytest
from corpus_pypi import TARGETS
from corpus_venv import venv_python
from harness import VirtualDisplay
from target_runs import play_seeded

KEYS_PER_TARGET = 20


@pytest.fixture(scope="session")
def corpus_venv():
    """The venv of the PyPI programs, made once a test session (pip install: up to a minute)."""
    return venv_python()


@pytest.mark.live
@pytest.mark.parametrize("name", sorted(TARGETS))
def test_pypi_target_reports_every_move_by_its_rules(name, corpus_venv):
    started = time.monotonic()
    # play_seeded checks the window, every board by its rules, and that no process is left
    game = play_seeded(TARGETS[name], seed=7, keys=KEYS_PER_TARGET)
    x, y, w, h = game.window
    assert x + w <= 1280 and y + h <= 800, game.window  # and wholly on the screen
    assert any(r["changed"] for r in game.history[1:])  # the keys did move tiles
    assert time.monotonic() - started < 60


@pytest.mark.live
def test_pypi_targets_with_one_seed_deal_the_same_tiles(corpus_venv):
    """TARGET_SEED fixes every program's tiles: two starts with one seed give one history."""
    histories = {}
    with VirtualDisplay((1280, 800)) as display:
        for run in range(2):
            for name in sorted(TARGETS):
                with TARGETS[name](display.display, seed=11) as target:
                    target.focus()
                    for move in ("left", "up", "right", "down", "left"):
                        assert target.press(move) is not None, name
                    histories.setdefault(name, []).append([r["board"] for r in target.history()])
    assert {name: runs[0] == runs[1] for name, runs in histories.items()} == {name: True for name in TARGETS}


# -- the rule variants of truth_check, on examples worked by hand from each program's source

@pytest.mark.parametrize("merges, row, want, gain", [
    ("classic", (2, 2, 2, 2), (4, 4, 0, 0), 8),
    ("merged_tile_goes_on", (2, 2, 4, 8), (16, 0, 0, 0), 28),
    ("merged_tile_goes_on", (2, 2, 4, 4), (8, 4, 0, 0), 12),
    ("merged_tile_goes_on", (2, 2, 2, 2), (4, 4, 0, 0), 8),
    ("until_none_equal", (2, 2, 2, 2), (8, 0, 0, 0), 16),
    ("until_none_equal", (2, 4, 2, 2), (2, 8, 0, 0), 12),
    ("touching_pairs_first", (2, 2, 0, 2), (4, 2, 0, 0), 4),
    ("touching_pairs_first", (2, 0, 2, 2), (2, 4, 0, 0), 4),
    ("touching_pairs_first", (2, 0, 2, 4), (4, 4, 0, 0), 4),
])
def test_line_rules_of_the_variants(merges, row, want, gain):
    from truth_check import SLIDES

    assert SLIDES[merges](row) == (want, gain)


def _rec(move, board, score=0, changed=True):
    return {"kind": "board", "move": move, "board": board, "score": score, "changed": changed}


TOP = [[2, 0, 0, 4], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
TOP_AND_A_2 = [[2, 0, 0, 4], [0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0]]


def test_a_tile_after_a_key_that_moved_nothing_only_where_the_program_adds_one():
    from truth_check import Rules, step_errors

    still, spawned = _rec("up", TOP, changed=False), _rec("up", TOP_AND_A_2)
    assert step_errors(_rec(None, TOP), still) == []
    assert "illegal" in " ".join(step_errors(_rec(None, TOP), spawned))
    vis = Rules(spawn_values=(2,), noop_spawn="always")
    assert step_errors(_rec(None, TOP), spawned, rules=vis) == []
    assert step_errors(_rec(None, TOP), still, rules=vis) != []
    assert step_errors(_rec(None, TOP), _rec("up", [[2, 0, 0, 4], [0, 0, 0, 0], [0, 4, 0, 0], [0, 0, 0, 0]]),
                       rules=vis) != []  # vis2048 adds only 2s
    # py-cui-2048 adds one only when a line along the move is empty: "up" has two empty columns
    empty_line = Rules(noop_spawn="empty_line")
    assert step_errors(_rec(None, TOP), spawned, rules=empty_line) == []
    full_columns = [[2, 4, 8, 16], [4, 8, 16, 32], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert step_errors(_rec(None, full_columns), _rec("up", full_columns, changed=False), rules=empty_line) == []


def test_a_score_that_is_the_sum_of_the_tiles():
    from truth_check import Rules, history_errors

    tile_sum = Rules(merges="touching_pairs_first", score="tile_sum")
    first = [[2, 0, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    after = [[4, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]
    assert history_errors([_rec(None, first, 4), _rec("up", after, 6)], rules=tile_sum) == []
    assert history_errors([_rec(None, first, 4), _rec("up", after, 6)]) != []  # classic: 0 + 4
    assert "sum of the tiles" in " ".join(history_errors([_rec(None, first, 4), _rec("up", after, 8)],
                                                         rules=tile_sum))
