"""The eyes: a grab of the board's region, read by vision; a tile vision cannot name is an unsettled look."""

import numpy as np

from screenbot.board_state import BoardState
from screenbot.control.screen import ImageScreen
from screenbot.geometry import Rect
from screenbot.play.eyes import ScreenEyes
from screenbot.vision.reader import Reading, UnreadableTileError


class Geometry:
    board_rect = Rect(10, 10, 40, 40)
    cells = tuple(Rect(12 + 10 * (i % 4), 12 + 10 * (i // 4), 8, 8) for i in range(16))
    scale = 1.0


def test_a_tile_vision_cannot_name_is_an_unsettled_sight_with_the_reason():
    def read(frame, profile):
        raise UnreadableTileError("cannot read the tile in row 4, column 4 (colour #3c3a32)", Reading(None, BoardState.UNSETTLED))

    eyes = ScreenEyes(ImageScreen(np.zeros((60, 60, 3), np.uint8)), Geometry(), read=read)
    sight = eyes.look()
    assert sight.grid is None and sight.state == BoardState.UNSETTLED
    assert "row 4, column 4" in sight.why
    assert sight.frame.rect == Geometry.board_rect


def test_a_glance_grabs_without_reading():
    calls = []
    eyes = ScreenEyes(ImageScreen(np.zeros((60, 60, 3), np.uint8)), Geometry(), read=lambda f, p: calls.append(f))
    sight = eyes.glance()
    assert sight.state == BoardState.UNREAD and sight.grid is None and not calls
    assert sight.frame.pixels.shape == (40, 40, 3)


def test_a_look_that_could_not_name_a_tile_is_read_again_on_the_same_pixels():
    """A reading left unsettled (OCR that timed out on a busy machine) is not kept for the same pixels: the
    next look reads them again and may name the tile, where a settled reading is kept."""
    board = ((2, 0, 0, 0),) * 4
    calls = []

    def read(frame, profile):
        calls.append(frame)
        if len(calls) == 1:
            raise UnreadableTileError("cannot read the tile in row 1, column 1", Reading(None, BoardState.UNSETTLED))
        return Reading(board, BoardState.PLAYING)

    eyes = ScreenEyes(ImageScreen(np.zeros((60, 60, 3), np.uint8)), Geometry(), read=read)
    assert eyes.look().state == BoardState.UNSETTLED
    second = eyes.look()
    assert second.state == BoardState.PLAYING and second.grid == board and len(calls) == 2
    assert eyes.look().grid == board and len(calls) == 2  # the same pixels, read settled: not read again
