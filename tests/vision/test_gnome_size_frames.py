"""GNOME 2048 (Debian gnome-2048) at 3x3, 5x5 and 4x6 on recorded frames (tests/fixtures/corpus/gnome2048_sizes,
recorded by tests/targets/record_gnome_sizes.py, each labelled by the game's own saved board): every
still frame calibrated alone with no options, its size found and read exactly; every mid-move frame
read as unsettled or as a board the game showed, never another. No display needed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from screenbot.calibration import calibrate
from screenbot.control.screen import Frame
from screenbot.imaging import read_image
from screenbot.vision import read_board

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "targets"))
from target_frames import read_target_frames  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "corpus"
FOLDER = CORPUS / "gnome2048_sizes"
SIZES = {"3x3": (3, 3), "5x5": (5, 5), "4x6": (4, 6)}
STILL = sorted(f"{size}/{png.stem}" for size in SIZES for png in (FOLDER / size).glob("still*.png"))


def label(name: str) -> dict:
    return json.loads((FOLDER / f"{name}.json").read_text())


def test_every_size_holds_still_and_mid_move_frames():
    for size in SIZES:
        kinds = [label(f"{size}/{p.stem}")["kind"] for p in (FOLDER / size).glob("*.png")]
        assert kinds.count("static") >= 3 and kinds.count("mid-animation") >= 1, size


@pytest.mark.parametrize("name", STILL)
def test_a_still_frame_is_calibrated_alone_and_read_exactly(name):
    truth = label(name)
    frame = Frame(read_image(FOLDER / f"{name}.png"))
    profile = calibrate(frame)
    assert profile.kind == "tiles"
    assert profile.shape == SIZES[name.split("/")[0]]
    reading = read_board(frame, profile)
    assert reading.grid is not None and [list(row) for row in reading.grid] == truth["board"]


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_mid_move_frame_is_never_read_as_a_board_the_game_did_not_show(size):
    """Calibrated on the sparsest still board of the size, as `calibrate` then `play` do."""
    results = read_target_frames(f"gnome2048_sizes/{size}", CORPUS)
    moving = [r for r in results if r.kind == "mid-animation"]
    assert moving and len(results) >= 4
    assert [(r.name, r.seen) for r in results if not r.ok] == []
