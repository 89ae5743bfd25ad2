"""One-shot reads (`screenbot read --image F`: a calibrated profile, no history) of frames caught mid-move
are never a board the game was not in: each reads `unsettled` or exactly the board before or after the key.

tests/fixtures/oneshot: frames of the practice page (classic look, real animations) grabbed 60-250 ms after
a key by benchmarks/oneshot.py (--seed 1 and --seed 2; cropped to the board and 10 px around it), each
labelled with the page's own boards before and after the key; `wrong_read` is the wrong board a reader
without the checks these tests hold gave on it (measured 2026-11-26), `error_read` the error one gave (a
row of tiles between cells taken for a board of another size, 2026-11-28). still.png is the board before the
first key of the seed-1 game: the profile is calibrated on it, as `screenbot calibrate` does.

The numbers that run over their cell are drawn here (a learned look, the 1024 written wider than its tile).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw

from screenbot.board_source import calibrate_live, open_session
from screenbot.board_state import BoardState
from screenbot.control.screen import Frame, ImageScreen
from screenbot.game.rules import to_grid
from screenbot.palette import THEMES
from screenbot.profile import Profile
from screenbot.vision.marks import learn_marks
from screenbot.vision.reader import read_board

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vision_render import font, rgb  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "oneshot"
FRAMES = sorted(p for p in FIXTURES.glob("*.png") if p.stem != "still")


@pytest.fixture(scope="module")
def profile_path(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("oneshot") / "profile.json"
    calibrate_live(ImageScreen(FIXTURES / "still.png"), path)
    return path


def read_oneshot(png: Path, profile_path: Path):
    """What `screenbot read --image png --profile profile_path` reads (a fresh copy of the profile each time)."""
    with open_session(png, Profile.load(profile_path)) as session:
        return session.read()


def label(png: Path) -> dict:
    return json.loads(png.with_suffix(".json").read_text())


def test_the_fixtures_hold_a_score_of_frames_that_were_read_as_wrong_boards():
    assert 12 <= len(FRAMES) <= 30
    assert sum("wrong_read" in label(p) for p in FRAMES) >= 12
    for p in FRAMES:
        lab = label(p)
        if "wrong_read" in lab:  # the label is honest: that board was neither before nor after the key
            assert lab["wrong_read"] not in (lab["board"], lab["board_before"])


def test_the_still_frame_reads_exactly(profile_path):
    reading = read_oneshot(FIXTURES / "still.png", profile_path)
    assert reading.state == BoardState.PLAYING
    assert reading.grid == to_grid(label(FIXTURES / "still.png")["board"])


@pytest.mark.parametrize("png", FRAMES, ids=[p.stem for p in FRAMES])
def test_a_frame_caught_mid_move_reads_unsettled_or_a_board_of_the_move(png, profile_path):
    lab = label(png)
    reading = read_oneshot(png, profile_path)  # no error: no "no board", no tile it cannot name
    if reading.state == BoardState.UNSETTLED:
        assert reading.grid is None
        return
    assert reading.state == BoardState.PLAYING, (reading.state, reading.detail)
    assert reading.grid in (to_grid(lab["board"]), to_grid(lab["board_before"]))


def test_most_frames_caught_mid_move_read_unsettled(profile_path):
    states = [read_oneshot(p, profile_path).state for p in FRAMES]
    assert states.count(BoardState.UNSETTLED) >= len(FRAMES) - 3


# A look no built-in theme knows: every tile one colour, so its number is read from its digits.
GAP, EMPTY, TILE, INK = (90, 100, 110), (150, 160, 170), (60, 140, 200), (250, 250, 250)


def drawn_board(grid, wide_px: int | None = None, size: int = 500) -> np.ndarray:
    """A board picture (BGR) with a margin of the page around it; wide_px: the font size of numbers of
    four digits (the classic tile's is 27 px here; 46 runs over the cell's edges)."""
    img = Image.new("RGB", (size + 40, size + 40), (240, 240, 240))
    draw = ImageDraw.Draw(img)
    draw.rectangle([20, 20, 20 + size - 1, 20 + size - 1], fill=rgb(GAP))
    cell, gap = 106.25 * size / 500, 15 * size / 500
    for r in range(4):
        for c in range(4):
            x, y = 20 + gap + c * (cell + gap), 20 + gap + r * (cell + gap)
            draw.rectangle([x, y, x + cell - 1, y + cell - 1], fill=rgb(TILE if grid[r][c] else EMPTY))
            v = grid[r][c]
            if v:
                px = wide_px if wide_px and v >= 1000 else 50 if v < 100 else 36 if v < 1000 else 27
                draw.text((x + cell / 2, y + cell / 2), str(v), fill=rgb(INK), font=font(px), anchor="mm")
    return cv2.cvtColor(np.asarray(img), cv2.COLOR_RGB2BGR)


WIDE = ((2, 4, 0, 0), (8, 1024, 2, 0), (0, 0, 8, 0), (0, 0, 0, 16))


def calibrated(picture: np.ndarray) -> Profile:
    frame = Frame(picture, 0, 0)
    profile = calibrate_live(ImageScreen(frame))
    learn_marks(frame, profile)
    return profile


def test_a_1024_inside_its_cell_is_read_by_its_digits():
    profile = calibrated(drawn_board(((2, 0, 0, 0), (0, 4, 0, 0), (0, 0, 8, 0), (0, 0, 0, 16))))
    assert profile.theme not in THEMES  # a learned look: its tiles are named by their digits
    reading = read_board(Frame(drawn_board(WIDE), 0, 0), profile)
    assert (reading.state, reading.grid) == (BoardState.PLAYING, WIDE)


@pytest.mark.parametrize("wide_px", [42, 46, 50])
def test_a_1024_wider_than_its_cell_is_never_read_as_another_number(wide_px):
    picture = drawn_board(WIDE, wide_px)
    # calibrated on that very frame, its ink over the gap learned as marks over the board
    for profile in (calibrated(drawn_board(((2, 0, 0, 0), (0, 4, 0, 0), (0, 0, 8, 0), (0, 0, 0, 16)))),
                    calibrated(picture)):
        reading = read_board(Frame(picture, 0, 0), profile)
        assert reading.grid in (None, WIDE), reading
        assert reading.state in (BoardState.UNSETTLED, BoardState.PLAYING)
