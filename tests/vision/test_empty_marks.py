"""Where an empty cell's mark stands against the numbers beside it (text_lattice._mark_offset): a dot ends on
the digits' baseline, an underscore below it; small print under a line of big digits is no mark."""

from __future__ import annotations

from screenbot.calibration.text_lattice import _mark_offset
from screenbot.imaging import Word

H = 17  # the digits' height


def digit(x: int, base: int) -> Word:
    return Word(x, base - H, x + 10, base, H)


def mark(x: int, y0: int, y1: int, width: int = 12) -> Word:
    return Word(x, y0, x + width, y1, y1 - y0)


def test_underscores_beside_digits_end_below_their_baseline_by_a_learned_offset():
    words = [digit(0, 51), mark(60, 56, 57), mark(120, 56, 57), digit(180, 105), mark(60, 110, 111)]
    assert _mark_offset(words, H) == 6


def test_dots_end_on_the_baseline_and_need_no_offset():
    words = [digit(0, 51), mark(60, 48, 51, 3), mark(120, 48, 51, 3), digit(0, 105), mark(60, 102, 105, 3)]
    assert _mark_offset(words, H) == 0


def test_one_mark_alone_teaches_nothing():
    assert _mark_offset([digit(0, 51), mark(60, 56, 57), digit(0, 105)], H) == 0


def test_small_print_under_big_digits_is_no_mark():
    # a version line under a logo of digits: words wider than a character, however close below
    words = [digit(0, 51), mark(0, 54, 60, width=80), mark(90, 54, 60, width=40), mark(140, 54, 60, width=25)]
    assert _mark_offset(words, H) == 0


def test_a_mark_farther_below_than_a_descender_belongs_to_no_line_of_digits():
    words = [digit(0, 51), mark(60, 62, 63), mark(120, 62, 63)]  # 12 px below: past half a digit
    assert _mark_offset(words, H) == 0
