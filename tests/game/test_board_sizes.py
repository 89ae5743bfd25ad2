"""Board sizes as typed ("5x5", "4x6": rows first) and boards typed in of any size; bad ones refused in one line."""

import pytest

from screenbot.errors import UsageError
from screenbot.game.rules import Game, parse_board
from screenbot.game.sizes import CLASSIC, check_size, empty_board, format_size, is_supported, parse_size, size_of


@pytest.mark.parametrize("text, size", [("5x5", (5, 5)), ("4x6", (4, 6)), ("6X4", (6, 4)), (" 3 x 8 ", (3, 8)),
                                        ("8×8", (8, 8)), ("3x3", (3, 3))])
def test_parse_size_reads_rows_then_columns(text, size):
    assert parse_size(text) == size
    assert parse_size(format_size(size)) == size


@pytest.mark.parametrize("text", ["2x9", "1x4", "9x9", "abc", "4x2", "0x0", "4", "4x", "x4", "4x4x4", "-4x4", ""])
def test_parse_size_refuses_in_one_line_naming_the_supported_sizes(text):
    with pytest.raises(UsageError) as caught:
        parse_size(text)
    message = str(caught.value)
    assert "3x3 to 8x8" in message and "\n" not in message
    assert text.strip() in message


def test_the_supported_range_is_three_to_eight_each_way():
    supported = {(r, c) for r in range(12) for c in range(12) if is_supported((r, c))}
    assert supported == {(r, c) for r in range(3, 9) for c in range(3, 9)}
    assert CLASSIC == (4, 4) and check_size([4, 6]) == (4, 6)


def test_an_empty_board_has_the_size_asked_for():
    board = empty_board((3, 7))
    assert size_of(board) == (3, 7) and not any(map(any, board))
    with pytest.raises(UsageError, match="a 2x9 board is not supported"):
        empty_board((2, 9))
    with pytest.raises(UsageError, match="a 9x3 board is not supported"):
        Game(size=(9, 3))


@pytest.mark.parametrize(
    "text, rows",
    [
        ("2 0 0 / 0 0 0 / 0 0 0", [[2, 0, 0], [0, 0, 0], [0, 0, 0]]),
        ("2 0 0\n0 4 0\n0 0 8\n", [[2, 0, 0], [0, 4, 0], [0, 0, 8]]),
        ("2 . 4 . 8 / . . . . . / - _ . . 1024 / . . . . . / . . . . 2", None),
        ("2 4 8 16 32 64 / . . . . . . / . . . . . . / . . . . . 2", [[2, 4, 8, 16, 32, 64], [0] * 6, [0] * 6,
                                                                      [0, 0, 0, 0, 0, 2]]),
        ("2,4,8; 0,0,0; 0,0,0; 0,0,0", [[2, 4, 8], [0, 0, 0], [0, 0, 0], [0, 0, 0]]),
        ("2 0 0 0 0 0 0 0 4", [[2, 0, 0], [0, 0, 0], [0, 0, 4]]),  # a square may come in one line
    ],
)
def test_parse_board_reads_any_supported_size(text, rows):
    grid = parse_board(text)
    if rows is not None:
        assert grid == tuple(map(tuple, rows))
    else:
        assert size_of(grid) == (5, 5) and grid[0] == (2, 0, 4, 0, 8) and grid[2] == (0, 0, 0, 0, 1024)


def test_parse_board_reads_the_largest_tile_of_each_size():
    assert parse_board("1024 . . / . . . / . . .")[0][0] == 1024
    assert parse_board(" / ".join(["67108864 . . . ."] + [". . . . ."] * 4))[0][0] == 1 << 26  # 5x5's largest


@pytest.mark.parametrize(
    "text, size, problem",
    [
        ("2 0 / 0 0", None, "a 2x2 board is not supported: boards are 3x3 to 8x8"),
        ("2 0 0 0 0 0 0 0 0 / 0 0 0 0 0 0 0 0 0 / 0 0 0 0 0 0 0 0 0", None, "a 3x9 board is not supported"),
        (" / ".join(["0 0 0"] * 9), None, "a 9x3 board is not supported"),
        ("2 0 0 0", None, "16 cells, got 4"),
        ("2 0 0 / 0 0 / 0 0 0", None, "the same number of cells, got 3, 2, 3"),
        ("2048 0 0 / 0 0 0 / 0 0 0", None, "2048 is larger than a 3x3 board's largest tile, 1024"),
        ("6 0 0 / 0 0 0 / 0 0 0", None, r"6 is not a power of two \(tiles are 2, 4, 8, ... 1024"),
        ("1 0 0 / 0 0 0 / 0 0 0", None, "1 is not a power of two"),
        ("2 0 0 / 0 y 0 / 0 0 0", None, "'y' is not a number"),
        ("2 0 0 / 0 -4 0 / 0 0 0", None, "-4 is negative"),
        ("2 0 0 / 0 0 0 / 0 0 0", (4, 4), "a board here has 4 rows of 4 cells, got 3x3"),
        ("2 0 0 0 0 0 0 0 0", (4, 4), "a board needs 16 cells, got 9"),
        ("", None, "no rows"),
    ],
)
def test_parse_board_refuses_in_one_line(text, size, problem):
    with pytest.raises(ValueError, match=problem) as caught:
        parse_board(text, size)
    assert "\n" not in str(caught.value)


def test_parse_board_keeps_the_classic_reading():
    assert parse_board("2 0 0 4 0 . 0 0 0 0 8 0 0 0 0 131072") == parse_board("2 0 0 4 / 0 . 0 0 / 0 0 8 0 / 0 0 0 131072")
    assert parse_board("2 0 0 4 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", (4, 4))[0] == (2, 0, 0, 4)
    with pytest.raises(ValueError, match="131072"):
        parse_board("262144 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0")
