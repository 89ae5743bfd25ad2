"""benchmarks/targets.py and target_limits.py without a display: a game's limit from grab times, a key
watched on a virtual clock, the key set a program takes, and the table's rows for played and failed programs."""

import argparse
import time

import numpy as np
import pytest

from benchmarks.target_limits import KeyWatch, Limit, change_box, limit_moves_per_s, move_order, settle_ms, watch_key
from benchmarks.targets import (COLUMNS, key_set, markdown_page, markdown_table, rule_breaks,
                                table_cells, truth_as_far_as)


B = (0, 0, 10, 10)  # a box of changed pixels (x0, y0, x1, y1)


def test_settle_time_is_the_last_change_once_the_window_stood_still():
    # key at 10.0 s; changes at +5, +20 and +120 ms, then unchanged until +400 ms
    frames = [(10.005, B), (10.010, None), (10.020, B), (10.060, None), (10.120, B), (10.200, None), (10.400, None)]
    assert settle_ms(10.0, frames, still_s=0.2) == pytest.approx(120.0)
    # not yet still long enough after the last change
    assert settle_ms(10.0, frames[:-1], still_s=0.2) is None
    # the key changed nothing
    assert settle_ms(10.0, [(10.005, None), (11.0, None)], still_s=0.2) is None


def test_the_board_settles_at_the_last_change_that_touched_it():
    board = (0, 100, 400, 400)  # x, y, w, h in the grabs' pixels; the score sits above it
    score = (300, 10, 380, 60)
    frames = [(0.010, (20, 120, 390, 480)), (0.110, (20, 120, 390, 480)), (0.300, score), (0.600, score),
              (0.800, None), (0.900, None)]
    assert settle_ms(0.0, frames, 0.2) == pytest.approx(600.0)
    assert settle_ms(0.0, frames, 0.2, inside=board) == pytest.approx(110.0)
    # the board is judged only once the whole window stood still
    assert settle_ms(0.0, frames[:4], 0.2, inside=board) is None


def test_a_change_box_bounds_the_pixels_that_differ():
    before = np.zeros((30, 40, 4), np.uint8)
    after = before.copy()
    assert change_box(before, after) is None
    after[5, 7, 2] = 1
    after[12, 30, 0] = 255
    assert change_box(before, after) == (7, 5, 31, 13)


def test_limit_is_a_thousand_over_the_median_settle_time():
    assert limit_moves_per_s([100.0, 200.0, 250.0]) == 5.0
    assert limit_moves_per_s([220.0, 570.0, 575.0, 221.0]) == pytest.approx(1000 / 395.5, abs=0.01)
    assert limit_moves_per_s([]) is None


def test_the_limits_figures_for_the_window_and_for_the_board_on_the_screen():
    # the window's region starts at (100, 50) on the screen; each key moves tiles for 100 ms, then the
    # score (window pixels y < 60) changes until 500 ms
    keys = [KeyWatch(t, [(t + 0.1, (10, 80, 200, 200)), (t + 0.5, (10, 10, 80, 40)), (t + 0.8, None)])
            for t in (1.0, 2.0, 3.0)]
    limit = Limit(keys, region=(100, 50, 400, 400), xdotool_ms=[15.0, 17.0], keys_sent=3)
    assert limit.settles() == [500.0] * 3
    figures = limit.figures(board=(100, 50 + 70, 400, 330))
    assert figures["moves_per_s"] == 2.0 and figures["settle_ms_median"] == 500.0
    assert figures["board_moves_per_s"] == 10.0 and figures["board_settle_ms"] == [100.0] * 3
    assert figures["xdotool_ms_median"] == 16.0
    assert "board_moves_per_s" not in limit.figures()


def test_a_watched_key_is_timed_from_the_key_to_the_window_standing_still():
    now = [0.0]

    def clock():
        return now[0]

    def sleep(s):
        time.sleep(0.0005)  # a real pause: the thread sending the key gets its turn
        now[0] += max(s, 0.001)

    def grab():  # the window draws three times, 30, 60 and 90 ms after the key (sent at t = 1.0)
        drawn = 0 if now[0] < 1.0 else min(int((now[0] - 1.0) / 0.03), 3)
        return np.full((4, 4, 4), drawn, np.uint8)

    now[0] = 1.0
    sent = []
    key_t, frames, _ = watch_key(grab, lambda: sent.append(clock()), still_s=0.2, clock=clock, sleep=sleep)
    assert sent and key_t == 1.0
    assert frames[-1][0] - key_t >= 0.29  # watched on until 200 ms of stillness after the last draw
    assert settle_ms(key_t, frames, 0.2) == pytest.approx(90.0, abs=6.0)


def test_a_key_that_changes_nothing_is_given_up_after_the_change_timeout():
    now = [0.0]

    def sleep(s):
        time.sleep(0.0005)
        now[0] += max(s, 0.001)

    key_t, frames, _ = watch_key(lambda: np.zeros((4, 4, 4), np.uint8), lambda: None, still_s=0.2,
                                 clock=lambda: now[0], sleep=sleep)
    assert 0.8 < frames[-1][0] - key_t < 0.9
    assert settle_ms(key_t, frames, 0.2) is None


