"""Live coach: `screenbot coach --advise` runs as its own process on the rig's screen while a scripted player
presses keys at a human pace (a deliberately bad move every 7th, and a burst of two keys faster than the
board can come to rest). The coach's lines and review must name the page's own moves, never a made-up
one, and the page must have received exactly the player's keys: the coach pressed nothing."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

from screenbot.agent.search import ExpectimaxAgent
from screenbot.coach.rebuild import explain
from screenbot.game.rules import to_grid
from screenbot.play.demo import page_boards

pytestmark = pytest.mark.live

SEED = 2031
MOVES = 36
BAD_EVERY = 7
BURST_AT = (12, 24)  # these moves and the next go in one burst: the second key 40 ms after the first
PACE_S = (0.35, 0.6)  # from one key to the next, drawn at random
MOVE_LINE = re.compile(r"^move +(\d+): you (\w+) +agent (\w+)")


class Lines(threading.Thread):
    """Collects a process's output lines as they come."""

    def __init__(self, stream) -> None:
        super().__init__(daemon=True)
        self.stream, self.lines = stream, []

    def run(self) -> None:
        for line in self.stream:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, prefix: str, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.lines:
                if line.startswith(prefix):
                    return line
            time.sleep(0.05)
        raise AssertionError(f"no line starting {prefix!r} within {timeout} s; got {self.lines}")


def play(rig) -> tuple[int, list[int]]:
    """The scripted player; returns the keys pressed and the page move numbers (0-based) of the bad moves."""
    agent = ExpectimaxAgent(threads=1)
    rng = random.Random(SEED)
    pressed, bad, k = 0, [], 0
    while k < MOVES:
        decision = agent.choose(rig.grid(), depth=2)
        move = decision.move
        if (k + 1) % BAD_EVERY == 0:
            move = min(decision.values, key=decision.values.get)
            bad.append(k)
        if k in BURST_AT:
            after = rig.grid()
            rig.press(move)
            rig.wait_for_moves(k + 1)
            follow = agent.choose(rig.grid(), depth=2).move  # the page's board right after the first key
            time.sleep(0.04)
            rig.press(follow)
            pressed += 2
            k += 2
            assert rig.grid() != after
        else:
            rig.press(move)
            pressed += 1
            k += 1
        rig.wait_for_moves(k)
        time.sleep(rng.uniform(*PACE_S))
    return pressed, bad


