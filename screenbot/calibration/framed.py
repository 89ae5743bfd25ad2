"""Boards whose empty cells are the background: a frame drawn around the board and, inside it, nothing but
the tiles (coloured blocks, or boxes of lines), so that a fresh game shows two tiles in an empty frame; or
a board painted one colour, its empty cells too, with the tiles on it.

No lattice of squares shows there: the empty cells are not drawn. The frame and the tiles still fix one.
Tiles are all of one size (filled blocks, or boxes drawn on four sides), and the cells stand evenly in the
frame's inside, so n cells across put the middles of the tiles near (i + 1/2) of the inside's width over n.
The count n is the one where every tile's middle falls on such a place, each tile fits in its cell and
fills most of it. Two tiles in a frame mostly leave one count that fits each way; where more than one
does, the one whose places the middles fit best comes first, and the calibration takes the first whose
cells read as a board. The pitch is then fitted to the tiles (or, where they stand in one row, to equal
room before the first cell and after the last).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from screenbot.calibration.lattice import Lattice
from screenbot.calibration.text_lattice import TextBoard, background_candidates
from screenbot.game.sizes import MAX_SIDE, MIN_SIDE
from screenbot.imaging import FG_DIFF, MIN_GLYPH_PX, commonest_colour, glyph_mask, without_lines, words_of

INK_DIFF = 40  # colour levels (largest channel) from the background: ink of the frame or of a tile
CLOSE_PX = 5  # ink this close joins (a tile's parts)
LINE_BREAK_PX = 11  # a frame's line may break this much along its length (drawn with characters)
MIN_FRAME_PX = 60  # a frame's inside is at least this wide and tall
EDGE_BAND_PX = 8  # a frame's line lies within this of its box's edge (a `|` stands mid-character, inside the `+`) ...
EDGE_SHARE = 0.75  # ... along at least this share of each side
PAINTED_SHARE = 0.5  # a painted board's colour fills at least this share of its box (the rest: its tiles)
INSIDE_CLEAR = 0.2  # the background (the frame's outside) fills at least this share of its inside
MIN_TILE_PX = 12  # a tile is at least this wide and tall
MIN_TILES = 2  # a game shows at least two tiles (a lone mark in a box is no board)
SAME_SIZE = 0.12  # tiles' widths (heights) differ by at most this share
MIDDLE_SHARE = 0.15  # of a pitch: a tile's middle lies this near a cell's middle
FILL_MIN = 0.45  # a tile is at least this share of its pitch each way
MAX_COUNTS = 3  # at most this many candidate lattices per frame
# Of two counts that fit about as well, the one with as many rows as columns, and cells about as tall as wide
# (a board is drawn square-ish; the frame may hold a margin that makes a wrong count fit a little better):
SQUARE_BIAS = 0.01  # of a pitch, per row more or fewer than the columns
ROUND_BIAS = 0.5  # of a pitch, per unit of |log(pitch down / pitch across)|
PITCH_SLACK = 0.2  # a pitch fitted to the tiles lies this near the frame's share
EDGE_IN_PX = 2  # a cell's edge this far inside its tile's
FILLED = 0.5  # of a tile's box in ink: a filled block (else an outline)
BOX_SIDE_SHARE = 0.6  # of each side of an outlined tile's box drawn
WINDOW_CANDIDATES = 3  # the commonest colours tried as the frame's outside ...
WINDOW_SHARE = 0.02  # ... each covering at least this share of the picture
TILE_INSET = 0.15  # of a tile's side: its number is looked for this far inside its edges


@dataclass(frozen=True)
class Framed:
    """A board found in a frame: its lattice, and whether its tiles are filled blocks (else outlines)."""

    lattice: Lattice
    filled: bool


def find_framed_lattices(pixels: np.ndarray) -> list[Framed]:
    """Boards drawn as a frame with tiles on its background inside, in the picture's pixels, best first
    (the tiles' middles nearest their cells' middles)."""
    found: list[tuple[float, Framed]] = []
    # the screen's and a window's (a small window on a large screen, its board painted: a few per cent)
    for colour in background_candidates(pixels, most=WINDOW_CANDIDATES, share=WINDOW_SHARE):
        background = np.asarray(colour, float)
        ink = _ink(pixels, background)
        for box in _frames(ink):
            found += _lattices_in(pixels, box, background, _inside(pixels, box, background))
        for box in _painted(ink):
            found += _lattices_in(pixels, box, background, box)
    found.sort(key=lambda item: item[0])
    out: list[Framed] = []
    for _, board in found:
        if all(board.lattice.board_rect != o.lattice.board_rect or board.lattice.shape != o.lattice.shape for o in out):
            out.append(board)
    return out


def _ink(pixels: np.ndarray, background: np.ndarray) -> np.ndarray:
    return glyph_mask(pixels, np.round(background), INK_DIFF)


def _frames(ink: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Boxes x, y, w, h whose four sides are drawn lines of ink (joined across short breaks)."""
    # along each direction apart (a line drawn with `-` or `|` characters breaks between them)
    closed = (cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((1, LINE_BREAK_PX), np.uint8))
              | cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((LINE_BREAK_PX, 1), np.uint8)))
    n, _, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
    boxes = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if w < MIN_FRAME_PX or h < MIN_FRAME_PX or area > 0.6 * w * h:
            continue  # too small, or a filled region rather than an outline
        part = closed[y:y + h, x:x + w]
        b = EDGE_BAND_PX
        sides = (part[:b].any(axis=0), part[-b:].any(axis=0), part[:, :b].any(axis=1), part[:, -b:].any(axis=1))
        if all(s.mean() >= EDGE_SHARE for s in sides):
            boxes.append((x, y, w, h))
    return boxes


