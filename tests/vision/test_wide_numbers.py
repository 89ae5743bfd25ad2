"""A number written wider than its cell (its ink over the gaps beside it) is read whole when that ink is its
own, and reads `unsettled` when it runs into another number's: never a number of the digits left in the cell.
Boards drawn in a learned look (every tile one colour: tiles are named by their digits), as in
test_oneshot_frames."""

from __future__ import annotations

import pytest

from screenbot.board_state import BoardState
from screenbot.control.screen import Frame
from screenbot.vision.reader import read_board
from test_oneshot_frames import WIDE, calibrated, drawn_board

SMALL = ((2, 0, 0, 0), (0, 4, 0, 0), (0, 0, 8, 0), (0, 0, 0, 16))


@pytest.mark.parametrize("wide_px", [42, 46, 50, 56])
def test_a_1024_over_both_gaps_with_room_round_its_ink_is_read_whole(wide_px):
    picture = drawn_board(WIDE, wide_px)
    for profile in (calibrated(drawn_board(SMALL)), calibrated(picture)):
        reading = read_board(Frame(picture, 0, 0), profile)
        assert (reading.state, reading.grid) == (BoardState.PLAYING, WIDE), reading.detail


@pytest.mark.parametrize("grid", [((2, 4, 0, 0), (8, 1024, 2048, 0), (0, 0, 8, 0), (0, 0, 0, 16)),
                                  ((2, 4, 0, 0), (1024, 4096, 1024, 0), (0, 0, 8, 0), (0, 0, 0, 16))])
@pytest.mark.parametrize("wide_px", [42, 50])
def test_wide_numbers_side_by_side_whose_ink_joins_read_unsettled(grid, wide_px):
    reading = read_board(Frame(drawn_board(grid, wide_px), 0, 0), calibrated(drawn_board(SMALL)))
    assert (reading.state, reading.grid) == (BoardState.UNSETTLED, None), reading
    assert "joined to other ink" in reading.detail
