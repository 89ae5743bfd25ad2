"""Finds boards in a picture by structure: equal squares on an even lattice with uniform gaps, 3 to 8
each way (rectangles too).

No palette is assumed. Edges split the picture into regions; near-square regions of one
size that sit on a regular lattice with a gap between them are a board candidate, which
is then measured precisely (cell size from the edge profile, the outer frame) and
checked against look-alikes (a checkerboard has no gaps, a grid of photos has no flat cells, a
table has more than eight columns; a calendar's numbers are no tiles: calibration reads the board).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from screenbot.calibration.lattice_grow import grown
from screenbot.calibration.look import TOUCH, check_look, dominant_share, lined
from screenbot.game.sizes import MAX_SIDE, MIN_SIDE

SIZE = 4  # the classic board's side: what a lattice is when nothing says otherwise

MIN_CELL_PX = 12  # a 150 px board has ~32 px cells; below this there is nothing to read
# the room between one text line's rule character and the next's (| + |): about 9 px at usual font sizes,
# less at small ones and more at large ones; each is tried in turn
JOINS_PX = (9, 6, 12)
MAX_ASPECT = 2.0  # a cell is at most twice as wide as tall, or twice as tall as wide ...
WIDE_ASPECT = 6.0  # ... but where nothing else is a board: a block a text line tall, a few characters wide


@dataclass(frozen=True)
class Lattice:
    """A board found in one picture (rows x cols cells), in that picture's pixel coordinates (floats)."""

    x0: float  # left edge of the top-left cell
    y0: float  # top edge of the top-left cell
    pitch_x: float  # distance between the left edges of neighbouring cells
    pitch_y: float
    cell_w: float
    cell_h: float
    margin_x: float  # frame width left/right of the cells (board edge to first cell)
    margin_y: float
    matched: int  # how many of the cells were seen as separate squares
    rows: int = SIZE
    cols: int = SIZE

    @property
    def shape(self) -> tuple[int, int]:
        return (self.rows, self.cols)

    @property
    def gap_x(self) -> float:
        return self.pitch_x - self.cell_w

    @property
    def gap_y(self) -> float:
        return self.pitch_y - self.cell_h

    def cell(self, row: int, col: int) -> tuple[float, float, float, float]:
        return (self.x0 + col * self.pitch_x, self.y0 + row * self.pitch_y, self.cell_w, self.cell_h)

    @property
    def far(self) -> tuple[float, float]:
        """Where the last column's cells end across and the last row's end down (the cells' far edges)."""
        return (self.x0 + (self.cols - 1) * self.pitch_x + self.cell_w, self.y0 + (self.rows - 1) * self.pitch_y + self.cell_h)

    @property
    def board_rect(self) -> tuple[float, float, float, float]:
        """The whole board (cells, gaps and the frame around them): x, y, w, h."""
        w = (self.cols - 1) * self.pitch_x + self.cell_w + 2 * self.margin_x
        h = (self.rows - 1) * self.pitch_y + self.cell_h + 2 * self.margin_y
        return (self.x0 - self.margin_x, self.y0 - self.margin_y, w, h)

    def translated(self, dx: float, dy: float) -> "Lattice":
        return Lattice(
            self.x0 + dx, self.y0 + dy, self.pitch_x, self.pitch_y, self.cell_w, self.cell_h,
            self.margin_x, self.margin_y, self.matched, self.rows, self.cols,
        )


@dataclass(frozen=True)
class Rejected:
    """A grid-like structure that is not a 2048 board, and why (shown to the user)."""

    box: tuple[float, float, float, float]
    reason: str


@dataclass
class Search:
    """Everything one search found: boards, boards cut off by the picture's edge, look-alikes."""

    boards: list[Lattice] = field(default_factory=list)
    cut_off: list[tuple[float, float, float, float]] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    # True while boards of another size than 4x4 are to be checked before calibration takes one (a board
    # of another size is a candidate only where its cells read as 2048 tiles); calibrate's command sets it
    unscreened: bool = False
    # boards that are one only if their cells read as 2048 tiles, whatever their size: cells that touch with
    # a thin line between them (a terminal's box-drawing grid at a small font size, or a table)
    doubtful: list[Lattice] = field(default_factory=list)


