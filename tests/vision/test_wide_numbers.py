"""A number written wider than its cell (its ink over the gaps beside it) is read whole, also where its ink
runs into another number's: never a number of the digits left in the cell.
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


JOINED_BOTH_SIDES = ((2, 4, 0, 0), (1024, 4096, 1024, 0), (0, 0, 8, 0), (0, 0, 0, 16))


@pytest.mark.parametrize("grid", [((2, 4, 0, 0), (8, 1024, 2048, 0), (0, 0, 8, 0), (0, 0, 0, 16)), JOINED_BOTH_SIDES])
@pytest.mark.parametrize("wide_px", [42, 50])
def test_wide_numbers_side_by_side_whose_ink_joins_are_each_read_whole(grid, wide_px):
    # each digit belongs to the cell whose middle is nearest; two digits that touch are split where least
    # ink crosses them, and a number cut from its neighbour on one side ends where its centring says
    reading = read_board(Frame(drawn_board(grid, wide_px), 0, 0), calibrated(drawn_board(SMALL)))
    if (grid, wide_px) == (JOINED_BOTH_SIDES, 50):
        # the 4096 between two 1024s: its ink joins theirs on both sides, and the cuts go through its digits
        assert (reading.state, reading.grid) == (BoardState.UNSETTLED, None), reading
        assert "name no tile" in reading.detail
    else:
        assert (reading.state, reading.grid) == (BoardState.PLAYING, grid), reading
