"""What is written on filled blocks (tiles drawn as a background colour, their digits on them) among a text
board's words: the digits' height, and where across each block its number stands."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from screenbot.imaging import MIN_GLYPH_PX, Word, commonest_colour, glyph_mask


def _block_marks(pixels: np.ndarray, w: Word, most: float = 0.6) -> list[tuple[int, int, int, int]]:
    """The marks written on a filled block (the digits on a tile drawn as a block), at most `most` of its
    height: x, y, width, height of each, in the block's coordinates."""
    block = pixels[w.y0:w.y1, w.x0:w.x1]
    mask = glyph_mask(block, commonest_colour(block)).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return [tuple(int(v) for v in stats[i, :4]) for i in range(1, n)
            if MIN_GLYPH_PX <= stats[i, 3] <= most * (w.y1 - w.y0)
            and stats[i, 0] > 0 and stats[i, 1] > 0 and stats[i, 0] + stats[i, 2] < w.x1 - w.x0
            and stats[i, 1] + stats[i, 3] < w.y1 - w.y0]  # the block's own rim is no digit


def block_digit_heights(pixels: np.ndarray, words: list[Word]) -> list[float]:
    """The heights of the marks written on filled blocks (the digits on tiles drawn as blocks): what
    their text size is where nothing is written on the background."""
    return [float(max(h for _x, _y, _w, h in marks)) for w in words if w.solid and (marks := _block_marks(pixels, w))]


def with_written(pixels: np.ndarray, words: list[Word]) -> list[Word]:
    """The words, each filled block with one number on it knowing where across it that is written (a block
    a text line tall holds digits nearly as tall as itself). A block with more on it (many tiles that
    touch, taken for one block) is left as it is."""
    out = []
    for w in words:
        marks = sorted(_block_marks(pixels, w, 0.9)) if w.solid else []
        tall = max((h for _x, _y, _w, h in marks), default=0)
        one_line = all(min(y + h, b[1] + b[3]) - max(y, b[1]) >= 0.5 * min(h, b[3])
                       for x, y, _w, h in marks for b in marks)
        together = all(b[0] - (a[0] + a[2]) <= tall for a, b in zip(marks, marks[1:]))
        if marks and one_line and together:
            w = replace(w, written=(w.x0 + marks[0][0], w.x0 + max(x + mw for x, _y, mw, _h in marks)))
        out.append(w)
    return out
