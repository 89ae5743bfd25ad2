"""`calibrate --probe`: one key, only into the board under the pointer, kept only if the board answers as a 2048 does."""

import pytest

from screenbot.calibration import calibrate
from screenbot.control.keyboard import Press
from screenbot.geometry import Point
from screenbot.play.probe import ProbeError, probe

from play_fakes import VirtualClock
from test_relocate import MovingPage


def page_and_profile():
    clock = VirtualClock()
    page = MovingPage(clock)
    profile = calibrate(page.grab(), monitors=page.monitors(), source="test")
    return clock, page, profile


def test_the_board_under_the_pointer_gets_one_key_and_is_kept_when_its_tiles_move_as_in_2048():
    clock, page, profile = page_and_profile()
    page.keyboard.pointer_at = profile.board_rect.center
    said = []
    assert probe([profile], page, page.keyboard, clock=clock, say=said.append) is profile
    assert [e for e in page.keyboard.events if isinstance(e, Press)] == [Press(page.keyboard.moves[0])]
    assert page.keys == 1
    assert any("answered" in line for line in said)


def test_nothing_is_pressed_when_the_pointer_is_not_on_a_board():
    clock, page, profile = page_and_profile()
    page.keyboard.pointer_at = Point(5, 5)
    with pytest.raises(ProbeError, match="nothing was pressed"):
        probe([profile], page, page.keyboard, clock=clock, say=lambda line: None)
    assert page.keyboard.events == []


def test_a_look_alike_that_does_not_answer_like_2048_is_not_kept():
    """A grid of squares under the pointer whose tiles do not slide (a photo grid, a spreadsheet)."""
    clock, page, profile = page_and_profile()
    page.keyboard.pointer_at = profile.board_rect.center
    page.keyboard.on_press = lambda move: None  # the key changes nothing
    with pytest.raises(ProbeError, match="did not answer"):
        probe([profile], page, page.keyboard, clock=clock, say=lambda line: None)
    assert len(page.keyboard.moves) == 1  # one key, never more


def bare_tiles_screen():
    """A window that draws its tiles alone (no board, no empty cells), as recorded: look 18's first frame."""
    from pathlib import Path

    import cv2

    from screenbot.control.screen import Frame, ImageScreen

    png = Path(__file__).resolve().parents[1] / "fixtures" / "any_windows" / "any_window_18" / "still000.png"
    frame = Frame(cv2.imread(str(png)))
    return frame, ImageScreen(frame, advance=False)


@pytest.mark.parametrize("where, why", [(None, "cannot ask where the mouse pointer is"),
                                        ("tile", "not on the background"), ("far", "not on the background")])
def test_no_key_goes_to_tiles_alone_unless_the_pointer_is_on_their_background(where, why):
    from screenbot.calibration.bare import find_tiles
    from screenbot.control.keyboard import RecordingKeyboard
    from screenbot.play.probe import probe_bare

    frame, screen = bare_tiles_screen()
    tile = find_tiles(frame.pixels).rects[0]
    keyboard = RecordingKeyboard()
    keyboard.pointer_at = {None: None, "tile": tile.center, "far": Point(frame.pixels.shape[1] - 3, 3)}[where]
    with pytest.raises(ProbeError, match=why):
        probe_bare(frame, screen, keyboard, lambda f, lattice: None, clock=VirtualClock(), say=lambda line: None)
    assert keyboard.events == []


def test_tiles_alone_that_do_not_move_under_keys_are_no_board():
    """The pointer on the background beside two tiles that no key moves (a picture of a game): the keys
    show no side of a board, and nothing is saved."""
    from screenbot.calibration.bare import find_tiles
    from screenbot.control.keyboard import RecordingKeyboard
    from screenbot.play.probe import BARE_KEYS, probe_bare

    frame, screen = bare_tiles_screen()
    tile = find_tiles(frame.pixels).rects[0]
    keyboard = RecordingKeyboard()
    keyboard.pointer_at = Point(tile.x + tile.w // 2, tile.y - tile.h // 2)  # the cell above: the background
    with pytest.raises(ProbeError, match="no key moved the tiles"):
        probe_bare(frame, screen, keyboard, lambda f, lattice: pytest.fail("no lattice"), clock=VirtualClock(),
                   say=lambda line: None)
    assert [e for e in keyboard.events if isinstance(e, Press)] == [Press(m) for m in BARE_KEYS][:len(keyboard.moves)]
    assert 1 <= len(keyboard.moves) <= len(BARE_KEYS)
