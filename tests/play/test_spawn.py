"""The spawn reader: a growing tile is a centred square whose size and colour follow one curve; its
value is read only when the colour fits one value and clearly not the other; anything else waits."""

import numpy as np
import pytest

from screenbot.control.screen import Frame
from screenbot.game.rules import Move, parse_board
from screenbot.geometry import Rect
from screenbot.play.spawn import CLEAR_AT_ANY, SpawnReader, look_at_window, misfit, window_of
from screenbot.play.tracker import Tracker

CELL, GAP = 100, 12
BOARD = np.array([0xA0, 0xAD, 0xBB], float)
CLASSIC = {  # BGR, from the classic stylesheet (FACTS.md)
    0: np.array([0xB4, 0xC1, 0xCD], float),
    2: np.array([0xDA, 0xE4, 0xEE], float),
    4: np.array([0xC8, 0xE0, 0xED], float),
    "digit": np.array([0x65, 0x6E, 0x77], float),
}
DARK = {  # the practice page's dark theme: its 2 and 4 point almost the same way from empty
    0: np.array([0x4E, 0x42, 0x3D], float),
    2: np.array([0xEE, 0xE8, 0xE4], float),
    4: np.array([0xE0, 0xD3, 0xC9], float),
    "digit": np.array([0x24, 0x1E, 0x1C], float),
}


def cells():
    return tuple(Rect(GAP + c * (CELL + GAP), GAP + r * (CELL + GAP), CELL, CELL) for r in range(4) for c in range(4))


def strips(cell):
    return (
        Rect(cell.x + 28, cell.y + 16, 44, 9), Rect(cell.x + 28, cell.y + 75, 44, 9),
        Rect(cell.x + 16, cell.y + 28, 9, 44), Rect(cell.x + 75, cell.y + 28, 9, 44),
    )


def coverage(lo: float, hi: float, n: int) -> np.ndarray:
    """How much of each pixel 0..n-1 the interval [lo, hi] covers (anti-aliased edges)."""
    edges = np.arange(n + 1, dtype=float)
    return np.clip(np.minimum(edges[1:], hi) - np.maximum(edges[:-1], lo), 0.0, 1.0)


def picture(tiles, palette=CLASSIC, offset=(0.0, 0.0), opacity=None):
    """A board: each (r, c): (value, p) drawn as the `appear` animation draws it at progress p: a
    square of side p * CELL in the middle of the cell, at opacity p (or `opacity`), with a dark
    digit block in its middle; colours rounded to whole levels, as the screen has them."""
    size = 4 * CELL + 5 * GAP
    px = np.zeros((size, size, 3), float)
    px[:] = BOARD
    for cell in cells():
        px[cell.y:cell.bottom, cell.x:cell.right] = palette[0]
    for (r, c), (value, p) in tiles.items():
        cell = cells()[r * 4 + c]
        alpha = p if opacity is None else opacity
        cx, cy = cell.x + CELL / 2 + offset[0], cell.y + CELL / 2 + offset[1]
        half = CELL * p / 2
        cover = coverage(cy - half, cy + half, size)[:, None] * coverage(cx - half, cx + half, size)[None, :]
        px += (alpha * cover)[:, :, None] * (palette[value] - px)
        dy, dx = half * 0.35, half * 0.22
        digit = coverage(cy - dy, cy + dy, size)[:, None] * coverage(cx - dx, cx + dx, size)[None, :]
        px += (alpha * digit)[:, :, None] * (palette["digit"] - px)
    return Frame(np.clip(px.round(), 0, 255).astype(np.uint8), 0, 0)


def reader(palette=CLASSIC):
    sr = SpawnReader(cells(), tuple(strips(c) for c in cells()))
    still = picture({(0, 0): (2, 1.0), (0, 1): (4, 1.0)}, palette)
    sr.learn(still, parse_board("2 4 . . / . . . . / . . . . / . . . ."))
    return sr


def prediction(board="2 4 . . / . . . . / . . . . / . . . .", move=Move.DOWN):
    t = Tracker()
    t.begin(parse_board(board))
    return t.predict(move)


BASE = {(3, 0): (2, 1.0), (3, 1): (4, 1.0)}  # the board after DOWN, without the new tile


def watched(sr, p, palette=CLASSIC):
    """A watch that has seen the board with every empty cell still empty (the frame after the key)."""
    w = sr.watch(p)
    assert w.see(picture(BASE, palette)).cell is None
    return w


@pytest.mark.parametrize("value", [2, 4])
@pytest.mark.parametrize("progress", [0.22, 0.3, 0.41])
def test_a_growing_tile_is_read_from_its_size_and_colour(value, progress):
    sr = reader()
    p = prediction()
    assert sr.ready_for(p)
    seen = watched(sr, p).see(picture(BASE | {(1, 2): (value, progress)}))
    assert seen.cell == (1, 2) and seen.spawn == (1, 2, value)


def test_the_first_frame_of_a_classic_2_is_read_at_once_and_of_a_4_on_the_next():
    sr = reader()
    p = prediction()
    two = watched(sr, p).see(picture(BASE | {(1, 2): (2, 0.0667)}))  # (+3, +2, +2): no 4 looks like this
    assert two.spawn == (1, 2, 2)
    w = watched(sr, p)
    four = w.see(picture(BASE | {(1, 2): (4, 0.0667)}))  # (+1, +2, +2): a faint 2 could, nearly
    assert four.cell == (1, 2) and four.spawn is None
    assert w.see(picture(BASE | {(1, 2): (4, 0.21)})).spawn == (1, 2, 4)