def start_coach(rig, tmp_path, *args: str) -> tuple[subprocess.Popen, Lines]:
    """`screenbot coach ARGS --json tmp/coach.json --out tmp/report` in its own process on the rig's screen,
    with its own config, data and cache folders."""
    env = {**os.environ, **rig.env, "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    coach = subprocess.Popen(
        [sys.executable, "-m", "screenbot", "coach", "--player", "corner-eval", *args, "--json", str(tmp_path / "coach.json"),
         "--out", str(tmp_path / "report")],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # Ctrl-C reaches the coach even when the tests run in the background (`cmd &` starts with
        # SIGINT ignored, and the child would inherit that)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    lines = Lines(coach.stdout)
    lines.start()
    return coach, lines


def stop_coach(coach: subprocess.Popen, lines: Lines) -> str:
    """Ctrl-C, as the person would; returns what it wrote to stderr."""
    coach.send_signal(signal.SIGINT)
    coach.wait(timeout=120)  # (stdout is the Lines thread's alone: communicate() would take lines from it)
    lines.join(10)
    return coach.stderr.read()


def test_coach_follows_a_person_playing_and_presses_nothing(make_rig, tmp_path):
    rig = make_rig(seed=SEED, export_env=True)
    out_json = tmp_path / "coach.json"
    coach, lines = start_coach(rig, tmp_path, "--advise")
    try:
        lines.wait_for("coach: following the board", 60)
        lines.wait_for("advice:", 10)  # advice on the first board, before any key
        pressed, bad = play(rig)
        time.sleep(1.0)
        err = stop_coach(coach, lines)  # the person ends the session with Ctrl-C
    finally:
        if coach.poll() is None:
            coach.kill()
    assert coach.returncode == 0, err
    state = rig.state()
    assert state["moves"] == MOVES and state["keys"] == pressed == MOVES  # every key the page got was the player's

    truth = page_boards(state)
    moves = state["history_moves"]
    index = {board: i for i, board in enumerate(truth)}
    review = json.loads(out_json.read_text())
    rebuilt = {}
    for m in review["moves"]:
        board = to_grid(m["board"])
        assert board in index, f"move {m['i']} stands on a board the page never showed"
        i = index[board]
        assert m["move"] == moves[i], f"move {m['i']}: coach says {m['move']}, the page {moves[i]}"
        rebuilt[i] = m
    # page moves not rebuilt sit in gaps where the page's boards themselves leave a doubt
    missing = [i for i in range(MOVES) if i not in rebuilt]
    print(f"coach: {len(rebuilt)} of {MOVES} page moves rebuilt, {review['gaps']} gaps {review['gap_list']}, "
          f"bridged {review['source']['bridged_jumps']}, two-move jumps {review['source']['two_move_jumps']}")
    for i in missing:
        assert any(explain(truth[a], truth[a + 2]).kind == "ambiguous" for a in (i - 1, i) if 0 <= a <= MOVES - 2), \
            f"page move {i} was not rebuilt and nothing made it ambiguous: {review['gap_list']}"
    assert len(missing) <= 2 * review["gaps"] and len(rebuilt) >= MOVES - 4
    # each move's line, in order, names the same move as the review
    said = [(int(g[1]), g[2], g[3]) for g in (MOVE_LINE.match(line) for line in lines.lines) if g]
    assert said == [(m["i"] + 1, m["move"], m["best"]) for m in review["moves"]]
    assert sum(line.startswith("advice:") for line in lines.lines) >= len(review["moves"]) // 2
    assert any(line.startswith("stopped (Ctrl-C)") for line in lines.lines)
    # the deliberately bad moves gave something up
    assert all(rebuilt[k]["loss"] > 0 for k in bad if k in rebuilt)
    assert sum(k in rebuilt for k in bad) >= len(bad) - 1
    assert (tmp_path / "report" / "report.html").is_file() and (tmp_path / "report" / "review.json").is_file()


def test_coach_follows_the_board_when_its_window_is_dragged(make_rig, tmp_path):
    """The person drags the browser window 300 px right and 40 px down between two moves: the coach
    finds the board there (same size, the same game on it) and follows the moves played there."""
    from test_moved_window import BrowserWindow

    rig = make_rig(seed=SEED, screen=(1600, 1000), window_size=(1000, 900), export_env=True)
    coach, lines = start_coach(rig, tmp_path)
    window = BrowserWindow(rig)
    try:
        lines.wait_for("coach: following the board", 60)
        agent = ExpectimaxAgent(threads=1)
        for k in range(12):
            if k == 6:
                at = window.position
                window.move_to(at.x + 300, at.y + 40)
                time.sleep(0.2)
                rig.wait_for(lambda s: s["ready"], 5)
            rig.press(agent.choose(rig.grid(), depth=2).move)
            rig.wait_for_moves(k + 1)
            time.sleep(0.5)
        time.sleep(1.0)
        err = stop_coach(coach, lines)
    finally:
        window.close()
        if coach.poll() is None:
            coach.kill()
    assert coach.returncode == 0, err
    state = rig.state()
    truth, moves = page_boards(state), state["history_moves"]
    review = json.loads((tmp_path / "coach.json").read_text())
    print("\n".join(line for line in lines.lines if not line.startswith("move")), err)
    assert [(to_grid(m["board"]), m["move"]) for m in review["moves"]] == list(zip(truth, moves))
    assert review["source"]["relocations"] == 1 and review["gaps"] == 0
    assert any(line.startswith("the board moved to") for line in lines.lines)
    assert state["keys"] == 12
