"""Finds 4x4 boards drawn as text: numbers (and dots for empty cells) on an even character lattice, as terminal 2048s draw them.

A terminal game has no tiles to find by their edges: each cell is a number written in a
monospace font, right-aligned, centred or left-aligned in its column, often in a colour of an
ANSI palette, on the terminal's background; an empty cell is a dot or nothing. So the search
works on glyphs: pixels far from a background colour make marks, marks side by side on one
baseline make words, and a board is four rows of words on evenly spaced baselines whose
anchors (right ends, centres or left ends) fall into four evenly spaced columns, with nothing
else written between them. Cells need not be square. Prose, tables and menus are rejected: their
words do not sit on a 4x4 lattice of short, number-sized words with empty space around it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from screenbot.calibration.lattice import Lattice
from screenbot.game.rules import SIZE

FG_DIFF = 48  # a pixel this far (largest channel difference) from the background belongs to a glyph
MIN_GLYPH_PX, MAX_GLYPH_PX = 7, 120  # the height of a digit, in pixels
EVEN = 0.12  # spacings of rows or columns may differ by this share
MIN_FILLED = 10  # cells that must show a word or a dot (a board just begun shows few numbers)
MAX_WORD_CHARS = 5  # a cell's number is at most this many digit widths


@dataclass(frozen=True)
class Word:
    """Marks side by side on one baseline: x0, y0 (top), x1, y1 (bottom, exclusive), and the height
    of its tallest mark (a dot is much shorter than a digit)."""

    x0: int
    y0: int
    x1: int
    y1: int
    tall: int

    def anchor(self, how: str) -> float:
        return {"right": self.x1, "left": self.x0, "centre": (self.x0 + self.x1) / 2}[how]


@dataclass(frozen=True)
class TextBoard:
    """A text board found: its lattice (cells sized to hold a number), background colour, digit height."""

    lattice: Lattice
    background: tuple[int, int, int]
    digit_h: int
    filled: int


def background_candidates(pixels: np.ndarray, most: int = 3) -> list[tuple[int, int, int]]:
    """The commonest colours of a picture (4-level bins on a subsample) covering at least 5% of it."""
    sub = pixels[::4, ::4].reshape(-1, 3)
    q = (sub >> 2).astype(np.int32)
    codes = (q[:, 0] << 12) | (q[:, 1] << 6) | q[:, 2]
    counts = np.bincount(codes)
    out = []
    for code in np.argsort(-counts)[:most]:
        if counts[code] < 0.05 * len(codes):
            break
        colour = sub[codes == code].mean(axis=0)
        out.append(tuple(int(round(v)) for v in colour))
    return out


def glyph_mask(pixels: np.ndarray, background) -> np.ndarray:
    d = cv2.absdiff(pixels, np.full_like(pixels, np.asarray(background, np.uint8)))
    return (np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2]) > FG_DIFF).astype(np.uint8)


def words_of(mask: np.ndarray) -> list[Word]:
    """Marks (connected components) joined into words: side by side, overlapping vertically, gaps
    narrower than 0.6 of their height."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    marks = []
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if h <= MAX_GLYPH_PX and w <= 3 * MAX_GLYPH_PX and area >= 2:
            marks.append([x, y, x + w, y + h, h])
    marks.sort(key=lambda m: m[0])
    words: list[list[int]] = []
    for m in marks:
        for wd in reversed(words[-12:]):
            overlap = min(wd[3], m[3]) - max(wd[1], m[1])
            height = max(wd[4], m[4])
            near = m[0] - wd[2] <= 0.6 * height
            same_line = overlap >= 0.5 * min(wd[3] - wd[1], m[3] - m[1]) or (
                # a dot or comma sits on the baseline of the digits beside it
                abs(wd[3] - m[3]) <= 0.2 * height
            )
            if near and same_line and m[0] >= wd[0]:
                wd[0], wd[1], wd[2], wd[3] = min(wd[0], m[0]), min(wd[1], m[1]), max(wd[2], m[2]), max(wd[3], m[3])
                wd[4] = max(wd[4], m[4])
                break
        else:
            words.append(list(m))
    return [Word(*w) for w in words]


