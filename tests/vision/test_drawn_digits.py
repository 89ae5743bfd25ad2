"""Numbers drawn in a block font (a terminal's inverse-video cells, a game's own pixel font) are writing,
not filled blocks: their digits join into one word, where a tile's filled block stays a block."""

from __future__ import annotations

import numpy as np
import pytest

from screenbot.imaging import glyph_mask, words_of
from screenbot.segments import read_segment_number

# a 3x5 block font: each row of a digit, its three places marked (#) or not
FONT = {
    "0": ["###", "#.#", "#.#", "#.#", "###"],
    "1": [".#.", ".#.", ".#.", ".#.", ".#."],
    "2": ["###", "..#", "###", "#..", "###"],
    "4": ["#.#", "#.#", "###", "..#", "..#"],
    "5": ["###", "#..", "###", "..#", "###"],
    "6": ["###", "#..", "###", "#.#", "###"],
    "8": ["###", "#.#", "###", "#.#", "###"],
}
UNIT_W, UNIT_H, SPACE = 16, 15, 8  # a mark is two terminal cells wide and one line tall; a cell between digits
WHITE, BLUE = (255, 255, 255), (238, 0, 0)


def drawn(number: str, x: int, y: int, picture: np.ndarray, colour=BLUE) -> None:
    """Draw `number` at (x, y) in the block font."""
    for ch in number:
        for r, row in enumerate(FONT[ch]):
            for c, mark in enumerate(row):
                if mark == "#":
                    picture[y + r * UNIT_H:y + (r + 1) * UNIT_H, x + c * UNIT_W:x + (c + 1) * UNIT_W] = colour
        x += 3 * UNIT_W + SPACE


def page(w: int = 600, h: int = 200) -> np.ndarray:
    picture = np.empty((h, w, 3), np.uint8)
    picture[:] = WHITE
    return picture


@pytest.mark.parametrize("number", ["512", "16", "2048", "8"])
def test_a_number_in_a_block_font_is_one_word_of_writing(number):
    picture = page()
    drawn(number, 40, 50, picture)
    inked = np.nonzero(glyph_mask(picture, WHITE).any(axis=0))[0]
    words = [w for w in words_of(glyph_mask(picture, WHITE)) if w.tall >= 20]
    assert [(w.x0, w.x1, w.solid) for w in words] == [(inked[0], inked[-1] + 1, False)]
    assert read_segment_number(glyph_mask(picture, WHITE).astype(bool)) == int(number)


def test_a_filled_block_with_writing_on_it_stays_a_block():
    picture = page()
    picture[40:140, 40:140] = (100, 180, 240)  # a tile, its number written in the page's colour
    drawn("2", 66, 52, picture, colour=WHITE)
    words = [w for w in words_of(glyph_mask(picture, WHITE)) if w.tall >= 20]
    assert len(words) == 1 and words[0].solid
    tall = page()
    tall[40:150, 300:380] = (100, 180, 240)  # a block taller than wide, with nothing written on it
    assert [w.solid for w in words_of(glyph_mask(tall, WHITE)) if w.tall >= 20] == [True]


def test_ruled_lines_are_taken_out_of_each_picture_of_its_own_even_when_the_size_repeats():
    from screenbot import imaging

    first = np.zeros((60, 200), np.uint8)
    first[20:22, 10:190] = 1  # a ruled line
    first[30:45, 50:58] = 1  # a digit's stroke
    moved = np.zeros_like(first)
    moved[40:42, 10:190] = 1  # the line elsewhere, and writing where the first line was
    moved[15:25, 60:68] = 1
    alone = {}
    for name, mask in (("first", first), ("moved", moved)):
        imaging._RUNS_SEEN.clear()
        alone[name] = imaging.without_lines(mask)
    assert alone["first"][20:22, 20:180].sum() == 0 and alone["first"][30:45, 50:58].all()
    assert alone["moved"][40:42, 20:180].sum() == 0 and alone["moved"][15:25, 60:68].all()
    imaging._RUNS_SEEN.clear()
    for name in ("first", "first", "moved", "first", "moved"):  # one after another, as play reads frames
        mask = first.copy() if name == "first" else moved.copy()
        assert (imaging.without_lines(mask) == alone[name]).all()
