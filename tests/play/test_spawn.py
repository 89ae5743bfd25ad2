"""The spawn reader: a growing 2 or 4 is read from its colour's direction; anything doubtful is left alone."""

import numpy as np
import pytest

from screenbot.control.screen import Frame
from screenbot.game.rules import Move, parse_board
from screenbot.geometry import Rect
from screenbot.play.spawn import SpawnReader
from screenbot.play.tracker import Tracker

CELL, GAP = 100, 12
EMPTY = np.array([0xB4, 0xC1, 0xCD], float)  # classic empty cell, BGR
TILE = {2: np.array([0xDA, 0xE4, 0xEE], float), 4: np.array([0xC8, 0xE0, 0xED], float)}
DIGIT = np.array([0x65, 0x6E, 0x77], float)


def cells():
    return tuple(Rect(GAP + c * (CELL + GAP), GAP + r * (CELL + GAP), CELL, CELL) for r in range(4) for c in range(4))


def strips(cell):
    return (
        Rect(cell.x + 28, cell.y + 16, 44, 9), Rect(cell.x + 28, cell.y + 75, 44, 9),
        Rect(cell.x + 16, cell.y + 28, 9, 44), Rect(cell.x + 75, cell.y + 28, 9, 44),
    )


def reader(palette=TILE):
    sr = SpawnReader(cells(), tuple(strips(c) for c in cells()))
    still = picture({(0, 0): (2, 1.0, 1.0), (0, 1): (4, 1.0, 1.0)}, palette)
    sr.learn(still, parse_board("2 4 . . / . . . . / . . . . / . . . ."))
    return sr


def picture(tiles, palette=TILE, offset=(0, 0)):
    """A board: each (r, c): (value, scale, alpha) drawn as a centred square with a dark digit block."""
    size = 4 * CELL + 5 * GAP
    px = np.zeros((size, size, 3), float)
    px[:] = (0xA0, 0xAD, 0xBB)
    for cell in cells():
        px[cell.y:cell.bottom, cell.x:cell.right] = EMPTY
    for (r, c), (value, scale, alpha) in tiles.items():
        cell = cells()[r * 4 + c]
        half = CELL * scale / 2
        cx, cy = cell.x + CELL / 2 + offset[0], cell.y + CELL / 2 + offset[1]
        y0, y1, x0, x1 = int(round(cy - half)), int(round(cy + half)), int(round(cx - half)), int(round(cx + half))
        region = px[y0:y1, x0:x1]
        region[:] = region * (1 - alpha) + palette[value] * alpha
        dy, dx = int(half * 0.35), int(half * 0.25)
        digit = px[int(cy) - dy:int(cy) + dy, int(cx) - dx:int(cx) + dx]
        digit[:] = digit * (1 - alpha) + DIGIT * alpha
    return Frame(np.clip(px.round(), 0, 255).astype(np.uint8), 0, 0)


def prediction(board="2 4 . . / . . . . / . . . . / . . . .", move=Move.DOWN):
    t = Tracker()
    t.begin(parse_board(board))
    return t.predict(move)


@pytest.mark.parametrize("value", [2, 4])
@pytest.mark.parametrize("alpha", [0.45, 0.6, 0.9])
def test_a_growing_tile_is_read_by_its_colour_direction(value, alpha):
    sr = reader()
    p = prediction()  # 2 and 4 fall to the bottom row; (1, 2) is one of the empty cells
    base = {(3, 0): (2, 1.0, 1.0), (3, 1): (4, 1.0, 1.0)}
    frame = picture(base | {(1, 2): (value, alpha, alpha)})
    assert sr.ready_for(p)
    assert sr.static_cells_agree(frame, p)
    seen = sr.spawn(frame, p, confirm=True)
    assert seen is not None and seen[0] == (1, 2, value)


def test_a_first_sighting_must_be_small_and_then_grow():
    sr = reader()
    p = prediction()
    base = {(3, 0): (2, 1.0, 1.0), (3, 1): (4, 1.0, 1.0)}
    small = sr.spawn(picture(base | {(1, 2): (2, 0.45, 0.45)}), p)
    assert small is not None
    whole = picture(base | {(1, 2): (2, 1.0, 1.0)})
    assert sr.spawn(whole, p) is None  # a whole tile at first sight: maybe an old one
    bigger = sr.spawn(picture(base | {(1, 2): (2, 0.6, 0.6)}), p, confirm=True)
    assert bigger[0] == small[0] and bigger[1] > small[1]


def test_a_cell_the_move_emptied_counts_only_after_it_was_seen_empty():
    sr = reader()
    p = prediction()  # (0, 0) and (0, 1) are emptied by the move
    base = {(3, 0): (2, 1.0, 1.0), (3, 1): (4, 1.0, 1.0)}
    growing_in_vacated = picture(base | {(0, 0): (2, 0.45, 0.45)})
    cleared: set = set()
    assert sr.spawn(growing_in_vacated, p, cleared) is None
    sr.spawn(picture(base), p, cleared)  # a frame with the cell empty
    assert (0, 0) in cleared
    assert sr.spawn(growing_in_vacated, p, cleared)[0] == (0, 0, 2)


def test_a_tile_off_centre_is_not_a_new_tile():
    sr = reader()
    p = prediction()
    base = {(3, 0): (2, 1.0, 1.0), (3, 1): (4, 1.0, 1.0)}
    assert sr.spawn(picture(base | {(1, 2): (2, 0.45, 0.45)}, offset=(0, 0)), p) is not None
    shifted = picture(base | {(1, 2): (2, 0.45, 0.45)}, offset=(12, 0))
    assert sr.spawn(shifted, p) is None


def test_two_candidate_cells_changing_is_left_to_the_still_read():
    sr = reader()
    p = prediction()
    base = {(3, 0): (2, 1.0, 1.0), (3, 1): (4, 1.0, 1.0)}
    assert sr.spawn(picture(base | {(1, 2): (2, 0.5, 0.5), (2, 3): (2, 0.5, 0.5)}), p) is None


def test_a_palette_whose_2_and_4_point_the_same_way_is_never_read_early():
    dark = {2: np.array([0xEE, 0xE8, 0xE4], float), 4: np.array([0xE0, 0xD3, 0xC9], float)}
    global EMPTY
    saved = EMPTY
    EMPTY = np.array([0x4E, 0x42, 0x3D], float)
    try:
        sr = reader(dark)
        assert not sr.ready_for(prediction())
    finally:
        EMPTY = saved


def test_static_cells_must_show_their_values():
    sr = reader()
    p = prediction()
    wrong = picture({(3, 0): (4, 1.0, 1.0), (3, 1): (4, 1.0, 1.0), (1, 2): (2, 0.5, 0.5)})
    assert not sr.static_cells_agree(wrong, p)


def test_a_tile_too_faint_to_tell_is_not_guessed():
    sr = reader()
    p = prediction()
    base = {(3, 0): (2, 1.0, 1.0), (3, 1): (4, 1.0, 1.0)}
    for value in (2, 4):
        seen = sr.spawn(picture(base | {(1, 2): (value, 0.3, 0.3)}), p, confirm=True)
        assert seen is None or seen[0] == (1, 2, value)