def _squares(pixels: np.ndarray, join: int = 0, max_aspect: float = MAX_ASPECT) -> np.ndarray:
    """Cell-like regions bounded by edges: rows of (cx, cy, size, x, y, w, h).

    Cells need not be square (a terminal's character cells make them wider than tall, a window may
    stretch them): any box from half as wide as tall to twice as wide qualifies.
    """
    edges = cv2.Canny(pixels, 20, 40)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    if join:  # dashed lines (ASCII rules, a bar per text line) made whole: pieces in line up to `join` px apart
        edges = cv2.bitwise_or(cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((join, 1), np.uint8)),
                               cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((1, join), np.uint8)))
    n, _, stats, _ = cv2.connectedComponentsWithStats(cv2.bitwise_not(edges), connectivity=4)
    x, y, w, h, area = (stats[:, i].astype(np.float64) for i in range(5))
    height, width = pixels.shape[:2]
    keep = (
        (w >= MIN_CELL_PX)
        & (h >= MIN_CELL_PX)
        & (w <= max_aspect * h)
        & (h <= max_aspect * w)
        & (area >= 0.5 * w * h)
        & (w <= width / 3)
        & (h <= height / 3)
        & (x > 0)
        & (y > 0)
        & (x + w < width)
        & (y + h < height)
    )
    idx = np.nonzero(keep)[0]
    return np.stack(
        [x[idx] + w[idx] / 2, y[idx] + h[idx] / 2, (w[idx] + h[idx]) / 2, x[idx], y[idx], w[idx], h[idx]], axis=1
    ) if len(idx) else np.zeros((0, 7))


def _same_size(sq: np.ndarray, a: int) -> np.ndarray:
    """Which boxes have box a's width and height (within 12 % each)."""
    return (np.abs(sq[:, 5] - sq[a, 5]) <= 0.12 * sq[a, 5]) & (np.abs(sq[:, 6] - sq[a, 6]) <= 0.12 * sq[a, 6])


def _pitch(sq: np.ndarray, a: int, axis: int) -> float | None:
    """Distance from box a to its nearest same-size neighbour along axis (0 = x, 1 = y)."""
    along = sq[a, 5 + axis]
    across = sq[a, 6 - axis]
    other = 1 - axis
    d_along = sq[:, axis] - sq[a, axis]
    ok = (
        _same_size(sq, a)
        & (np.abs(sq[:, other] - sq[a, other]) <= 0.15 * across)
        & (d_along >= 1.02 * along)
        & (d_along <= 2.0 * along)
    )
    if not ok.any():
        return None
    return float(d_along[ok].min())


def _edge_profile(pixels: np.ndarray, axis: int, lo: np.ndarray, hi: np.ndarray, span: tuple[int, int]) -> np.ndarray:
    """Summed colour steps between neighbouring pixels along axis, inside the bands [lo, hi) across it.

    Returns D where D[k] is the step between pixel span[0]+k-1 and span[0]+k, i.e. at the
    continuous position span[0]+k.
    """
    img = pixels if axis == 0 else pixels.transpose(1, 0, 2)
    a, b = span
    a = max(a, 1)
    b = min(b, img.shape[1])
    rows = np.concatenate([np.arange(max(int(l), 0), min(int(h), img.shape[0])) for l, h in zip(lo, hi)])
    strip = img[rows, a - 1 : b].astype(np.int16)
    steps = np.abs(np.diff(strip, axis=1)).max(axis=2).sum(axis=0).astype(np.float64)
    out = np.zeros(span[1] - span[0])
    out[a - span[0] : a - span[0] + len(steps)] = steps
    return out


def _interp(profile: np.ndarray, start: int, pos: np.ndarray) -> np.ndarray:
    k = pos - start
    return np.interp(k, np.arange(len(profile)), profile, left=0.0, right=0.0)


