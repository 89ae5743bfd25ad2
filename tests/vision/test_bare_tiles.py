"""A board with nothing drawn but its tiles (calibration/bare.py): the tiles are found on their plain
background, and their lattice comes only from where keys pressed them, never from one picture. The
recorded window looks that draw no board at all (tests/fixtures/any_windows, any_window.py) are read
exactly on the lattice the keys show; the logic of the lattice is checked on games played by the rules."""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from screenbot.calibration import NoBoardError, calibrate, calibrate_lattice
from screenbot.calibration.bare import Sighting, find_tiles, lattice_from
from screenbot.calibration.lattice import Lattice
from screenbot.control.screen import Frame
from screenbot.game.rules import Game, Move, to_grid
from screenbot.geometry import Rect
from screenbot.vision.reader import read_board

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
BARE_LOOKS = (18, 51, 70, 74)  # window looks that draw no frame and no empty cells (any_window.py)


def stills(seed: int):
    root = FIXTURES / "any_windows" / f"any_window_{seed}"
    return [(png.name, cv2.imread(str(png)), to_grid(json.loads(png.with_suffix(".json").read_text())["board"]))
            for png in sorted(root.glob("*.png"))]


def on_black(pixels: np.ndarray) -> np.ndarray:
    out = np.zeros((800, 1280, 3), np.uint8)
    out[:pixels.shape[0], :pixels.shape[1]] = pixels
    return out


def look_lattice(seed: int) -> Lattice:
    """The lattice of a bare look, measured on its fullest recorded frame (a tile in every row and column)."""
    name, pixels, board = stills(seed)[-1]
    tiles = find_tiles(pixels).rects
    xs, ys = sorted({t.x for t in tiles}), sorted({t.y for t in tiles})
    assert len(xs) == len(ys) == 4, name
    return Lattice(x0=xs[0], y0=ys[0], pitch_x=(xs[-1] - xs[0]) / 3, pitch_y=(ys[-1] - ys[0]) / 3, cell_w=tiles[0].w,
                   cell_h=tiles[0].h, margin_x=0, margin_y=0, matched=len(tiles))


