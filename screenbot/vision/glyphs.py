"""Digit shapes learned per game: a tile's (colour, glyph) pair is read once by OCR, then known by its shape."""

from __future__ import annotations

import numpy as np

from screenbot.geometry import Rect
from screenbot.imaging import FG_DIFF, glyph_mask
from screenbot.profile import Profile
from screenbot.vision import ocr

TOL = 10  # colour tolerance (largest channel difference) when a learned shape is looked up


def value_from_digits(profile: Profile, cell_px: np.ndarray, colour, ocr_allowed: bool,
                      diff: int = FG_DIFF) -> tuple[int | None, int]:
    """(value, OCR calls made): the digit shape is looked up first, tesseract asked only for new shapes.
    `diff`: how far from the tile's colour a pixel is digit (faint writing on a flat block needs less)."""
    bits = ocr.glyph_bits(ocr.digit_mask(cell_px, colour, diff))
    if bits is None:
        return None, 0
    known = match_glyph(profile, colour, bits)
    if known is not None:
        return known, 0
    if not ocr_allowed:
        return None, 0
    value = ocr.read_number(cell_px, colour, diff=diff)
    if value is not None:
        profile.remember_glyph(ocr.glyph_key(colour, bits), value)
    return value, 1


def match_glyph(profile: Profile, colour, bits: np.ndarray) -> int | None:
    cache = getattr(profile, "_glyph_cache", None)
    if cache is None or cache[0] != len(profile.glyphs):
        cache = (len(profile.glyphs), [(*ocr.key_bits(k), v) for k, v in profile.glyphs.items()])
        profile._glyph_cache = cache  # type: ignore[attr-defined]
    best, best_d = None, bits.size
    for gcol, gbits, value in cache[1]:
        if max(abs(int(a) - int(b)) for a, b in zip(gcol, colour)) > TOL:
            continue
        d = int((gbits != bits).sum())
        if d < best_d:
            best, best_d = value, d
    return best if best_d <= 0.04 * bits.size else None


INK_TOL = 60  # colour levels: a pixel outside the cell this close to its digits' colour is their ink
INK_OUT_PX = 3  # this many such pixels beside the cell: the number runs over the cell's edge


def runs_over(region: np.ndarray, cell: Rect, neighbours: tuple[int, int], background, plain) -> bool:
    """The digits written on `cell` (board-relative) run on past its left or right edge: pixels of their
    ink's colour, and not of the gap's, in the rows they are written in, in the gap on either side
    (`neighbours`: the x where it ends on the left and on the right); a line drawn along the cell
    is no ink, nor a pixel of the colours in `plain` (the gap's, an inset tile's margin).
    Read inside its cell, such a number would lose digits (a 1024 read as 2)."""
    y0, y1 = cell.y + int(0.12 * cell.h), cell.y + int(0.88 * cell.h)
    inside = region[y0:y1, cell.x : cell.right]
    mask = glyph_mask(inside, background).astype(bool)
    if not mask.any():
        return False
    rows = np.nonzero(mask.any(axis=1))[0]
    strongest = np.abs(inside.astype(np.int16) - np.asarray(background, np.int16)).max(axis=2)
    core = mask & (strongest >= 0.7 * strongest[mask].max())
    ink = np.median(inside[core], axis=0)
    left, right = neighbours
    band = np.concatenate([region[y0:y1, max(0, left) : cell.x], region[y0:y1, cell.right : right]], axis=1)
    if not band.size:
        return False
    px = band.astype(np.int16)
    inky = np.abs(px - ink).max(axis=2) <= INK_TOL
    for colour in plain:
        inky &= np.abs(px - np.asarray(colour, np.int16)).max(axis=2) > FG_DIFF
    written = np.zeros(len(inky), bool)
    written[rows] = True
    # a column as inky above and below the writing as beside it is a line drawn along the cell, not ink
    line = inky[~written].mean(axis=0) >= 0.5 if (~written).any() else np.zeros(inky.shape[1], bool)
    return int(inky[written][:, ~line].sum()) >= INK_OUT_PX