def _refine_axis(pixels: np.ndarray, axis: int, centres: np.ndarray, pitch: float, across: np.ndarray, across_half: float,
                 seen: float | None = None):
    """Cell size and frame width along one axis from the edge profile; returns (half, margin)."""
    lo = across - across_half
    hi = across + across_half
    start = int(np.floor(centres[0] - 2 * pitch))
    stop = int(np.ceil(centres[-1] + 2 * pitch))
    prof = _edge_profile(pixels, axis, lo, hi, (start, stop))
    halves = np.arange(0.30 * pitch, 0.499 * pitch, 0.25)
    if seen is not None:
        # the edges nearest the flat regions that were found: a tile drawn inset in a ruled box has
        # the box's lines as sharp as its own edges (the region is a few pixels smaller than the
        # tile: the edges found around it are widened by 1-2 px each side)
        expect = (seen + 3) / 2
        near = halves[np.abs(halves - expect) <= max(2.5, 0.08 * expect)]
        halves = near if near.size else halves
    scores = np.array([(_interp(prof, start, centres - h) + _interp(prof, start, centres + h)).sum() for h in halves])
    half = float(halves[int(scores.argmax())])
    gap = pitch - 2 * half
    # The frame: the strongest edge within three gaps outside the outer cells, on both sides.
    margins = []
    for side in (-1, 1):
        edge = centres[0] - half if side < 0 else centres[-1] + half
        offs = np.arange(max(0.25 * gap, 1.0), 3.0 * gap + 2, 0.5)
        vals = _interp(prof, start, edge + side * offs)
        if vals.size and vals.max() > 0.25 * scores.max() / (2 * len(centres)):
            margins.append(float(offs[int(vals.argmax())]))
    margin = float(np.mean(margins)) if len(margins) == 2 and abs(margins[0] - margins[1]) <= max(2.0, 0.25 * gap) else gap
    return half, margin


def find_lattices(pixels: np.ndarray, max_aspect: float = MAX_ASPECT) -> Search:
    """Every board (3x3 to 8x8) in a BGR picture, plus grids cut off by the edge and rejected look-alikes.

    When the sharp picture yields no board, it is searched once more slightly blurred: lossy
    compression (JPEG) rings around edges and breaks cells into pieces. `max_aspect`: how much wider than
    tall (or taller than wide) a cell may be.
    """
    result = _search(pixels, pixels, max_aspect=max_aspect)
    if not _sure(result) and not result.cut_off:
        again = _search(pixels, cv2.GaussianBlur(pixels, (5, 5), 0), max_aspect=max_aspect)
        if _sure(again) or (again.cut_off and not result.boards):
            return again
    if not _sure(result) and not result.cut_off:
        # a grid ruled with characters (|, -, +: a mark per text line with room between them)
        for join in JOINS_PX:
            again = _search(pixels, pixels, join, max_aspect)
            if _sure(again) or (again.boards and not result.boards):
                return again
    return result


def _sure(search: Search) -> bool:
    """Whether a search found a board that is one by its look alone (not only cells that touch)."""
    return any(b not in search.doubtful for b in search.boards)


