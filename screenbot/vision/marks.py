"""Marks over the board (help text, a logo, a watermark) learned at calibration as part of its look."""

from __future__ import annotations

import cv2
import numpy as np

from screenbot.control.screen import Frame, OutsideFrameError
from screenbot.imaging import LINE_THICK_PX, RULE_TALL, glyph_mask, outside_blocks, without_lines, words_of
from screenbot.profile import Profile
from screenbot.vision.empty_ring import learn_empty_ring
from screenbot.vision.sampling import GAP, labels_of, rim_lines_in_gap, sampler_for

# On a text board a cell's number is written across the middle of its cell: writing whose middle is
# further than this share of a digit's height from it is no number.
OFF_MIDDLE = 0.6
# ... and lies in one cell: writing with more than this share of its width outside its cell is no number.
OUTSIDE = 0.1


def learn_marks(frame: Frame, profile: Profile) -> int:
    """Remember the gap-line points that a still frame shows in no gap colour (text, an icon, a
    watermark drawn over the board): from now on they are part of the look, never a tile between
    cells. Returns how many points were marked. For the calibration frame, where the board is still."""
    if profile.kind == "text":
        # a number is never a mark: where the frame read as a board before, the marks may not change it
        # (numbers written off where the cells were taken to have them, by stubs of a grid's lines)
        before, kept = _grid_read(frame, profile), profile.marks
        learned = learn_text_marks(frame, profile)
        if learned and before is not None and _grid_read(frame, profile) != before:
            profile.marks = kept
            return 0
        return learned
    if profile.kind == "blocks":
        return 0  # no gaps to draw on: anything written on a block is read as its number
    try:
        region = frame.crop(profile.board_rect).pixels
    except OutsideFrameError:
        return 0
    s = sampler_for(profile)
    origin = profile.board_rect
    odd = labels_of(s.lut, region[s.line_y, s.line_x]) != GAP
    if odd.mean() > 0.2:  # not marks: a covered board, an overlay, or not a board at all
        return 0
    points = _marked_points(odd, s.line_y, s.line_x, origin)
    if s.rim_y is not None:  # and the lines beside the cells' edges that show the gap (the reader reads no other)
        odd = labels_of(s.lut, region[s.rim_y, s.rim_x]) != GAP
        gap_like = rim_lines_in_gap(odd)
        points |= _marked_points(odd[gap_like], s.rim_y[gap_like], s.rim_x[gap_like], origin)
    points = sorted(points)
    if points:
        profile.marks = [list(p) for p in points]
        profile.changed = True
    grid = _grid_read(frame, profile)
    if grid is not None:
        ring = learn_empty_ring(region, profile, np.array([v == 0 for row in grid for v in row]))
        if ring != profile.empty_ring:
            profile.empty_ring = ring
            profile.changed = True
    return len(points)


def _grid_read(frame: Frame, profile: Profile):
    """The grid a frame reads as with the profile's marks as they are, or None (no board read). Read on a
    copy: what the reader learns (digit shapes) stays out of the profile."""
    import copy

    from screenbot.board_state import BoardState
    from screenbot.errors import ScreenbotError
    from screenbot.vision.reader import read_board

    try:
        reading = read_board(frame, copy.deepcopy(profile))
    except ScreenbotError:
        return None
    return reading.grid if reading.state == BoardState.PLAYING else None


def _marked_points(odd: np.ndarray, ys: np.ndarray, xs: np.ndarray, origin) -> set[tuple[int, int]]:
    """Screen points of the line points in no gap colour (`odd`), with the two either side of each
    (a mark's rim blends into the gap)."""
    near = odd.copy()
    for shift in (1, 2):
        near[:, shift:] |= odd[:, :-shift]
        near[:, :-shift] |= odd[:, shift:]
    return {(int(xs[i]) + origin.x, int(ys[i]) + origin.y) for i in zip(*np.nonzero(near))}


