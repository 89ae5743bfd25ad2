"""What is written on filled blocks (tiles drawn as a background colour, their digits on them) among a text
board's words: the digits' height, and where across each block its number stands."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from screenbot.imaging import MAX_GLYPH_PX, MIN_GLYPH_PX, Word, commonest_colour, glyph_mask


def _block_marks(pixels: np.ndarray, w: Word, most: float = 0.6) -> list[tuple[int, int, int, int]]:
    """The marks written on a filled block (the digits on a tile drawn as a block), at most `most` of its
    height: x, y, width, height of each, in the block's coordinates."""
    block = pixels[w.y0:w.y1, w.x0:w.x1]
    mask = glyph_mask(block, commonest_colour(block)).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return [tuple(int(v) for v in stats[i, :4]) for i in range(1, n)
            if MIN_GLYPH_PX <= stats[i, 3] <= most * (w.y1 - w.y0)
            and stats[i, 0] > 0 and stats[i, 1] > 0 and stats[i, 0] + stats[i, 2] < w.x1 - w.x0
            and stats[i, 1] + stats[i, 3] < w.y1 - w.y0]  # the block's own rim is no digit


def block_digit_heights(pixels: np.ndarray, words: list[Word]) -> list[float]:
    """The heights of the marks written on filled blocks (the digits on tiles drawn as blocks): what
    their text size is where nothing is written on the background."""
    return [float(max(h for _x, _y, _w, h in marks)) for w in words if w.solid and (marks := _block_marks(pixels, w))]


def with_written(pixels: np.ndarray, words: list[Word]) -> list[Word]:
    """The words, each filled block with one number on it knowing where across it that is written (a block
    a text line tall holds digits nearly as tall as itself). Blocks that touch across, taken for one, are
    parted where their colour changes, and a run of one colour with several numbers on it into as many
    equal blocks, each holding one. A block with more on it than that is left as it is."""
    out = []
    for w in words:
        for piece in (_parts(pixels, w) if w.solid else [w]):
            out.extend(_written(pixels, piece))
    return out


def parted_tall(pixels: np.ndarray, words: list[Word]) -> list[Word]:
    """The words with each filled block taller than a glyph (blocks that touch down, taken for one) parted
    where the colour along both its sides changes, and a run of one colour with numbers on several text
    lines one above another into as many equal blocks down. What stays taller than a glyph is left out."""
    out = []
    for w in words:
        if w.tall <= MAX_GLYPH_PX:
            out.append(w)
            continue
        for part in _parts(pixels, w):
            out += [p for p in (_lines_down(pixels, part) if part.tall > MAX_GLYPH_PX else [part]) if p.tall <= MAX_GLYPH_PX]
    return out


def _lines_down(pixels: np.ndarray, w: Word) -> list[Word]:
    """A block of one colour with one number on each of several text lines, one above another: as many equal
    blocks down, each holding one line (the block as it is where a line falls across two shares)."""
    marks = sorted(_block_marks(pixels, w, 0.9), key=lambda m: m[1])
    lines: list[list[int]] = []  # top, bottom of each text line
    for _x, y, _w, h in marks:
        if lines and y < lines[-1][1]:
            lines[-1][1] = max(lines[-1][1], y + h)
        else:
            lines.append([y, y + h])
    if len(lines) < 2:
        return [w]
    step = (w.y1 - w.y0) / len(lines)
    if any(not (k * step <= a and b <= (k + 1) * step) for k, (a, b) in enumerate(lines)):
        return [w]
    return [replace(w, y0=w.y0 + round(k * step), y1=w.y0 + round((k + 1) * step),
                    tall=round((k + 1) * step) - round(k * step)) for k in range(len(lines))]


def _written(pixels: np.ndarray, w: Word) -> list[Word]:
    marks = sorted(_block_marks(pixels, w, 0.9)) if w.solid else []
    tall = max((h for _x, _y, _w, h in marks), default=0)
    one_line = all(min(y + h, b[1] + b[3]) - max(y, b[1]) >= 0.5 * min(h, b[3])
                   for x, y, _w, h in marks for b in marks)
    if not marks or not one_line:
        return [w]
    groups = [[marks[0]]]
    for a, b in zip(marks, marks[1:]):
        if b[0] - (a[0] + a[2]) <= tall:
            groups[-1].append(b)
        else:
            groups.append([b])
    step = (w.x1 - w.x0) / len(groups)
    spans = [(g[0][0], max(x + mw for x, _y, mw, _h in g)) for g in groups]
    downs = [(w.y0 + min(y for _x, y, _w, _h in g), w.y0 + max(y + h for _x, y, _w, h in g)) for g in groups]
    if any(not (k * step <= a and b <= (k + 1) * step) for k, (a, b) in enumerate(spans)):
        return [w]  # numbers that do not each stand in a share of their own
    return [replace(w, x0=w.x0 + round(k * step), x1=w.x0 + round((k + 1) * step),
                    written=(w.x0 + int(a), w.x0 + int(b)), written_y=downs[k]) for k, (a, b) in enumerate(spans)]


RUN_PX = 3  # a colour along a block's edge for this many pixels at least is a block of its own
PART_DIFF = 20  # colour levels: blocks of two palette colours this far apart touch there (a terminal draws them flat)


def _parts(pixels: np.ndarray, w: Word) -> list[Word]:
    """A filled block parted where the colour along both its top and bottom edges changes (blocks of
    different colours that touch across), and each part where the colour along both its sides changes
    (blocks that touch down)."""
    out = []
    for a, b in _cuts(pixels[[w.y0 + 1, w.y1 - 2], w.x0:w.x1], w.x1 - w.x0, w.y1 - w.y0):
        part = replace(w, x0=w.x0 + a, x1=w.x0 + b)
        sides = pixels[part.y0:part.y1, [part.x0 + 1, part.x1 - 2]].transpose(1, 0, 2)
        out += [replace(part, y0=part.y0 + c, y1=part.y0 + d, tall=d - c)
                for c, d in _cuts(sides, part.y1 - part.y0, part.x1 - part.x0)]
    return out


def _cuts(edges: np.ndarray, length: int, across: int) -> list[tuple[int, int]]:
    """Where along two parallel edges of a block (2 x length pixels) both change colour: (start, end) of
    each run of one colour RUN_PX long or more, the whole length where the block is too small to part."""
    if across < 4 or length < 2 * RUN_PX:
        return [(0, length)]
    change = (np.abs(np.diff(edges.astype(np.int16), axis=1)).max(axis=2) > PART_DIFF).all(axis=0)
    kept = [0]
    for c in [int(i) + 1 for i in np.flatnonzero(change)] + [length]:
        if c - kept[-1] >= RUN_PX:
            kept.append(c)
    kept[-1] = length
    return list(zip(kept, kept[1:]))
