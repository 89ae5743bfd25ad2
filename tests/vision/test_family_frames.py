"""Recorded frames of the family programs (tests/targets/families: small 2048s written here in the looks that
issue #36 describes for programs we cannot run; frames in tests/fixtures/families, each labelled by the
game's own board), read without a display: calibrated once on a still board, as `calibrate` does.

No frame of any program is ever read as a board the game did not show. The programs read today have every
still frame exact; the others are expected failures that say where reading fails (strict: a program that
starts to read turns its test red until it joins READ)."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "targets"))
from families.corpus_families import TARGETS  # noqa: E402
from families.family_frames import FIXTURES, read_family_frames  # noqa: E402

PROGRAMS = sorted(TARGETS)
READ = ["ascii_double", "blocks24", "blocks24_small", "curses_boxes", "framed_blocks", "framed_boxes", "painted_blocks", "plain_boxes", "printed_return", "printed_wasd", "printed_zeros", "tk_noframe", "tk_painted",
        "tk_overhang", "tk_wide", "tk_wide_small"]  # every still and mid-move frame read right today
NOT_READ: dict[str, str] = {  # why each other program's still frames are not read
    "printed_scroll": "each board is printed under the last: after the first move the board stands lower in the "
                      "terminal than where it was calibrated (an error there, never a board; play follows it)",
}
# the game-over frame read as over, as `read` says it: by the message over the board (the Tk programs'
# stippled "Game over!"), or by a board with no move left (the terminal programs write theirs beside it)
OVER_READ = [p for p in PROGRAMS if p not in ("tk_painted", "printed_scroll")]


@functools.cache
def frames(program: str):
    return read_family_frames(program)


def expected_failure(program: str, reason: str):
    return pytest.param(program, marks=pytest.mark.xfail(reason=reason, strict=True))


def test_every_family_program_has_8_to_12_recorded_frames_with_still_mid_move_and_over():
    assert sorted(p.name for p in FIXTURES.iterdir() if p.is_dir()) == PROGRAMS
    assert set(READ) | set(NOT_READ) == set(PROGRAMS) and not set(READ) & set(NOT_READ)
    for program in PROGRAMS:
        labels = list((FIXTURES / program).glob("*.json"))
        assert 8 <= len(labels) <= 12, program
        kinds = {f.kind for f in frames(program)}
        assert kinds == {"static", "mid-animation", "overlay-over"}, (program, kinds)


@pytest.mark.parametrize("program", PROGRAMS)
def test_no_frame_is_ever_read_as_a_board_the_game_did_not_show(program):
    assert [(f.name, f.seen) for f in frames(program) if f.outcome == "wrong"] == []


@pytest.mark.parametrize("program", READ + [expected_failure(p, why) for p, why in sorted(NOT_READ.items())])
def test_every_still_frame_is_read_exactly(program):
    stills = [f for f in frames(program) if f.kind == "static"]
    assert len(stills) >= 5
    assert [(f.name, f.seen) for f in stills if f.outcome != "exact"] == []


MID_NOT_READ: dict[str, str] = {
    "printed_scroll": NOT_READ["printed_scroll"],
    "tk_painted": "read as blocks on the board's colour: a tile sliding into a cell leaves digits that name no tile, "
                  "an error rather than unsettled",
}


@pytest.mark.parametrize("program", [p for p in PROGRAMS if p not in MID_NOT_READ]
                         + [expected_failure(p, why) for p, why in sorted(MID_NOT_READ.items())])
def test_a_frame_caught_mid_move_is_unsettled_or_a_board_of_the_move(program):
    mids = [f for f in frames(program) if f.kind == "mid-animation"]
    assert len(mids) >= 2
    assert [(f.name, f.seen) for f in mids if f.outcome not in ("exact", "unsettled")] == []


OVER_NOT_READ: dict[str, str] = {
    "printed_scroll": NOT_READ["printed_scroll"],
    "tk_painted": "the stippled 'Game over!' over blocks read on the board's colour: no board",
}


@pytest.mark.parametrize("program", OVER_READ + [expected_failure(p, why) for p, why in sorted(OVER_NOT_READ.items())])
def test_the_game_over_frame_is_read_as_over(program):
    over = [f for f in frames(program) if f.kind == "overlay-over"]
    assert len(over) == 1
    assert over[0].outcome == "exact", over[0].seen


def test_a_tile_inset_in_its_cell_is_read_in_its_own_rectangle_and_one_smaller_than_the_others_is_unsettled():
    """curses_boxes draws each tile as a block with a margin of the empty colour inside its cell: the
    margin is learned at calibration. A block smaller than the learned tile (a tile growing in, in such
    a look) is never read as a board."""
    import cv2

    from screenbot.calibration import calibrate
    from screenbot.control.screen import Frame
    from screenbot.vision.reader import read_board

    still = cv2.imread(str(FIXTURES / "curses_boxes" / "still020.png"))
    profile = calibrate(Frame(still, 0, 0))
    assert all(v >= 10 for v in profile.tile_inset)
    assert read_board(Frame(still, 0, 0), profile).grid == ((16, 4, 2, 0), (8, 4, 2, 0), (8, 0, 0, 0), (2, 2, 0, 0))
    tile = profile.tile_rect(0)
    shrunk = still.copy()
    colour = still[tile.y + 3, tile.x + 3].copy()
    shrunk[tile.y : tile.bottom, tile.x : tile.right] = profile.empty_colour
    q = tile.inset(tile.w // 4, tile.h // 4)
    shrunk[q.y : q.bottom, q.x : q.right] = colour
    reading = read_board(Frame(shrunk, 0, 0), profile)
    assert reading.grid is None and str(reading.state) == "unsettled", (reading.state, reading.detail)
