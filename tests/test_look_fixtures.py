"""The other looks' recorded screens (tests/fixtures/screens/looks): every label parses and its
picture loads at the size the label says. (Reading them is the vision tests' business.)"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

LOOKS = Path(__file__).parent / "fixtures" / "screens" / "looks"
LABELS = sorted(LOOKS.glob("*.json"))
KINDS = {"static", "mid-animation", "overlay-win", "overlay-over", "overlay-fading-in", "keep-going"}


def label(path: Path) -> dict:
    return json.loads(path.read_text())


def test_every_other_look_is_recorded():
    conditions = {label(p)["condition"]["name"] for p in LABELS}
    assert {"lines_z100_s1", "lines-light_z100_s1_board400", "terminal_z100_s1", "classic-marks_z100_s1",
            "dark-overhang_z100_s1", "terminal-marks_z150_s1"} <= conditions
    pngs = sorted(LOOKS.glob("*.png"))
    assert [p.stem for p in pngs] == [p.stem for p in LABELS], "each picture has its label and no more"
    assert sum(p.stat().st_size for p in pngs) < 3_000_000


@pytest.mark.parametrize("path", LABELS, ids=lambda p: p.stem)
def test_label_parses_and_its_picture_has_the_size_it_says(path):
    lab = label(path)
    assert lab["image"] == path.with_suffix(".png").name
    assert lab["kind"] in KINDS
    grid = lab["grid"]
    assert len(grid) == 4 and all(len(row) == 4 for row in grid)
    assert all(v == 0 or (v >= 2 and v & (v - 1) == 0) for row in grid for v in row)
    assert len(lab["cell_rects"]) == 16 and len(lab["tile_rects"]) == 16
    img = cv2.imread(str(LOOKS / lab["image"]), cv2.IMREAD_UNCHANGED)
    assert img is not None, f"{lab['image']} does not load"
    w, h = lab["image_size"]
    assert (img.shape[1], img.shape[0]) == (w, h)
    if lab["image_is"] == "whole screen":
        assert [w, h] == lab["screen_size"]
