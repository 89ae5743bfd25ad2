"""Boards of blocks that touch (no gaps, no lines: a terminal game filling each cell with its tile's
colour), drawn here in colours no built-in theme knows: found, read exactly, a block between cells
unsettled, a bigger grid of blocks (a chess board) never a board."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from screenbot.board_source import find_board
from screenbot.board_state import BoardState
from screenbot.calibration.blocks import find_block_boards
from screenbot.calibration.calibrate import calibrate
from screenbot.calibration.errors import NoBoardError
from screenbot.control.screen import Frame
from screenbot.vision.reader import read_board

import vision_render as render

EMPTY = (90, 90, 90)
COLOURS = {2: (200, 40, 40), 4: (40, 170, 40), 8: (40, 170, 200), 16: (160, 60, 160), 32: (30, 100, 220)}
BOARD = [[0, 0, 2, 0], [4, 0, 0, 0], [8, 16, 0, 0], [2, 2, 32, 0]]


def blocks_picture(board, cell_w: int = 84, cell_h: int = 66, at=(30, 60), shift: tuple[int, int, int] | None = None,
                   size=(560, 460), cells: int | tuple[int, int] = 4, empty_mark: str = "·",
                   texts: dict | None = None) -> np.ndarray:
    """A terminal-like picture: white around, the board's cells filled edge to edge, a centred number on
    each tile and `empty_mark` on each empty cell. `shift` = (row, col, px): that tile drawn px to the
    right. `texts`: what is written on a tile of each value instead of its number. `cells`: the board's
    side, or (rows, columns)."""
    rows, cols = (cells, cells) if isinstance(cells, int) else cells
    img = Image.new("RGB", size, (255, 255, 255))
    draw = ImageDraw.Draw(img)
    f = render.font(cell_h // 3)
    x0, y0 = at
    for r in range(rows):
        for c in range(cols):
            x, y = x0 + c * cell_w, y0 + r * cell_h
            draw.rectangle([x, y, x + cell_w - 1, y + cell_h - 1], fill=EMPTY)
            draw.text((x + cell_w / 2, y + cell_h / 2), empty_mark, fill=(255, 255, 255), font=f, anchor="mm")
    for r in range(rows):
        for c in range(cols):
            value = board[r][c] if r < len(board) and c < len(board[r]) else 0
            if not value:
                continue
            dx = shift[2] if shift and (r, c) == shift[:2] else 0
            x, y = x0 + c * cell_w + dx, y0 + r * cell_h
            draw.rectangle([x, y, x + cell_w - 1, y + cell_h - 1], fill=COLOURS[value])
            text = (texts or {}).get(value, str(value))
            draw.text((x + cell_w / 2, y + cell_h / 2), text, fill=(255, 255, 255), font=f, anchor="mm")
    return np.ascontiguousarray(np.asarray(img)[:, :, ::-1])


def test_a_board_of_touching_blocks_is_found_and_read_exactly():
    frame = Frame(blocks_picture(BOARD))
    profile = find_board(frame)
    assert profile.kind == "blocks"
    assert [profile.board_rect.x, profile.board_rect.y, profile.board_rect.w, profile.board_rect.h] == [30, 60, 336, 264]
    assert tuple(profile.empty_colour) == EMPTY
    reading = read_board(frame, profile)
    assert reading.state == BoardState.PLAYING
    assert [list(r) for r in reading.grid] == BOARD


def test_the_profile_reads_the_next_board_and_knows_the_shapes_it_learned():
    first = Frame(blocks_picture(BOARD))
    profile = find_board(first)
    read_board(first, profile)
    after = [[0, 0, 0, 2], [0, 0, 0, 4], [0, 0, 8, 16], [0, 0, 4, 32]]
    reading = read_board(Frame(blocks_picture(after)), profile)
    assert [list(r) for r in reading.grid] == after
    # every shape on it was read once already: known by its shape, no OCR
    again = read_board(Frame(blocks_picture(after)), profile)
    assert again.ocr_calls == 0 and [list(r) for r in again.grid] == after


def test_a_block_between_two_cells_is_unsettled_never_a_board():
    profile = find_board(Frame(blocks_picture(BOARD)))
    moving = Frame(blocks_picture(BOARD, shift=(0, 2, 30)))
    reading = read_board(moving, profile)
    assert reading.state == BoardState.UNSETTLED and reading.grid is None


def test_a_grid_of_blocks_bigger_than_any_board_is_no_board():
    board = [[2 if (r + c) % 2 else 4 for c in range(9)] for r in range(9)]
    picture = blocks_picture(board, cell_w=50, cell_h=50, cells=9, size=(560, 560))
    assert find_block_boards(picture) == []
    with pytest.raises(NoBoardError):
        calibrate(Frame(picture))


SIZED = {  # boards of other sizes: a crowded one, and one just begun with bare empty cells
    (3, 3): [[2, 4, 8], [0, 16, 2], [0, 0, 4]],
    (5, 5): [[2, 4, 8, 16, 32], [4, 0, 2, 0, 4], [0, 0, 0, 0, 2], [0, 0, 0, 0, 0], [0, 2, 0, 0, 0]],
    (4, 6): [[0, 0, 0, 0, 0, 0], [0, 0, 2, 0, 0, 0], [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 4, 0]],
    (6, 4): [[2, 4, 8, 2], [4, 8, 2, 4], [8, 2, 4, 8], [2, 4, 8, 2], [0, 0, 0, 4], [0, 0, 0, 0]],
    (8, 8): [[2 if (r * 3 + c) % 5 == 0 else 0 for c in range(8)] for r in range(8)],
}


@pytest.mark.parametrize("empty_mark", ["·", ""], ids=["dotted", "bare"])
@pytest.mark.parametrize("shape", sorted(SIZED), ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_board_of_blocks_of_another_size_is_found_at_its_size_and_read_exactly(shape, empty_mark):
    rows, cols = shape
    cell = 44 if max(shape) > 6 else 60
    picture = blocks_picture(SIZED[shape], cell_w=cell + 16, cell_h=cell, cells=shape, at=(24, 40),
                             size=(40 + cols * (cell + 16), 80 + rows * cell), empty_mark=empty_mark)
    profile = calibrate(Frame(picture))
    assert (profile.kind, profile.shape) == ("blocks", shape)
    reading = read_board(Frame(picture), profile)
    assert reading.state == BoardState.PLAYING
    assert [list(r) for r in reading.grid] == SIZED[shape]


def test_a_plain_checkerboard_is_no_board_of_blocks():
    assert find_block_boards(render.checkerboard()) == []


def test_a_window_edge_one_cell_below_the_board_does_not_make_it_part_of_a_bigger_grid():
    picture = blocks_picture([[0, 0, 0, 0], [0, 0, 0, 0], [2, 0, 0, 0], [2, 0, 0, 0]])
    bottom = 60 + 4 * 66
    picture[bottom + 66:bottom + 68, 10:390] = 0  # a window's edge a cell's height under the board
    assert len(find_block_boards(picture)) == 1


# a tile in every row and every column, each beside an empty cell or a tile of another colour: the
# tiles alone outline squares on an even 4x4 lattice, with no gap between them
EVERY_LINE = [[2, 0, 0, 0], [0, 0, 4, 8], [0, 16, 0, 0], [4, 0, 8, 32]]
# three columns of tiles outlined, the fourth all empty: a 4x3 lattice of squares
THREE_COLUMNS = [[0, 2, 0, 0], [4, 2, 0, 0], [2, 4, 0, 0], [16, 8, 2, 0]]


@pytest.mark.parametrize("board", [EVERY_LINE, THREE_COLUMNS], ids=["tiles-in-every-line", "three-columns"])
@pytest.mark.parametrize("given_search", [False, True], ids=["own-search", "search-given"])
def test_blocks_that_outline_squares_are_calibrated_as_blocks_and_read_exactly(board, given_search):
    from screenbot.calibration.lattice import find_lattices

    frame = Frame(blocks_picture(board))
    profile = calibrate(frame, search=find_lattices(frame.pixels) if given_search else None)
    assert profile.kind == "blocks"
    reading = read_board(frame, profile)
    assert reading.state == BoardState.PLAYING
    assert [list(r) for r in reading.grid] == board


OUTLINED = Path(__file__).resolve().parents[1] / "fixtures" / "blocks_outlined"


@pytest.mark.parametrize("name", sorted(p.stem for p in OUTLINED.glob("*.png")))
def test_real_blocks_that_outline_squares_are_calibrated_as_blocks_and_read_exactly(name):
    """Screens of a real terminal game (labelled by eye) whose tiles outline an even lattice of
    squares: calibrated as calibrate and play do, each alone, and read exactly."""
    from screenbot.calibration.lattice import find_lattices
    from screenbot.imaging import read_image

    frame = Frame(read_image(OUTLINED / f"{name}.png"))
    label = json.loads((OUTLINED / f"{name}.json").read_text())
    for search in (None, find_lattices(frame.pixels)):
        profile = calibrate(frame, search=search)
        assert profile.kind == "blocks"
        reading = read_board(frame, profile)
        assert reading.state == BoardState.PLAYING
        assert [list(r) for r in reading.grid] == label["board"]


JUST_BEGUN = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 4, 2, 0]]


def test_a_board_just_begun_with_bare_empty_cells_is_found_by_reading_its_tiles():
    frame = Frame(blocks_picture(JUST_BEGUN, empty_mark=""))
    assert find_block_boards(frame.pixels) == []  # the structure alone leaves a doubt
    profile = calibrate(frame)
    assert profile.kind == "blocks"
    reading = read_board(frame, profile)
    assert reading.state == BoardState.PLAYING
    assert [list(r) for r in reading.grid] == JUST_BEGUN


@pytest.mark.parametrize("texts", [{4: "OK", 2: "No"}, {4: "12", 2: "7"}], ids=["words", "numbers-no-tile-has"])
def test_a_panel_of_two_labelled_blocks_is_no_board(texts):
    """Two buttons side by side on a panel that happen to sit on a 4x4 lattice: their labels read as no
    2048 tiles, so the doubt stays and nothing is calibrated."""
    frame = Frame(blocks_picture(JUST_BEGUN, empty_mark="", texts=texts))
    with pytest.raises(NoBoardError):
        calibrate(frame)


FAMILIES = Path(__file__).resolve().parents[1] / "fixtures" / "families"


@pytest.mark.parametrize("png", sorted((FAMILIES / "blocks24_small").glob("*.png")) + sorted((FAMILIES / "blocks24").glob("*.png")),
                         ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_blocks_in_the_web_games_colours_are_blocks_on_any_frame(png):
    """Blocks that touch, in the web game's palette (a terminal game's 24-bit colours): calibrated on any
    one of its frames, never as the web game's look (whose cells stand apart), and never seen through
    a game-over wash."""
    from screenbot.imaging import read_image

    profile = calibrate(Frame(read_image(png)))
    assert (profile.kind, profile.theme, profile.overlay_at_calibration) == ("blocks", "learned", None)
