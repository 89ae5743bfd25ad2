"""The real classic-game screenshots in ../shared/screens: every one calibrated and read exactly."""

from __future__ import annotations

import pytest

from screenbot.board_state import BoardState
from screenbot.calibration import calibrate
from screenbot.control.screen import Frame
from screenbot.vision import read_board

from vision_labels import SHARED_SCREENS, expected_state, grid_of, load_label

pytestmark = pytest.mark.skipif(not SHARED_SCREENS.is_dir(), reason="../shared/screens is not beside the repo")

LABELS = sorted(SHARED_SCREENS.glob("*.json")) if SHARED_SCREENS.is_dir() else []
STILL = [p for p in LABELS if load_label(p)["kind"] != "mid-animation"]


@pytest.fixture(scope="module")
def classic_profile():
    return calibrate(Frame.load(SHARED_SCREENS / "classic__z100_chrome_p1__static_000.png"))


def test_the_set_is_there():
    assert len(LABELS) >= 18


@pytest.mark.parametrize("label_path", STILL, ids=lambda p: p.stem)
def test_calibration_finds_the_board_within_2px(label_path):
    label = load_label(label_path)
    profile = calibrate(Frame.load(label_path.with_suffix(".png")))
    for got, want in zip(profile.board_rect.as_list(), label["board_rect"]):
        assert abs(got - want) <= 2
    for cell, want in zip(profile.cells, label["cell_rects"]):
        assert abs(cell.x - want[0]) <= 2 and abs(cell.y - want[1]) <= 2 and abs(cell.w - want[2]) <= 2
    assert profile.theme == "classic"


@pytest.mark.parametrize("label_path", LABELS, ids=lambda p: p.stem)
def test_every_screenshot_is_read_exactly(label_path, classic_profile):
    label = load_label(label_path)
    reading = read_board(Frame.load(label_path.with_suffix(".png")), classic_profile)
    state = expected_state(label)
    if state is None:  # taken mid-move: unsettled, or a board the game really showed
        assert reading.state == BoardState.UNSETTLED or (
            reading.state == BoardState.PLAYING and reading.grid in (grid_of(label["grid_before"]), grid_of(label["grid"]))
        ), (reading.state, reading.grid)
    else:
        assert reading.state == state
        if state == BoardState.PLAYING:
            assert reading.grid == grid_of(label["grid"])
        elif reading.grid is not None:  # read through the overlay: must then be right
            assert reading.grid == grid_of(label["grid"])


@pytest.mark.parametrize("label_path", STILL, ids=lambda p: p.stem)
def test_calibrating_on_each_screenshot_then_reading_it(label_path):
    label = load_label(label_path)
    frame = Frame.load(label_path.with_suffix(".png"))
    profile = calibrate(frame)
    reading = read_board(frame, profile)
    assert reading.state == expected_state(label)
    if reading.grid is not None:
        assert reading.grid == grid_of(label["grid"])
    if label["kind"].startswith("overlay"):
        assert profile.overlay_at_calibration in (BoardState.WON, BoardState.OVER)
