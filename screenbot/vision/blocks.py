"""Reads a board of touching blocks (no gaps, no lines: a terminal game filling each cell with its
tile's colour): each cell is one flat colour, empty when it is the empty cells' colour with nothing
but a dot on it, else a tile whose number is read by its shape (OCR once per new shape)."""

from __future__ import annotations


import cv2
import numpy as np

from screenbot.board_state import BoardState
from screenbot.control.screen import Frame, OutsideFrameError
from screenbot.imaging import EDGE_PX, FG_DIFF, MIN_GLYPH_PX, commonest_colour, words_of
from screenbot.profile import Profile
from screenbot.vision import ocr
from screenbot.vision.glyphs import value_from_digits
from screenbot.vision.reading import Reading, answers, no_number

FLAT = 0.6  # a still cell's own colour covers this share of it (the rest: its number)
RIM = 0.1  # a still cell's rim (this share of its size) is all its own colour, its number inside
RIM_SHARE = 0.97
SAME = 10  # colour levels: the empty cells' colour, give or take
DOT_SHARE = 0.5  # marks lower than this share of a digit's height are a dot: nothing written
FLAT_SHARE = 0.9  # a block this much one exact colour (within 1 level) is flat: writing on it may be faint
FAINT_INK = 4  # colour levels from a flat block's colour that are writing (a terminal's 255 on 254: 9 apart)


def _whole_block(cell: np.ndarray, colour) -> np.ndarray:
    """The cell less its outer EDGE_PX, with enough of its own colour round it that the digits' reader, which
    leaves a cell's outer part out (rounded corners, a neighbour's glow: none on a terminal's block), sees all
    that is written on it."""
    h, w = cell.shape[:2]
    py, px = int(np.ceil(0.16 * h)) + 1, int(np.ceil(0.07 * w)) + 1
    return cv2.copyMakeBorder(np.ascontiguousarray(cell[EDGE_PX:h - EDGE_PX, EDGE_PX:w - EDGE_PX]), py, py, px, px,
                              cv2.BORDER_CONSTANT, value=tuple(int(v) for v in colour))


def cell_look(cell: np.ndarray) -> tuple[tuple[int, int, int], float, float, int, int]:
    """A cell's colour, the share of it that colour covers, the share of its rim it covers, the
    height of the tallest thing written on it, and how far from the colour writing starts (a block
    of one exact colour, as a terminal fills it, shows even faint writing: white on light grey)."""
    colour = commonest_colour(cell)
    off = np.abs(cell.astype(np.int16) - np.asarray(colour, np.int16)).max(axis=2)
    near = off <= SAME
    ink = FAINT_INK if float((off <= 1).mean()) >= FLAT_SHARE else FG_DIFF
    h, w = near.shape
    ry, rx = max(1, int(RIM * h)), max(1, int(RIM * w))
    rim = np.concatenate([near[:ry].ravel(), near[-ry:].ravel(), near[:, :rx].ravel(), near[:, -rx:].ravel()])
    # what is written on the block (glyph_mask's test), up to its edge less a pixel or two (a number on a
    # tall block's top text line reaches into its rim)
    inner = (off[EDGE_PX:-EDGE_PX, EDGE_PX:-EDGE_PX] > ink).astype(np.uint8)
    tall = max((wd.tall for wd in words_of(inner)), default=0)
    return colour, float(near.mean()), float(rim.mean()), int(tall), ink


def measure(pixels: np.ndarray, cells) -> tuple[tuple[int, int, int] | None, int]:
    """At calibration: the empty cells' colour (the commonest colour of cells with nothing but a dot
    on them) and the height of the digits (the tallest writing on a cell)."""
    looks = [cell_look(pixels[y:y + h, x:x + w]) for x, y, w, h in cells]
    digit_h = max((t for _, _, _, t, _ in looks), default=0)
    blank = [c for c, _, _, t, _ in looks if t < max(MIN_GLYPH_PX, DOT_SHARE * digit_h)]
    if not blank:
        return _zero_colour(pixels, cells, looks), digit_h
    return max(blank, key=lambda c: sum(max(abs(a - b) for a, b in zip(c, o)) <= SAME for o in blank)), digit_h


