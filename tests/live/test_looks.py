"""The practice page's other looks on the rig: each loads, takes real keys and plays by the rules;
keys=... limits the keys that move; anim=0 (and the terminal) draw a move in one frame, anim=3 slowly."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

from screenbot.game.rules import Move, apply_move, spawn_outcomes, to_grid
from screenbot.practice.rig import Rig

from module_rig import module_rig

pytestmark = pytest.mark.live

# Every page option a look may set, with the value that turns it off (load() keeps earlier options).
OFF = dict(theme="classic", marks=None, overhang=None, keys=None, board=None, anim=None, keep=None, score=None)

LOOKS = {
    "lines": dict(theme="lines"),
    "lines-light": dict(theme="lines-light"),
    "terminal": dict(theme="terminal"),
    "classic+marks": dict(theme="classic", marks=True),
    "dark+overhang": dict(theme="dark", overhang=True),
    "terminal+marks": dict(theme="terminal", marks=True),
    "lines-light+marks+overhang": dict(theme="lines-light", marks=True, overhang=True),
    "terminal+overhang": dict(theme="terminal", overhang=True),
}
# Cell size in CSS px at size 500 (game.js GEOMETRY).
CELL = {"classic": (106.25, 106.25), "dark": (106.25, 106.25), "lines": (122, 122), "lines-light": (122, 122),
        "terminal": (63, 54)}

START = to_grid([[2, 2, 4, 8], [0, 4, 4, 0], [2, 0, 0, 2], [0, 8, 0, 16]])


@pytest.fixture(scope="module")
def looks_rig():
    """One Chromium for every look (reloaded with new options); every process ended afterwards."""
    yield from module_rig(screen=(1000, 900))


def load(rig: Rig, **options) -> dict:
    st = rig.load(**{**OFF, **options})
    time.sleep(0.6)  # no double click with the rig's last click (it would select the title)
    rig.focus_page()
    rig.wait_still(still_ms=150)
    return st


def assert_follows_rules(start, history, moves) -> None:
    """Each board is the one before it slid by its move plus one new 2 or 4 (screenbot.game.rules)."""
    prev = to_grid(start)
    assert len(history) == len(moves)
    for i, (board, move) in enumerate(zip(history, moves)):
        slid, _ = apply_move(prev, Move.parse(move))
        assert slid != prev, f"move {i} ({move}) changed nothing but was counted"
        assert to_grid(board) in {grid for grid, _ in spawn_outcomes(slid)}, f"move {i} ({move}): {board}"
        prev = to_grid(board)


@pytest.mark.parametrize("look", list(LOOKS), ids=list(LOOKS))
def test_each_look_loads_and_plays_ten_keys_by_the_rules(looks_rig, look):
    rig = looks_rig
    options = LOOKS[look]
    st = load(rig, seed=31, **options)
    assert st["theme"] == options["theme"]
    assert st["marks"] == bool(options.get("marks")) and st["overhang"] == bool(options.get("overhang"))
    assert st["key_set"] == "all"
    w, h = CELL[options["theme"]]
    for cell in rig.layout()["cells"]:
        assert abs(cell[2] - w) < 0.5 and abs(cell[3] - h) < 0.5, (look, cell)
    rnd = random.Random(look)
    for _ in range(10):
        keys = rig.state(history=False)["keys"]
        rig.press(rnd.choice(list(Move)))
        rig.wait_for_keys(keys + 1)
    st = rig.state()
    assert st["keys"] == 10 and st["moves"] >= 3
    assert_follows_rules(st["start"], st["history"], st["history_moves"])
    rig.wait_still(still_ms=150)  # the board is drawn and still


@pytest.mark.parametrize("key_set, moving, idle", [
    ("arrows", ["Left", "Up"], ["a", "h", "w", "k"]),
    ("wasd", ["a", "w"], ["Left", "h", "Up", "k"]),
    ("hjkl", ["h", "k"], ["Left", "a", "Up", "w"]),
])
def test_a_key_set_moves_only_with_its_own_keys(looks_rig, key_set, moving, idle):
    rig = looks_rig
    st = load(rig, seed=7, board=START, keys=key_set, theme="lines")
    assert st["key_set"] == key_set
    sent = []
    for good, bad in zip(moving, (idle[:2], idle[2:])):
        for name in bad:  # left / up in the other key sets: the page must not take them
            rig.press(name)
        keys = rig.state(history=False)["keys"]
        rig.press(good)
        st = rig.wait_for_keys(keys + 1)
        sent.append("left" if good in ("Left", "a", "h") else "up")
    st = rig.state()
    assert st["keys"] == 2 and st["history_moves"] == sent
    assert_follows_rules(st["start"], st["history"], st["history_moves"])


def _frames_during_move(rig: Rig, move: Move, seconds: float) -> tuple[np.ndarray, list, np.ndarray]:
    region = rig.board_rect().inset(-8)
    rig.wait_still(still_ms=250)
    before = rig.grab(region)
    frames = []
    t0 = time.monotonic()
    rig.press(move)
    while time.monotonic() - t0 < seconds:
        frames.append((time.monotonic() - t0, rig.grab(region)))
    rig.wait_still(still_ms=300)
    return before, frames, rig.grab(region)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """The same picture (a rendering jitter of a few levels on an edge pixel allowed)."""
    return int((np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 16).sum()) == 0


@pytest.mark.parametrize("options", [dict(theme="classic", anim=0), dict(theme="lines", anim=0, marks=True),
                                     dict(theme="terminal", anim=1)], ids=["classic-anim0", "lines-anim0",
                                                                           "terminal-anim1"])
def test_without_animation_every_frame_is_the_board_before_or_after(looks_rig, options):
    rig = looks_rig
    load(rig, seed=4, board=START, **options)
    for move in (Move.LEFT, Move.DOWN, Move.RIGHT, Move.UP):
        before, frames, after = _frames_during_move(rig, move, 0.5)
        assert not _same(before, after)
        seen = "".join("B" if _same(f, before) else "A" if _same(f, after) else "x" for _, f in frames)
        assert "x" not in seen, f"{move.key}: {seen.count('x')} frames between the two boards"
        assert "AB" not in seen and seen.endswith("A"), seen


def test_anim_3_moves_slowly_and_ends_on_the_same_picture(looks_rig):
    rig = looks_rig
    load(rig, seed=4, board=START, anim=0)
    _, _, still = _frames_during_move(rig, Move.LEFT, 0.1)
    load(rig, seed=4, board=START, anim=3)
    before, frames, after = _frames_during_move(rig, Move.LEFT, 1.2)
    between = [t for t, f in frames if not _same(f, before) and not _same(f, after)]
    assert between and max(between) > 0.5, "anim=3: no frame between the boards after 0.5 s"
    assert _same(after, still)  # the slow move ends on the picture anim=0 draws at once
    assert rig.state()["anim"] == 3
