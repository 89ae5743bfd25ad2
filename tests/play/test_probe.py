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
