"""An overlay over a board read by its palette (a "You win!" or "Game over!" wash): which one it is, and the
board seen through it."""

from __future__ import annotations

import numpy as np

from screenbot.board_state import BoardState
from screenbot.game.rules import Grid
from screenbot.profile import Profile
from screenbot.vision.sampling import EMPTY, FIRST_TILE, TOL, Sampler, grid_from_labels, labels_of
from screenbot.vision.state_words import state_of_words
from screenbot.vision.tile_colour import mode_colour as _mode_colour


def overlay_seen(profile: Profile, s: Sampler, line_px: np.ndarray, region: np.ndarray, strip_px: np.ndarray,
             ocr_allowed: bool = True) -> tuple[BoardState, float, Grid | None] | None:
    """The overlay the gap lines are seen through: (state, alpha, the board read under it), or None.
    A wash the look does not know is read for its words (tesseract) only when the board under it
    reads as a board: a moved window or a half-covered board is not an overlay, and costs no OCR."""
    colour, share = _mode_colour(line_px.reshape(-1, 3))
    gap = np.asarray(profile.gap_colour, float)
    if share < 0.25 or any(np.abs(colour - np.asarray(g, float)).max() <= TOL for g in [gap, *profile.gap_shades]):
        return None  # the gap's own colour, or one of the shades its lines are drawn in
    wash = tuple(int(v) for v in np.clip(2 * colour - gap, 0, 255))  # the wash's colour, were it half strength
    if s.theme is not None:
        best = None
        for ov in s.theme.overlays:
            target = np.asarray(ov.colour, float) - gap
            denom = float((target**2).sum())
            if denom <= 0:
                continue
            alpha = float(((colour - gap) * target).sum() / denom)
            if not 0.08 <= alpha <= ov.alpha + 0.1:
                continue
            resid = float(np.abs(colour - (gap + alpha * target)).max())
            if resid <= 8 and (best is None or resid < best[0]):
                best = (resid, ov.state, ov.colour, alpha)
        if best:
            return best[1], best[3], _read_under_overlay(s, strip_px, best[2], best[3])
    if share < 0.5:
        return None
    # An even wash over the whole board that the look does not know (a clone drawn in a known
    # theme's colours, e.g. a half-white "YOU LOST!", or a learned look): its words say which
    # overlay it is. A known theme needs them; a learned look otherwise guesses from the wash's hue
    # (a win is drawn in a strong colour, a loss in a pale one).
    under = _read_under_overlay(s, strip_px, wash, 0.5)
    state = _state_by_words(profile, region, wash) if ocr_allowed and under is not None else None
    if state is None:
        if s.theme is not None:
            return None
        state = BoardState.WON if max(wash) - min(wash) > 60 else BoardState.OVER
    return state, 0.5, under


# (board rect, wash colour / 8) -> the state the overlay's words named: read once while it stands
_WORDS_SEEN: dict[tuple, BoardState | None] = {}


def _state_by_words(profile: Profile, region: np.ndarray | None, wash) -> BoardState | None:
    """WON or OVER when the words written over the board name one (tesseract); None when they do not,
    or cannot be read."""
    if region is None:
        return None
    key = (tuple(profile.board_rect.as_list()), tuple(v // 8 for v in wash))
    if key not in _WORDS_SEEN:
        from screenbot.vision.ocr import OcrUnavailableError, read_until

        try:
            state = read_until(region, state_of_words)
        except OcrUnavailableError:
            return None
        if len(_WORDS_SEEN) > 64:
            _WORDS_SEEN.clear()
        _WORDS_SEEN[key] = state
    return _WORDS_SEEN[key]


def _read_under_overlay(s: Sampler, strip_px: np.ndarray, colour, alpha: float) -> Grid | None:
    """The grid seen through a translucent overlay, when every cell is clear once the wash is taken out."""
    if alpha >= 0.9:
        return None
    clear = (strip_px.astype(np.float32) - alpha * np.asarray(colour, np.float32)) / (1 - alpha)
    labels = labels_of(s.lut, np.clip(np.rint(clear), 0, 255).astype(np.uint8))
    n_labels = FIRST_TILE + len(s.entries)
    # the overlay's own text and buttons cover some strips: ask for a clear majority of what is left
    counts = np.stack([np.bincount(row, minlength=n_labels) for row in labels.astype(np.intp)])
    cell_counts = counts[:, EMPTY:]
    best = cell_counts.argmax(axis=1)
    best_n = cell_counts[np.arange(len(best)), best]
    other_n = cell_counts.sum(axis=1) - best_n
    if ((best_n < 0.3 * labels.shape[1]) | (other_n > 0.1 * labels.shape[1])).any():
        return None
    lab = best + EMPTY
    if any(l >= FIRST_TILE and s.entries[l - FIRST_TILE].value is None for l in lab):
        return None
    return grid_from_labels(lab, s.entries, {}, s.cols)
