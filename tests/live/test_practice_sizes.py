"""The practice board at other sizes on the rig (3x3, 5x5, 8x8 and 4x6, rows first): the page's record
has the size, real keys move its tiles by the rules (the seeded engine's very game), and its picture
shows rows x columns cells (a plain OpenCV count, not screenbot's calibration)."""

from __future__ import annotations

import random
import time

import pytest

from screenbot.game.rules import Game, Move, apply_move, empty_cells, to_grid
from screenbot.game.sizes import format_size
from screenbot.practice.rig import Rig

from module_rig import module_rig
from tests.practice.board_cells import lattice

pytestmark = pytest.mark.live

CASES = [("classic", (3, 3)), ("classic", (5, 5)), ("classic", (8, 8)), ("classic", (4, 6)),
         ("terminal", (5, 5)), ("lines", (6, 4))]
KEYS = 24


@pytest.fixture(scope="module")
def sizes_rig():
    """One Chromium for every size (reloaded with new options); every process ended afterwards."""
    yield from module_rig(screen=(1000, 1000), anim=0)


def board_picture(rig: Rig):
    """The board on the screen now, with 6 px of page round it."""
    rect = rig.board_rect()
    return rig.screenshot()[rect.y - 6:rect.y + rect.h + 6, rect.x - 6:rect.x + rect.w + 6]


def assert_follows_rules(start, history, moves, size) -> None:
    """Each board is the one before it slid by its move plus one new 2 or 4 on an empty cell."""
    prev = to_grid(start, size)
    assert len(history) == len(moves)
    for i, (board, move) in enumerate(zip(history, moves)):
        board = to_grid(board, size)
        slid, _ = apply_move(prev, Move.parse(move))
        assert slid != prev, f"move {i} ({move}) changed nothing but was counted"
        new = [(r, c) for r, c in empty_cells(slid) if board[r][c] != 0]
        assert len(new) == 1 and board[new[0][0]][new[0][1]] in (2, 4), f"move {i} ({move}): {board}"
        assert all(board[r][c] == slid[r][c] for r in range(size[0]) for c in range(size[1]) if (r, c) != new[0])
        prev = board


@pytest.mark.parametrize("look, size", CASES, ids=[f"{look}-{format_size(size)}" for look, size in CASES])
def test_a_size_plays_by_the_rules_and_shows_its_cells(sizes_rig, look, size):
    rig = sizes_rig
    rows, cols = size
    seed = 10 * rows + cols
    st = rig.load(theme=look, shape=size, seed=seed)
    time.sleep(0.4)  # no double click with the rig's last click
    rig.focus_page()
    rig.wait_still(still_ms=150)
    assert st["shape"] == [rows, cols] and st["theme"] == look
    assert to_grid(st["board"], size) == Game(seed=seed, size=size).reset()
    assert len(rig.cell_boxes()) == rows * cols and rig.board_fully_visible()
    assert lattice(board_picture(rig)) == size

    rnd = random.Random(seed)
    moves = [rnd.choice(list(Move)) for _ in range(KEYS)]
    rig.press_many(moves, delay_ms=10)
    st = rig.wait_for_keys(KEYS, timeout=10)
    assert st["moves"] >= 6
    assert_follows_rules(st["start"], st["history"], st["history_moves"], size)
    game, engine = Game(seed=seed, size=size), []
    game.reset()
    for move in moves:
        grid, _, changed = game.step(move)
        if changed:
            engine.append(grid)
    assert [to_grid(b, size) for b in st["history"]] == engine and st["score"] == game.score
    rig.wait_still(still_ms=150)
    assert lattice(board_picture(rig)) == size  # with the tiles the moves brought


@pytest.mark.parametrize("look, size", [("classic", (8, 8)), ("lines", (3, 5))], ids=["classic-8x8", "lines-3x5"])
def test_the_board_edges_seen_in_the_picture_are_where_the_page_says(sizes_rig, look, size):
    rig = sizes_rig
    rig.load(theme=look, shape=size, board=[[0] * size[1]] * size[0])
    rig.wait_still(still_ms=150)
    box = rig.board_box()
    measured = rig.measure_board_edges(rig.screenshot())
    expected = [box.x, box.y, box.x + box.w, box.y + box.h]
    assert all(m is not None and abs(m - e) <= 1.0 for m, e in zip(measured, expected)), (measured, expected)


def test_a_new_shape_leaves_the_start_board_of_the_old_one_behind(sizes_rig):
    rig = sizes_rig
    start = [[2, 4, 8], [0, 0, 0], [0, 0, 16]]
    assert rig.load(shape=(3, 3), board=start)["board"] == start
    st = rig.load(shape=(4, 5), seed=9)
    assert st["shape"] == [4, 5] and to_grid(st["board"], (4, 5)) == Game(seed=9, size=(4, 5)).reset()
