"""The recorded practice boards of other sizes (tests/fixtures/sizes/, made by record_sizes.py): each
picture shows its size's rows and columns of cells (a plain OpenCV count), and each truth is a board of
that size that the rules allow, with the cells where the picture shows them."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from screenbot.game.rules import to_grid
from tests.practice.board_cells import lattice

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sizes"
SCREENS = Path(__file__).resolve().parents[1] / "fixtures" / "screens"
PICTURES = sorted(FIXTURES.glob("*.png"))
SIZES = {(3, 3), (5, 5), (8, 8), (4, 6)}


def truth_of(png: Path) -> dict:
    return json.loads(png.with_suffix(".json").read_text())


def test_every_size_is_recorded_in_three_looks_with_large_tiles():
    truths = [truth_of(p) for p in PICTURES]
    assert {tuple(t["size"]) for t in truths} == SIZES
    for size in SIZES:
        of_size = [t for t in truths if tuple(t["size"]) == size]
        assert {t["look"] for t in of_size} == {"classic", "lines", "terminal"}
        assert max(v for t in of_size for row in t["board"] for v in row) >= 1024
        openings = [t for t in of_size if sum(v > 0 for row in t["board"] for v in row) == 2]
        assert openings, f"{size}: no opening board"


@pytest.mark.parametrize("png", PICTURES, ids=[p.stem for p in PICTURES])
def test_a_recorded_board_shows_its_cells_and_its_truth_fits_its_size(png):
    truth = truth_of(png)
    rows, cols = truth["size"]
    assert truth["program"] == "practice" and truth["kind"] == "static" and png.stat().st_size < 120_000
    to_grid(truth["board"], (rows, cols))  # a board of that size the rules allow
    picture = cv2.imread(str(png))
    assert lattice(picture) == (rows, cols)
    h, w = picture.shape[:2]
    x, y, bw, bh = truth["board_rect"]
    assert 0 <= x and 0 <= y and x + bw <= w + 0.5 and y + bh <= h + 0.5
    cells = np.array(truth["cell_rects"])
    assert len(cells) == rows * cols
    lefts, tops = cells[:, 0].reshape(rows, cols), cells[:, 1].reshape(rows, cols)
    assert np.ptp(lefts, axis=0).max() < 0.5 and np.ptp(tops, axis=1).max() < 0.5  # a lattice
    assert (np.diff(lefts, axis=1) > 0).all() and (np.diff(tops, axis=0) > 0).all()
    assert (cells[:, 0] >= x - 0.5).all() and (cells[:, 0] + cells[:, 2] <= x + bw + 0.5).all()


def test_the_cell_count_sees_other_lattices_too():
    """The count is no echo of the sizes above: the 4x4 page reads 4x4, and a 5x5 picture cut to its
    first three columns reads 5x3."""
    four = json.loads((SCREENS / "classic_z100_s1_board300_p5__00_static.json").read_text())
    x, y, w, h = four["board_rect_px"]
    screen = cv2.imread(str(SCREENS / four["image"]))
    assert lattice(screen[y - 6:y + h + 6, x - 6:x + w + 6]) == (4, 4)
    png = FIXTURES / "classic_5x5__02_large.png"
    cells = truth_of(png)["cell_rects"]
    cut = round(cells[3][0] - 2)  # just left of the fourth column
    assert lattice(cv2.imread(str(png))[:, :cut]) == (5, 3)