def learn_text_marks(frame: Frame, profile: Profile) -> int:
    """On a text board: remember the pixels of writing that is no cell's number (help text across
    the cells, a logo above a number, a word between the cells), so the reader leaves them out.
    A number is written across the middle of one cell; writing that crosses a cell's border or
    sits above or below the middle is a mark. Filled blocks (tiles) and dots are never marks.
    Returns how many pixels were marked. For the calibration frame, where the board is still."""
    try:
        region = frame.crop(profile.board_rect).pixels
    except OutsideFrameError:
        return 0
    origin = profile.board_rect
    rects = [c.translated(-origin.x, -origin.y) for c in profile.cells]
    digit_h = max(1, profile.digit_h)
    writing = without_lines(glyph_mask(region, profile.gap_colour))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(writing, connectivity=8)
    marked = np.zeros(writing.shape, bool)
    # a stroke taller than the digits (a box's side drawn with a bar per text line) is no number, nor part
    # of the word beside it: marked alone, before words are made (a number near a box's side stays a number)
    rules = [i for i in range(1, n) if stats[i, 3] > RULE_TALL * digit_h and stats[i, 2] <= LINE_THICK_PX]
    if rules:
        ruled = np.isin(labels, rules)
        marked |= ruled
        writing = writing.copy()
        writing[ruled] = 0
    words = [w for w in outside_blocks(words_of(writing)) if not w.solid and w.tall >= 0.5 * digit_h]
    # (a tile, or a speck the reader takes for nothing written, a dot or a stub of the grid, is left out)
    cells = []
    for word in words:
        inside = [max(0, min(word.x1, r.right) - max(word.x0, r.x)) * max(0, min(word.y1, r.bottom) - max(word.y0, r.y))
                  for r in rects]
        cells.append(rects[int(np.argmax(inside))])
    line = _number_line(words, cells, digit_h)
    for word, cell in zip(words, cells):
        width = word.x1 - word.x0
        in_cell = max(0, min(word.x1, cell.right) - max(word.x0, cell.x))
        off_middle = abs((word.y0 + word.y1) / 2 - (cell.y + cell.h / 2 + line))
        dot = word.tall < 0.45 * digit_h and off_middle <= digit_h
        # a stroke taller than the digits (a box's side drawn with a bar per text line) is no number
        rule = word.tall > RULE_TALL * digit_h and width <= LINE_THICK_PX
        if not rule and (dot or (off_middle <= OFF_MIDDLE * digit_h and in_cell >= (1 - OUTSIDE) * width
                                 and word.y0 >= cell.y and word.y1 <= cell.bottom)):
            continue  # a number (or an empty cell's dot) where a number is written
        # the word's own marks: the components that lie within its box
        for i in range(1, n):
            x, y, w, h, _ = stats[i]
            if word.x0 <= x and x + w <= word.x1 and word.y0 <= y and y + h <= word.y1:
                marked |= labels == i
    if not marked.any():
        return 0
    marked = cv2.dilate(marked.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)  # and their soft rims
    ys, xs = np.nonzero(marked)
    profile.marks = [[int(x) + origin.x, int(y) + origin.y] for x, y in zip(xs, ys)]
    profile.changed = True
    return len(profile.marks)


def _number_line(words: list, cells: list, digit_h: int) -> float:
    """How far below a cell's middle (negative: above) this look writes its numbers: 0, unless the words
    written wholly inside cells (stubs of a grid's lines are not), one to a cell, mostly stand at one other height (a tall cell whose
    number is on a text line below or above its middle). A logo over a number shares its cell; help
    text crosses cells."""
    inside = [(word, cell) for word, cell in zip(words, cells) if word.x1 - word.x0 > LINE_THICK_PX
              and word.x0 >= cell.x and word.x1 <= cell.right and word.y0 >= cell.y and word.y1 <= cell.bottom]
    offsets = [(word.y0 + word.y1) / 2 - (cell.y + cell.h / 2) for word, cell in inside
               if sum(c is cell for _, c in inside) == 1]
    if len(offsets) < 2:
        return 0.0
    line = float(np.median(offsets))
    agree = sum(abs(o - line) <= OFF_MIDDLE * digit_h for o in offsets)
    return line if abs(line) > OFF_MIDDLE * digit_h and agree * 3 >= 2 * len(offsets) else 0.0