def _painted(ink: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Boxes x, y, w, h of regions of the background's colour on another (a board painted one colour,
    its empty cells too, in a window of another): mostly filled, not reaching every edge of the picture."""
    h_all, w_all = ink.shape
    n, _, stats, _ = cv2.connectedComponentsWithStats((1 - ink).astype(np.uint8), connectivity=4)
    boxes = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if w < MIN_FRAME_PX or h < MIN_FRAME_PX or area < PAINTED_SHARE * w * h:
            continue
        if x == 0 and y == 0 and w == w_all and h == h_all:
            continue  # the picture's own background
        boxes.append((x, y, w, h))
    return boxes


def _lattices_in(pixels: np.ndarray, box: tuple[int, int, int, int], background: np.ndarray,
                 inner: tuple[int, int, int, int] | None) -> list[tuple[float, Framed]]:
    """Up to MAX_COUNTS lattices of tiles on the background inside `inner` (the inside of the frame `box`),
    each with its rank."""
    x, y, w, h = box
    if inner is None:
        return []
    ix, iy, iw, ih = inner
    part = pixels[iy:iy + ih, ix:ix + iw]
    ink = _ink(part, background)
    if 1 - ink.mean() < INSIDE_CLEAR:
        return []
    tiles = _tiles(ink)
    if len(tiles) < MIN_TILES:
        return []
    filled = float(np.median([ink[t[1]:t[1] + t[3], t[0]:t[0] + t[2]].mean() for t in tiles])) >= FILLED
    tw = float(np.median([t[2] for t in tiles]))
    th = float(np.median([t[3] for t in tiles]))
    cols = _counts([t[0] + t[2] / 2 for t in tiles], tw, iw)
    rows = _counts([t[1] + t[3] / 2 for t in tiles], th, ih)
    xs = [t[0] + t[2] / 2 for t in tiles]
    ys = [t[1] + t[3] / 2 for t in tiles]
    out = []
    for nc, ex in cols:
        ax, px = _fitted(xs, iw, nc)
        for nr, ey in rows:
            ay, py = _fitted(ys, ih, nr)
            # each cell a little inside its tile: a pixel's error in the fit leaves no background in it
            cw, ch = tw - 2 * EDGE_IN_PX, th - 2 * EDGE_IN_PX
            x0, y0 = ix + ax - cw / 2, iy + ay - ch / 2
            lat = Lattice(x0=x0, y0=y0, pitch_x=px, pitch_y=py, cell_w=cw, cell_h=ch, margin_x=x0 - x,
                          margin_y=y0 - y, matched=len(tiles), rows=nr, cols=nc)
            bx, by, bw, bh = lat.board_rect
            if lat.margin_x < 0 or lat.margin_y < 0 or bx + bw > x + w + 1 or by + bh > y + h + 1:
                continue  # cells that would stand outside the frame: not its board
            shape = SQUARE_BIAS * abs(nr - nc) + ROUND_BIAS * abs(float(np.log(py / px)))
            out.append((ex + ey + shape, Framed(lat, filled)))
    out.sort(key=lambda item: item[0])
    return out[:MAX_COUNTS]


def as_text(pixels: np.ndarray, lat: Lattice) -> TextBoard | None:
    """The framed board as text: numbers on the frame's background or on the tiles' blocks, in the
    lattice's cells; None when no tile shows a number-sized mark."""
    background = tuple(int(v) for v in _framed_background(pixels, lat))
    heights = []
    for r in range(lat.rows):
        for c in range(lat.cols):
            x, y, w, h = lat.cell(r, c)
            x0, y0 = int(round(x + TILE_INSET * w)), int(round(y + TILE_INSET * h))
            x1, y1 = int(round(x + (1 - TILE_INSET) * w)), int(round(y + (1 - TILE_INSET) * h))
            inner = pixels[max(y0, 0):max(y1, 0), max(x0, 0):max(x1, 0)]
            if inner.size == 0:
                continue
            own = commonest_colour(inner.reshape(-1, 3))
            words = [wd for wd in words_of(without_lines(glyph_mask(inner, own, FG_DIFF)))
                     if wd.tall >= MIN_GLYPH_PX and not wd.solid and wd.tall < inner.shape[0]]
            if words:
                heights.append(max(wd.tall for wd in words))
    if not heights:
        return None
    return TextBoard(lat, background, int(np.median(heights)), filled=len(heights))


