"""What the launchers share: append the game's true state as JSON lines to $TARGET_TRUTH_LOG."""

from __future__ import annotations

import json
import os
import random
import threading
import time

_lock = threading.Lock()
_state = {"seq": 0, "game": 0}


def seed_random() -> None:
    """Seed Python's `random` (which the games draw their tiles from) with $TARGET_SEED, if set."""
    seed = os.environ.get("TARGET_SEED", "")
    if seed:
        random.seed(int(seed))


def _write(record: dict) -> None:
    path = os.environ.get("TARGET_TRUTH_LOG")
    if not path:
        return
    line = json.dumps(record, separators=(",", ":")) + "\n"
    with open(path, "a") as f:  # one write of one whole line: a reader never sees half of it
        f.write(line)


def new_game(board, score: int = 0) -> None:
    """A game started: its first board."""
    with _lock:
        _state["game"] += 1
        _board(None, True, board, score)


def move(direction: str, changed: bool, board, score: int) -> None:
    """The program took the key for `direction`; `board` is what it holds now (new tile included)."""
    with _lock:
        _board(direction, changed, board, score)


def rows_of(board) -> list[list[int]]:
    """A copy of a board held as rows of values (0 or None = empty), as a record holds it."""
    return [[int(v or 0) for v in row] for row in board]


def _board(direction, changed, board, score) -> None:
    _write({"kind": "board", "game": _state["game"], "seq": _state["seq"], "move": direction,
            "changed": bool(changed), "board": rows_of(board), "score": int(score), "t": time.time()})
    _state["seq"] += 1


def ready() -> None:
    """The program is about to wait for a key."""
    _write({"kind": "ready", "t": time.time()})
