"""Play's start on the rig from a fresh install: the first key within seconds while numba compiles, then the search."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from screenbot.play.record import read_log

pytestmark = pytest.mark.live

FIRST_KEY_S = 5.0  # the promise for a fresh install (the search alone compiles for 8 s or more)
CACHED_FIRST_KEY_S = 3.0  # and once numba's cache holds the search


def play(env: dict, moves: int, log) -> tuple[subprocess.CompletedProcess, float]:
    """`screenbot play --max-moves N` (corner-eval: no tables to make), and time.time() at its start."""
    started = time.time()
    done = subprocess.run([sys.executable, "-m", "screenbot", "play", "--player", "corner-eval", "--max-moves",
                           str(moves), "--log", str(log)], env=env, capture_output=True, text=True, timeout=300)
    return done, started


def test_a_fresh_install_presses_its_first_key_within_seconds_and_the_search_takes_over(make_rig, tmp_path):
    rig = make_rig(seed=21, export_env=True)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    done, started = play(env, 80, tmp_path / "fresh.jsonl")
    assert done.returncode == 0, done.stderr
    state = rig.state()
    assert state["moves"] == 80
    assert state["key_times"][0] / 1000.0 - started < FIRST_KEY_S
    moves, summary = read_log(tmp_path / "fresh.jsonl")
    # every board play believed is the page's own, through the quick player's moves and the swap
    assert [m["board"] for m in moves[1:]] == state["history"][:-1]
    quick = [m.get("fallback", False) for m in moves]
    assert quick[0] and summary["fallback_moves"] == sum(quick)
    assert quick == sorted(quick, reverse=True) and not quick[-1]  # the quick moves first, then the search's
    assert summary["start_s"]["warm_up"] > 0

    rig.load(seed=22)
    rig.wait_still()
    done, started = play(env, 1, tmp_path / "cached.jsonl")  # numba's cache now holds the search
    assert done.returncode == 0, done.stderr
    assert rig.state()["key_times"][0] / 1000.0 - started < CACHED_FIRST_KEY_S
    assert read_log(tmp_path / "cached.jsonl")[1]["fallback_moves"] == 0
