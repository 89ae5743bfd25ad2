"""The spawn reader: a growing tile is a centred square whose size and colour follow one curve; its
value is read only when the colour fits one value and clearly not the other; anything else waits."""

import numpy as np
import pytest

from screenbot.game.rules import Move, parse_board
from screenbot.play.spawn import CLEAR_AT_ANY, SpawnReader, look_at_window, misfit, window_of
from screenbot.play.tracker import Tracker

from drawn import CLASSIC, DARK, DrawnBoard

BOARD = DrawnBoard(cell=100, gap=12)
CELL = BOARD.cell


def cells():
    return BOARD.cells()


def strips(cell):
    return BOARD.strips(cell)


def picture(tiles, palette=CLASSIC, offset=(0.0, 0.0), opacity=None):
    return BOARD.picture(tiles, palette, offset, opacity)


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


def test_a_tile_grown_at_its_own_colour_that_is_a_blend_of_the_other_value_is_left_alone():
    # a window look whose 4 is the 2's colour two thirds of the way from the empty cells' (tiles drawn whole
    # as they grow): a 4 at two thirds of its size fits a 2 faded in to that size, and is no 2
    from screenbot.play.spawn import judge

    empty = np.array([94, 94, 95], float)
    two = np.array([70, 40, 40], float)
    four = empty + (two - empty) * 2 / 3
    change = four - empty
    assert judge(change, 2 / 3, 0.02, empty, {2: two, 4: four})[0] is None
    assert judge(two - empty, 1.0, 0.02, empty, {2: two, 4: four})[0] == 2
