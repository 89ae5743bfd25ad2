"""Numbers drawn as segment digits: seven-segment line art, or block fonts made of a terminal's cells.

Tesseract reads printed digits; many terminal games draw their numbers instead, out of straight
strokes: a "2" is a top bar, the upper right side, a middle bar, the lower left side and a bottom
bar. Such a digit is read by which of the seven places of a seven-segment digit hold a stroke. A
"1" is one upright stroke, alone in its box (narrow), or down the middle of a box as wide as the
others (with a flag at its top or a foot at its bottom).

Every place must be clearly marked or clearly blank and every digit as tall as the number, else
there is no answer: a printed font's curves and slants leave places half marked, so it is never
read here as something it is not.
"""

from __future__ import annotations

import numpy as np

# The seven places (a top, b upper right, c lower right, d bottom, e lower left, f upper left,
# g middle), each as (row from, row to, column from, column to) in shares of the digit's box
PLACES = {
    "a": (0.0, 0.16, 0.35, 0.65),
    "b": (0.2, 0.4, 0.7, 1.0),
    "c": (0.6, 0.8, 0.7, 1.0),
    "d": (0.84, 1.0, 0.35, 0.65),
    "e": (0.6, 0.8, 0.0, 0.3),
    "f": (0.2, 0.4, 0.0, 0.3),
    "g": (0.4, 0.6, 0.35, 0.65),
}
DIGITS = {
    "abcdef": 0, "abdeg": 2, "abcdg": 3, "bcfg": 4, "acdfg": 5, "acdefg": 6, "cdefg": 6,
    "abc": 7, "abcdefg": 8, "abcdfg": 9, "abcfg": 9,
}
# The rows (shares of the height) of the counters above and below the middle bar, across the middle
HOLES = ((0.22, 0.38), (0.62, 0.78))
MARKED, BLANK = 0.75, 0.15  # share of a place's lines (rows or columns) that cross ink
NARROW = 0.6  # a box at most this share of the widest digit's width holds a "1"
UPRIGHT = 0.85  # a "1"'s stroke covers this share of the digit's height
TALL = 0.85  # every digit of a number spans this share of its height
MIN_HEIGHT = 7  # px: fewer rows cannot show the places apart


def _place(box: np.ndarray, place: str) -> float:
    """The share of a place's lines that cross ink: rows for the upright places, columns for the bars."""
    h, w = box.shape
    r0, r1, c0, c1 = PLACES[place]
    part = box[int(r0 * h) : max(int(r0 * h) + 1, int(np.ceil(r1 * h))), int(c0 * w) : max(int(c0 * w) + 1, int(np.ceil(c1 * w)))]
    lines = part.any(axis=0) if place in "adg" else part.any(axis=1)
    return float(lines.mean())


def _is_one(box: np.ndarray, narrow: bool) -> bool:
    """A "1": one upright stroke the digit's height, in a box narrower than the number's other
    digits, or down the middle of a box as wide as they are with nothing on its sides."""
    h, w = box.shape
    if narrow:
        return bool(box.any(axis=0).all() and box.sum(axis=0).max() >= UPRIGHT * h)
    mid = box[:, int(0.3 * w) : int(np.ceil(0.7 * w))]
    sides_rows = slice(int(0.2 * h), int(np.ceil(0.8 * h)))
    left, right = box[sides_rows, : int(0.25 * w)], box[sides_rows, int(np.ceil(0.75 * w)) :]
    return bool(mid.sum(axis=0).max() >= UPRIGHT * h and not left.any() and not right.any())


def read_digit(box: np.ndarray, narrow: bool = False) -> int | None:
    """The digit drawn in a box cropped to its ink (booleans), or None when it is no segment digit.
    `narrow`: the box is much narrower than the widest digit of its number (a "1" may be)."""
    if box.shape[0] < MIN_HEIGHT:
        return None
    if _is_one(box, narrow):
        return 1
    if narrow:
        return None
    h, w = box.shape
    for r0, r1 in HOLES:  # a segment digit's two counters, between its bars, hold no ink
        if box[int(r0 * h) : int(np.ceil(r1 * h)), int(0.4 * w) : int(np.ceil(0.6 * w))].any():
            return None
    lit = ""
    for place in PLACES:
        share = _place(box, place)
        if share >= MARKED:
            lit += place
        elif share > BLANK:
            return None  # half marked: a curve or a slant, not a segment digit
    return DIGITS.get(lit)


def digit_boxes(mask: np.ndarray) -> list[np.ndarray] | None:
    """The number's digits, each cropped to its ink: split where a column holds no ink. None when a
    digit is not as tall as the number (specks, a word, a picture)."""
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return None
    number = mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    h = number.shape[0]
    boxes = []
    for x, end in true_runs(number.any(axis=0)):
        part = number[:, x:end]
        rows = np.nonzero(part.any(axis=1))[0]
        if rows[-1] - rows[0] + 1 < TALL * h:
            return None
        boxes.append(part[rows[0] : rows[-1] + 1])
    return boxes


def true_runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """(start, end) of each run of True in a 1-D array, end exclusive: the inked columns of a number."""
    edges = np.diff(np.concatenate(([0], np.asarray(flags, np.int8), [0])))
    return list(zip(np.nonzero(edges == 1)[0].tolist(), np.nonzero(edges == -1)[0].tolist()))


def read_segment_number(mask: np.ndarray) -> int | None:
    """The number written as segment digits where `mask` is true (0 for a lone 0: a game's empty cell),
    or None when any digit is unsure or a longer number starts with 0."""
    boxes = digit_boxes(mask)
    if not boxes or len(boxes) > 6:
        return None
    widest = max(box.shape[1] for box in boxes)
    digits: list[int] = []
    for box in boxes:
        read = _read_run(box, box.shape[1] <= NARROW * widest)
        if read is None:
            return None
        digits += read
    if digits[0] == 0 and len(digits) > 1:
        return None
    return int("".join(str(d) for d in digits))


def _read_run(box: np.ndarray, narrow: bool) -> list[int] | None:
    """The digits in one run of ink: one digit, or digits of one width drawn touching (a block font
    leaves no column between them), split into equal parts that each read as a digit."""
    one = read_digit(box, narrow)
    if one is not None:
        return [one]
    h, w = box.shape
    for parts in range(2, 5):
        step = w / parts
        if step < 0.3 * h:
            break
        read = [read_digit(box[:, round(k * step) : round((k + 1) * step)]) for k in range(parts)]
        if all(d is not None and d != 1 for d in read):
            return read  # type: ignore[return-value]
    return None
