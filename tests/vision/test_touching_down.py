"""Blocks that touch down: a tile drawn as a block right above another (the start board of a terminal game
with its two tiles one on the other, a column of tiles later on). Calibrated on such a start, and read
whatever the column holds: blocks of two colours, of one colour with a number each, numbers written at a
block's bottom right, blocks that touch both ways on the paper (where a lattice of blocks one row up fits the
two tiles too, and does not read). The frames are of random looks (tests/targets/families/any_look.py) recorded by

    PYTHONPATH=. .venv/bin/python tests/targets/families/sweep_looks.py 46,86,95,111,136,140,157 --out tests/fixtures/touching_down --still 0,30,45,60,80 --game-seed 7

with one more of look 111, a 16 at a block's bottom with nothing under it, after the 39 moves of a logged game:

    PYTHONPATH=. .venv/bin/python tests/targets/families/replay_moves.py 111 rdlrlrrrlrllluuuullluuurrrlulrrrlruuuuu --at 39 --out tests/fixtures/touching_down

The pieces that read them are checked on small pictures too."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from screenbot.calibration.block_words import parted_tall
from screenbot.calibration.text_checks import on_blocks
from screenbot.geometry import Rect
from screenbot.imaging import MAX_GLYPH_PX, Word, without_lines, words_of
from screenbot.vision.text import _row_words

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "targets"))
from families.family_frames import read_family_frames  # noqa: E402

ROOT = Path(__file__).resolve().parents[1] / "fixtures" / "touching_down"
LOOKS = sorted(p.name for p in ROOT.iterdir() if p.is_dir())
BLACK, CYAN, MAGENTA, INK = (0, 0, 0), (255, 255, 0), (255, 0, 255), (20, 20, 20)


def test_the_frames_hold_blocks_that_touch_down_of_two_colours_and_of_one():
    assert len(LOOKS) == 7
    for name in LOOKS:
        boards = [json.loads(p.read_text())["board"] for p in sorted((ROOT / name).glob("*.json"))]
        start = min(boards, key=lambda b: sum(v != 0 for row in b for v in row))
        assert sum(v != 0 for row in start for v in row) == 2
        assert any(start[r][c] and start[r + 1][c] and start[r][c] != start[r + 1][c] for r in range(3) for c in range(4))
        assert any(b[r][c] and b[r][c] == b[r + 1][c] for b in boards for r in range(3) for c in range(4))


# frames not read yet, each never a wrong board: (look, frame) -> why
NOT_READ = {
    ("any_look_157", "still080.png"): "blocks a text line tall in columns of touching blocks at the picture's top: "
                                      "a 2 names no tile",
}


@pytest.mark.parametrize("name", LOOKS)
@pytest.mark.parametrize("screen", [None, (1280, 800)], ids=["window", "on-black"])
def test_a_start_with_one_tile_on_another_calibrates_and_every_frame_reads_exactly(name, screen):
    frames = read_family_frames(name, ROOT, screen=screen)
    assert [f for f in frames if f.outcome == "wrong"] == []
    assert sorted(f.name for f in frames if f.outcome != "exact") == sorted(f for n, f in NOT_READ if n == name)


def _digit(pixels: np.ndarray, x: int, y: int) -> None:
    pixels[y:y + 14, x:x + 2] = INK  # a stroke a digit tall
    pixels[y:y + 2, x:x + 8] = INK


def test_a_block_taller_than_a_glyph_is_parted_where_the_colour_changes_and_by_its_numbers():
    pixels = np.zeros((400, 200, 3), np.uint8)
    pixels[20:100, 40:110] = CYAN
    pixels[100:180, 40:110] = MAGENTA  # a 2 on a 4: two colours
    pixels[200:280, 40:110] = CYAN
    pixels[280:360, 40:110] = CYAN  # a 2 on a 2: one colour, a number on each
    for y in (50, 130, 230, 310):
        _digit(pixels, 70, y)
    ink = (pixels.max(axis=2) > 0).astype(np.uint8)
    assert [w for w in words_of(ink) if w.solid] == []  # taller than a glyph: no word, as before
    tall = [w for w in words_of(ink, tall_blocks=True) if w.solid]
    assert [(w.y0, w.y1) for w in tall] == [(20, 180), (200, 360)]
    parts = parted_tall(pixels, tall)
    assert [(w.y0, w.y1, w.tall) for w in parts] == [(20, 100, 80), (100, 180, 80), (200, 280, 80), (280, 360, 80)]
    assert all(w.tall <= MAX_GLYPH_PX for w in parts)


def test_a_tall_block_with_nothing_to_part_it_is_left_out():
    pixels = np.zeros((300, 100, 3), np.uint8)
    pixels[20:280, 20:80] = CYAN  # one colour, one number: a panel, not tiles
    _digit(pixels, 45, 140)
    assert parted_tall(pixels, [Word(20, 20, 80, 280, 260, solid=True)]) == []


def test_a_strip_of_a_block_between_two_digits_is_no_line_but_a_rule_beside_blocks_is():
    pixels = np.zeros((60, 120, 3), np.uint8)
    pixels[5:50, 10:60] = MAGENTA  # a block two text lines tall, "16" written at its bottom right
    pixels[30:44, 40:42] = INK  # the 1
    pixels[30:44, 45:47] = INK  # the 6's back, a strip of the block three pixels wide between them
    pixels[0:60, 78:80] = (200, 200, 200)  # a rule down, a block a little way to its right
    pixels[5:50, 82:110] = CYAN
    ink = (pixels.max(axis=2) > 25).astype(np.uint8)
    kept = without_lines(ink, 40, pixels=pixels)
    assert kept[10:50, 42:45].all()  # the strip stays: the block is one word
    assert not kept[:, 78:80].any()  # the rule goes
    assert not without_lines(ink, 40)[10:30, 42:45].any()  # without the pixels, the strip goes as a line would


def test_a_block_of_the_row_below_reaching_into_a_row_is_no_word_of_it():
    writing = np.zeros((200, 300), np.uint8)
    rows = [Rect(10 + c * 70, 10, 66, 80) for c in range(4)]
    writing[82:180, 150:200] = 1  # a block standing in the next row, its top 8 px inside this one
    writing[40:54, 30:40] = 1  # a number in this row
    assert [w[:4] for w in _row_words(writing, rows)] == [(30, 40, 40, 54)]
    writing[82:180] = 0
    writing[30:95, 150:200] = 1  # a block of this row reaching a little down into the next: its own
    assert [w[:4] for w in _row_words(writing, rows)] == [(30, 40, 40, 54), (150, 30, 200, 90)]


def test_cells_are_centred_on_blocks_as_long_as_a_whole_step():
    # blocks 76 px tall on a 76 px step, 10 px above the bands centred on the numbers
    start = 51.00000000000007
    blocks = [(117, 193), (193, 269)]
    spans = [(82, 94), (158, 170), (117, 193), (234, 246), (193, 269), (310, 322)]
    assert on_blocks(start, 74.0, 76.0, blocks, spans) == pytest.approx(42.0)
    assert on_blocks(start, 74.0, 76.0, blocks, spans + [(112, 124)]) == start  # a word would fall out of its band


def test_a_block_a_text_line_tall_keeps_its_bands_round_its_number_and_an_antialiased_line_goes():
    pixels = np.zeros((60, 200, 3), np.uint8)
    pixels[10:29, 20:120] = CYAN  # a block a text line tall, "256" across most of it
    for x in (45, 62, 79):
        pixels[14:26, x:x + 9] = INK  # three digits: no run of the block 40 px long beside them
    pixels[40, 10:190] = (84, 84, 84)  # a rule drawn over two pixel rows, each its own shade
    pixels[41, 10:190] = (127, 127, 127)
    ink = (pixels.max(axis=2) > 48).astype(np.uint8)
    kept = without_lines(ink, 40, pixels=pixels)
    assert kept[10:14, 20:120].all() and kept[26:29, 20:120].all()  # the block's bands above and below its number
    assert not kept[40:42, 12:188].any()  # the rule goes, both its rows
    assert not without_lines(ink, 40)[10:14, 22:118].any()  # without the pixels, the bands go as lines would
