"""The practice board's recorded screens (tests/fixtures/screens): every one calibrated and read exactly."""

from __future__ import annotations

import functools

import pytest

from screenbot.board_state import BoardState
from screenbot.calibration import NoBoardError, calibrate
from screenbot.control.screen import Frame
from screenbot.vision import read_board
from vision_labels import FIXTURE_SCREENS, grid_of, load_label, shown_boards

LABELS = sorted(FIXTURE_SCREENS.glob("*.json"))
ON_SCREEN = [p for p in LABELS if load_label(p)["board_fully_on_screen"]]
STILL = [p for p in ON_SCREEN if load_label(p)["kind"] != "mid-animation"]


def frame_of(path) -> Frame:
    label = load_label(path)
    return Frame.load(FIXTURE_SCREENS / label["image"], *label.get("image_origin", [0, 0]))


@functools.lru_cache(maxsize=None)
def profile_for(condition: str):
    """Calibrated on the condition's first still, playable screen (as a user would)."""
    for path in STILL:
        label = load_label(path)
        if label["condition"]["name"] == condition and label["state"] == BoardState.PLAYING:
            return calibrate(frame_of(path))
    raise AssertionError(f"no still screen recorded for {condition}")


def test_the_fixture_set_is_there():
    assert len(LABELS) >= 60
    assert {load_label(p)["condition"]["theme"] for p in LABELS} == {"classic", "dark"}


@pytest.mark.parametrize("path", STILL, ids=lambda p: p.stem)
def test_calibration_matches_the_board_rect(path):
    label = load_label(path)
    profile = calibrate(frame_of(path))
    for got, want in zip(profile.board_rect.as_list(), label["board_rect"]):
        assert abs(got - want) <= 2, (profile.board_rect, label["board_rect"])
    for cell, want in zip(profile.cells, label["cell_rects"]):
        assert abs(cell.x - want[0]) <= 2 and abs(cell.y - want[1]) <= 2
        assert abs(cell.w - want[2]) <= 2 and abs(cell.h - want[3]) <= 2
    assert profile.theme == label["condition"]["theme"]


@pytest.mark.parametrize("path", ON_SCREEN, ids=lambda p: p.stem)
def test_every_screen_is_read_exactly(path):
    label = load_label(path)
    reading = read_board(frame_of(path), profile_for(label["condition"]["name"]))
    truth = grid_of(label["grid"])
    state = label["state"]
    if state == "mid-animation":
        # unsettled, or a board whose pixels the game really showed (see vision_labels.shown_boards)
        allowed = shown_boards(label) | {grid_of(label.get("grid_after_slide") or label["grid"])}
        assert reading.state == BoardState.UNSETTLED or (reading.state == BoardState.PLAYING and reading.grid in allowed), reading
    elif state == "fading-in":
        assert reading.state in (BoardState.WON, BoardState.UNSETTLED)
    else:
        assert reading.state == state, reading
        if state == BoardState.PLAYING:
            assert reading.grid == truth
        elif reading.grid is not None:
            assert reading.grid == truth


@pytest.mark.parametrize("path", [p for p in LABELS if not load_label(p)["board_fully_on_screen"]], ids=lambda p: p.stem)
def test_a_board_cut_off_is_not_calibrated(path):
    with pytest.raises(NoBoardError):
        calibrate(frame_of(path))
