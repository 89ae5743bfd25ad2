"""A profile saved for one board size used on a board of another (the practice page's recorded frames,
tests/fixtures/sizes/): `read` and `hint` say so in one line, keep the frame where the line says, exit
non-zero and never print a board; a profile used on boards of its own size is never refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from screenbot.board_source import find_board, open_session
from screenbot.calibration import calibrate
from screenbot.calibration.errors import OtherSizeError
from screenbot.calibration.size_check import size_seen
from screenbot.cli import main
from screenbot.control.screen import Frame
from screenbot.imaging import read_image, write_image
from screenbot.vision import read_board

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SIZES = FIXTURES / "sizes"
# A 4x4 practice page at 100 % zoom: its board is 500 px, as the classic look's boards of every size.
CLASSIC_4X4 = FIXTURES / "screens" / "classic_z100_s1_p0__00_static.png"
LINE = re.compile(r"^screenbot: error: the saved profile is for a (\d)x(\d) board; the board in the picture looks "
                  r"(\d)x(\d): run `screenbot calibrate` again \(the picture is kept at (.+\.png)\)$")


def frame_of(name: str) -> Frame:
    return Frame(read_image(SIZES / f"{name}.png"))


def saved_profile(frame: Frame, path: Path, shift: tuple[int, int] = (0, 0)) -> Path:
    return calibrate(frame).shifted(*shift).save(path)


def the_one_line(err: str) -> re.Match:
    lines = [line for line in err.strip().splitlines() if line]
    assert len(lines) == 1, err
    found = LINE.match(lines[0])
    assert found is not None, lines[0]
    assert Path(found[5]).is_file()  # the frame is kept where the line says
    return found


PAIRS = [  # (profile's frame, frame read): same look, other sizes, both ways
    ("classic_3x3__01_played", "classic_5x5__01_played"),
    ("classic_5x5__01_played", "classic_3x3__01_played"),
    ("classic_5x5__01_played", "classic_8x8__01_played"),
    ("classic_8x8__01_played", "classic_4x6__01_played"),
    ("classic_4x6__01_played", "classic_5x5__02_large"),
    ("lines_3x3__00_played", "lines_5x5__00_played"),
    ("lines_8x8__00_played", "lines_4x6__00_played"),
    ("terminal_3x3__00_played", "terminal_5x5__00_played"),  # the 3x3 profile reads a corner of it as a board
    ("terminal_5x5__00_played", "terminal_8x8__00_played"),
]


@pytest.mark.parametrize("kept, shown", PAIRS)
def test_read_says_the_profile_is_for_another_size(kept, shown, tmp_path, capsys):
    profile = saved_profile(frame_of(kept), tmp_path / "p.json")
    code = main(["read", "--image", str(SIZES / f"{shown}.png"), "--profile", str(profile)])
    out, err = capsys.readouterr()
    assert code == 3 and out == ""  # no board printed
    found = the_one_line(err)
    assert (found[1], found[2]) == tuple(kept.split("_")[1].split("x"))
    assert (found[3], found[4]) == tuple(shown.split("_")[1].split("x"))


def test_hint_says_it_too_and_advises_nothing(tmp_path, capsys):
    profile = saved_profile(frame_of("classic_5x5__01_played"), tmp_path / "p.json")
    code = main(["hint", "--image", str(SIZES / "classic_3x3__01_played.png"), "--profile", str(profile)])
    out, err = capsys.readouterr()
    assert code == 3 and "best move" not in out
    assert the_one_line(err).group(1, 2, 3, 4) == ("5", "5", "3", "3")


def test_a_4x4_profile_on_a_5x5_board_in_the_same_place(tmp_path, capsys):
    """The practice page restarted at 5x5 keeps its board's place and outer size: only the lattice
    changed."""
    four = calibrate(Frame(read_image(CLASSIC_4X4)))
    five = calibrate(frame_of("classic_5x5__01_played"))
    dx, dy = five.board_rect.x - four.board_rect.x, five.board_rect.y - four.board_rect.y
    profile = four.shifted(dx, dy).save(tmp_path / "p.json")
    assert abs(four.board_rect.w - five.board_rect.w) <= 2  # the same board, other cells
    code = main(["read", "--image", str(SIZES / "classic_5x5__01_played.png"), "--profile", str(profile)])
    out, err = capsys.readouterr()
    assert code == 3 and out == ""
    assert the_one_line(err).group(1, 2, 3, 4) == ("4", "4", "5", "5")


def test_a_board_drawn_in_fixed_cells_that_shrank(tmp_path):
    """A terminal's board keeps its cells' size: a 5x5 profile over a 3x3 board on the same page sees the
    3x3 board's cells and empty page, which it would read as a 5x5 board with empty cells."""
    small = read_image(SIZES / "terminal_3x3__00_played.png")
    page = np.zeros((700, 700, 3), np.uint8)
    page[:small.shape[0], :small.shape[1]] = small
    picture = write_image(tmp_path / "shrunk.png", page)
    profile = calibrate(frame_of("terminal_5x5__00_played"))
    assert size_seen(Frame(page), profile) == (3, 3)
    with pytest.raises(OtherSizeError, match=r"the profile is for a 5x5 board; the board in the picture looks 3x3"):
        open_session(picture, profile)


SAME_SIZE = [  # (profile's frame, frames of its size)
    ("classic_5x5__00_opening", ["classic_5x5__01_played", "classic_5x5__02_large"]),
    ("classic_8x8__02_large", ["classic_8x8__00_opening", "classic_8x8__01_played"]),
    ("lines_4x6__00_played", ["lines_4x6__01_large"]),
    ("terminal_5x5__00_played", ["terminal_5x5__00_played"]),
]


@pytest.mark.parametrize("kept, shown", SAME_SIZE)
def test_a_profile_of_the_boards_size_reads_it(kept, shown):
    profile = calibrate(frame_of(kept))
    for name in shown:
        assert size_seen(frame_of(name), profile) is None
        with open_session(SIZES / f"{name}.png", profile) as session:
            assert session.profile is profile and session.read().grid is not None


def test_part_of_a_board_seen_is_no_other_size():
    """The squares of this 4x4 board's first column are broken up by the rings drawn on its tiles, and its
    tiles are of values no other column shows: the three other columns alone read as a 4x3 board, which
    calibration grows by the column of cells beside it because the whole reads too. The profile calibrated
    on another frame of the game is for this board as well."""
    family = FIXTURES / "families" / "tk_noframe"
    profile = calibrate(Frame(read_image(family / "still020.png")))
    assert profile.shape == (4, 4)
    frame = Frame(read_image(family / "still020.png"))
    assert [list(row) for row in read_board(frame, profile).grid] == json.loads(
        (family / "still020.json").read_text())["board"]
    # read once, with nothing learned before: the same board
    assert [list(row) for row in read_board(frame, find_board(frame)).grid] == json.loads(
        (family / "still020.json").read_text())["board"]
    earlier = calibrate(Frame(read_image(family / "still000.png")))
    assert earlier.shape == (4, 4) and size_seen(frame, earlier) is None
