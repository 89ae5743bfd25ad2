"""Debian's 2048 programs run as targets: real programs on a fresh Xvfb, real X keys, a window that
changes and then stands still after each key; gnome-2048's saved game shows what the keys did."""

from __future__ import annotations

import time

import pytest

from corpus_debian import PROGRAMS, TARGETS, Gnome2048, parse_saved
from target_processes import TargetError
from target_runs import on_fresh_display, press_seeded

KEYS = 20


def _power_of_two_or_zero(value: int) -> bool:
    return value == 0 or (value >= 2 and value & (value - 1) == 0)


@pytest.mark.live
@pytest.mark.parametrize("name", sorted(TARGETS))
def test_debian_target_starts_and_its_window_answers_keys(name):
    started = time.monotonic()
    with on_fresh_display(TARGETS[name]) as target:  # and no process is left after it
        assert target.has_truth is False and target.history() == []
        with pytest.raises(TargetError):
            target.board()
        x, y, w, h = target.window_rect()
        assert 300 <= w <= 1280 and 300 <= h <= 800 and 0 <= x and x + w <= 1280 and y + h <= 800, (x, y, w, h)
        first = target.grab()
        # each press must return once the window stands still, naming its move
        records = press_seeded(target, KEYS, name)
        moved = [r for r in records if r["changed"]]
        assert len(moved) >= KEYS // 4, records  # random keys on a fresh board mostly move something
        assert all(0 < r["settle_s"] < 3 for r in moved)
        assert target.grab() != first
        if isinstance(target, Gnome2048):
            saved = target.quit_and_read_saved()
            assert (saved.rows, saved.cols) == (4, 4) and len(saved.board) == 4
            values = [v for row in saved.board for v in row]
            assert all(_power_of_two_or_zero(v) for v in values), saved.board
            assert sum(v != 0 for v in values) >= 2
            # it spawns only 2s (two at the start, one per move that changed the board), so the
            # tiles add up to 4 + 2 per key that changed the window, and a tile v scored v*(log2 v - 1)
            assert sum(values) == 4 + 2 * len(moved), (saved.board, len(moved))
            assert saved.score == sum(v * (v.bit_length() - 2) for v in values if v)
    assert time.monotonic() - started < 90


@pytest.mark.live
@pytest.mark.parametrize("rows, cols", [(3, 3), (5, 5), (3, 5)])
def test_gnome2048_starts_at_the_size_asked(rows, cols):
    with on_fresh_display(Gnome2048, rows=rows, cols=cols) as target:  # and no process is left after it
        records = press_seeded(target, 4, f"{rows}x{cols}")
        saved = target.quit_and_read_saved()
    assert (saved.rows, saved.cols) == (rows, cols)
    assert len(saved.board) == rows and all(len(row) == cols for row in saved.board)
    assert sum(v for row in saved.board for v in row) == 4 + 2 * sum(r["changed"] for r in records)


@pytest.mark.live
def test_gnome2048_quits_and_saves_from_its_game_over_dialogs():
    with on_fresh_display(Gnome2048, rows=3, cols=3) as target:
        target.focus()
        target.watch = target.board_area  # the game-over dialogs lie over the board's middle
        for _ in range(300):  # a 3x3 board fills within a few dozen moves
            if not any(target.press(move)["changed"] for move in ("down", "left", "right", "up")):
                break
        else:
            pytest.fail("no game over within 300 rounds of keys")
        time.sleep(1)
        saved = target.quit_and_read_saved()
    board = saved.board
    assert all(v for row in board for v in row), board
    assert all(board[r][c] != board[r][c + 1] for r in range(3) for c in range(2)), board
    assert all(board[r][c] != board[r + 1][c] for r in range(2) for c in range(3)), board


def test_gnome2048_saved_file_is_parsed():
    saved = parse_saved("3 5\n2 0 0 0 4\n0 0 8 0 0\n0 0 0 0 2\n24\n")
    assert (saved.rows, saved.cols, saved.score) == (3, 5, 24)
    assert saved.board == [[2, 0, 0, 0, 4], [0, 0, 8, 0, 0], [0, 0, 0, 0, 2]]
    with pytest.raises(TargetError):
        parse_saved("4 4\n2 0 0 0\n0 0 0 0\n8\n")


def test_gnome2048_refuses_a_size_it_cannot_take():
    with pytest.raises(ValueError):
        Gnome2048(":0", rows=0, cols=4)
    with pytest.raises(ValueError):
        Gnome2048(":0", rows=4, cols=10)


def test_every_debian_target_is_described():
    assert set(PROGRAMS) == set(TARGETS) == {"debian2048", "qt2048", "gnome2048"}
    assert all(not cls.has_truth for cls in TARGETS.values())