def _clusters(values: list[float], tol: float) -> list[list[int]]:
    """Indexes of `values` grouped where sorted neighbours are within tol."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    groups: list[list[int]] = []
    for i in order:
        if groups and values[i] - values[groups[-1][-1]] <= tol:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def _word_of(row_words: list[list[Word]], owners: list[int], anchors: list[float], i: int, how: str) -> Word:
    """The word behind anchor number i (anchors list every row's words in order)."""
    k = i - sum(len(row_words[r]) for r in range(owners[i]))
    return row_words[owners[i]][k]


def _fit_columns(points: list[tuple[int, float]]) -> tuple[float, float] | None:
    """(anchor of column 0, pitch) fitted to (column, anchor) points from at least two columns."""
    if len({c for c, _ in points}) < 2:
        return None
    cs = np.array([c for c, _ in points], float)
    xs = np.array([a for _, a in points], float)
    pitch, a0 = np.polyfit(cs, xs, 1)
    return float(a0), float(pitch)


def _even(positions: list[float]) -> float | None:
    """The spacing of four positions when it is even (within EVEN), else None."""
    gaps = np.diff(positions)
    if (gaps <= 0).any():
        return None
    mean = float(gaps.mean())
    return mean if np.abs(gaps - mean).max() <= EVEN * mean else None


def find_text_boards(pixels: np.ndarray) -> list[TextBoard]:
    """Every text board in a BGR picture (usually none or one)."""
    found: list[TextBoard] = []
    for background in background_candidates(pixels):
        words = words_of(glyph_mask(pixels, background))
        digits = [w for w in words if MIN_GLYPH_PX <= w.tall]
        if len(digits) < 4:
            continue
        for board in _boards_in(words, background):
            if not any(abs(board.lattice.x0 - b.lattice.x0) < 4 and abs(board.lattice.y0 - b.lattice.y0) < 4 for b in found):
                found.append(board)
    return found


def _boards_in(words: list[Word], background) -> list[TextBoard]:
    out = []
    heights = [float(w.tall) for w in words if w.tall >= MIN_GLYPH_PX]
    sizes = [int(np.median([heights[i] for i in g])) for g in _clusters(heights, 1.5) if len(g) >= MIN_FILLED // 2]
    for digit_h in sizes:
        # words of this text size: digits within 25% of the height, and dots (short marks on a baseline)
        size_words = [w for w in words if abs(w.tall - digit_h) <= 0.25 * digit_h or w.tall <= 0.45 * digit_h]
        rows = _clusters([w.y1 for w in size_words], 0.3 * digit_h)
        baselines = [float(np.median([size_words[i].y1 for i in g])) for g in rows]
        for start in range(len(rows) - SIZE + 1):
            pick = list(range(start, start + SIZE))
            pitch_y = _even([baselines[k] for k in pick])
            if pitch_y is None or pitch_y < 1.0 * digit_h or pitch_y > 6 * digit_h:
                continue
            row_words = [[size_words[i] for i in rows[k]] for k in pick]
            board = _columns(row_words, [baselines[k] for k in pick], pitch_y, digit_h, background)
            if board is None:
                continue
            # a table or a calendar goes on past four rows: a row just above or below, at the same
            # spacing, with words in two or more of the columns, makes this part of something bigger
            lat = board.lattice
            centres = [lat.x0 + lat.cell_w / 2 + c * lat.pitch_x for c in range(SIZE)]
            beyond = [k for k in (start - 1, start + SIZE) if 0 <= k < len(rows)
                      and abs(abs(baselines[k] - baselines[pick[0 if k < start else -1]]) - pitch_y) <= EVEN * pitch_y]
            if any(sum(any(abs((size_words[i].x0 + size_words[i].x1) / 2 - c) <= 0.35 * lat.pitch_x for i in rows[k])
                       for c in centres) >= 2 for k in beyond):
                continue
            out.append(board)
    return out


def _columns(row_words: list[list[Word]], baselines: list[float], pitch_y: float, digit_h: int,
             background) -> TextBoard | None:
    best = None
    for how in ("right", "centre", "left"):
        anchors = [w.anchor(how) for ws in row_words for w in ws]
        owners = [r for r, ws in enumerate(row_words) for _ in ws]
        groups = _clusters(anchors, 0.35 * digit_h)
        centres = [float(np.median([anchors[i] for i in g])) for g in groups]
        for start in range(len(groups) - SIZE + 1):
            cols = list(range(start, start + SIZE))
            pitch_x = _even([centres[k] for k in cols])
            if pitch_x is None or pitch_x < 1.2 * digit_h or pitch_x > 10 * digit_h:
                continue
            # nothing else written inside the board: no word of these rows anchored between columns
            lo, hi = centres[cols[0]] - 0.5 * pitch_x, centres[cols[-1]] + 0.5 * pitch_x
            inside = [i for i, a in enumerate(anchors) if lo <= a <= hi]
            in_cols = {i for k in cols for i in groups[k]}
            if any(i not in in_cols for i in inside):
                continue
            filled = {(owners[i], cols.index(k)) for k in cols for i in groups[k]}
            if any(len(groups[k]) > SIZE for k in cols):
                continue
            words = [w for ws in row_words for w in ws if lo <= w.anchor(how) <= hi]
            if any(w.x1 - w.x0 > min(pitch_x * 0.98, MAX_WORD_CHARS * 0.75 * digit_h) for w in words):
                continue  # a cell holds a short number, not a longer word
            if len(filled) < MIN_FILLED or len({r for r, _ in filled}) < SIZE or len({c for _, c in filled}) < SIZE:
                continue
            # each column's band: centred on the middle of what is written there, one pitch wide
            mids = [(cols.index(k), (_word_of(row_words, owners, anchors, i, how).x0
                                     + _word_of(row_words, owners, anchors, i, how).x1) / 2)
                    for k in cols for i in groups[k]]
            fitted = _fit_columns(mids) or (centres[cols[0]], pitch_x)
            spread = float(np.mean([abs(m - (fitted[0] + c * fitted[1])) for c, m in mids]))
            score = (len(filled), -round(spread, 1))
            if best is None or score > best[0]:
                best = (score, fitted)
    if best is None:
        return None
    (filled, _), (a0, pitch_x) = best
    # ... and past four columns: words a pitch to the left of the first or right of the last, in two rows
    outside = sum(any(abs((w.x0 + w.x1) / 2 - x) <= 0.35 * pitch_x for w in ws for x in (a0 - pitch_x, a0 + SIZE * pitch_x))
                  for ws in row_words)
    if outside >= 2:
        return None
    # A cell is the whole band of its column (numbers may be aligned any way, and grow toward a side),
    # and reaches from above the digits to below the baseline; the reader assigns each word to the
    # cell that holds most of it.
    cell_w = pitch_x - 2
    cell_h = min(pitch_y - 1, 1.7 * digit_h)
    x0 = a0 - cell_w / 2
    bottom = baselines[0] + 0.35 * digit_h  # below the baseline: descenders and the dot
    y0 = bottom - cell_h
    margin_x, margin_y = 3.0, 3.0  # a little background around the cells (the safety check samples it)
    lattice = Lattice(x0, y0, pitch_x, pitch_y, cell_w, cell_h, margin_x, margin_y, filled)
    return TextBoard(lattice, tuple(int(v) for v in background), digit_h, filled)
