"""Live coach on the practice board at 5x5: `screenbot coach` with no options finds the 5x5 board, judges
each move a scripted person plays with the player play plays on 5x5, and presses nothing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from screenbot.agent.any_size import AnySizeAgent
from screenbot.game.rules import to_grid
from screenbot.play.demo import page_boards

from test_coach import MOVE_LINE, Lines, stop_coach

pytestmark = pytest.mark.live

MOVES = 12
BAD_AT = (4, 9)  # the person plays the worst legal move here


def test_coach_judges_a_5x5_game_with_the_5x5_player(make_rig, tmp_path):
    rig = make_rig(seed=45, shape=(5, 5), export_env=True)
    env = {**os.environ, **rig.env, "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    coach = subprocess.Popen(
        [sys.executable, "-m", "screenbot", "coach", "--json", str(tmp_path / "coach.json"), "--out",
         str(tmp_path / "report")],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    lines = Lines(coach.stdout)
    lines.start()
    agent = AnySizeAgent()
    try:
        lines.wait_for("coach: following the board", 90)
        for k in range(MOVES):
            decision = agent.choose(rig.grid())  # as the coach's judge searches (its own deepening)
            move = min(decision.values, key=decision.values.get) if k in BAD_AT else decision.move
            rig.press(move)
            rig.wait_for_moves(k + 1)
            time.sleep(0.6)
        time.sleep(1.0)
        err = stop_coach(coach, lines)
    finally:
        if coach.poll() is None:
            coach.kill()
    assert coach.returncode == 0, err
    state = rig.state()
    assert state["moves"] == state["keys"] == MOVES  # every key the page got was the person's
    truth, moves = page_boards(state), state["history_moves"]
    review = json.loads((tmp_path / "coach.json").read_text())
    assert review["search"]["player"] == "any-size" and review["search"]["shape"] == "5x5"
    assert [(to_grid(m["board"]), m["move"]) for m in review["moves"]] == list(zip(truth, moves))
    assert review["gaps"] == 0
    said = [(int(g[1]), g[2], g[3]) for g in (MOVE_LINE.match(line) for line in lines.lines) if g]
    assert said == [(m["i"] + 1, m["move"], m["best"]) for m in review["moves"]]
    assert all(review["moves"][k]["loss"] > 0 for k in BAD_AT)  # the worst moves gave something up
