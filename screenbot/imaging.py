"""Image primitives that finding a board (calibration) and reading one (vision) share: what is written
on a background (glyph masks, marks joined into words), thin ruled lines, a picture's commonest colour;
and picture files read and written on any path."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from screenbot.errors import ScreenbotError
from screenbot.segments import read_digit

FG_DIFF = 48  # a pixel this far (largest channel difference) from the background belongs to a glyph
MIN_GLYPH_PX, MAX_GLYPH_PX = 7, 120  # the height of a digit, in pixels
LINE_PX = 40  # a straight run this long and ...
LINE_THICK_PX = 4  # ... at most this thick is a line of the grid, not writing
EDGE_PX = 2  # a tile's or block's own edge (antialiased, a rounded corner's rim, a neighbour a pixel over) is no writing
RULE_TALL = 1.25  # a stroke a line thick and this many digit heights tall is a rule ("|" is taller than a digit)
LINE_GAP_PX = 5  # a line down may break this much between two lines of text and go on
SOLID = 0.6  # a mark filling this share of its box is a filled block (a tile background)
DRAWN_ASPECT = 0.85  # a filled mark at most this wide for its height may be a digit drawn in a block font
BAR_ASPECT = 0.35  # ... and one at most this wide, a bar as tall as the digits, a block font's "1"
DRAWN_GAP = 0.75  # digits drawn in a block font stand up to this share of their height apart in a number
STROKE_SHARE = 1.25  # a straight stroke up to this share of the digits' height may be part of a digit (a line-art "1")


@dataclass(frozen=True)
class Word:
    """Marks side by side on one baseline: x0, y0 (top), x1, y1 (bottom, exclusive), and the height
    of its tallest mark (a dot is much shorter than a digit)."""

    x0: int
    y0: int
    x1: int
    y1: int
    tall: int
    solid: bool = False  # a filled block (a tile's background colour), its digits written in the gaps
    # a filled block's number: from where to where across it is written (None: not looked for, or none)
    written: tuple[int, int] | None = None
    written_y: tuple[int, int] | None = None  # ... and from where to where down (its text line)

    @property
    def mid_y(self) -> float:
        return (self.y0 + self.y1) / 2

    @property
    def line_y(self) -> float:
        """The middle of the word's text line: a filled block's by the number written on it where known."""
        return (self.written_y[0] + self.written_y[1]) / 2 if self.written_y else self.mid_y

    def anchor(self, how: str) -> float:
        """Where the word stands across, aligned `how` (right, left, centre): a filled block by the number
        written on it where that is known (a block filling its cell's whole step, its number left-aligned,
        stands with the numbers written bare in its column)."""
        x0, x1 = self.written or (self.x0, self.x1)
        return {"right": x1, "left": x0, "centre": (x0 + x1) / 2}[how]


def glyph_mask(pixels: np.ndarray, background, diff: int = FG_DIFF) -> np.ndarray:
    """1 where a pixel is more than `diff` from `background` in some channel (what is written on it), else 0."""
    d = cv2.absdiff(pixels, tuple(int(v) for v in background[:3]) + (0,))  # a scalar: no picture of it made
    return (np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2]) > diff).astype(np.uint8)


def without_lines(mask: np.ndarray, min_len: int = LINE_PX, gap: int = 0, thick: int = LINE_THICK_PX,
                  pixels: np.ndarray | None = None) -> np.ndarray:
    """The mask less thin straight lines at least `min_len` px long (a grid drawn with box-drawing
    characters or rules between the cells); filled blocks stay. A reader that knows its digits'
    height passes more than it, so that a line-art digit's stroke stays. A line down may break for
    up to `gap` px where one text line's box-drawing character meets the next's (at small font
    sizes): it is still one line. With the picture's `pixels`, a thin run of the same colour as the ink
    on both its sides is part of a filled block (a strip of it between two digits), not a line."""
    out = mask.copy()
    passes = [(mask, (min_len, 1), 3), (mask, (1, min_len), 2)]
    if gap:  # strokes no wider than a line, made whole down across breaks of `gap` px
        wide = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (LINE_THICK_PX + 1, 1)))
        thin = cv2.morphologyEx(mask & (1 - wide), cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (1, gap + 1)))
        passes.append((thin, (1, min_len), 2))
    for source, kernel, thin_axis in passes:
        runs = cv2.morphologyEx(source, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, kernel))
        if not cv2.countNonZero(runs):
            continue  # no run that long at all (a board with no lines: most looks)
        _, labels, stats = run_components(runs, (kernel, source is mask))
        thin = stats[:, thin_axis] <= thick  # height (3) of a horizontal run, width (2) of a vertical one
        thin[0] = False  # (the background)
        if pixels is not None:
            for i in np.flatnonzero(thin):
                thin[i] = not _inside_fill(mask, pixels, stats[i], thin_axis)
        if thin.any():
            out[thin[labels]] = 0
    return out


FILL_SIDES = 0.5  # a thin run with ink of its own colour along this share of both its sides lies inside a filled block
FILL_DIFF = 20  # colour levels: the run and its sides this near are one fill


def _inside_fill(mask: np.ndarray, pixels: np.ndarray, stat, thin_axis: int) -> bool:
    """Whether a thin straight run lies in a filled block: ink of its own colour right beside it on both sides
    along most of its length (a strip between two digits written on the block), or on one side, and still a
    line's thickness further on, with nothing on the other (the block's band above or below its number); not
    a line (a rule between two blocks, or along one, is drawn in a colour of its own, and the two pixel rows of
    an antialiased line are no block)."""
    x, y, w, h = (int(v) for v in stat[:4])
    down = thin_axis == 2  # a run down: the columns left and right of it
    lo, size, limit = (x, w, mask.shape[1]) if down else (y, h, mask.shape[0])
    mid = (slice(y, y + h), x + w // 2) if down else (y + h // 2, slice(x, x + w))
    colour = pixels[mid].astype(np.int16)

    def at(k: int):  # the line of pixels k across from the run's first
        return (slice(y, y + h), k) if down else (k, slice(x, x + w))

    def alike(k: int) -> np.ndarray:
        if not 0 <= k < limit:
            return np.zeros(len(colour), bool)
        return mask[at(k)].astype(bool) & (np.abs(pixels[at(k)].astype(np.int16) - colour).max(axis=1) <= FILL_DIFF)

    def bare(k: int) -> bool:
        return not 0 <= k < limit or not mask[at(k)].any()

    enough = FILL_SIDES * len(colour)
    before, after = lo - 1, lo + size
    if lo == 0 or after >= limit:
        return False
    if np.count_nonzero(alike(before) & alike(after)) >= enough:
        return True
    deep = LINE_THICK_PX + 1
    return any(bare(other) and np.count_nonzero(alike(side)) >= enough and np.count_nonzero(alike(far)) >= enough
               for side, far, other in ((before, before - deep, after), (after, after + deep, before)))


def writing_of(ink: np.ndarray, digit_h: int, pixels: np.ndarray | None = None) -> np.ndarray:
    """A text board's ink less its straight lines: runs longer than LINE_PX (and than a digit's own
    stroke) broken by at most LINE_GAP_PX (a side drawn with one bar per text line is one line); with the
    `pixels`, strips of a filled block between its digits stay."""
    return without_lines(ink, max(LINE_PX, int(STROKE_SHARE * digit_h) + 1), LINE_GAP_PX, pixels=pixels)


_RUNS_SEEN: dict[tuple, tuple[np.ndarray, tuple]] = {}  # run_components: the last runs of each size, and their parts
RUNS_KEPT = 16


def run_components(runs: np.ndarray, kind=None) -> tuple[int, np.ndarray, np.ndarray]:
    """connectedComponentsWithStats of a mask of straight runs (8-connected): (count, labels, stats). A
    game's ruled lines stand still from frame to frame while only its numbers change, so the runs of the
    last picture of each size and `kind` (how they were found) are kept, and the same runs again are not
    taken apart again (do not write into the labels returned)."""
    key = (runs.shape, runs.dtype.str, kind)
    seen = _RUNS_SEEN.get(key)
    if seen is not None and np.array_equal(seen[0], runs):
        return seen[1]
    n, labels, stats, _ = cv2.connectedComponentsWithStats(runs, connectivity=8)
    if len(_RUNS_SEEN) >= RUNS_KEPT:
        _RUNS_SEEN.clear()
    _RUNS_SEEN[key] = (runs.copy(), (n, labels, stats))
    return n, labels, stats


BAND_PX = 8  # words_of: the height of the bands words are kept in by their middles
RECENT = 6  # ... and how many of the last begun in each band a mark may join


def words_of(mask: np.ndarray, tall_blocks: bool = False) -> list[Word]:
    """Marks (connected components) joined into words: side by side, overlapping vertically, gaps
    narrower than 0.6 of their height. `tall_blocks`: filled blocks taller than a glyph are kept too, each
    a word of its own (blocks that touch down, for the caller to part)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    stats = _corner_blocks_parted(labels, stats)
    marks = []
    for stat in stats[1:]:
        i = int(stat[5]) if len(stat) > 5 else 0
        x, y, w, h, area = (int(v) for v in stat[:5])
        if tall_blocks and h > MAX_GLYPH_PX and w <= 3 * MAX_GLYPH_PX and area >= SOLID * w * h and w > 2 * MIN_GLYPH_PX:
            marks.append([x, y, x + w, y + h, h, True, False])
        elif h <= MAX_GLYPH_PX and w <= 3 * MAX_GLYPH_PX and area >= 2:
            filled = area >= SOLID * w * h and min(w, h) > 2 * MIN_GLYPH_PX
            drawn = filled and i > 0 and _drawn_digit(labels[y:y + h, x:x + w] == i)
            # a filled mark that leaves room at its corners or bays is a heavy digit (a bold 6 fills most of its
            # box), not a block
            solid = filled and not drawn and (i == 0 or _boxed(labels[y:y + h, x:x + w] == i))
            marks.append([x, y, x + w, y + h, h, solid, drawn])
    marks.sort(key=lambda m: m[0])
    words: list[list[int]] = []
    # the words a mark may join, by the band their middle lies in: a mark looks only at the last words
    # begun in the bands around its own middle, so that the marks of other rows at the same place across
    # (a grid's rules and bars, a menu beside the board) never push its own row's word out of sight
    bands: dict[int, list[list[int]]] = {}
    for m in marks:
        if m[5]:  # a block is a word of its own
            words.append(list(m))
            continue
        if m[4] < MIN_GLYPH_PX and m[2] - m[0] >= 2 * m[4]:
            words.append(list(m))  # a dash of an ASCII rule ("+-----+"), a minus, an underscore: no number's part
            continue
        mid, reach = (m[1] + m[3]) // 2, max(m[4], 2 * MIN_GLYPH_PX)
        near_words = [wd for band in range((mid - reach) // BAND_PX, (mid + reach) // BAND_PX + 1)
                      for wd in bands.get(band, ())[-RECENT:]]
        for wd in sorted(near_words, key=lambda wd: wd[7], reverse=True):
            overlap = min(wd[3], m[3]) - max(wd[1], m[1])
            height = max(wd[4], m[4])
            near = m[0] - wd[2] <= (DRAWN_GAP if m[6] and wd[6] else 0.6) * height
            same_line = overlap >= 0.5 * min(wd[3] - wd[1], m[3] - m[1]) or (
                # a dot or comma sits on the baseline of the digits beside it
                abs(wd[3] - m[3]) <= 0.2 * height
            )
            if near and same_line and m[0] >= wd[0]:
                wd[0], wd[1], wd[2], wd[3] = min(wd[0], m[0]), min(wd[1], m[1]), max(wd[2], m[2]), max(wd[3], m[3])
                wd[4] = max(wd[4], m[4])
                wd[6] = wd[6] and m[6]
                break
        else:
            words.append([*m, len(words)])
            bands.setdefault(mid // BAND_PX, []).append(words[-1])
    return [Word(int(w[0]), int(w[1]), int(w[2]), int(w[3]), int(w[4]), bool(w[5])) for w in words]


CORNER_FILL = 0.3  # a mark filling at least this share of its box may be filled blocks that meet at a corner


def _corner_blocks_parted(labels: np.ndarray, stats: np.ndarray) -> np.ndarray:
    """The marks' stats (x, y, w, h, area, label) with each mark made of filled blocks that meet only at a
    corner (tiles drawn edge to edge, one a row down and a column over) parted into its blocks: its pieces
    joined side by side (4-connected), where two or more of them are filled blocks. A parted piece's label
    is 0 (it is no digit drawn in a block font)."""
    out = np.column_stack([stats[:, :5], np.arange(len(stats))])
    w, h, area = stats[:, 2], stats[:, 3], stats[:, 4]
    maybe = np.flatnonzero((np.minimum(w, h) > 4 * MIN_GLYPH_PX) & (area < SOLID * w * h) & (area >= CORNER_FILL * w * h)
                           & (h <= 2 * MAX_GLYPH_PX) & (w <= 6 * MAX_GLYPH_PX))
    if not len(maybe):
        return out
    out = list(out)
    for i in maybe[maybe > 0]:
        x, y, w, h = (int(v) for v in stats[i][:4])
        mark = (labels[y:y + h, x:x + w] == i).astype(np.uint8)
        m, _, parts, _ = cv2.connectedComponentsWithStats(mark, connectivity=4)
        filled = [j for j in range(1, m) if parts[j, 4] >= SOLID * parts[j, 2] * parts[j, 3]
                  and min(parts[j, 2], parts[j, 3]) > 2 * MIN_GLYPH_PX]
        if len(filled) < 2:
            continue
        out[i] = None
        out += [np.array([x + parts[j, 0], y + parts[j, 1], parts[j, 2], parts[j, 3], parts[j, 4], 0]) for j in range(1, m)]
    return np.array([st for st in out if st is not None]).reshape(-1, 6)


BOXED = 0.93  # a filled block, the holes of its number filled in, covers this share of its box


def _boxed(mark: np.ndarray) -> bool:
    """Whether a filled mark is a block: with the holes in it filled (a number written in the paper's
    colour on it), it covers BOXED of its box. A heavy digit leaves room at its rounded corners and in the
    bays open to its side (a bold 3, 6 or 8 fills most of its box, but not all of it)."""
    h, w = mark.shape
    outside = np.zeros((h + 2, w + 2), np.uint8)
    outside[1:-1, 1:-1] = mark
    flood = outside.copy()
    cv2.floodFill(flood, np.zeros((h + 4, w + 4), np.uint8), (0, 0), 2)
    return float((flood[1:-1, 1:-1] != 2).mean()) >= BOXED


def _drawn_digit(mark: np.ndarray) -> bool:
    """Whether a mark that fills most of its box is a digit drawn in a block font (cells of a terminal
    in inverse video, a game's own pixel font) rather than a filled block: taller than wide, and one
    bar, or clearly a segment digit (its counters open where a block with writing on it has none)."""
    h, w = mark.shape
    if w > DRAWN_ASPECT * h:
        return False
    return read_digit(mark, narrow=w <= BAR_ASPECT * h) is not None


def clear_share(writing: np.ndarray, xs: list[float], ys: list[float], x_span: tuple[float, float],
                y_span: tuple[float, float], n: int = 64) -> float:
    """Share of the points on the vertical lines at `xs` (over y_span) and the horizontal lines at `ys`
    (over x_span) where nothing is written: the background, or a thin grid line."""
    h, w = writing.shape[:2]
    points = [(x, y) for x in xs for y in np.linspace(*y_span, n)] + [(x, y) for y in ys for x in np.linspace(*x_span, n)]
    marks = [writing[int(min(max(y, 0), h - 1)), int(min(max(x, 0), w - 1))] for x, y in points]
    return 1.0 - float(np.mean(marks))


def commonest_colour(pixels: np.ndarray) -> tuple[int, int, int]:
    """The commonest exact colour among pixels (N x 3, or any shape ending in 3)."""
    px = pixels.reshape(-1, 3).astype(np.int32)
    codes = (px[:, 0] << 16) | (px[:, 1] << 8) | px[:, 2]
    values, counts = np.unique(codes, return_counts=True)
    top = int(values[counts.argmax()])
    return (top >> 16, (top >> 8) & 255, top & 255)


def marks_alone(px: np.ndarray, keep: np.ndarray, background, pad: int) -> np.ndarray:
    """The pixels of `px` (BGR) where `keep` is True, alone on a picture of `background` with `pad` px of
    room all round (writing cut out for its digits to be read)."""
    h, w = keep.shape
    out = np.empty((h + 2 * pad, w + 2 * pad, 3), np.uint8)
    out[:] = np.asarray(background, np.uint8)
    out[pad : pad + h, pad : pad + w][keep] = px[keep]
    return out


def outside_blocks(words: list[Word]) -> list[Word]:
    """Words that are not inside a filled block: the pieces of block colour a digit's loops enclose, and
    a piece of the block its digits cut off from the rest (a filled word itself)."""
    blocks = [w for w in words if w.solid]
    return [w for w in words if not any(
        b.x0 <= w.x0 and w.x1 <= b.x1 and b.y0 <= w.y0 and w.y1 <= b.y1
        and (b.x1 - b.x0) * (b.y1 - b.y0) > (w.x1 - w.x0) * (w.y1 - w.y0) for b in blocks)]


# Picture files ---------------------------------------------------------------------------------
# OpenCV's imwrite and imread take the path as bytes in the Windows code page, so a folder named
# outside it ("Zoë", "画像") cannot be written or read; Python's file I/O takes any path, and OpenCV
# only encodes and decodes the bytes.


class ImageFileError(ScreenbotError):
    """A picture file that cannot be written or read (a folder that cannot be written, no such file, not a picture)."""


def write_image(path: str | Path, pixels: np.ndarray, params: Sequence[int] = ()) -> Path:
    """Write pixels (BGR, or grey) to `path` in the format its suffix names (.png, .jpg, ...), on any
    path; the folder must exist. `params`: OpenCV's imwrite flags (e.g. IMWRITE_PNG_COMPRESSION, 1).
    Returns the path; ImageFileError when it cannot be written."""
    path = Path(path)
    try:
        ok, data = cv2.imencode(path.suffix or ".png", pixels, list(params))
    except cv2.error as exc:
        raise ImageFileError(f"cannot write {path}: OpenCV cannot encode a {path.suffix or 'suffix-less'} "
                             f"picture ({getattr(exc, 'err', None) or exc})") from None
    if not ok:
        raise ImageFileError(f"cannot write {path}: OpenCV cannot encode it as {path.suffix}")
    try:
        with open(path, "wb") as f:
            f.write(data.tobytes())
    except OSError as exc:
        raise ImageFileError(f"cannot write {path}: {exc.strerror or exc} (check the folder exists and is writable)") from None
    return path


def read_image(path: str | Path, flags: int = cv2.IMREAD_COLOR) -> np.ndarray:
    """The pixels of a PNG/JPEG/BMP picture on any path (BGR with the default flags); ImageFileError
    when there is no such file or it is not a picture OpenCV can read."""
    path = Path(path)
    if not path.is_file():
        raise ImageFileError(f"cannot open image {path}: no such file")
    try:
        data = np.fromfile(path, dtype=np.uint8)
    except OSError as exc:
        raise ImageFileError(f"cannot open image {path}: {exc.strerror or exc}") from None
    pixels = cv2.imdecode(data, flags) if data.size else None
    if pixels is None:
        raise ImageFileError(f"cannot open image {path}: not a PNG/JPEG/BMP picture OpenCV can read")
    return pixels
