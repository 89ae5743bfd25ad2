"""Screens the rig cannot make: monitors left of the origin, boards cut off, no board, look-alikes,
several boards, tiny and huge boards, compression, a board mid-slide or growing."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from screenbot.board_state import BoardState
from screenbot.calibration import BoardOffScreenError, ManyBoardsError, NoBoardError, calibrate
from screenbot.control.screen import Frame, ImageScreen
from screenbot.geometry import Rect
from screenbot.vision import read_board
from screenbot.palette import DARK

import vision_render as render
from vision_labels import SHARED_SCREENS

BOARD = ((2, 4, 8, 16), (0, 32, 64, 0), (128, 256, 512, 1024), (0, 2048, 0, 2))


def place(board_px: np.ndarray, w: int, h: int, x: int, y: int, seed: int = 0) -> np.ndarray:
    return render.paste(render.desktop(w, h, seed), board_px, x, y)


def assert_rect_close(got: Rect, want: list[int], tol: int = 2):
    assert all(abs(a - b) <= tol for a, b in zip(got.as_list(), want)), (got, want)


@pytest.mark.parametrize("size", [150, 280, 500, 1100, 2000])
def test_boards_from_150_to_2000_px_are_found_and_read(size):
    w, h = size + 400, size + 300
    frame = Frame(place(render.render_board(BOARD, size), w, h, 170, 110))
    profile = calibrate(frame)
    assert_rect_close(profile.board_rect, [170, 110, size, size])
    assert profile.theme == "classic"
    reading = read_board(frame, profile)
    assert reading.state == BoardState.PLAYING and reading.grid == BOARD


def test_dark_theme_is_recognised_and_read():
    frame = Frame(place(render.render_board(BOARD, 360, DARK), 900, 700, 300, 200))
    profile = calibrate(frame)
    assert profile.theme == "dark"
    assert read_board(frame, profile).grid == BOARD


def test_two_monitors_one_left_of_the_origin():
    """The composite picture of mss monitors[0]: the left monitor starts at x = -1600."""
    left = render.desktop(1600, 1000, 1)
    render.paste(left, render.render_board(BOARD, 400), 900, 300)
    right = render.desktop(1920, 1080, 2)
    composite = np.zeros((1080, 3520, 3), np.uint8)
    composite[:1000, :1600] = left
    composite[:, 1600:] = right
    monitors = [Rect(-1600, 0, 1600, 1000), Rect(0, 0, 1920, 1080)]
    screen = ImageScreen(composite, origin=(-1600, 0), monitor_rects=monitors, advance=False)
    profile = calibrate(screen.grab(), monitors=screen.monitors())
    assert_rect_close(profile.board_rect, [-700, 300, 400, 400])
    assert profile.monitor == 1
    board_only = screen.grab(profile.board_rect)
    assert board_only.left == profile.board_rect.x < 0
    assert read_board(board_only, profile).grid == BOARD


def test_board_on_the_right_monitor_of_a_negative_layout():
    composite = render.desktop(3520, 1080, 3)
    render.paste(composite, render.render_board(BOARD, 300), 2000, 100)
    monitors = [Rect(-1600, 0, 1600, 1080), Rect(0, 0, 1920, 1080)]
    screen = ImageScreen(composite, origin=(-1600, 0), monitor_rects=monitors, advance=False)
    profile = calibrate(screen.grab(), monitors=screen.monitors())
    assert_rect_close(profile.board_rect, [400, 100, 300, 300])
    assert profile.monitor == 2


@pytest.mark.parametrize("cut", ["right", "bottom", "left"])
def test_board_partly_off_screen_is_a_clear_error(cut):
    full = place(render.render_board(BOARD, 500), 1400, 900, 450, 200)
    if cut == "right":
        pixels = full[:, :700]
    elif cut == "bottom":
        pixels = full[:500]
    else:
        pixels = full[:, 650:]
    with pytest.raises(BoardOffScreenError, match="off the edge"):
        calibrate(Frame(np.ascontiguousarray(pixels)))


@pytest.mark.parametrize("family", ["curses_boxes", "tk_wide"])
def test_a_whole_board_under_a_game_over_message_is_not_a_board_cut_off(family):
    """Game-over frames whose board is whole: squares that lack rows (one row of a board's inset tiles, a
    cell from the left edge; every other cell of a board, at twice its pitch) are no board running off the
    screen's edge. Calibrated alone, the frame is a board or an error that does not send the user moving
    the window."""
    from pathlib import Path

    from screenbot.calibration.lattice import find_lattices
    from screenbot.imaging import read_image

    pixels = read_image(Path(__file__).resolve().parents[1] / "fixtures" / "families" / family / "over.png")
    assert find_lattices(pixels).cut_off == []
    try:
        calibrate(Frame(pixels))
    except NoBoardError as exc:
        assert not isinstance(exc, BoardOffScreenError) and "off the edge" not in str(exc)


def test_screen_without_a_board():
    with pytest.raises(NoBoardError, match="no 2048 board"):
        calibrate(Frame(render.desktop(1600, 1000, 5)))


@pytest.mark.parametrize("make", [render.checkerboard, render.calendar, render.photo_grid, render.spreadsheet],
                         ids=["checkerboard", "calendar", "photo-grid", "spreadsheet"])
def test_board_like_pictures_are_not_boards(make):
    picture = make()
    frame = Frame(place(picture, 1400, 900, 300, 150))
    with pytest.raises(NoBoardError):
        calibrate(frame)


def test_a_table_of_touching_cells_is_a_board_only_when_its_numbers_are_tiles():
    """Cells that touch, ruled by 1 px lines (a terminal's box-drawing grid at a small font size), are
    a board when what is written in them reads as 2048 tiles, and a table when it does not."""
    tiles = ((0, 2, 0, 4), (2, 8, 16, 0), (0, 0, 32, 4), (0, 2, 0, 0))
    frame = Frame(place(render.written_table(tiles), 1400, 900, 300, 150))
    profile = calibrate(frame)
    assert profile.shape == (4, 4)
    assert [list(row) for row in read_board(frame, profile).grid] == [list(row) for row in tiles]
    numbers = ((0, 3, 0, 7), (12, 9, 15, 0), (0, 0, 31, 5), (0, 11, 0, 0))
    with pytest.raises(NoBoardError, match="no 2048 tiles"):
        calibrate(Frame(place(render.written_table(numbers), 1400, 900, 300, 150)))


def test_a_real_board_next_to_look_alikes_is_the_only_one_found():
    canvas = render.desktop(2200, 1100, 6)
    render.paste(canvas, render.calendar(), 50, 80)
    render.paste(canvas, render.photo_grid(), 700, 80)
    render.paste(canvas, render.checkerboard(), 700, 560)
    render.paste(canvas, render.render_board(BOARD, 420), 1500, 300)
    profile = calibrate(Frame(canvas))
    assert_rect_close(profile.board_rect, [1500, 300, 420, 420])


def test_two_boards_need_a_pick():
    canvas = render.desktop(1800, 900, 7)
    render.paste(canvas, render.render_board(BOARD, 400), 100, 200)
    other = ((2, 0, 0, 0),) * 4
    render.paste(canvas, render.render_board(other, 500, DARK), 1000, 150)
    frame = Frame(canvas)
    with pytest.raises(ManyBoardsError, match="--pick") as err:
        calibrate(frame)
    candidates = err.value.candidates
    assert len(candidates) == 2
    dark_pick = 1 + next(i for i, rect in enumerate(candidates) if abs(rect.x - 1000) <= 2)
    chosen = calibrate(frame, pick=dark_pick)
    assert chosen.theme == "dark" and read_board(frame, chosen).grid == other
    assert calibrate(frame, pick=3 - dark_pick).theme == "classic"
    with pytest.raises(NoBoardError, match="only 2"):
        calibrate(frame, pick=3)


def test_jpeg_compressed_screenshot_is_still_read():
    frame_px = place(render.render_board(BOARD, 450), 1200, 800, 300, 150)
    ok, data = cv2.imencode(".jpg", frame_px, [cv2.IMWRITE_JPEG_QUALITY, 75])
    frame = Frame(cv2.imdecode(data, cv2.IMREAD_COLOR))
    assert read_board(frame, calibrate(frame)).grid == BOARD


@pytest.mark.parametrize("fraction", [0.15, 0.5, 0.85])
def test_a_tile_between_cells_is_unsettled(fraction):
    still = place(render.render_board(BOARD, 500), 1200, 800, 300, 150)
    profile = calibrate(Frame(still))
    moving = place(render.render_board(BOARD, 500, shift=(1, 1, fraction)), 1200, 800, 300, 150)
    reading = read_board(Frame(moving), profile)
    assert reading.state == BoardState.UNSETTLED and reading.grid is None


@pytest.mark.parametrize("scale", [0.1, 0.4, 0.7])
def test_a_tile_growing_in_is_unsettled_or_read_whole(scale):
    base = ((2, 4, 8, 16), (0, 32, 64, 0), (128, 256, 512, 1024), (0, 2048, 0, 0))
    still = place(render.render_board(base, 500), 1200, 800, 300, 150)
    profile = calibrate(Frame(still))
    grown = ((2, 4, 8, 16), (0, 32, 64, 0), (128, 256, 512, 1024), (0, 2048, 0, 2))
    frame = Frame(place(render.render_board(grown, 500, grow=(3, 3, scale)), 1200, 800, 300, 150))
    reading = read_board(frame, profile)
    # while small it must not pass for an empty cell; once it covers the sample strips it is the new board
    assert reading.state == BoardState.UNSETTLED or (scale >= 0.6 and reading.grid == grown)


def test_board_moved_away_reads_no_board():
    frame = Frame(place(render.render_board(BOARD, 400), 1200, 800, 100, 100))
    profile = calibrate(frame)
    elsewhere = Frame(place(render.render_board(BOARD, 400), 1200, 800, 600, 300))
    assert read_board(elsewhere, profile).state == BoardState.NO_BOARD
    assert read_board(Frame(render.desktop(300, 300)), profile).state == BoardState.NO_BOARD


def test_dark_overlays_are_named():
    board_px = render.render_board(BOARD, 400, DARK)
    for overlay in DARK.overlays:
        washed = cv2.addWeighted(board_px, 1 - overlay.alpha, np.full_like(board_px, overlay.colour), overlay.alpha, 0)
        cv2.putText(washed, "Game over!", (60, 210), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (240, 240, 240), 3)
        frame = Frame(place(washed, 1000, 700, 200, 100))
        still = Frame(place(board_px, 1000, 700, 200, 100))
        reading = read_board(frame, calibrate(still))
        assert reading.state == overlay.state


@pytest.mark.skipif(not SHARED_SCREENS.is_dir(), reason="../shared/screens is not beside the repo")
@pytest.mark.parametrize("factor", [0.3, 2.0])
def test_real_screenshot_scaled_like_hidpi_or_zoomed_out(factor):
    img = cv2.imread(str(SHARED_SCREENS / "classic__z100_chrome_p1__static_009.png"))
    scaled = cv2.resize(img, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC)
    frame = Frame(scaled)
    profile = calibrate(frame)
    assert_rect_close(profile.board_rect, [round(242.5 * factor), round(361 * factor), round(500 * factor), round(500 * factor)])
    assert read_board(frame, profile).grid == ((64, 2, 4, 2), (4, 2, 2, 128), (16, 16, 2, 2), (128, 512, 2, 2))
