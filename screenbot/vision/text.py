"""Reads a board written as text (a terminal 2048): each cell is blank, a dot, or a number in some colour, read by its glyph shape (OCR once per new shape)."""

from __future__ import annotations

import time

import cv2
import numpy as np

from screenbot.board_state import BoardState
from screenbot.calibration.profile import Profile
from screenbot.calibration.text_lattice import clear_share, commonest_colour, glyph_mask, outside_blocks, without_lines, words_of
from screenbot.control.screen import Frame, OutsideFrameError
from screenbot.game.rules import SIZE
from screenbot.vision import ocr
from screenbot.vision.glyphs import match_glyph
from screenbot.vision.reader import Reading, UnreadableTileError

# A cell's marks lower than this share of a digit's height are a dot (or a cursor line): empty.
DOT_SHARE = 0.5
# The board's rectangle is mostly background: below this share it is covered or gone.
BACKGROUND_SHARE = 0.6
# Padding (in digit heights) added around a cell before OCR, so that the digits sit well inside.
PAD = 0.5


def _row_words(writing: np.ndarray, rects):
    """The words written across one row of cells: (x0, y0, x1, y1, tall, solid) in region pixels, from
    a strip reaching half a cell beyond the row's outer cells (a number may stick out of its band)."""
    top = max(0, min(r.y for r in rects))
    bottom = max(r.bottom for r in rects)
    left = max(0, rects[0].x - rects[0].w // 2)
    right = min(writing.shape[1], rects[-1].right + rects[-1].w // 2)
    words = outside_blocks(words_of(writing[top:bottom, left:right]))
    return [(w.x0 + left, w.y0 + top, w.x1 + left, w.y1 + top, int(w.tall), w.solid) for w in words]


def _gaps_clear(writing: np.ndarray, rects) -> float:
    """Share of the points on the lines between the cells where nothing is written: low when the
    board is covered or gone."""
    xs = [(rects[c - 1].right + rects[c].x) // 2 for c in range(1, SIZE)]
    ys = [(rects[(r - 1) * SIZE].bottom + rects[r * SIZE].y) // 2 for r in range(1, SIZE)]
    return clear_share(writing, xs, ys, (rects[0].x, rects[-1].right - 1), (rects[0].y, rects[-1].bottom - 1), 48)


def _block_digits(block: np.ndarray) -> tuple[tuple[int, int, int], np.ndarray]:
    """A filled block's own colour and the mask of the digits written on it (away from its rim)."""
    colour = commonest_colour(block)
    mask = glyph_mask(block, colour)
    mask[:2, :] = 0
    mask[-2:, :] = 0
    mask[:, :2] = 0
    mask[:, -2:] = 0
    return colour, mask


def read_text_board(frame: Frame, profile: Profile, ocr_allowed: bool = True) -> Reading:
    """The grid written in the profile's text cells. Each word written in a row goes to the cell
    that holds most of it; a dot or nothing is an empty cell. `unsettled` when a cell holds two
    words or a word lies between cells; `no-board` when the background is not there."""
    start = time.perf_counter()

    def done(grid, state, detail="", calls=0, learned=False):
        return Reading(grid, state, profile.board_rect, detail, (time.perf_counter() - start) * 1000, calls, learned)

    try:
        region = frame.crop(profile.board_rect).pixels
    except OutsideFrameError:
        return done(None, BoardState.NO_BOARD, "the board is not inside the captured area")
    background = profile.gap_colour
    digit_h = max(1, profile.digit_h)
    origin = profile.board_rect
    rects = [c.translated(-origin.x, -origin.y) for c in profile.cells]
    writing = without_lines(glyph_mask(region, background))  # once per read: rows are read from it
    if _gaps_clear(writing, rects) < BACKGROUND_SHARE:
        return done(None, BoardState.NO_BOARD, "the board's background is not where the profile says: run `screenbot calibrate` again")
    values = [0] * (SIZE * SIZE)
    calls = 0
    learned = False
    for row in range(SIZE):
        cells = rects[row * SIZE:(row + 1) * SIZE]
        taken: set[int] = set()
        for x0, y0, x1, y1, tall, solid in _row_words(writing, cells):
            if tall < DOT_SHARE * digit_h and not solid:
                continue  # a dot, or a speck: nothing written
            overlaps = [max(0, min(x1, c.right) - max(x0, c.x)) for c in cells]
            col = int(np.argmax(overlaps))
            if overlaps[col] <= 0.5 * (x1 - x0) or col in taken:
                where = f"row {row + 1}" if overlaps[col] <= 0.5 * (x1 - x0) else f"cell {row},{col}"
                return done(None, BoardState.UNSETTLED, f"{where}: writing between cells")
            taken.add(col)
            i = row * SIZE + col
            word = region[y0:y1, x0:x1]
            if solid:  # a tile drawn as a filled block, its digits written on it
                paper, mask = _block_digits(word)
                colour = paper
            else:
                paper, mask = background, glyph_mask(word, background)
                colour = commonest_colour(word[mask.astype(bool)])  # the glyph's solid core, not its rim
            bits = ocr.glyph_bits(mask)
            value = match_glyph(profile, colour, bits) if bits is not None else None
            if value is None and ocr_allowed and bits is not None:
                pad = int(PAD * digit_h) + 2
                padded = cv2.copyMakeBorder(word, pad, pad, pad, pad, cv2.BORDER_CONSTANT,
                                            value=tuple(int(v) for v in paper))
                value = ocr.read_number(padded, paper, kilo=True)
                calls += 1
                if value is not None:
                    profile.remember_glyph(ocr.glyph_key(colour, bits), value)
                    learned = True
            if value is None:
                reading = done(None, BoardState.UNSETTLED, f"cell {row},{col}: no number could be read", calls)
                raise UnreadableTileError(
                    f"cannot read the number in row {row + 1}, column {col + 1}: its digits name no tile; "
                    "make sure the game is not covered and calibrate again",
                    reading,
                )
            values[i] = value
    grid = tuple(tuple(values[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE))
    return done(grid, BoardState.PLAYING, "read digits" if calls else "", calls, learned)
