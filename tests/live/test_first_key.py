"""Play's start on the rig from a fresh install: the first keys come while numba compiles (a quick player's),
then the search's. How soon, in seconds, is a benchmark's figure (benchmarks/first_key.py), not a test's."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from screenbot.play.record import read_log

pytestmark = pytest.mark.live

def play(env: dict, moves: int, log) -> subprocess.CompletedProcess:
    """`screenbot play --max-moves N` (corner-eval: no tables to make)."""
    return subprocess.run([sys.executable, "-m", "screenbot", "play", "--player", "corner-eval", "--max-moves",
                           str(moves), "--log", str(log)], env=env, capture_output=True, text=True, timeout=300)


def test_a_fresh_install_plays_its_first_keys_while_the_search_compiles_then_the_search_takes_over(make_rig,
                                                                                                  tmp_path):
    rig = make_rig(seed=21, export_env=True)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    done = play(env, 80, tmp_path / "fresh.jsonl")
    assert done.returncode == 0, done.stderr
    state = rig.state()
    assert state["moves"] == 80
    moves, summary = read_log(tmp_path / "fresh.jsonl")
    # every board play believed is the page's own, through the quick player's moves and the swap
    assert [m["board"] for m in moves[1:]] == state["history"][:-1]
    quick = [m.get("fallback", False) for m in moves]
    assert quick[0] and summary["fallback_moves"] == sum(quick)
    # the quick moves first, then the search's (on a busy machine the compile may outlast the 80 moves: the
    # game then waits for it at its end, and the next start below has no quick move)
    assert quick == sorted(quick, reverse=True)
    assert summary["start_s"]["warm_up"] > 0

    rig.load(seed=22)
    rig.wait_still()
    done = play(env, 1, tmp_path / "cached.jsonl")  # numba's cache now holds the search: no quick moves
    assert done.returncode == 0, done.stderr
    assert rig.state()["moves"] == 1
    assert read_log(tmp_path / "cached.jsonl")[1]["fallback_moves"] == 0
