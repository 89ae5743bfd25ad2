"""Digit shapes learned per game: a tile's (colour, glyph) pair is read once by OCR, then known by its shape."""

from __future__ import annotations

import numpy as np

from screenbot.imaging import FG_DIFF, MIN_GLYPH_PX, glyph_mask, marks_alone, words_of
from screenbot.profile import Profile
from screenbot.vision import ocr

TOL = 10  # colour tolerance (largest channel difference) when a learned shape is looked up


def value_from_digits(profile: Profile, cell_px: np.ndarray, colour, ocr_allowed: bool,
                      diff: int = FG_DIFF, key_colour=None, zero: bool = False) -> tuple[int | None, int]:
    """(value, OCR calls made): the digit shape is looked up first, tesseract asked only for new shapes.
    `diff`: how far from the tile's colour a pixel is digit (faint writing on a flat block needs less);
    `key_colour`: the colour the shape is remembered under (the tile's; default `colour`); `zero`: a 0 is
    an answer (an empty cell written so)."""
    bits = ocr.glyph_bits(ocr.digit_mask(cell_px, colour, diff))
    key_colour = colour if key_colour is None else key_colour
    return known_or_read(profile, key_colour, bits,
                         (lambda: ocr.read_number(cell_px, colour, diff=diff, zero=zero)) if ocr_allowed else None)


def known_or_read(profile: Profile, colour, bits: np.ndarray | None, read) -> tuple[int | None, int]:
    """(value, OCR calls) of digits of shape `bits` on `colour`: the value a known shape has, else
    `read()` (an OCR reading; None: OCR not allowed), remembered under that shape when it names a tile."""
    if bits is None:
        return None, 0
    known = match_glyph(profile, colour, bits)
    if known is not None:
        return known, 0
    if read is None:
        return None, 0
    value = read()
    if value is not None:
        profile.remember_glyph(ocr.glyph_key(colour, bits), value)
    return value, 1


def value_of_tile(profile: Profile, cell_px: np.ndarray, colour, ocr_allowed: bool) -> tuple[int | None, int]:
    """(value, OCR calls made) of the tile on a cell: its digits written on the tile's colour, else a small
    number written apart from a picture tile (in a corner, on the empty cells' colour). Known shapes are
    looked up first, both ways; tesseract is asked only when neither shape is known."""
    small: tuple | None = None
    spent = 0
    for ocr_now in (False, True):
        if ocr_now and not ocr_allowed:
            break
        value, calls = value_from_digits(profile, cell_px, colour, ocr_now)
        spent += calls
        if value is not None:
            return value, spent
        if small is None and profile.empty_colour is not None:  # looked for once, when the digits fail
            small = _small_number(cell_px, profile.empty_colour, colour) or ()
        if small:
            picture, background = small
            value, more = value_from_digits(profile, picture, background, ocr_now, key_colour=colour)
            spent += more
            if value is not None:
                return value, spent
    return None, spent


SMALL_SHARE = 0.4  # a small number is at most this share of the cell's height (a picture is taller)


def _small_number(cell_px: np.ndarray, background, tile) -> tuple[np.ndarray, tuple[int, int, int]] | None:
    """The one word of digit-sized marks written on `background` in the cell (a picture tile's number in
    its corner; the marks are unlike the tile's colour too, so a digit touching the picture stays a
    digit), alone on a picture of that colour with room round it (as a tile's digits would be), and the
    colour; None when there is not exactly one."""
    mask = glyph_mask(cell_px, background) & glyph_mask(cell_px, tile)
    h = cell_px.shape[0]
    words = [w for w in words_of(mask) if MIN_GLYPH_PX <= w.tall <= SMALL_SHARE * h and w.y1 - w.y0 <= SMALL_SHARE * h]
    if len(words) != 1:
        return None
    w = words[0]
    ink = mask[w.y0 : w.y1, w.x0 : w.x1].astype(bool)
    out = marks_alone(cell_px[w.y0 : w.y1, w.x0 : w.x1], ink, background, w.y1 - w.y0)
    return out, tuple(int(v) for v in background)  # type: ignore[return-value]


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
