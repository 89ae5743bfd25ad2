"""How the live tests run a target: on a fresh Xvfb, with seeded random keys, and nothing left running
after it stops (test_harness.py, test_corpus_pypi.py, test_corpus_npm.py, test_corpus_debian.py).

    game = play_seeded(TARGETS["term2048"], seed=7, keys=20)   # the checks below passed
    game.history, game.window

Its checks are plain asserts with their messages (pytest rewrites test modules' asserts, not this one's).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from target_base import MOVES, Target
from target_processes import VirtualDisplay
from truth_check import history_errors, rules_of

from screenbot.practice.processes import process_alive

SCREEN = (1280, 800)


@contextmanager
def on_fresh_display(target_cls: type[Target], **options: Any) -> Iterator[Target]:
    """`target_cls(display, **options)` started on an Xvfb of its own. On leaving, the target and the
    display stop, and no process either of them ran (seen after the start and at the end) may be left."""
    display = VirtualDisplay(SCREEN).start()
    target = target_cls(display.display, **options)
    pids: list[int] = []
    try:
        target.start()
        pids = display.pids + target.pids
        yield target
        pids += target.pids
    finally:
        target.cleanup()
        display.stop()
    left = sorted({pid for pid in pids if process_alive(pid)})
    assert not left, f"processes left running after stop(): {left}"


def press_seeded(target: Target, keys: int, rng_seed: Any) -> list[dict[str, Any]]:
    """Focus the started `target` and press `keys` moves drawn from random.Random(`rng_seed`); the record
    each press returned (each must be there and name its move)."""
    target.focus()
    rng = random.Random(rng_seed)
    records = []
    for i in range(keys):
        move = rng.choice(MOVES)
        record = target.press(move)
        assert record is not None, (f"{target.name} gave no record for press {i} ({move}): it took no key, "
                                    f"or its window did not stand still{target._logs()}")
        assert record["move"] == move, f"{target.name}: press {i} ({move}) made a record of {record['move']}"
        records.append(record)
    return records


@dataclass(frozen=True)
class SeededGame:
    history: list[dict[str, Any]]  # the game's board records, first board first
    window: tuple[int, int, int, int]  # x, y, w, h of its window, read after the start


def play_seeded(target_cls: type[Target], seed: int, keys: int) -> SeededGame:
    """Start `target_cls` with `seed` on a fresh display (on_fresh_display), press `keys` moves drawn
    from random.Random(its name), and check it: a window over 100 px each way whose corner is on the
    screen; the first board and every one after it by the program's rules (truth_check.rules_of), one
    record per key naming its move, and board() the last."""
    with on_fresh_display(target_cls, seed=seed) as target:
        window = x, y, w, h = target.window_rect()
        assert w > 100 and h > 100 and 0 <= x < SCREEN[0] and 0 <= y < SCREEN[1], window
        rules = rules_of(target)
        errors = history_errors(target.history()[:1], target.spawns_on_first_2048, rules)
        assert errors == [], errors
        sent = [record["move"] for record in press_seeded(target, keys, target.name)]
        history = target.history()
        moves = [record["move"] for record in history]
        assert moves == [None] + sent, f"{target.name} recorded the moves {moves}, not the first board and {sent}"
        errors = history_errors(history, target.spawns_on_first_2048, rules)
        assert errors == [], errors
        assert target.board() == history[-1]["board"], (target.board(), history[-1])
    return SeededGame(history, window)