ZERO_SHARE = 0.5  # the empty cells written with a 0: at least this share of the cells, of one colour
ZERO_READS = 2  # ... and this many of them read as 0


def _zero_colour(pixels: np.ndarray, cells, looks) -> tuple[int, int, int] | None:
    """The empty cells' colour where each is written with a 0 (no blank cell): the colour most cells share,
    where half the cells or more have it and OCR reads a 0 on the first of them."""
    colours = [c for c, *_ in looks]
    common = max(colours, key=lambda c: sum(_same(c, o) for o in colours))
    alike = [i for i, c in enumerate(colours) if _same(c, common)]
    if len(alike) < ZERO_SHARE * len(cells):
        return None
    for i in alike[:ZERO_READS]:
        x, y, w, h = cells[i]
        colour, *_, ink = looks[i]
        if ocr.read_number(_whole_block(pixels[y:y + h, x:x + w], colour), colour, diff=ink, zero=True) != 0:
            return None
    return common


def _same(a, b) -> bool:
    return max(abs(int(p) - int(q)) for p, q in zip(a, b)) <= SAME


def read_block_board(frame: Frame, profile: Profile, ocr_allowed: bool = True) -> Reading:
    """The grid of a board of touching blocks. `unsettled` when a cell is not one flat colour all round
    its rim (a block between cells, a frame caught while the terminal redraws); `no-board` when most
    cells are not."""
    done = answers(profile.board_rect)
    cols = profile.cols
    try:
        region = frame.crop(profile.board_rect).pixels
    except OutsideFrameError:
        return done(None, BoardState.NO_BOARD, "the board is not inside the captured area")
    origin = profile.board_rect
    rects = [c.translated(-origin.x, -origin.y) for c in profile.cells]
    cells = [region[r.y:r.bottom, r.x:r.right] for r in rects]
    looks = [cell_look(c) for c in cells]
    unsteady = [i for i, (_, flat, rim, _, _) in enumerate(looks) if flat < FLAT or rim < RIM_SHARE]
    if len(unsteady) > len(profile.cells) // 2:
        return done(None, BoardState.NO_BOARD, "the board's cells are not where the profile says: run `screenbot calibrate` again")
    if unsteady:
        i = unsteady[0]
        return done(None, BoardState.UNSETTLED, f"cell {i // cols},{i % cols} is not one colour (a block between cells)")
    digit_h = max(1, profile.digit_h)
    empty = profile.empty_colour
    values = [0] * len(profile.cells)
    calls = 0
    learned = False
    for i, (colour, _, _, tall, ink) in enumerate(looks):
        if tall < max(MIN_GLYPH_PX, DOT_SHARE * digit_h):
            if empty is not None and max(abs(a - b) for a, b in zip(colour, empty)) <= SAME:
                continue
            return done(None, BoardState.UNSETTLED, f"cell {i // cols},{i % cols} is a block with no number on it")
        # a 0 written on the empty cells' colour is an empty cell (the game writes them so)
        zero = empty is not None and _same(colour, empty)
        value, called = value_from_digits(profile, _whole_block(cells[i], colour), colour, ocr_allowed, ink, zero=zero)
        calls += called
        learned = learned or called > 0
        if value is None:
            raise no_number(i // cols, i % cols, done(None, BoardState.UNSETTLED,
                                                     f"cell {i // cols},{i % cols}: no number could be read", calls))
        values[i] = value
    grid = tuple(tuple(values[r * cols:(r + 1) * cols]) for r in range(profile.rows))
    return done(grid, BoardState.PLAYING, "read digits" if calls else "", calls, learned)