def _framed_background(pixels: np.ndarray, lat: Lattice) -> np.ndarray:
    """The colour of the board's gaps: the commonest on the lines between and around its cells."""
    x, y, w, h = (int(round(v)) for v in lat.board_rect)
    part = pixels[max(y, 0):max(y + h, 0), max(x, 0):max(x + w, 0)]
    keep = np.ones(part.shape[:2], bool)
    for r in range(lat.rows):
        for c in range(lat.cols):
            cx, cy, cw, ch = lat.cell(r, c)
            keep[max(int(cy) - y, 0):max(int(cy + ch) - y, 0), max(int(cx) - x, 0):max(int(cx + cw) - x, 0)] = False
    samples = part[keep]
    return np.asarray(commonest_colour(samples if len(samples) else part.reshape(-1, 3)))


def _fitted(middles: list[float], span: float, n: int) -> tuple[float, float]:
    """(the first cell's middle, the pitch) of n cells across `span` that put the tiles' middles best on
    their cells' middles. Where they stand in two or more cells, by least squares; where in one, with as
    much room before the first cell as after the last (the frame need not hold an even share of a gap
    round the cells: a margin of its own)."""
    pitch = span / n
    index = np.array([round(m / pitch - 0.5) for m in middles], float)
    at = np.asarray(middles, float)
    if len(set(index.tolist())) >= 2:
        fitted, first = np.polyfit(index, at, 1)
        if (1 - PITCH_SLACK) * pitch <= fitted <= (1 + PITCH_SLACK) * pitch:
            return float(first), float(fitted)
    i, middle = index[0], float(np.mean(at))
    if 2 * i + 1 != n:  # not the middle cell: the margins fix the pitch
        even = (2 * middle - span) / (2 * i + 1 - n)
        if (1 - PITCH_SLACK) * pitch <= even <= (1 + PITCH_SLACK) * pitch:
            pitch = even
    return float(middle - i * pitch), float(pitch)