def test_a_stopped_runs_record_is_cut_after_the_boards_play_believed():
    a, b, c = [[2]], [[4]], [[8]]
    truth = [a, a, b, b, c]  # a key that did nothing repeats a board
    assert truth_as_far_as(truth, 3) == (truth, 0)
    assert truth_as_far_as(truth, 2) == ([a, a, b, b], 1)
    assert truth_as_far_as(truth, 0) == ([], 3)


def test_the_limit_keys_go_down_and_left_by_turns_then_right_then_up():
    assert move_order(0) == ("down", "left", "right", "up")
    assert move_order(1) == ("left", "down", "right", "up")


def test_the_key_set_is_the_one_the_program_takes():
    assert key_set({"up": "Up", "down": "Down", "left": "Left", "right": "Right"}) == "arrows"
    assert key_set({"up": "w", "down": "s", "left": "a", "right": "d"}) == "wasd"
    assert key_set({"up": "w Return", "down": "s Return", "left": "a Return", "right": "d Return"}) == "wasd+enter"
    assert key_set({"up": "8", "down": "2", "left": "4", "right": "6"}) == "arrows"


def test_rule_breaks_come_only_from_a_board_that_does_not_follow():
    assert rule_breaks(True, "played --max-moves 100") == 0
    assert rule_breaks(False, "the board on screen does not follow from the last move: row 1 col 2 shows 4 "
                              "(expected empty); frames saved in /tmp/x") == 1
    assert rule_breaks(False, "the key did not reach the game (the board did not move; did the window lose "
                              "focus?); frames saved in /tmp/x") == 0


PLAYED = {"program": "term2048", "calibrated": True, "profile_kind": "text", "frames": {"right": 7, "total": 7},
          "moves": 100, "moves_per_s": 33.94, "ok": True, "reason": "played --max-moves 100", "misreads": 0,
          "limit": {"moves_per_s": 129.03, "settle_ms_median": 7.75, "settle_ms": [7.0] * 20, "keys_asked": 20}}
NO_RECORD = {"program": "qt2048", "calibrated": True, "profile_kind": "tiles", "frames": None, "moves": 41,
             "moves_per_s": 4.36, "ok": False, "rule_breaks": 1,
             "reason": "the board on screen does not follow from the last move: row 1 col 1 shows 8 (expected 4); "
                       "frames saved in /tmp/stop/1", "limit_error": "TargetError: no window"}
NOT_CALIBRATED = {"program": "py2048cli", "calibrated": False, "frames": {"error": "IndexError: index 0"},
                  "error": {"stage": "calibrate", "text": "NoBoardError: no 2048 board | found"},
                  "limit": {"moves_per_s": 1.64, "settle_ms_median": 609.0, "settle_ms": [609.0] * 18, "keys_asked": 20,
                            "board_moves_per_s": 7.52, "board_settle_ms_median": 133.0}}
NOT_STARTED = {"program": "gnome2048", "calibrated": False, "frames": None,
               "error": {"stage": "start", "text": "TargetError: gnome-2048 is not installed"}}


def test_a_played_program_fills_every_column():
    assert table_cells(PLAYED) == ["term2048", "yes (text)", "7 / 7", "100", "33.94", "129.0 (8 ms)",
                                   "0 misreads", "played --max-moves 100"]


def test_a_program_with_no_record_shows_rule_breaks_and_the_stop_without_its_folder():
    cells = table_cells(NO_RECORD)
    assert cells[2] == "–" and cells[5] == "– (TargetError: no window)"
    assert cells[6] == "1 rule breaks (no record)"
    assert cells[7] == "the board on screen does not follow from the last move: row 1 col 1 shows 8 (expected 4)"


def test_a_program_that_fails_says_where():
    cells = table_cells(NOT_CALIBRATED)
    assert cells[1] == "no: NoBoardError: no 2048 board | found"
    assert cells[2] == "unread: IndexError: index 0"
    assert cells[3:5] == ["–", "–"] and cells[7] == "not played"
    assert cells[5] == "1.6 (609 ms); board 7.5 (133 ms) [18 keys]"
    cells = table_cells(NOT_STARTED)
    assert cells[1] == "– (start failed)" and cells[5] == "–" and cells[6] == "–"
    assert cells[7] == "start: TargetError: gnome-2048 is not installed"


def test_the_markdown_table_has_a_row_per_program_and_escapes_bars():
    table = markdown_table([PLAYED, NO_RECORD, NOT_CALIBRATED, NOT_STARTED])
    lines = table.splitlines()
    assert len(lines) == 2 + 4
    assert all(line.count(" | ") == len(COLUMNS) - 1 for line in lines[:1] + lines[2:4])
    assert "no 2048 board \\| found" in lines[4]
    page = markdown_page([PLAYED], "2026-11-26", "python -m benchmarks.targets --moves 100",
                         argparse.Namespace(limit_keys=20, moves=100, player="plain"))
    assert page.index("2026-11-26, `python -m benchmarks.targets --moves 100`") < page.index("| program |")
