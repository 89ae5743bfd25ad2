"""Practice-board looks beyond the classic one (tests/fixtures/screens/looks): calibrated from one
still frame, then every still frame read exactly, overlays named, and frames caught mid-move either
unsettled or one of the two boards the move joins (never a third board)."""

import json
from collections import defaultdict
from pathlib import Path

import cv2
import pytest

from screenbot.calibration import calibrate
from screenbot.control.screen import Frame
from screenbot.game.rules import to_grid
from screenbot.vision.marks import learn_marks
from screenbot.vision.reader import read_board

LOOKS = Path(__file__).resolve().parents[1] / "fixtures" / "screens" / "looks"
# The looks read so far; the terminal look (box-drawing lines, tile backgrounds from an ANSI
# palette) is not yet.
READ = ["lines_z100_s1", "lines-light_z100_s1_board400", "dark-overhang_z100_s1", "classic-marks_z100_s1"]
# Not solved yet, and left out here on purpose (the README lists it): a merge caught after the
# slide, the two tiles stacked on one cell before the merged tile pops and before the new tile
# shows, looks like a still board with one tile fewer. Live play never believes it (the tracker
# compares every board with the move's prediction); a one-shot `read --image` of it is wrong.
STACKED_MERGE = {"lines-light_z100_s1_board400__06_mid-animation.png"}


def shots(condition: str) -> list[tuple[Frame, dict]]:
    out = []
    for label in sorted(LOOKS.glob(f"{condition}__*.json")):
        data = json.loads(label.read_text())
        x, y = data.get("image_origin", [0, 0])
        out.append((Frame(cv2.imread(str(LOOKS / data["image"])), x, y), data))
    return out


@pytest.mark.parametrize("condition", READ)
def test_a_look_is_calibrated_once_and_its_frames_read_as_the_page_drew_them(condition):
    frames = shots(condition)
    first = next(frame for frame, data in frames if data["kind"] == "static")
    profile = calibrate(first)
    learn_marks(first, profile)  # as `screenbot calibrate` does: text and icons over the board are its look
    seen = defaultdict(int)
    for frame, data in frames:
        reading = read_board(frame, profile)
        kind = data["kind"]
        seen[kind.split("-")[0]] += 1
        if kind == "static":
            assert reading.state == "playing" and reading.grid == to_grid(data["grid"]), data["image"]
        elif kind.startswith("overlay"):
            assert reading.state == data["state"], data["image"]
        else:
            if data["image"] in STACKED_MERGE:
                continue
            allowed = {to_grid(data["grid"]), to_grid(data["grid_before"])}
            assert reading.state == "unsettled" or reading.grid in allowed, (data["image"], reading.grid)
    assert seen["static"] >= 3


def test_marks_over_the_board_are_learned_kept_and_moved_with_the_board(tmp_path):
    """Without the marks learned, the help text across the bottom row makes every frame look like a
    tile between cells; learned at calibration, they are saved in the profile and follow a moved board."""
    from screenbot.calibration import Profile

    frames = shots("classic-marks_z100_s1")
    first = frames[0][0]
    bare = calibrate(first)
    assert read_board(first, bare).state == "unsettled"
    profile = calibrate(first)
    assert learn_marks(first, profile) > 10
    assert read_board(first, profile).state == "playing"
    profile.save(tmp_path / "p.json")
    loaded = Profile.load(tmp_path / "p.json")
    assert loaded.marks == profile.marks
    moved = loaded.shifted(5, 7)
    assert moved.marks[0] == [profile.marks[0][0] + 5, profile.marks[0][1] + 7]


def test_the_terminal_look_is_a_text_board_and_its_still_frames_read_exactly():
    """Box-drawing lines between the cells, 2/4/8 written on the black of an empty cell, bigger
    tiles as ANSI-coloured blocks with their digits written on them. (Its win/over boxes and the
    marks variant are not read yet.)"""
    frames = [(frame, data) for frame, data in shots("terminal_z100_s1") if data["kind"] == "static"]
    profile = calibrate(frames[0][0])
    assert profile.kind == "text"
    for frame, data in frames:
        reading = read_board(frame, profile)
        assert reading.state == "playing" and reading.grid == to_grid(data["grid"]), data["image"]
    assert len(frames) >= 5
