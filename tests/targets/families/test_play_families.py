"""screenbot plays the family programs (small 2048s in the looks of real programs we were not shown):
calibrated with no options, played with real X keys, every believed board checked against the game's
own record. (measure_families.py plays longer.)"""

from __future__ import annotations

import functools
import os

import pytest

from families.corpus_families import TARGETS, any_window_target
from harness import VirtualDisplay
from screenbot.geometry import Point
from test_play_targets import believed_against_truth, check_played_by_record, play_calibrated, screen_on

pytestmark = pytest.mark.live

MOVES = 100
# program -> the kind of profile its look makes
LOOKS = {
    "ascii_double": "text",  # a grid ruled with `‖` and `=` in 16 colours
    "blocks24": "blocks",  # 24-bit colour blocks that touch, 8x3 characters, nothing on an empty cell
    "blocks24_small": "blocks",  # the same in 6x2 characters, the number on a cell's lower line
    "curses_boxes": "tiles",  # coloured blocks inset in white box lines, black digits
    "framed_blocks": "blocks",  # a bare frame with coloured blocks inside, empty cells the terminal's background
    "framed_boxes": "text",  # a bare frame with a coloured line box round each tile, nothing else
    "plain_boxes": "text",  # a box of lines round each cell, no colour
    "painted_blocks": "blocks",  # coloured blocks on a board painted one grey, empty cells too
    "printed_scroll": "text",  # the same, never cleared: each board printed under the last (the terminal scrolls)
    "printed_return": "text",  # a bare matrix, 0 for empty, left-aligned from the first column; a letter and Enter
    "printed_wasd": "text",  # a bare matrix, . for empty, centred; w a s d only (learned from the first move)
    "printed_zeros": "text",  # a bare matrix, 0 for empty, right-aligned, no colour
    "tk_noframe": "tiles",  # picture tiles, the number small in a corner, no frame
    "tk_overhang": "tiles",
    "tk_painted": "blocks",  # classic tiles on one painted rectangle, no empty cells drawn  # tiles overhanging the frame, help text across the bottom row
    "tk_wide": "tiles",  # the same from a top row 2048 1024 4096 8192, each number joined to its neighbours'
    "tk_wide_small": "tiles",  # new tiles of 2 ... 512, numbers from 1024 wider than their cells
}


@pytest.mark.parametrize("name", sorted(LOOKS))
def test_a_family_program_is_calibrated_and_played_without_a_misread(name, tmp_path):
    check_played_by_record(TARGETS[name], LOOKS[name], MOVES, tmp_path)


# program, size -> the kind of profile: boards of other sizes, played by that size's own player
SIZED = {
    ("printed_zeros", (5, 5)): "text",
    ("plain_boxes", (3, 3)): "text",
    ("printed_wasd", (4, 6)): "text",
    ("blocks24", (3, 3)): "blocks",
    ("blocks24", (6, 4)): "blocks",
    ("ascii_double", (5, 5)): "text",
    ("framed_boxes", (5, 5)): "text",
    ("framed_blocks", (3, 4)): "blocks",
}


@pytest.mark.parametrize("name, shape", sorted(SIZED), ids=lambda v: v if isinstance(v, str) else f"{v[0]}x{v[1]}")
def test_a_family_program_of_another_size_is_calibrated_and_played_without_a_misread(name, shape, tmp_path):
    check_played_by_record(functools.partial(TARGETS[name], shape=shape), SIZED[name, shape], MOVES, tmp_path)


# window looks drawn at random (any_window.py), seed -> the kind of profile
WINDOWS = {
    4: "tiles",  # cells flush with the board's edge: no margin of the gaps' colour round them
    11: "text",  # hollow tiles, each a box of its value's colour, the number small in a corner
    36: "tiles",  # dark tiles a 2 and a 4 of nearly one colour, grown whole at 50 frames a second
}


@pytest.mark.parametrize("seed", sorted(WINDOWS))
def test_a_window_look_drawn_at_random_is_calibrated_and_played_without_a_misread(seed, tmp_path):
    check_played_by_record(any_window_target(seed), WINDOWS[seed], MOVES, tmp_path)


# window looks with nothing drawn but their tiles (no frame, no empty cells): one picture cannot tell where
# the cells are, so `calibrate --probe` presses arrow keys and watches where the tiles go
BARE = {
    18: "tiles",  # rounded tiles that slide and grow, a 2 four levels off the window's colour
    74: "tiles",  # tiles that jump, gaps 15 px, no help line
}


@pytest.mark.parametrize("seed", sorted(BARE))
def test_a_window_look_with_nothing_drawn_but_its_tiles_is_found_by_its_answer_to_keys_and_played(seed, tmp_path):
    summary, player, profile, truth, said = probe_then_play(any_window_target(seed), MOVES, tmp_path)
    assert "found by" in said and profile.shape == (4, 4), said
    assert summary.moves >= MOVES or summary.reason == "game over", summary.reason
    assert summary.ok, summary.reason
    assert believed_against_truth(player, truth) == 0


def probe_then_play(target_cls, moves: int, tmp_path):
    """`target_cls` on a fresh Xvfb, the mouse pointer on its background beside its tiles (as a user points),
    `screenbot calibrate --probe` run as a user runs it, then `moves` moves played: the summary, the Player,
    the profile, the game's boards from the one play began on, and what calibrate said."""
    import subprocess
    import sys

    from screenbot.calibration.bare import find_tiles
    from screenbot.control.screen import MssScreen
    from screenbot.profile import Profile

    display = VirtualDisplay((1280, 800)).start()
    target = target_cls(display.display, seed=7)
    with screen_on(display.display):
        try:
            target.start()
            target.focus()
            with MssScreen() as screen:
                frame = screen.grab(screen.monitors()[0])
            x, y = background_beside(frame, find_tiles(frame.pixels))
            env = dict(os.environ, DISPLAY=display.display)
            subprocess.run(["xdotool", "mousemove", str(x), str(y)], env=env, check=True)
            path = tmp_path / "profile.json"
            done = subprocess.run([sys.executable, "-m", "screenbot", "calibrate", "--probe", "--profile", str(path)],
                                  env=env, capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stderr
            profile = Profile.load(path)
            begun = len(target.history())  # the probe's keys moved the game: play begins on its last board
            summary, player = play_calibrated(profile, moves, tmp_path / "stop")
            truth = [r["board"] for r in target.history()][begun - 1:]
            return summary, player, profile, truth, done.stderr
        finally:
            target.cleanup()
            display.stop()


def background_beside(frame, tiles) -> tuple[int, int]:
    """A point of the tiles' background one tile beside the first of them (left, right, above or below)."""
    first = tiles.rects[0]
    for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        x = first.x + first.w // 2 + dx * first.w
        y = first.y + first.h // 2 + dy * first.h
        if 0 <= y < frame.pixels.shape[0] and 0 <= x < frame.pixels.shape[1] and \
                max(abs(int(a) - b) for a, b in zip(frame.pixels[y, x], tiles.background)) <= 2 and \
                not any(t.contains(Point(x, y)) for t in tiles.rects):
            return x + frame.left, y + frame.top
    raise AssertionError("no background beside the first tile")
