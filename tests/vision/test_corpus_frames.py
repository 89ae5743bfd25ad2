"""Recorded frames of the corpus of real 2048 programs (tests/fixtures/corpus, recorded with
tests/targets/record_fixtures.py, each labelled by the game's own board): calibrated once on a still
board, as `calibrate` does, then every frame judged by its kind. Programs whose look is read today
are read exactly; no program's frame, read or not, is ever a board the game did not show."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "targets"))
from target_frames import read_target_frames  # noqa: E402

from screenbot.errors import ScreenbotError

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "corpus"
PROGRAMS = sorted(p.name for p in CORPUS.iterdir() if p.is_dir())
# every still and mid-move frame read right (the game-over screen is judged below only)
READ = ["curses2048", "debian2048", "gnome2048", "npm2048html", "npm2048term", "npm2048terminal", "py2048cli", "pycui2048", "qt2048", "tui2048",
        "tuinty2048", "vis2048"]


# the game-over frame read as over, as `read` says it: by a box over the board whose words say so, or by a
# board with no move left; the others are unsettled, never playing
OVER_NOT_READ = {
    "gnome2048": "a dialog over the board says 'Congratulations! Your score has made the top ten'; 'Game Over' "
                 "is in the window's title, outside the board",
    "tuinty2048": "its box says 'Uh oh it seems like you ran out of' (its last word under the box's edge), and "
                  "a number half under the box is not read first: an error ('cannot read the number in row 2, column 2')",
}


def test_the_corpus_holds_recorded_frames_of_every_program():
    assert len(PROGRAMS) >= 10
    assert set(READ) <= set(PROGRAMS)


@pytest.mark.parametrize("program", READ)
def test_every_still_and_mid_move_frame_of_a_program_is_read_right(program):
    results = [r for r in read_target_frames(program, CORPUS) if r.kind != "overlay-over"]
    assert len(results) >= 6
    assert [(r.name, r.seen) for r in results if not r.ok] == []


@pytest.mark.parametrize("program", PROGRAMS)
def test_no_frame_is_ever_read_as_a_board_the_game_did_not_show(program):
    try:
        results = read_target_frames(program, CORPUS)
    except ScreenbotError:
        return  # the look is not found at all: an error that says so, never a board
    assert [(r.name, r.seen) for r in results if r.wrong] == []


@pytest.mark.parametrize("program", [p for p in READ if p not in OVER_NOT_READ]
                         + [pytest.param(p, marks=pytest.mark.xfail(reason=why, strict=True))
                            for p, why in sorted(OVER_NOT_READ.items())])
def test_the_game_over_frame_is_read_as_over(program):
    over = [r for r in read_target_frames(program, CORPUS) if r.kind == "overlay-over"]
    assert len(over) == 1
    assert over[0].ok, over[0].seen
