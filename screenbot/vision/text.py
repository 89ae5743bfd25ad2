"""Reads a board written as text (a terminal 2048): each cell is blank, a dot, a 0, or a number in some colour, read by its glyph shape (OCR once per new shape)."""

from __future__ import annotations

import cv2
import numpy as np

from screenbot.board_state import BoardState
from screenbot.control.screen import Frame, OutsideFrameError
from screenbot.imaging import (FG_DIFF, LINE_PX, LINE_THICK_PX, clear_share, commonest_colour, glyph_mask, outside_blocks,
                               run_components, words_of, writing_of)
from screenbot.profile import Profile
from screenbot.vision import ocr
from screenbot.vision.glyphs import known_or_read
from screenbot.vision.reading import Reading, answers, no_number
from screenbot.vision.state_words import state_of_words

# A cell's marks lower than this share of a digit's height are a dot (or a cursor line): empty.
DOT_SHARE = 0.5
# The board's rectangle is mostly background: below this share it is covered or gone.
BACKGROUND_SHARE = 0.6
# Padding (in digit heights) added around a cell before OCR, so that the digits sit well inside.
PAD = 0.5
# A horizontal line this far (share of a row's pitch) from every line of the lattice is not the board's:
# the edge of a box drawn over it.
OFF_LATTICE = 0.1
MIN_GAP_PX = 3  # cells closer than this touch: no background between them
RING_PX, RING_CLEAR = 2, 0.95  # the ring this far outside a board of touching cells, and the share of it left clear
# On a filled block, a mark at its edge as long as this share of the side is its border, not a digit
RIM_SPAN = 0.9
FILLED_EDGE = 0.9  # a share of a box's (or a line's) pixels set: a filled block