def _search(pixels: np.ndarray, edges_from: np.ndarray, join: int = 0, max_aspect: float = MAX_ASPECT) -> Search:
    result = Search()
    sq = _squares(edges_from, join, max_aspect)
    if len(sq) == 0:
        return result
    h, w = pixels.shape[:2]
    used = np.zeros(len(sq), bool)
    order = np.argsort(-sq[:, 2])  # big squares first: a board's cells beat the digits inside them
    for a in order:
        if used[a]:
            continue
        px, py = _pitch(sq, a, 0), _pitch(sq, a, 1)
        if px is None and py is None:
            continue
        # one pitch seen: the other axis has the same gap between its cells
        if px is None:
            px = sq[a, 5] + (py - sq[a, 6])
        if py is None:
            py = sq[a, 6] + (px - sq[a, 5])
        same = _same_size(sq, a)
        fi = (sq[:, 0] - sq[a, 0]) / px
        fj = (sq[:, 1] - sq[a, 1]) / py
        ii, jj = np.round(fi), np.round(fj)
        on = same & (np.abs(fi - ii) <= 0.12) & (np.abs(fj - jj) <= 0.12) & (np.abs(ii) <= 12) & (np.abs(jj) <= 12)
        members = np.nonzero(on)[0]
        used[members] = True
        cols, rows = ii[members].astype(int), jj[members].astype(int)
        span_c = cols.max() - cols.min() + 1
        span_r = rows.max() - rows.min() + 1
        box = (
            float(sq[members, 3].min()), float(sq[members, 4].min()),
            float((sq[members, 3] + sq[members, 5]).max() - sq[members, 3].min()),
            float((sq[members, 4] + sq[members, 6]).max() - sq[members, 4].min()),
        )
        if len(members) < 3:
            continue
        if span_c > MAX_SIDE or span_r > MAX_SIDE:
            if len(members) >= 8:
                result.rejected.append(Rejected(box, f"a grid of {span_c}x{span_r} squares, more than "
                                                     f"{MAX_SIDE}x{MAX_SIDE}: not a 2048 board"))
            continue
        if span_c < MIN_SIDE or span_r < MIN_SIDE:
            # A board whose missing rows/columns would lie outside the picture is cut off.
            missing_c, missing_r = max(0, MIN_SIDE - span_c), max(0, MIN_SIDE - span_r)
            left_room = box[0] - missing_c * px
            right_room = box[0] + box[2] + missing_c * px
            top_room = box[1] - missing_r * py
            bottom_room = box[1] + box[3] + missing_r * py
            # ... at the edge it would run past, within a cell of it (a row of squares in the middle of
            # the picture misses no rows above it for want of room)
            cut = (missing_c and ((left_room < 0 and box[0] < px) or (right_room > w and box[0] + box[2] > w - px))) or \
                  (missing_r and ((top_room < 0 and box[1] < py) or (bottom_room > h and box[1] + box[3] > h - py)))
            if cut and len(members) >= 4 and min(span_c, span_r) >= 1 and max(span_c, span_r) >= 2:
                result.cut_off.append(box)
            continue
        if len(members) < 0.375 * span_c * span_r or len(set(cols)) < span_c - 1 or len(set(rows)) < span_r - 1:
            continue
        lattice = _fit(pixels, sq[members], cols - cols.min(), rows - rows.min(), len(members), (span_r, span_c))
        if lattice is None:
            result.rejected.append(Rejected(box, "squares not quite on an even grid (tiles moving?)"))
            continue
        lattice, cut = grown(pixels, lattice, dominant_share)
        if cut:
            result.cut_off.append(lattice.board_rect)
            continue
        reason = check_look(pixels, lattice)
        if reason == TOUCH and lined(pixels, lattice):
            result.doubtful.append(lattice)  # a grid of thin lines: a board if what is in its cells reads as one
        elif reason:
            result.rejected.append(Rejected(lattice.board_rect, reason))
            continue
        result.boards.append(lattice)
    result.boards = _dedupe(result.boards)
    # squares of a lattice seen whole (every other cell of a board, at twice its pitch) are no board cut off
    whole = [tuple(b.board_rect) for b in result.boards] + [tuple(r.box) for r in result.rejected]
    result.cut_off = [c for c in result.cut_off if not any(_mostly_inside(c, o) for o in whole)]
    return result


def _mostly_inside(box, outer, share: float = 0.8) -> bool:
    """Whether most of `box` (x, y, w, h) lies inside `outer`."""
    x, y, w, h = box
    ox, oy, ow, oh = outer
    iw = max(0.0, min(x + w, ox + ow) - max(x, ox))
    ih = max(0.0, min(y + h, oy + oh) - max(y, oy))
    return w * h > 0 and iw * ih >= share * w * h


def _fit(pixels: np.ndarray, members: np.ndarray, cols: np.ndarray, rows: np.ndarray, matched: int,
         shape: tuple[int, int] = (SIZE, SIZE)) -> Lattice | None:
    """Least-squares lattice through the member squares' centres, then exact edges from the picture."""
    ax, px = _line_fit(cols, members[:, 0])
    ay, py = _line_fit(rows, members[:, 1])
    if px <= 0 or py <= 0:
        return None
    if np.abs(members[:, 0] - (ax + px * cols)).max() > 0.08 * px or np.abs(members[:, 1] - (ay + py * rows)).max() > 0.08 * py:
        return None
    cx = ax + px * np.arange(shape[1])
    cy = ay + py * np.arange(shape[0])
    half_w, margin_x = _refine_axis(pixels, 0, cx, px, cy, 0.3 * py, float(np.median(members[:, 5])))
    half_h, margin_y = _refine_axis(pixels, 1, cy, py, cx, 0.3 * px, float(np.median(members[:, 6])))
    margin_x = margin_x if _gap_outside(pixels, 0, cx, half_w, px, cy, half_h) else FLUSH_MARGIN_PX
    margin_y = margin_y if _gap_outside(pixels, 1, cy, half_h, py, cx, half_w) else FLUSH_MARGIN_PX
    return Lattice(
        x0=float(cx[0] - half_w), y0=float(cy[0] - half_h), pitch_x=float(px), pitch_y=float(py),
        cell_w=float(2 * half_w), cell_h=float(2 * half_h), margin_x=margin_x, margin_y=margin_y, matched=matched,
        rows=int(shape[0]), cols=int(shape[1]),
    )


