"""`screenbot coach` follows a person playing real 2048 programs it was not written for: a scripted
player presses keys at a human pace, and every move the coach rebuilds is the game's own."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from harness import Quantum2048, Term2048, VirtualDisplay, WebComponent2048

pytestmark = pytest.mark.live

MOVES = 25
PACE_S = 0.45


@pytest.mark.parametrize("target_cls", [Quantum2048, Term2048, WebComponent2048], ids=lambda c: c.__name__)
def test_coach_follows_a_real_program(target_cls, tmp_path):
    from screenbot.agent.search import ExpectimaxAgent
    from screenbot.game.rules import to_grid

    with VirtualDisplay((1280, 800)) as display, target_cls(display.display, seed=5) as game:
        game.focus()
        env = {**os.environ, "DISPLAY": display.display, "XDG_CONFIG_HOME": str(tmp_path / "config"),
               "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
        out = tmp_path / "coach.json"
        coach = subprocess.Popen([sys.executable, "-m", "screenbot", "coach", "--player", "corner-eval", "--json", str(out)], env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 # Ctrl-C must reach it even when the tests run in the background
                                 preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(coach.stdout), daemon=True)
        reader.start()
        try:
            deadline = time.monotonic() + 60
            while not any(line.startswith("coach: following") for line in lines):
                assert coach.poll() is None and time.monotonic() < deadline, (lines, coach.poll())
                time.sleep(0.1)
            time.sleep(0.5)  # a person starts once the coach says it follows
            agent = ExpectimaxAgent(threads=1)
            for _ in range(MOVES):
                game.press(agent.choose(to_grid(game.board()), depth=2).move.key)
                time.sleep(PACE_S)
            time.sleep(1.0)
            coach.send_signal(signal.SIGINT)
            coach.wait(timeout=120)
            reader.join(10)
        finally:
            if coach.poll() is None:
                coach.kill()
        assert coach.returncode == 0, coach.stderr.read()
        history = [r for r in game.history() if r["move"] is None or r["changed"]]
    boards = [to_grid(r["board"]) for r in history]
    moves = [r["move"] for r in history[1:]]
    review = json.loads(out.read_text())
    rebuilt = [(to_grid(m["board"]), m["move"]) for m in review["moves"]]
    assert rebuilt == list(zip(boards, moves)), review["gap_list"]
    assert review["gaps"] == 0 and len(rebuilt) == MOVES
