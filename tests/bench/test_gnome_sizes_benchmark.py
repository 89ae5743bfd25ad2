"""benchmarks/gnome_sizes.py without a display: sizes parsed, and the table's rows for a played and a failed size."""

import argparse

import pytest

from benchmarks.gnome_sizes import COLUMNS, markdown_page, parse_size, table_cells

PLAYED = {"size": "4x6", "profile_shape": [4, 6], "profile_kind": "tiles", "calibrate_s": 0.61, "moves": 300,
          "reason": "played --max-moves 300", "score": 3120, "max_tile": 256, "moves_per_s": 3.05,
          "limit": {"moves_per_s": 3.6, "settle_ms_median": 277.0, "board_moves_per_s": 3.6,
                    "board_settle_ms_median": 277.0, "settle_ms": [277.0] * 20, "keys_asked": 20},
          "rule_breaks": 0, "ended_as_saved": True}
FAILED = {"size": "5x5", "error": {"stage": "play", "text": "TargetError: gnome2048: dbus-run-session exited with 1"}}


def test_a_size_is_rows_by_columns():
    assert parse_size("4x6") == (4, 6) and parse_size("3X3") == (3, 3)
    with pytest.raises(argparse.ArgumentTypeError):
        parse_size("4x")


def test_a_played_size_shows_its_moves_speed_limit_and_judges():
    cells = table_cells(PLAYED)
    assert len(cells) == len(COLUMNS)
    assert cells[:4] == ["4x6", "4x6 (tiles)", "300", "played --max-moves 300"]
    assert cells[5:9] == ["3.05", "3.6 (277 ms); board 3.6 (277 ms)", "0", "yes"]
    assert table_cells({**PLAYED, "ended_as_saved": False})[8] == "NO"


def test_a_size_that_failed_says_where_and_why():
    cells = table_cells(FAILED)
    assert len(cells) == len(COLUMNS)
    assert cells[1].startswith("no (") and cells[3] == "play: TargetError: gnome2048: dbus-run-session exited with 1"
    page = markdown_page([PLAYED, FAILED], "2026-11-26", "python -m benchmarks.gnome_sizes", "abc1234")
    assert "`python -m benchmarks.gnome_sizes`" in page and page.count("\n| ") == 3