# A board whose outer cells stand flush with its edge (no frame of the gaps' colour round them: the
# window's own colour, or an outline, right outside) has no margin: the gap lines sampled outside its
# outer cells would run over whatever surrounds it. Points within GAP_TOL colour levels of the inner
# gaps' colour are gap; a side is the gap's where at least GAP_OUTSIDE of its points are.
GAP_TOL = 14
GAP_OUTSIDE = 0.5
MIN_GAP_PX = 4  # narrower gaps are drawn lines, sampled and judged otherwise
FLUSH_MARGIN_PX = 2.0  # such a board's rectangle: its cells and a pixel or two round them (rounding), no gap


def _gap_outside(pixels: np.ndarray, axis: int, centres: np.ndarray, half: float, pitch: float,
                 across: np.ndarray, across_half: float) -> bool:
    """Whether the band just outside the outer cells along `axis` (0: left and right, 1: top and bottom)
    shows the colour of the gaps between the cells, on either side; True where that cannot be told (gaps
    narrower than MIN_GAP_PX, gaps of no one colour, a band off the picture)."""
    gap = pitch - 2 * half
    if gap < MIN_GAP_PX or len(centres) < 2:
        return True
    img = pixels if axis == 0 else pixels.transpose(1, 0, 2)
    if img.ndim != 3:
        return True
    rows = np.concatenate([np.arange(int(a - across_half), int(a + across_half)) for a in across])
    rows = rows[(rows >= 0) & (rows < img.shape[0])]
    inner = [int(round((centres[k] + centres[k + 1]) / 2)) for k in range(len(centres) - 1)]
    outer = [int(round(centres[0] - half - gap / 2)), int(round(centres[-1] + half + gap / 2))]
    if rows.size == 0 or min(outer) < 0 or max(outer) >= img.shape[1]:
        return True
    gaps = img[rows][:, inner].reshape(-1, img.shape[2]).astype(np.int16)
    colour = np.median(gaps, axis=0)
    if (np.abs(gaps - colour).max(axis=1) <= GAP_TOL).mean() < 0.8:
        return True  # the gaps are no one colour (a gradient, a picture)
    shares = [(np.abs(img[rows, x].astype(np.int16) - colour).max(axis=1) <= GAP_TOL).mean() for x in outer]
    return max(shares) >= GAP_OUTSIDE


def _line_fit(idx: np.ndarray, pos: np.ndarray) -> tuple[float, float]:
    if len(set(idx.tolist())) < 2:
        return float(pos.mean()), 0.0
    slope, intercept = np.polyfit(idx.astype(float), pos, 1)
    return float(intercept), float(slope)


def _dedupe(boards: list[Lattice]) -> list[Lattice]:
    out: list[Lattice] = []
    for b in sorted(boards, key=lambda l: -l.matched):
        bx, by, bw, bh = b.board_rect
        if any(overlap_share((bx, by, bw, bh), o.board_rect) > 0.3 for o in out):
            continue
        out.append(b)
    return sorted(out, key=lambda l: (round(l.board_rect[1] / 50), l.board_rect[0]))


def overlap_share(a, b) -> float:
    """How much of the smaller of two rectangles (x, y, w, h) the other covers (0..1)."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    iw = max(0.0, min(ax + aw, bx + bw) - max(ax, bx))
    ih = max(0.0, min(ay + ah, by + bh) - max(ay, by))
    inter = iw * ih
    return inter / max(1e-9, min(aw * ah, bw * bh))
