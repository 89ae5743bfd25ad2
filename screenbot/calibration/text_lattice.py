"""Finds boards drawn as text (3 to 8 cells each way): numbers (and dots for empty cells) on an even character lattice, as terminal 2048s draw them.

A terminal game has no tiles to find by their edges: each cell is a number written in a
monospace font, right-aligned, centred or left-aligned in its column, often in a colour of an
ANSI palette, on the terminal's background; an empty cell is a dot or nothing. So the search
works on glyphs: pixels far from a background colour make marks, marks side by side on one
baseline make words, and a board is four rows of words on evenly spaced baselines whose
anchors (right ends, centres or left ends) fall into evenly spaced columns, with nothing else
written between them, and that goes on no further either way. Cells need not be square. Prose,
tables and menus are rejected: their words do not sit on such a lattice of short, number-sized
words with empty space around it (and a board of another size than 4x4 must read as 2048 tiles).
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

from screenbot.calibration.block_words import block_digit_heights, parted_tall, with_written
from screenbot.calibration.lattice import Lattice
from screenbot.calibration.text_checks import (EVEN, FULL_STEP_PX, half_off, on_blocks, gap_share, part_of, ruled_on,
                                              stands_on)
from screenbot.game.sizes import MAX_SIDE, MIN_SIDE
from screenbot.imaging import FG_DIFF, MIN_GLYPH_PX, Word, glyph_mask, outside_blocks, without_lines, words_of

MIN_FILLED = 10 / 16  # the share of cells that must show a word or a dot (a board just begun shows few numbers)
MIN_BARE = 2  # numbers written on the background itself: what makes a board text rather than tiles
MIN_GAP_SHARE = 0.6  # the lines between a text board's cells are mostly its background
MAX_WORD_CHARS = 5  # a cell's number is at most this many digit widths
MAX_PITCH = 12  # cells at most this many digits apart (a box of five terminal lines is about 9)
# Flat paper (every pixel of it one exact colour, as a terminal draws it) shows writing however faint
# (a terminal's white on its white background differs by 26 levels); paper with noise needs FG_DIFF.
FLAT_SHARE = 0.98
FAINT_INK = 14
NEAR_PAPER = 10  # pixels this close to the paper's colour are the paper, give or take antialiasing


@dataclass(frozen=True)
class TextBoard:
    """A text board found: its lattice (cells sized to hold a number), background colour, digit height."""

    lattice: Lattice
    background: tuple[int, int, int]
    digit_h: int
    filled: int
    bare: int = 0  # numbers written straight on the background (not inside a filled block)
    ink_diff: int = FG_DIFF  # a pixel this far from the background is writing


def background_candidates(pixels: np.ndarray, most: int = 3, share: float = 0.05) -> list[tuple[int, int, int]]:
    """The commonest colours of a picture (4-level bins on a subsample) covering at least `share` of it."""
    sub = pixels[::4, ::4].reshape(-1, 3)
    q = (sub >> 2).astype(np.int32)
    codes = (q[:, 0] << 12) | (q[:, 1] << 6) | q[:, 2]
    counts = np.bincount(codes)
    out = []
    for code in np.argsort(-counts)[:most]:
        if counts[code] < share * len(codes):
            break
        colour = sub[codes == code].mean(axis=0)
        out.append(tuple(int(round(v)) for v in colour))
    return out


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


def _fit_columns(points: list[tuple[int, float]]) -> tuple[float, float] | None:
    """(anchor of column 0, pitch) fitted to (column, anchor) points from at least two columns."""
    if len({c for c, _ in points}) < 2:
        return None
    cs = np.array([c for c, _ in points], float)
    xs = np.array([a for _, a in points], float)
    pitch, a0 = np.polyfit(cs, xs, 1)
    return float(a0), float(pitch)


def _even(positions: list[float]) -> float | None:
    """The spacing of positions when it is even (within EVEN), else None."""
    # (plain Python: called tens of thousands of times on a few numbers while a picture is searched)
    gaps = [float(b) - float(a) for a, b in zip(positions, positions[1:])]
    if not gaps or min(gaps) <= 0:
        return None
    mean = sum(gaps) / len(gaps)
    return mean if max(abs(g - mean) for g in gaps) <= EVEN * mean else None


SIDES = range(MIN_SIDE, MAX_SIDE + 1)  # the rows, and the columns, a board may have


def find_text_boards(pixels: np.ndarray, blocks: bool = False) -> list[TextBoard]:
    """Every text board in a BGR picture (usually none or one). `blocks`: also those whose numbers all sit
    in filled blocks (tiles inset in ruled cells, too few rows of them for a lattice of squares), which are
    boards of tiles unless the caller found no such board."""
    found: list[TextBoard] = []
    least = 0 if blocks else MIN_BARE
    for background, ink_diff, writing in _writings(pixels, hairlines=blocks):
        words = outside_blocks(parted_tall(pixels, words_of(writing, tall_blocks=True)))
        digits = [w for w in words if MIN_GLYPH_PX <= w.tall and not w.solid]
        if len(digits) < least:
            continue
        solid = any(w.solid for w in words)
        written = block_digit_heights(pixels, words) if solid else []
        heights = written if blocks else []
        # the blocks where they stand, else where their numbers are written (blocks that fill their cells
        # across, their numbers aligned with those written bare in the same columns), on a board that stands
        # on this background (blocks that touch on a board's empty colour, with none round it, are a board
        # of blocks)
        boards = _boards_in(words, background, heights, ink_diff, written)
        if solid:
            # the blocks parted (blocks that touch, taken for one, each with its number): their digits' heights
            # counted one per block
            parted = with_written(pixels, words)
            parted_written = block_digit_heights(pixels, parted)
            boards += [b for b in _boards_in(parted, background, parted_written if blocks else [], ink_diff, parted_written)
                       if stands_on(pixels, b.lattice, background)]
        for board in boards:
            if board.bare < least:
                continue  # every number sits in a filled block: a board of tiles, found by their edges
            if half_off(board.lattice, pixels.shape):
                continue  # a cell more than half off the picture: its columns are not where numbers stand
            if gap_share(writing, board.lattice) < MIN_GAP_SHARE:
                continue  # the space between the cells is not this colour: it is a tile's, not the background
            if board.lattice.shape != (4, 4) and ruled_on(writing, board.lattice):
                continue  # cells of a bigger grid, a column or row of it empty (nothing written there)
            same = [b for b in found if same_board(board, b)]
            if not same:
                found.append(board)
            elif fit_of(board, heights) > fit_of(same[0], heights):
                found[found.index(same[0])] = board  # the same board seen at another text size: keep the better fit
    # part of a board is a board of fewer rows or columns on its lattice (a row of dots beside it is
    # no table going on): the whole one stays
    return [b for b in found if not any(o is not b and part_of(b.lattice, o.lattice) for o in found)]


def fit_of(board: TextBoard, heights: list[float]) -> tuple:
    """How well a board fits what is written: numbers bare on the paper, cells filled, and its digits' height
    that of the digits on the blocks (a box's `+` stands in columns too, a little shorter than the digits)."""
    return (board.bare, board.filled, -abs(board.digit_h - float(np.median(heights))) if heights else 0.0)


def same_board(a: TextBoard, b: TextBoard) -> bool:
    """Whether two boards found have one shape and steps and stand within half a step of each other (the same
    board, its cells centred on its numbers in one and on its blocks in the other)."""
    p, q = a.lattice, b.lattice
    return (p.shape == q.shape and abs(p.x0 - q.x0) < p.pitch_x / 2 and abs(p.y0 - q.y0) < p.pitch_y / 2
            and abs(p.pitch_x - q.pitch_x) < p.pitch_x / 4 and abs(p.pitch_y - q.pitch_y) < p.pitch_y / 4)


def ink_diff_of(diff: np.ndarray) -> int:
    """How far from the paper writing is, given pixels' distances from the paper's colour (largest channel
    difference): FAINT_INK where the pixels near it are that very colour (paper drawn flat, as a terminal
    does), else FG_DIFF."""
    near = diff[diff <= NEAR_PAPER]
    return FAINT_INK if near.size and float((near <= 1).mean()) >= FLAT_SHARE else FG_DIFF


def _inks(pixels: np.ndarray) -> list[tuple[tuple[int, int, int], int]]:
    """(background, how far from it writing is) to look for boards with: each background candidate with
    FG_DIFF, and flat ones with FAINT_INK too (numbers or empty cells written in a shade close to the
    paper's: a terminal's grey 0 on its white)."""
    out = []
    sub = pixels[::2, ::2].astype(np.int16)
    for background in background_candidates(pixels):
        out.append((background, FG_DIFF))
        if ink_diff_of(np.abs(sub - np.asarray(background, np.int16)).max(axis=2)) == FAINT_INK:
            out.append((background, FAINT_INK))
    return out


SHORT_RULE_PX, HAIR_PX = 24, 2  # a hairline this long is a rule too (a box's side a few text lines tall)


def _writings(pixels: np.ndarray, hairlines: bool = False):
    """(background, ink difference, writing) to look for boards in: the ink less its lines, and with
    `hairlines` its shorter hairlines too (the sides of boxes a few text lines tall drawn round each cell of
    tiles inset in them, which would join an empty cell's dot beside them into one word, and stand in columns
    like numbers)."""
    for background, ink_diff in _inks(pixels):
        writing = without_lines(glyph_mask(pixels, background, ink_diff), pixels=pixels)
        yield background, ink_diff, without_lines(writing, SHORT_RULE_PX, thick=HAIR_PX) if hairlines else writing


def _boards_in(words: list[Word], background, block_heights: list[float] = (), ink_diff: int = FG_DIFF,
               written: list[float] = ()) -> list[TextBoard]:
    """The boards these words make; `block_heights` are text sizes to try besides the words' own, `written` the
    heights of the digits written on blocks (where blocks of four text lines are tiles)."""
    out = []
    heights = [float(w.tall) for w in words if w.tall >= MIN_GLYPH_PX and not w.solid] + list(block_heights)
    sizes = [int(np.median([heights[i] for i in g])) for g in _clusters(heights, 1.5) if len(g) >= 2]
    for digit_h in sizes:
        # words of this text size: digits within 25% of the height, dots (short marks on a baseline),
        # and filled blocks a few digits tall (tiles drawn as background colour, digits inside), taller
        # where this is the height of the digits written on blocks
        tallest = BLOCK_LINES if any(abs(digit_h - h) <= 1.5 for h in written) else BLOCK_LINES_ANY
        size_words = [w for w in words if _digit_tall(w, digit_h)
                      or 2 <= w.tall <= 0.45 * digit_h or _stroke(w, digit_h)
                      or (w.solid and 1.3 * digit_h <= w.tall <= tallest * digit_h)]
        # an empty cell's mark stands where this look's marks stand on a line of digits (a dot ends on
        # the baseline, an underscore below it): each is taken where a digit's ink would be
        low = _mark_offset(size_words, digit_h)
        if low:
            size_words = [replace(w, y0=w.y0 - low, y1=w.y1 - low) if _dash(w, digit_h) else w for w in size_words]
        # rows by the middle of what is written (a dot sits half a digit lower: within the tolerance);
        # a row of more short marks than a board has cells across is a rule drawn with dashes
        # ("+-----+"), not a row of empty cells: it is no row of the board
        rows = [g for g in _clusters([w.line_y for w in size_words], 0.55 * digit_h)
                if not _dash_rule([size_words[i] for i in g], digit_h)]
        # each row's baseline: where its digits and dots end; a row of blocks only: half a digit below their middle
        baselines = []
        for g in rows:
            ends = [size_words[i].y1 for i in g if not size_words[i].solid]
            baselines.append(float(np.median(ends)) if ends else
                             float(np.median([size_words[i].line_y for i in g])) + 0.5 * digit_h)
        for pick in _row_picks(baselines, digit_h):
            pitch_y = _even([baselines[k] for k in pick])
            if pitch_y is None or pitch_y < 1.2 * digit_h or pitch_y > MAX_PITCH * digit_h:
                continue
            row_words = [[size_words[i] for i in rows[k]] for k in pick]
            board = _columns(row_words, [baselines[k] for k in pick], pitch_y, digit_h, background)
            if board is None:
                continue
            lat = board.lattice
            centres = [lat.x0 + lat.cell_w / 2 + c * lat.pitch_x for c in range(lat.cols)]
            # rows passed over (text beside the board, the rules and corners of boxes drawn round the
            # cells) have nothing written where a number would be: no word centred on a column
            if any(min(abs((size_words[i].x0 + size_words[i].x1) / 2 - c) for c in centres) <= 0.25 * lat.pitch_x
                   and not _dash(size_words[i], digit_h)  # a dash of a rule may be
                   for k in range(pick[0] + 1, pick[-1]) if k not in pick for i in rows[k]):
                continue
            # a table or a calendar goes on past four rows: a row just above or below, at the same
            # spacing, with words in two or more of the columns, makes this part of something bigger
            beyond = [k for k, b in enumerate(baselines)
                      if min(abs(b - (baselines[pick[0]] - pitch_y)), abs(b - (baselines[pick[-1]] + pitch_y))) <= EVEN * pitch_y]
            if any(_continues(rows[k], size_words, centres, lat.pitch_x, digit_h) for k in beyond):
                continue
            bare = sum(1 for ws in row_words for w in ws if not w.solid and _digit_tall(w, digit_h)
                       and centres[0] - lat.pitch_x / 2 <= (w.x0 + w.x1) / 2 <= centres[-1] + lat.pitch_x / 2)
            out.append(TextBoard(board.lattice, board.background, board.digit_h, board.filled, bare, ink_diff))
    return out


def _digit_tall(w: Word, digit_h: int) -> bool:
    """A word as tall as the board's digits."""
    return abs(w.tall - digit_h) <= 0.25 * digit_h


# a filled block is at most this many digit heights tall: where its own digits are that tall, four text
# lines with their spacing; else (a text size seen only in the marks, `+` and `|` of boxes) three
BLOCK_LINES, BLOCK_LINES_ANY = 7, 5
CHAR_WIDE = 1.2  # a character is at most this many digit heights wide


def _stroke(w: Word, digit_h: int) -> bool:
    """A mark one pixel thick as wide as a character or so (an underscore or a dash at a small font size)."""
    return w.tall == 1 and not w.solid and 0.3 * digit_h <= w.x1 - w.x0 <= CHAR_WIDE * digit_h


MARK_REACH = 0.45  # an empty cell's mark ends at most this many digit heights below the digits' baseline (a descender)
MARK_TALL = 0.2  # ... and is at most this many digit heights tall (small print's letters are taller)


def _mark_offset(words: list[Word], digit_h: int) -> int:
    """How far below the baseline of the digits beside them this look's short marks end, in pixels:
    the commonest of their offsets on the lines that hold digits or filled blocks (0: none there, or they
    end on the baseline or above it, as dots and dashes do)."""
    digits = [w for w in words if not w.solid and _digit_tall(w, digit_h)]
    lines = [(float(np.median([digits[i].mid_y for i in g])), float(np.median([digits[i].y1 for i in g])))
             for g in _clusters([w.mid_y for w in digits], 0.55 * digit_h)]
    # a filled block's number is written across its middle, most often: a line half a digit below it
    lines += [(w.line_y, w.line_y + 0.5 * digit_h) for w in words if w.solid]
    offsets = Counter()
    for w in words:
        # a flat mark one character wide (a dot, a dash, an underscore), not a word of small print
        if _dash(w, digit_h) and w.tall <= MARK_TALL * digit_h + 1 and w.x1 - w.x0 <= CHAR_WIDE * digit_h:
            for mid, base in lines:
                if mid - 0.55 * digit_h <= w.mid_y <= base + MARK_REACH * digit_h:
                    offsets[w.y1 - round(base)] += 1
    if not offsets:
        return 0
    low, seen = max(offsets.items(), key=lambda kv: (kv[1], -abs(kv[0])))
    return max(0, low) if seen >= 2 else 0  # the same mark in two cells at least


def _dash(w: Word, digit_h: int) -> bool:
    """A short mark: a dot, a dash of a rule."""
    return w.tall <= 0.45 * digit_h and not w.solid


def _dash_rule(words: list[Word], digit_h: int) -> bool:
    """Whether a row is a rule drawn with dashes: more short marks than a board has cells across, and
    nothing else."""
    return len(words) > MAX_SIDE and all(_dash(w, digit_h) for w in words)


def _row_picks(baselines: list[float], digit_h: int) -> list[list[int]]:
    """Sets of rows (indexes into `baselines`, sorted; as many as a board may have) whose baselines lie about
    evenly apart: runs of neighbouring rows first, then rows with others between them (text beside the
    board, a menu or a logo, makes rows of its own among the board's). The longest first."""
    picks = [list(range(start, start + n)) for n in reversed(SIDES) for start in range(len(baselines) - n + 1)]
    seen = {tuple(p) for p in picks}
    for a in range(len(baselines)):
        for b in range(a + 1, len(baselines)):
            pitch = baselines[b] - baselines[a]
            if pitch < 1.2 * digit_h or pitch > MAX_PITCH * digit_h:
                continue
            pick = [a, b]
            for k in range(2, MAX_SIDE):
                want = baselines[a] + k * pitch
                near = min(range(len(baselines)), key=lambda i: abs(baselines[i] - want))
                if abs(baselines[near] - want) > EVEN * pitch or near <= pick[-1]:
                    break
                pick.append(near)
            for n in (n for n in reversed(SIDES) if n <= len(pick)):
                if tuple(pick[:n]) not in seen:
                    seen.add(tuple(pick[:n]))
                    picks.append(pick[:n])
    return picks


def _continues(row: list[int], words: list[Word], centres: list[float], pitch_x: float, digit_h: int) -> bool:
    """Whether a row next to the lattice carries on its columns (a table, a calendar): two or more
    of its words on column positions and none of them between the columns (a line of prose or help
    text under a board has words everywhere). Words of the digits' height only (a rule's dashes, a
    title's "--", are no table's cells), on a column within half a digit's height, or a fifth of the
    pitch where that is less (wide cells: a title's words may fall near their middles by chance)."""
    lo, hi = centres[0] - 0.5 * pitch_x, centres[-1] + 0.5 * pitch_x
    mids = [(words[i].x0 + words[i].x1) / 2 for i in row if _digit_tall(words[i], digit_h)]
    inside = [m for m in mids if lo <= m <= hi]
    on = [m for m in inside if min(abs(m - c) for c in centres) <= min(0.2 * pitch_x, 0.5 * digit_h)]
    return len(on) >= 2 and len(on) == len(inside)


def _columns(row_words: list[list[Word]], baselines: list[float], pitch_y: float, digit_h: int,
             background) -> TextBoard | None:
    best = None
    for how in ("right", "centre", "left"):
        flat = [w for ws in row_words for w in ws]  # every row's words in order, as anchors and owners list them
        anchors = [w.anchor(how) for w in flat]
        owners = [r for r, ws in enumerate(row_words) for _ in ws]
        # a number centred in a terminal's cell sits half a character off where its length is odd
        groups = _clusters(anchors, (0.5 if how == "centre" else 0.35) * digit_h)
        centres = [float(statistics.median([anchors[i] for i in g])) for g in groups]
        for start, width in ((start, width) for width in SIDES for start in range(len(groups) - width + 1)):
            cols = list(range(start, start + width))
            pitch_x = _even([centres[k] for k in cols])
            if pitch_x is None or pitch_x < 1.2 * digit_h or pitch_x > MAX_PITCH * digit_h:
                continue
            # nothing else written inside the board: no word of these rows anchored between columns
            lo, hi = centres[cols[0]] - 0.5 * pitch_x, centres[cols[-1]] + 0.5 * pitch_x
            inside = [i for i, a in enumerate(anchors) if lo <= a <= hi]
            in_cols = {i for k in cols for i in groups[k]}
            if any(i not in in_cols for i in inside):
                continue
            filled = {(owners[i], cols.index(k)) for k in cols for i in groups[k]}
            if any(len(groups[k]) > len(row_words) for k in cols):
                continue
            words = [w for ws in row_words for w in ws if lo <= w.anchor(how) <= hi]
            # (a block with its number known may fill its cell's whole step: blocks that touch across)
            if any(w.x1 - w.x0 > ((pitch_x + FULL_STEP_PX if w.written else pitch_x * 0.98) if w.solid
                                  else min(pitch_x * 0.98, MAX_WORD_CHARS * 0.75 * digit_h))
                   for w in words):
                continue  # a cell holds a short number, not a longer word
            if (len(filled) < MIN_FILLED * len(row_words) * width or len({r for r, _ in filled}) < len(row_words)
                    or len({c for _, c in filled}) < width):
                continue
            if best is not None and len(filled) < best[0][0]:
                continue  # fewer cells filled than the best so far: it cannot win
            # each column's band: centred on the middle of what is written there, one pitch wide
            mids = [(cols.index(k), flat[i].anchor("centre")) for k in cols for i in groups[k]]
            fitted = _fit_columns(mids) or (centres[cols[0]], pitch_x)
            spread = float(np.mean([abs(m - (fitted[0] + c * fitted[1])) for c, m in mids]))
            score = (len(filled), -round(spread, 1))
            if best is None or score > best[0]:
                best = (score, fitted, how, (lo, hi), width)
    if best is None:
        return None
    (filled, _), (a0, pitch_x), how, (lo, hi), width = best
    rows = len(row_words)
    # the rows' baselines again from the board's own digits (a row's words beside the board, a logo's
    # line that ran into it, may have pulled its baseline off)
    own = [(r, float(np.median(bottoms))) for r, ws in enumerate(row_words)
           if (bottoms := [w.y1 for w in ws if not w.solid and _digit_tall(w, digit_h) and lo <= w.anchor(how) <= hi])]
    if len(own) >= 2:
        pitch_y, first = (float(v) for v in np.polyfit([r for r, _ in own], [b for _, b in own], 1))
        baselines = [first + r * pitch_y for r in range(rows)]
    # ... and past four columns: number-sized words centred where a column a pitch to the left of the
    # first or right of the last would be, in two rows (a table, a calendar); text beside the board (a
    # score, a menu, a logo) is not centred on its columns
    outside = sum(any(abs((w.x0 + w.x1) / 2 - x) <= 0.5 * digit_h and w.x1 - w.x0 <= MAX_WORD_CHARS * 0.75 * digit_h
                      for w in ws for x in (a0 - pitch_x, a0 + width * pitch_x))
                  for ws in row_words)
    if outside >= 2:
        return None
    # A cell is the whole band of its column (numbers may be aligned any way, and grow toward a side),
    # and reaches from above the digits to below the baseline; the reader assigns each word to the
    # cell that holds most of it.
    cell_w = pitch_x - 2
    x0 = a0 - cell_w / 2
    # blocks that fill their cell's whole step (touching across, a number anywhere on each) are the cells:
    # each column's band is its blocks', edge to edge
    on_board = [w for ws in row_words for w in ws if lo <= w.anchor(how) <= hi]
    blocks = [w for w in on_board if w.solid]
    full = [w for w in blocks if w.written and w.x1 - w.x0 >= pitch_x - FULL_STEP_PX]
    if full:
        cell_w = pitch_x
        x0 = float(np.median([w.x0 - round(((w.x0 + w.x1) / 2 - a0) / pitch_x) * pitch_x for w in full]))
    # A cell is its row's whole band too, centred on the middle of the digits: room for a filled block
    # (a tile drawn in a background colour) as tall as the row, whatever the first board showed.
    cell_h = pitch_y - 2
    y0 = baselines[0] - 0.5 * digit_h - cell_h / 2
    # blocks narrower than their step stand in the middle of their cells (a box drawn round each, a number
    # written at its left or on its top line), and blocks stand in the middle of their rows: the bands are
    # centred on them, where what is written still falls inside its own band
    if blocks and not full:
        x0 = on_blocks(x0, cell_w, pitch_x, [(w.x0, w.x1) for w in blocks], [(w.x0, w.x1) for w in on_board])
    if blocks:  # down too where they fill their step across (blocks that touch both ways)
        y0 = on_blocks(y0, cell_h, pitch_y, [(w.y0, w.y1) for w in blocks], [(w.y0, w.y1) for w in on_board])
    margin_x, margin_y = 3.0, 3.0  # a little background around the cells (the safety check samples it)
    lattice = Lattice(x0, y0, pitch_x, pitch_y, cell_w, cell_h, margin_x, margin_y, filled, rows, width)
    return TextBoard(lattice, tuple(int(v) for v in background), digit_h, filled)
