"""Resting after a key: only as long as the page's measured timing allows, and not before it was measured."""

import pytest

from screenbot.play.pace import MIN_SAMPLES, SLACK_MS, FramePace


def measured(first=(130.0, 124.0, 140.0), frame=16.7):
    pace = FramePace()
    for i in range(MIN_SAMPLES):
        pace.saw_first_frame(first[i % len(first)])
        pace.saw_frame_change(frame)
    return pace


def test_no_rest_before_the_timing_was_measured():
    pace = FramePace()
    pace.saw_first_frame(130.0)
    pace.saw_frame_change(16.7)
    assert pace.quiet_ms() == 0.0
    assert pace.next_frame_rest_ms(1.0) == 0.0


def test_rest_ends_a_frame_before_the_earliest_new_tile_seen():
    pace = measured()
    assert pace.frame_ms == pytest.approx(16.7)
    assert pace.quiet_ms() == pytest.approx(124.0 - 16.7 - SLACK_MS)


def test_after_the_first_frame_rest_until_the_next_can_come():
    pace = measured()
    # the last grab without the tile was 5 ms ago: the next frame is at least 16.7 ms after it
    assert pace.next_frame_rest_ms(5.0) == pytest.approx(16.7 - SLACK_MS - 5.0)
    assert pace.next_frame_rest_ms(30.0) == 0.0


def test_gaps_longer_than_a_frame_are_not_frame_intervals():
    pace = measured()
    for _ in range(3 * MIN_SAMPLES):
        pace.saw_frame_change(120.0)  # play rested in between: not one frame
    assert pace.frame_ms == pytest.approx(16.7)


def test_a_game_whose_new_tiles_never_grow_is_read_still_and_rechecked_now_and_then():
    from screenbot.play.pace import AT_ONCE_AFTER, RECHECK_EVERY, RedrawStyle

    style = RedrawStyle()
    for _ in range(AT_ONCE_AFTER - 1):
        assert style.watch_growth()
        style.saw(grew=False)
    style.saw(grew=True)  # one tile seen growing: an animated game after all
    assert not style.at_once
    for _ in range(AT_ONCE_AFTER):
        assert style.watch_growth()
        style.saw(grew=False)
    assert style.at_once
    watched = [style.watch_growth() for _ in range(2 * RECHECK_EVERY)]
    assert watched.count(True) == 2  # looked again every RECHECK_EVERY moves
    style.saw(grew=True)
    assert not style.at_once and style.watch_growth()