@pytest.mark.parametrize("palette", [CLASSIC, DARK], ids=["classic", "dark"])
@pytest.mark.parametrize("value", [2, 4])
def test_never_a_wrong_value_at_any_size(palette, value):
    sr = reader(palette)
    p = prediction()
    read = []
    for progress in np.linspace(0.03, 0.48, 31):
        seen = watched(sr, p, palette).see(picture(BASE | {(1, 2): (value, progress)}, palette))
        assert seen.spawn in (None, (1, 2, value)), f"read {seen.spawn} for a {value} at p={progress:.2f}"
        read.append(seen.spawn is not None)
    assert sum(read) >= 8  # and it does read them once the colour tells


def test_the_dark_palette_waits_for_the_size_to_tell_2_from_4():
    sr = reader(DARK)
    p = prediction()
    assert watched(sr, p, DARK).see(picture(BASE | {(1, 2): (4, 0.07)}, DARK)).spawn is None
    assert watched(sr, p, DARK).see(picture(BASE | {(1, 2): (4, 0.41)}, DARK)).spawn == (1, 2, 4)


def test_a_tile_whose_opacity_does_not_follow_its_size_is_left_alone():
    # a clone whose new tile pops in at full colour while it grows: no blend fits, nothing is read
    sr = reader()
    p = prediction()
    seen = watched(sr, p).see(picture(BASE | {(1, 2): (2, 0.3)}, opacity=1.0))
    assert seen.spawn is None


def test_a_tile_off_centre_or_reaching_past_the_middle_is_not_a_new_tile():
    sr = reader()
    p = prediction()
    assert watched(sr, p).see(picture(BASE | {(1, 2): (2, 0.3)}, offset=(9, 0))).cell is None
    sliding = watched(sr, p).see(picture(BASE | {(1, 2): (2, 1.0)}, offset=(-60, 0)))
    assert sliding.cell is None and sliding.spawn is None


def test_a_grown_tile_at_first_sight_is_not_taken():
    sr = reader()
    p = prediction()
    w = sr.watch(p)  # no frame of the cell empty or smaller first: maybe an old tile
    assert w.see(picture(BASE | {(1, 2): (2, 0.3)})).spawn is None
    assert w.see(picture(BASE | {(1, 2): (2, 0.3)})).spawn is None  # the same size again: not growing
    assert w.see(picture(BASE | {(1, 2): (2, 0.41)})).spawn == (1, 2, 2)


def test_two_cells_changing_is_left_to_the_still_read():
    sr = reader()
    p = prediction()
    seen = watched(sr, p).see(picture(BASE | {(1, 2): (2, 0.3), (2, 3): (2, 0.3)}))
    assert seen.cell is None and seen.spawn is None


def test_a_cell_the_move_emptied_counts_only_after_it_was_seen_empty():
    sr = reader()
    p = prediction()  # (0, 0) and (0, 1) are emptied by the move
    w = sr.watch(p)
    growing_in_vacated = picture(BASE | {(0, 0): (2, 0.3)})
    assert w.see(growing_in_vacated).spawn is None
    w.see(picture(BASE))  # a frame with the cell empty
    assert w.see(picture(BASE | {(0, 0): (2, 0.41)})).spawn == (0, 0, 2)


def test_still_tiles_must_show_their_values():
    sr = reader()
    p = prediction()
    wrong = {(3, 0): (4, 1.0), (3, 1): (4, 1.0)}
    w = sr.watch(p)
    w.see(picture(wrong))
    assert w.see(picture(wrong | {(1, 2): (2, 0.3)})).spawn is None


def test_no_read_before_the_colours_are_known():
    sr = SpawnReader(cells(), tuple(strips(c) for c in cells()))
    sr.learn(picture({(0, 0): (2, 1.0), (0, 1): (2, 1.0)}), parse_board("2 2 . . / . . . . / . . . . / . . . ."))
    assert not sr.ready_for(prediction("2 2 . . / . . . . / . . . . / . . . .", Move.DOWN))  # no 4 seen yet


def test_misfit_is_the_least_channel_error_over_the_blends():
    four = CLASSIC[4] - CLASSIC[0]
    # a 4 (+20, +31, +32) would have to be 1.08 levels off somewhere to show (+3, +2, +2)
    # (the best blend has 3 - 20q = 32q - 2: q = 5/52, 1 + 1/13 levels off in B and R)
    assert misfit(np.array([3, 2, 2]), 0.0, 1.0, four) == pytest.approx(1 + 1 / 13)
    assert misfit(np.array([3, 2, 2]), 0.0, 1.0, four) > CLEAR_AT_ANY
    two = CLASSIC[2] - CLASSIC[0]
    assert misfit(np.round(0.3 * two), 0.29, 0.31, two) <= 0.5
    assert misfit(np.array([0, 0, 0]), 0.0, 1.0, two) == 0.0


def test_an_empty_window_is_empty():
    frame = picture(BASE)
    window = window_of(cells()[6])
    look = look_at_window(frame.crop(window).pixels, CLASSIC[0].astype(np.int16), {}, CELL)
    assert look.kind == "empty"