@pytest.mark.parametrize("black", [False, True], ids=["window", "black-screen"])
@pytest.mark.parametrize("seed", BARE_LOOKS)
def test_every_tile_of_a_bare_look_is_found_on_its_background_and_nothing_else(seed, black):
    for name, pixels, board in stills(seed):
        found = find_tiles(on_black(pixels) if black else pixels)
        assert found is not None, name
        assert len(found.rects) == sum(v != 0 for row in board for v in row), name
        assert len({(t.w, t.h) for t in found.rects}) == 1
        assert found.background == tuple(int(v) for v in pixels[2, pixels.shape[1] // 2])  # the window's colour


@pytest.mark.parametrize("black", [False, True], ids=["window", "black-screen"])
@pytest.mark.parametrize("seed", BARE_LOOKS)
def test_a_bare_look_on_the_lattice_its_tiles_show_reads_every_recorded_frame_exactly(seed, black):
    frames = stills(seed)
    lattice = look_lattice(seed)
    first = on_black(frames[0][1]) if black else frames[0][1]
    profile = calibrate_lattice(Frame(first), lattice)
    for name, pixels, board in frames:
        reading = read_board(Frame(on_black(pixels) if black else pixels), profile)
        assert (str(reading.state), reading.grid) == ("playing", board), name


@pytest.mark.parametrize("seed", BARE_LOOKS)
def test_one_picture_of_tiles_alone_never_makes_a_board(seed):
    """However many tiles one picture shows, the sides of the board come only from keys; calibrating on
    the picture says so, and what to run."""
    for name, pixels, board in stills(seed):
        found = lattice_from([Sighting(None, find_tiles(pixels).rects)])
        assert found.lattice is None and "column" in found.missing and "row" in found.missing, name
    with pytest.raises(NoBoardError, match=r"no board drawn round them: `screenbot calibrate --probe`"):
        calibrate(Frame(stills(seed)[0][1]))


def test_a_title_and_a_help_line_round_two_tiles_are_no_board():
    """Two tiles in one column of a window with a title over them and a help line under: once taken for a
    board of 8 x 7 text cells (the title's "2048" a tile of it), a board the game never showed."""
    pixels = cv2.imread(str(FIXTURES / "bare_tiles" / "any_window_18_two_tiles_one_column.png"))
    with pytest.raises(NoBoardError):
        calibrate(Frame(pixels))
    assert len(find_tiles(pixels).rects) == 2


def sightings_of_a_game(shape, x0, y0, cell, gap, keys, seed):
    """What the probe sees of a game played by the rules on a lattice at (x0, y0): the tiles after each key."""
    rows, cols = shape
    game = Game(seed=seed, size=shape)
    board = game.reset()

    def rects(grid):
        return tuple(Rect(x0 + c * (cell[0] + gap), y0 + r * (cell[1] + gap), cell[0], cell[1])
                     for r in range(rows) for c in range(cols) if grid[r][c])

    out = [Sighting(None, rects(board))]
    for move in keys:
        board = game.step(move)[0]  # a key that moves nothing leaves the board as it was
        out.append(Sighting(move, rects(board)))
    return out


KEYS = [Move.LEFT, Move.UP, Move.RIGHT, Move.DOWN] * 3


@pytest.mark.parametrize("shape, cell, gap", [((4, 4), (107, 107), 15), ((5, 5), (60, 60), 0), ((4, 6), (44, 50), 6),
                                              ((3, 3), (120, 90), 18), ((8, 8), (30, 30), 2)])
def test_the_lattice_is_found_from_the_sides_the_keys_press_the_tiles_against(shape, cell, gap):
    rng = random.Random(7)
    for seed in range(20):
        x0, y0 = rng.randrange(0, 300), rng.randrange(0, 300)
        sightings = sightings_of_a_game(shape, x0, y0, cell, gap, KEYS, seed)
        found = next((f for n in range(2, len(sightings) + 1) if (f := lattice_from(sightings[:n])).lattice or f.refused),
                     lattice_from(sightings))
        assert found.lattice is not None, (seed, found)
        lat = found.lattice
        assert (lat.rows, lat.cols) == shape
        assert (lat.x0, lat.y0, lat.cell_w, lat.cell_h) == (x0, y0, cell[0], cell[1])
        assert (lat.pitch_x, lat.pitch_y) == pytest.approx((cell[0] + gap, cell[1] + gap))


def test_what_is_missing_is_named_until_the_keys_have_shown_it():
    sightings = sightings_of_a_game((4, 4), 10, 10, (100, 100), 10, [Move.LEFT], 1)
    found = lattice_from(sightings)
    assert found.lattice is None and "the last column" in found.missing and "the bottom row" in found.missing
    assert "the first column" not in found.missing


def test_tiles_between_the_cells_or_past_the_sides_are_refused():
    sightings = sightings_of_a_game((4, 4), 10, 10, (100, 100), 10, KEYS[:4], 3)
    stray = Sighting(None, (Rect(10 + 55, 10, 100, 100),))
    assert "between the cells" in lattice_from(sightings + [stray]).refused
    past = Sighting(None, (Rect(10 - 110, 10, 100, 100),))
    assert "past the sides" in lattice_from(sightings + [past]).refused
    other = Sighting(None, (Rect(10, 10, 60, 60),))
    assert "one size" in lattice_from(sightings + [other]).refused


def test_a_lattice_bigger_than_eight_cells_is_refused():
    sightings = sightings_of_a_game((4, 4), 10, 10, (30, 30), 2, KEYS[:4], 5)
    # the same tiles pressed against sides ten cells apart
    far = [Sighting(s.key, tuple(t.translated(32 * 6, 0) for t in s.tiles) if s.key == Move.RIGHT else s.tiles)
           for s in sightings]
    found = lattice_from(far)
    assert found.lattice is None and found.refused
