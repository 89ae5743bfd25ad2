"""GNOME 2048 (Debian gnome-2048) at a board size, played by the `screenbot` command as a user runs it:
`screenbot calibrate`, then `screenbot play --max-moves N --log FILE`, with no option about the board
(its size is found on the screen, and the size's own player plays).

gnome-2048 has no record of its boards, so two witnesses judge what play believed:
- the rules: every board in play's log follows from the one before by its move and one new 2 or 4
  (truth_check.history_errors), the score being the merges' sum;
- the game itself: the board and score play ended on are the ones gnome-2048 writes to its saved
  file as it quits (Gnome2048.quit_and_read_saved).

    with VirtualDisplay() as xvfb:
        run = play_by_command(xvfb.display, (5, 5), moves=80, workdir=tmp)
    run.rule_errors, run.ended_as_saved, run.profile_shape, run.summary["moves_per_s"]

The screenbot commands run as subprocesses with $DISPLAY set to the Xvfb and $XDG_CONFIG_HOME in
`workdir` (the profile goes there, not to the user's); the user cache dir is the caller's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from corpus_debian import Gnome2048, SavedGame
from truth_check import history_errors, slide_board

COMMAND_TIMEOUT_S = 900  # a first 3x3 game builds the exact solution first (about a minute)


@dataclass
class CommandPlay:
    """What one `screenbot calibrate` + `screenbot play` run on gnome-2048 did, and how it is judged."""

    shape: tuple[int, int]
    profile_shape: tuple[int, int] | None = None
    profile_kind: str = ""
    summary: dict[str, Any] = field(default_factory=dict)
    entries: list[dict[str, Any]] = field(default_factory=list)  # the log's move lines
    saved: SavedGame | None = None
    rule_errors: list[str] = field(default_factory=list)
    calibrate_s: float = 0.0
    play_s: float = 0.0
    output: str = ""  # the commands' own output, for a failure's message

    @property
    def ended_as_saved(self) -> bool:
        """The board and score play ended on are the game's own, as it saved them."""
        return (self.saved is not None and self.summary.get("board") == self.saved.board
                and self.summary.get("score") == self.saved.score)


def believed_history(entries: list[dict[str, Any]], summary: dict[str, Any]) -> list[dict[str, Any]]:
    """Play's log as truth_check records: each board a key was pressed on, then the board it ended on,
    each with its move and the score the rules give (the game starts at 0)."""
    boards = [e["board"] for e in entries] + ([summary["board"]] if summary.get("board") else [])
    if not boards:
        return []
    history = [{"move": None, "board": boards[0], "score": 0, "changed": True}]
    for entry, after in zip(entries, boards[1:]):
        _, gain = slide_board(tuple(map(tuple, entry["board"])), _move(entry["move"]))
        history.append({"move": entry["move"], "board": after, "score": history[-1]["score"] + gain,
                        "changed": True})
    return history


def _move(name: str):
    from screenbot.game.rules import Move

    return Move.parse(name)


def run_screenbot(args: list[str], env: dict[str, str], timeout_s: float = COMMAND_TIMEOUT_S) -> tuple[int, str]:
    """`python -m screenbot ARGS` in `env`: its exit code and its output (stdout then stderr)."""
    done = subprocess.run([sys.executable, "-m", "screenbot", *args], env=env, capture_output=True, text=True,
                          timeout=timeout_s, stdin=subprocess.DEVNULL)
    return done.returncode, done.stdout + done.stderr


def command_env(display: str, workdir: Path) -> dict[str, str]:
    env = dict(os.environ, DISPLAY=display, XDG_CONFIG_HOME=str(workdir / "config"))
    env.pop("WAYLAND_DISPLAY", None)
    return env


def play_by_command(display: str, shape: tuple[int, int], moves: int, workdir: Path) -> CommandPlay:
    """gnome-2048 at `shape` on `display` (a fresh game), calibrated and played up to `moves` moves by
    the screenbot commands, then quit and its saved board read; the run, judged."""
    workdir.mkdir(parents=True, exist_ok=True)
    env = command_env(display, workdir)
    run = CommandPlay(shape)
    log = workdir / "play.jsonl"
    game = Gnome2048(display, rows=shape[0], cols=shape[1], workdir=workdir / "game")
    try:
        game.start()
        game.focus()
        started = time.monotonic()
        code, out = run_screenbot(["calibrate"], env)
        run.calibrate_s, run.output = time.monotonic() - started, f"$ screenbot calibrate -> {code}\n{out}"
        if code != 0:
            return run
        from screenbot.profile import Profile

        profile = Profile.load(workdir / "config" / "screenbot" / "profile.json")
        run.profile_shape, run.profile_kind = profile.shape, profile.kind
        started = time.monotonic()
        code, out = run_screenbot(["play", "--max-moves", str(moves), "--log", str(log)], env)
        run.play_s = time.monotonic() - started
        run.output += f"$ screenbot play --max-moves {moves} --log {log} -> {code}\n{out}"
        lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()] if log.exists() else []
        run.entries = [line for line in lines if "summary" not in line]
        run.summary = next((line["summary"] for line in lines if "summary" in line), {})
        run.rule_errors = history_errors(believed_history(run.entries, run.summary))
        run.saved = game.quit_and_read_saved()
    finally:
        game.cleanup()
    return run
