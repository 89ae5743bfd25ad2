"""Digit shapes learned per game: a tile's (colour, glyph) pair is read once by OCR, then known by its shape."""

from __future__ import annotations

import numpy as np

from screenbot.imaging import FG_DIFF
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