def _row_words(writing: np.ndarray, rects):
    """The words written across one row of cells: (x0, y0, x1, y1, tall, solid) in region pixels, from
    a strip reaching half a cell beyond the row's outer cells (a number may stick out of its band)."""
    top = max(0, min(r.y for r in rects))
    bottom = max(r.bottom for r in rects)
    left = max(0, rects[0].x - rects[0].w // 2)
    right = min(writing.shape[1], rects[-1].right + rects[-1].w // 2)
    words = outside_blocks(words_of(writing[top:bottom, left:right]))
    cell_h = min(r.h for r in rects)
    return [(w.x0 + left, w.y0 + top, w.x1 + left, w.y1 + top, int(w.tall), w.solid) for w in words
            if not _next_rows_block(writing, w.x0 + left, w.x1 + left, w.y0 + top, w.y1 + top, top, bottom, cell_h)]


EDGE_PIECE = 0.5  # a filled piece cut by a row's edge, lower than this share of a cell, is another row's block


def _next_rows_block(writing: np.ndarray, x0: int, x1: int, y0: int, y1: int, top: int, bottom: int, cell_h: int) -> bool:
    """Whether a word is the edge of a block drawn in the row above or below: filled, cut by the row's
    top or bottom, going on past it across its whole width, and less than half a cell tall in the row."""
    if y1 - y0 >= EDGE_PIECE * cell_h or float(writing[y0:y1, x0:x1].mean()) < FILLED_EDGE:
        return False
    past = []
    if y0 <= top and top > 0:
        past.append(writing[top - 1, x0:x1])
    if y1 >= bottom and bottom < writing.shape[0]:
        past.append(writing[bottom, x0:x1])
    return any(float(line.mean()) >= FILLED_EDGE for line in past)


TOUCH_SHARE = 0.9  # a run of blocks splits into its cells where it covers this share of each of them
EDGE_SHARE = 0.9  # ... and each piece is one colour along its own left and right edges
EDGE_TOL = 12  # colour levels: a pixel this near a piece's colour is that colour


def _split_touching(region: np.ndarray, words: list, cells) -> list:
    """The row's words with each run of filled blocks that touch across (a row of tiles edge to edge)
    split into one block per cell it fills. A run that covers a cell only in part, or a piece of two
    colours (blocks caught between cells), stays whole: writing between cells."""
    out = []
    for w in words:
        x0, y0, x1, y1, tall, solid = w
        covered = [c for c in cells if min(x1, c.right) - max(x0, c.x) >= TOUCH_SHARE * c.w]
        partly = [c for c in cells if min(x1, c.right) - max(x0, c.x) > 2]
        if not solid or len(covered) < 2 or len(partly) != len(covered):
            out.append(w)
            continue
        pieces = [(max(x0, c.x), y0, min(x1, c.right), y1, tall, True) for c in covered]
        if all(_one_colour_edges(region[py0:py1, px0:px1]) for px0, py0, px1, py1, _t, _s in pieces):
            out += pieces
        else:
            out.append(w)
    return out


def _one_colour_edges(block: np.ndarray) -> bool:
    """Whether a block's commonest colour runs down most of its left and right edges (a pixel or two in)."""
    if block.shape[1] < 6:
        return False
    colour = np.asarray(commonest_colour(block), np.int16)
    edges = np.concatenate([block[:, 1:3], block[:, -3:-1]], axis=1).astype(np.int16)
    return float((np.abs(edges - colour).max(axis=2) <= EDGE_TOL).mean()) >= EDGE_SHARE


def lattice_cols(rects) -> int:
    """How many columns a lattice's cells (row by row) have: the cells level with the first."""
    return sum(1 for r in rects if r.y == rects[0].y)


def _gaps_clear(writing: np.ndarray, rects) -> float:
    """Share of the points on the lines between the cells where nothing is written: low when the
    board is covered or gone."""
    cols = lattice_cols(rects)
    xs = [(rects[c - 1].right + rects[c].x) // 2 for c in range(1, cols)]
    ys = [(rects[(r - 1) * cols].bottom + rects[r * cols].y) // 2 for r in range(1, len(rects) // cols)]
    # where cells touch (no gap between them: tiles drawn edge to edge), a tile covers the line
    apart_x = [x for c, x in enumerate(xs, 1) if rects[c].x - rects[c - 1].right >= MIN_GAP_PX]
    apart_y = [y for r, y in enumerate(ys, 1) if rects[r * cols].y - rects[(r - 1) * cols].bottom >= MIN_GAP_PX]
    if apart_x or apart_y:
        xs, ys = apart_x, apart_y
    x_span, y_span = (rects[0].x, rects[-1].right - 1), (rects[0].y, rects[-1].bottom - 1)
    share = clear_share(writing, xs, ys, x_span, y_span, 48)
    if not (apart_x or apart_y) and share < BACKGROUND_SHARE:
        # cells that touch both ways: tiles cover the lines between them as the board fills, and the board
        # stands where the ring just round it is the paper (a board covered, or gone, shows writing there)
        out = (rects[1].x - rects[0].right) / 2 + RING_PX
        ring = clear_share(writing, [x_span[0] - out, x_span[1] + out], [y_span[0] - out, y_span[1] + out],
                           x_span, y_span, 48)
        return max(share, ring if ring >= RING_CLEAR else 0.0)
    return share


_MARKS_MADE: list = [None, None]  # marks_mask: (the marks list, its length, origin, shape) and the mask made of it


def marks_mask(profile: Profile, shape) -> np.ndarray | None:
    """True at the pixels of the board's region that learned marks cover (see `vision.marks`), or None.
    The mask is made again only when the marks (or where the board is) changed since the last read:
    thousands of points, the same for every frame of a game (do not write into it)."""
    if not profile.marks:
        return None
    h, w = shape[:2]
    origin = profile.board_rect
    made, mask = _MARKS_MADE
    if made is not None and made[0] is profile.marks and made[1:] == (len(profile.marks), origin, (h, w)):
        return mask
    pts = np.asarray(profile.marks, np.int64).reshape(-1, 2) - (origin.x, origin.y)
    pts = pts[(pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)]
    out = np.zeros((h, w), bool)
    out[pts[:, 1], pts[:, 0]] = True
    _MARKS_MADE[:] = [(profile.marks, len(profile.marks), origin, (h, w)), out]
    return out


def lattice_line_ys(rects) -> list[float]:
    """Where the lattice's horizontal lines run (region pixels): between the rows and around them."""
    cols = lattice_cols(rects)
    pitch = rects[cols].y - rects[0].y
    half_gap = (rects[cols].y - rects[0].bottom) / 2
    return [rects[0].y - half_gap + k * pitch for k in range(len(rects) // cols + 1)]


def box_over(mask: np.ndarray, rects, digit_h: int, marked: np.ndarray | None = None) -> tuple[int, int, int, int] | None:
    """A box drawn over the board (a "You win!" or "Game over!" dialog): straight horizontal lines
    that are not the lattice's (they cut across its columns between the lines of the grid) nor
    learned marks, a top and a bottom edge at least a digit apart and one above the other.
    (x0, y0, x1, y1) in region pixels, or None."""
    runs = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (LINE_PX, 1)))
    if not cv2.countNonZero(runs):
        return None  # no straight line across at all
    n, labels, stats = run_components(runs, "box_over")
    cols = lattice_cols(rects)
    pitch = rects[cols].y - rects[0].y
    lines = lattice_line_ys(rects)
    # a game that draws a box round each cell: its lines run along the cells' own edges
    firsts = rects[::cols]
    edges = [r.y - 1 for r in firsts] + [r.bottom for r in firsts]
    # and a game that draws a box round each tile inside its cell: its lines lie within one cell
    off = [(int(x), int(y), int(x + w), int(y + h)) for i, (x, y, w, h, _) in enumerate(stats[1:], 1)
           if h <= LINE_THICK_PX and min(abs(y + h / 2 - ly) for ly in lines) > max(3.0, OFF_LATTICE * pitch)
           and min(abs(y + h / 2 - e) for e in edges) > LINE_THICK_PX
           and not any(r.x - LINE_THICK_PX <= x and x + w <= r.right + LINE_THICK_PX
                       and r.y <= y + h / 2 <= r.bottom for r in rects)
           and (marked is None or marked[labels == i].mean() < 0.5)]
    off = [o for o in off if not _repeats_down(o, off, pitch)]
    for top in off:
        for bottom in off:
            apart = bottom[1] - top[1] >= digit_h
            shared = min(top[2], bottom[2]) - max(top[0], bottom[0]) >= 0.5 * min(top[2] - top[0], bottom[2] - bottom[0])
            if apart and shared:
                return (min(o[0] for o in off), min(o[1] for o in off), max(o[2] for o in off), max(o[3] for o in off))
    return None


REPEAT_PX = 3  # a line a row's step below another, give or take this, is the same line of the next row's box
REPEAT_ROWS = 3  # ... and a line in this many rows at the same place is the look's own (a dialog has two)


def _repeats_down(line, lines, pitch: float) -> bool:
    """Whether a line is one of the same line drawn in REPEAT_ROWS rows or more, a row's step apart (a box
    drawn round every cell, wherever its lines fall in the cells): a box over the board draws its edges once."""
    def twin(a, step):
        return next((b for b in lines if abs(b[0] - a[0]) <= REPEAT_PX and abs(b[2] - a[2]) <= REPEAT_PX
                     and abs(b[1] - a[1] - step) <= REPEAT_PX), None)

    seen = 1
    for step in (pitch, -pitch):
        at = line
        while (at := twin(at, step)) is not None:
            seen += 1
    return seen >= REPEAT_ROWS


def _box_state(writing: np.ndarray, box, digit_h: int) -> tuple[BoardState, str]:
    """What the words inside a box over the board say: won, over, or (words that name neither) unsettled."""
    x0, y0, x1, y1 = box
    # a title may be written across the box's top or bottom edge: look a digit beyond them, and
    # leave out what reaches past that (the cells above and below)
    y0, y1 = max(0, y0 - digit_h), min(writing.shape[0], y1 + digit_h)
    inside = writing[y0:y1, x0:x1].copy()
    h, w = inside.shape
    n, labels, stats, _ = cv2.connectedComponentsWithStats(inside.astype(np.uint8), connectivity=8)
    for i in range(1, n):
        x, y, cw, ch, _ = stats[i]
        cut = y == 0 or x == 0 or y + ch == h or x + cw == w
        side = ch > 1.6 * digit_h and cw <= LINE_THICK_PX  # the box's own sides are no letters
        if cut or side:
            inside[labels == i] = 0
    try:
        text = ocr.read_words(inside.astype(bool), digit_h)
    except ocr.OcrUnavailableError:
        return BoardState.UNSETTLED, "a box is drawn over the board (tesseract is needed to read its words)"
    state = state_of_words(text)
    said = " ".join(text.split())
    if state is None:
        return BoardState.UNSETTLED, f"a box is drawn over the board; its words ({said!r}) name no state"
    return state, f"a box over the board says {said!r}"


def _block_digits(block: np.ndarray) -> tuple[tuple[int, int, int], np.ndarray]:
    """A filled block's own colour and the mask of the digits written on it (away from its rim)."""
    colour = commonest_colour(block)
    mask = glyph_mask(block, colour)  # a block's own digits: written to be read on it
    mask[:2, :] = 0
    mask[-2:, :] = 0
    mask[:, :2] = 0
    mask[:, -2:] = 0
    return colour, mask


def _without_rim(block: np.ndarray, colour, mask: np.ndarray, digit_h: int) -> tuple[np.ndarray, np.ndarray]:
    """A block well taller than a digit may hold more than its digits: the cell's border, or a strip of
    the paper beside it, a mark at its edge along a whole side. Those are left out of the mask and
    painted over with the block's colour (the block as OCR is to see it)."""
    h, w = mask.shape
    if h < 2 * digit_h:
        return block, mask
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    rims = [i for i in range(1, n)
            if (stats[i, 0] <= 2 or stats[i, 1] <= 2 or stats[i, 0] + stats[i, 2] >= w - 2 or stats[i, 1] + stats[i, 3] >= h - 2)
            and (stats[i, 2] >= RIM_SPAN * (w - 4) or stats[i, 3] >= RIM_SPAN * (h - 4))]
    if not rims:
        return block, mask
    mask = mask.copy()
    mask[np.isin(labels, rims)] = 0
    return np.where(mask[..., None].astype(bool), block, np.asarray(colour, block.dtype)), mask


def read_text_board(frame: Frame, profile: Profile, ocr_allowed: bool = True) -> Reading:
    """The grid written in the profile's text cells. Each word written in a row goes to the cell
    that holds most of it; a dot or nothing is an empty cell; learned marks are left out. `won` or
    `over` when a box drawn over the board says so (`unsettled` when its words name neither);
    `unsettled` when a cell holds two words or a word lies between cells; `no-board` when the
    background is not there."""
    done = answers(profile.board_rect)
    try:
        region = frame.crop(profile.board_rect).pixels
    except OutsideFrameError:
        return done(None, BoardState.NO_BOARD, "the board is not inside the captured area")
    # the paper numbers are written on; where the cells lie apart on a colour of their own (gaps wider
    # than a line), that colour is no writing either
    background = profile.empty_colour or profile.gap_colour
    digit_h = max(1, profile.digit_h)
    origin = profile.board_rect
    rects = [c.translated(-origin.x, -origin.y) for c in profile.cells]
    ink = glyph_mask(region, background, profile.ink_diff)
    if tuple(profile.gap_colour) != tuple(background):
        ink &= glyph_mask(region, profile.gap_colour, profile.ink_diff)
    # once per read: rows are read from it (a digit's own stroke, as tall as the digits, is no line)
    writing = writing_of(ink, digit_h, region)
    marked = marks_mask(profile, region.shape)
    if marked is not None:
        writing[marked] = 0  # help text, a logo: part of the look, never a number
    box = box_over(ink, rects, digit_h, marked)
    if box is not None:
        state, why = _box_state(writing, box, digit_h)
        return done(None, state, why, 1)
    if _gaps_clear(writing, rects) < BACKGROUND_SHARE:
        return done(None, BoardState.NO_BOARD, "the board's background is not where the profile says: run `screenbot calibrate` again")
    values = [0] * len(rects)
    calls = 0
    learned = False
    n_cols = profile.cols
    for row in range(profile.rows):
        cells = rects[row * n_cols:(row + 1) * n_cols]
        taken: set[int] = set()
        for x0, y0, x1, y1, tall, solid in _split_touching(region, _row_words(writing, cells), cells):
            if tall < DOT_SHARE * digit_h and not solid:
                continue  # a dot, or a speck: nothing written
            overlaps = [max(0, min(x1, c.right) - max(x0, c.x)) for c in cells]
            col = int(np.argmax(overlaps))
            if overlaps[col] <= 0.5 * (x1 - x0) or col in taken:
                where = f"row {row + 1}" if overlaps[col] <= 0.5 * (x1 - x0) else f"cell {row},{col}"
                return done(None, BoardState.UNSETTLED, f"{where}: writing between cells")
            taken.add(col)
            i = row * n_cols + col
            word = region[y0:y1, x0:x1]
            over = marked[y0:y1, x0:x1] if marked is not None else None
            if solid:  # a tile drawn as a filled block, its digits written on it
                paper, mask = _block_digits(word)
                colour = paper
                word, mask = _without_rim(word, paper, mask, digit_h)
            else:
                paper, mask = background, glyph_mask(word, background, profile.ink_diff)
            if over is not None and over.any():  # a mark drawn on the tile: paint it over with the paper
                word = word.copy()
                word[over] = paper
                mask[over] = 0
            if not solid:
                colour = commonest_colour(word[mask.astype(bool)])  # the glyph's solid core, not its rim
            def read(word=word, paper=paper, solid=solid):
                pad = int(PAD * digit_h) + 2
                padded = cv2.copyMakeBorder(word, pad, pad, pad, pad, cv2.BORDER_CONSTANT,
                                            value=tuple(int(v) for v in paper))
                return ocr.read_number(padded, paper, kilo=True, diff=profile.ink_diff if not solid else FG_DIFF,
                                       zero=True)

            value, spent = known_or_read(profile, colour, ocr.glyph_bits(mask), read if ocr_allowed else None)
            calls += spent
            learned = learned or (spent > 0 and value is not None)
            if value is None:
                raise no_number(row, col, done(None, BoardState.UNSETTLED, f"cell {row},{col}: no number could be read", calls))
            values[i] = value
        for col, cell in enumerate(cells):
            if col in taken:
                continue
            value, spent = _unwritten_cell(region, writing, cell, profile, ocr_allowed)
            calls += spent
            if value is None:
                raise no_number(row, col, done(None, BoardState.UNSETTLED, f"cell {row},{col}: a block with no number read", calls))
            learned = learned or spent > 0
            values[row * n_cols + col] = value
    grid = tuple(tuple(values[r * n_cols:(r + 1) * n_cols]) for r in range(profile.rows))
    return done(grid, BoardState.PLAYING, "read digits" if calls else "", calls, learned)


# A cell with no word on it is blank when ink covers less than this share of its inside; a block
# that fills it (too big for a word) is read as a tile; anything between is neither.
BLANK_SHARE, FILLED_SHARE = 0.2, 0.6


def _unwritten_cell(region: np.ndarray, writing: np.ndarray, cell, profile: Profile, ocr_allowed: bool) -> tuple[int | None, int]:
    """(value, OCR calls) of a cell where no word was found: 0 when its inside is the paper (the lines of a
    box drawn round it and the look's learned marks left out), the number on it when a block of one colour
    fills it, None when it is neither (never taken for blank)."""
    mx, my = max(1, cell.w // 7), max(1, cell.h // 7)
    inside = writing[cell.y + my:cell.bottom - my, cell.x + mx:cell.right - mx]
    share = float(inside.mean()) if inside.size else 0.0
    if share < BLANK_SHARE:
        return 0, 0
    if share < FILLED_SHARE:
        return None, 0
    block = region[cell.y + my:cell.bottom - my, cell.x + mx:cell.right - mx]  # the tile's own rim left out
    colour, mask = _block_digits(block)
    return known_or_read(profile, colour, ocr.glyph_bits(mask),
                         (lambda: ocr.read_number(block, colour, kilo=True, zero=True)) if ocr_allowed else None)
