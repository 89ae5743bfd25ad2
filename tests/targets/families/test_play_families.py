"""screenbot plays the family programs (small 2048s in the looks of real programs we were not shown):
calibrated with no options, played with real X keys, every believed board checked against the game's
own record. (measure_families.py plays longer.)"""

from __future__ import annotations

import functools

import pytest

from families.corpus_families import TARGETS, any_window_target
from families.probe_play import probe_then_play
from test_play_targets import believed_against_truth, check_played_by_record

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


def test_play_with_no_profile_finds_tiles_drawn_alone_by_its_keys_and_plays_them(tmp_path):
    """`screenbot play` with no profile yet, on a game that draws its tiles alone, the pointer beside them:
    play presses keys anyway, so it finds the board by them as `calibrate --probe` does, saves the
    profile and plays; every board it logs is the game's."""
    import json
    import os
    import subprocess
    import sys

    from families.probe_play import point_beside_tiles
    from harness import VirtualDisplay

    moves = 40
    with VirtualDisplay((1280, 800)) as xvfb, any_window_target(74)(xvfb.display, seed=3) as game:
        game.focus()
        env = dict(os.environ, DISPLAY=xvfb.display, XDG_CONFIG_HOME=str(tmp_path / "config"),
                   XDG_CACHE_HOME=str(tmp_path / "cache"))
        point_beside_tiles(xvfb.display)
        log = tmp_path / "play.jsonl"
        done = subprocess.run([sys.executable, "-m", "screenbot", "play", "--max-moves", str(moves), "--player", "plain",
                               "--log", str(log)], env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        assert "finding the board by arrow keys" in done.stderr and (tmp_path / "config" / "screenbot" / "profile.json").is_file()
        believed = [e["board"] for e in map(json.loads, log.read_text().splitlines()) if "board" in e]
        truth = [r["board"] for r in game.history()]
        shown = [b for i, b in enumerate(truth) if i == 0 or b != truth[i - 1]]
        assert len(believed) >= moves
        start = shown.index(believed[0], 1)  # play begins on the board the probe's keys left
        assert believed == shown[start:start + len(believed)]
