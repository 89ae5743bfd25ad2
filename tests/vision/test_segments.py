"""Segment digits (seven-segment line art, block fonts) read by their strokes; printed digits never."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from screenbot.segments import read_segment_number

# which of the seven places each digit lights (a top, b upper right, c lower right, d bottom,
# e lower left, f upper left, g middle)
LIT = {0: "abcdef", 1: "bc", 2: "abdeg", 3: "abcdg", 4: "bcfg", 5: "acdfg", 6: "acdefg", 7: "abc", 8: "abcdefg",
       9: "abcdfg"}


def line_art(number: int, h: int = 50, w: int = 26, stroke: int = 2, space: int = 10) -> np.ndarray:
    """A number drawn as seven-segment line art (a terminal's box-drawing digits)."""
    out = np.zeros((h + 8, len(str(number)) * (w + space) + 8), bool)
    for k, ch in enumerate(str(number)):
        x0, y0 = 4 + k * (w + space), 4
        mid = y0 + h // 2
        bars = {"a": (y0, x0, x0 + w), "g": (mid, x0, x0 + w), "d": (y0 + h - stroke, x0, x0 + w)}
        sides = {"f": (x0, y0, mid), "b": (x0 + w - stroke, y0, mid), "e": (x0, mid, y0 + h),
                 "c": (x0 + w - stroke, mid, y0 + h)}
        for place in LIT[int(ch)]:
            if place in bars:
                y, a, b = bars[place]
                out[y : y + stroke, a:b] = True
            else:
                x, a, b = sides[place]
                out[a:b, x : x + stroke] = True
    return out


def block_font(number: int, unit: int = 11, touching: bool = False) -> np.ndarray:
    """A number in a 3x5 block font, each block `unit` px wide and 2 * unit tall (a terminal cell);
    a "1" is one block wide. `touching`: no column between the digits."""
    glyphs = {0: ["###", "#.#", "#.#", "#.#", "###"], 1: ["#", "#", "#", "#", "#"],
              2: ["###", "..#", "###", "#..", "###"], 3: ["###", "..#", "###", "..#", "###"],
              4: ["#.#", "#.#", "###", "..#", "..#"], 5: ["###", "#..", "###", "..#", "###"],
              6: ["###", "#..", "###", "#.#", "###"], 8: ["###", "#.#", "###", "#.#", "###"],
              9: ["###", "#.#", "###", "..#", "###"]}
    rows = [""] * 5
    for k, ch in enumerate(str(number)):
        for r in range(5):
            rows[r] += ("" if touching or k == 0 else ".") + glyphs[int(ch)][r]
    small = np.array([[c == "#" for c in row] for row in rows])
    big = np.kron(small, np.ones((2 * unit, unit), bool))
    return np.pad(big, 5)


@pytest.mark.parametrize("number", [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192])
def test_line_art_numbers_are_read(number):
    assert read_segment_number(line_art(number)) == number


@pytest.mark.parametrize("number", [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096])
def test_block_font_numbers_are_read_with_or_without_a_column_between_digits(number):
    assert read_segment_number(block_font(number)) == number
    if "1" not in str(number):  # a "1" is narrower than the others: equal parts cannot find it
        assert read_segment_number(block_font(number, touching=True)) == number


@pytest.mark.parametrize("number", [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048])
@pytest.mark.parametrize("font", [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX])
def test_printed_numbers_are_never_read_as_another_number(number, font):
    canvas = np.zeros((120, 400), np.uint8)
    cv2.putText(canvas, str(number), (10, 90), font, 2.5, 255, 5, cv2.LINE_AA)
    assert read_segment_number(canvas > 127) in (None, number)


def test_a_digit_with_a_half_marked_place_or_a_filled_counter_is_no_digit():
    half = line_art(8)
    half[4 + 10 : 4 + 15, 4:6] = False  # half the upper left side's place (rows 10-20 of 50) gone
    assert read_segment_number(half) is None
    filled = block_font(8)
    filled[5 + 22 : 5 + 44, 5 + 11 : 5 + 22] = True  # the upper counter filled: a solid block
    assert read_segment_number(filled) is None
    assert read_segment_number(np.zeros((40, 40), bool)) is None