def _inside(pixels: np.ndarray, box: tuple[int, int, int, int],
            background: np.ndarray) -> tuple[int, int, int, int] | None:
    """The box less its lines: from each side inwards, past the rows (columns) that are mostly ink."""
    x, y, w, h = box
    clear = _ink(pixels[y:y + h, x:x + w], background) == 0
    rows, cols = clear.mean(axis=1), clear.mean(axis=0)

    def inward(shares: np.ndarray) -> int:
        for i, s in enumerate(shares[: len(shares) // 4]):
            if s >= 0.5 and i > 0:
                return i
        return -1

    top, bottom = inward(rows), inward(rows[::-1])
    left, right = inward(cols), inward(cols[::-1])
    if min(top, bottom, left, right) < 0:
        return None
    iw, ih = w - left - right, h - top - bottom
    if iw < MIN_FRAME_PX or ih < MIN_FRAME_PX:
        return None
    return (x + left, y + top, iw, ih)


def _tiles(ink: np.ndarray) -> list[tuple[int, int, int, int]]:
    """The boxes of the biggest group of marks of one size, none inside another (a box's number is)."""
    kernel = np.ones((CLOSE_PX, CLOSE_PX), np.uint8)
    closed = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, kernel)
    n, _, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
    marks = [tuple(int(v) for v in stats[i][:4]) for i in range(1, n)
             if stats[i][2] >= MIN_TILE_PX and stats[i][3] >= MIN_TILE_PX]
    marks = [m for m in marks if not any(o != m and _within(m, o) for o in marks)]
    marks = [m for m in marks if _tile_like(closed[m[1]:m[1] + m[3], m[0]:m[0] + m[2]])]
    best: list = []
    for m in marks:
        group = [o for o in marks if abs(o[2] - m[2]) <= SAME_SIZE * m[2] and abs(o[3] - m[3]) <= SAME_SIZE * m[3]]
        if len(group) > len(best):
            best = group
    return best


def _tile_like(part: np.ndarray) -> bool:
    """A mark that can be a tile: a filled block, or a box whose four sides are drawn (a digit is neither)."""
    if part.mean() >= FILLED:
        return True
    b = min(EDGE_BAND_PX // 2, max(1, min(part.shape) // 6))
    sides = (part[:b].any(axis=0), part[-b:].any(axis=0), part[:, :b].any(axis=1), part[:, -b:].any(axis=1))
    return all(side.mean() >= BOX_SIDE_SHARE for side in sides)


def _within(a, b) -> bool:
    return a[0] >= b[0] and a[1] >= b[1] and a[0] + a[2] <= b[0] + b[2] and a[1] + a[3] <= b[1] + b[3]


def _counts(middles: list[float], size: float, span: float) -> list[tuple[int, float]]:
    """The cell counts along one side that put every middle on a cell's middle, each with its error (the
    largest distance, in pitches), where a tile fits its cell and fills most of it. The cells either share
    the span evenly, or stand at the pitch fitted to the tiles (`_fitted`) with as much room before the
    first as after the last (a frame whose margin is a whole gap, not half of one)."""
    out = []
    for n in range(MIN_SIDE, MAX_SIDE + 1):
        best = None
        for first, pitch in ((span / n / 2, span / n), _fitted(middles, span, n)):
            if not FILL_MIN * pitch <= size <= pitch or first - pitch / 2 < -1 or first + (n - 0.5) * pitch > span + 1:
                continue
            places = [(m - first) / pitch for m in middles]
            error = max(abs(p - round(p)) for p in places)
            if error <= MIDDLE_SHARE and all(0 <= round(p) < n for p in places):
                best = error if best is None else min(best, error)
        if best is not None:
            out.append((n, best))
    return out
