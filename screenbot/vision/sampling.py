"""Where a profile samples a tile board (cell strips and centres, gap lines) and the lookup table that labels each sampled colour."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from screenbot.game.rules import Grid
from screenbot.geometry import Rect
from screenbot.palette import THEMES, Theme, blend
from screenbot.profile import STRIPS, Profile
from screenbot.vision.empty_ring import ring_sampler

TOL = 10  # colour tolerance (largest channel difference) of the palette lookup
LUT_BITS = 6  # lookup table resolution per channel

# labels in the lookup table
OTHER, GAP, EMPTY = 0, 1, 2
FIRST_TILE = 3


@dataclass
class Entry:
    colour: tuple[int, int, int]
    value: int | None  # None: several values share the colour, read the digits


@dataclass
class Sampler:
    """Sample positions (relative to the board's corner) and the label lookup table for one profile."""

    key: tuple
    strip_y: np.ndarray  # (16, n)
    strip_x: np.ndarray
    centre_y: np.ndarray  # (16, m)
    centre_x: np.ndarray
    line_y: np.ndarray  # (lines, k)
    line_x: np.ndarray
    lut: np.ndarray  # (64**3,) uint8 labels
    entries: list[Entry]  # label FIRST_TILE + i
    theme: Theme | None
    digit_like: np.ndarray  # (entries,) bool: a tile colour that is also a digit colour
    extra: dict = field(default_factory=dict)
    # the labels of a cell's pixels: the lut, where the empty cells are the gaps' own colour (tiles drawn alone
    # on the background) with that colour empty
    cell_lut: np.ndarray | None = None
    top_bottom: int = 0  # the first this many strip points of every cell are its top and bottom strips
    line_marked: np.ndarray | None = None  # (lines, k) bool: gap-line points under marks drawn over the board
    # Thin-line boards only: points just inside each cell's four edges, (16, 4, k), and those under marks
    edge_y: np.ndarray | None = None
    edge_x: np.ndarray | None = None
    edge_marked: np.ndarray | None = None
    # Wide-gap boards only: lines along the gap RIM_PX outside the cells' edges (lines, k), and those under marks
    rim_y: np.ndarray | None = None
    rim_x: np.ndarray | None = None
    rim_marked: np.ndarray | None = None
    # every pixel of each cell's centre patch (16, h, w), the same size in every cell
    centre_all_y: np.ndarray | None = None
    centre_all_x: np.ndarray | None = None
    cols: int = 4  # the board's columns (cells are numbered row by row)


# A thin-line board's cells are also sampled this far inside their edges (a share of the cell, at
# least EDGE_MIN_PX): a still tile fills its cell to the line (1 px, measured on the practice looks),
# while a tile caught sliding leaves the empty colour along one edge and covers the next cell's.
EDGE_INSET = 0.06
EDGE_MIN_PX = 3
EDGE_POINTS = 8  # per edge (the corners are left out: they may be rounded)
EDGE_TOL = 24  # colour levels: an edge point this far from its cell's colour is not the cell's


def edge_points(profile: Profile) -> tuple[np.ndarray, np.ndarray]:
    """(y, x) of EDGE_POINTS points just inside each edge of each cell: (16, 4, EDGE_POINTS), board-relative,
    top, bottom, left, right. Top and bottom run along the middle half of the cell; left and right
    along its top and bottom fifths, above and below where digits are written (a 16384 can be as
    wide as its tile)."""
    origin = profile.board_rect
    ys, xs = [], []
    half = EDGE_POINTS // 2
    middle = 0.25 + 0.5 * (np.arange(EDGE_POINTS) + 0.5) / EDGE_POINTS
    ends = np.concatenate([0.08 + 0.15 * (np.arange(half) + 0.5) / half, 0.77 + 0.15 * (np.arange(half) + 0.5) / half])
    for c in (profile.tile_rect(i) for i in range(len(profile.cells))):
        dx = max(EDGE_MIN_PX, int(round(EDGE_INSET * c.w)))
        dy = max(EDGE_MIN_PX, int(round(EDGE_INSET * c.h)))
        px = c.x - origin.x + middle * c.w
        py = c.y - origin.y + ends * c.h
        top, bottom = c.y - origin.y + dy, c.bottom - origin.y - 1 - dy
        left, right = c.x - origin.x + dx, c.right - origin.x - 1 - dx
        ys.append([np.full(EDGE_POINTS, top), np.full(EDGE_POINTS, bottom), py, py])
        xs.append([px, px, np.full(EDGE_POINTS, left), np.full(EDGE_POINTS, right)])
    return np.asarray(ys).astype(np.intp), np.asarray(xs).astype(np.intp)


def _grid_points(rect: Rect, origin: Rect, nx: int, ny: int) -> tuple[np.ndarray, np.ndarray]:
    nx, ny = max(1, min(nx, rect.w)), max(1, min(ny, rect.h))
    xs = rect.x - origin.x + (np.arange(nx) + 0.5) * rect.w / nx
    ys = rect.y - origin.y + (np.arange(ny) + 0.5) * rect.h / ny
    gx, gy = np.meshgrid(xs.astype(np.intp), ys.astype(np.intp))
    return gy.ravel(), gx.ravel()


def _pad(rows: list[np.ndarray]) -> np.ndarray:
    """Stack index arrays of different lengths by repeating each one's values (keeps shares right)."""
    n = max(len(r) for r in rows)
    return np.stack([np.resize(r, n) for r in rows])


def _gap_lines(profile: Profile) -> tuple[np.ndarray, np.ndarray]:
    b = profile.board_rect
    cells, (n_rows, n_cols) = profile.cells, profile.shape
    xs = [(b.x + cells[0].x) / 2] + [(cells[k - 1].right + cells[k].x) / 2 for k in range(1, n_cols)]
    xs.append((cells[n_cols - 1].right + b.right) / 2)
    ys = [(b.y + cells[0].y) / 2] + [(cells[(k - 1) * n_cols].bottom + cells[k * n_cols].y) / 2 for k in range(1, n_rows)]
    ys.append((cells[(n_rows - 1) * n_cols].bottom + b.bottom) / 2)
    margin_ok = (cells[0].x - b.x) >= 3 and (cells[0].y - b.y) >= 3
    if not margin_ok:  # no frame around the cells: only the inner gap lines are sure to be gap
        xs, ys = xs[1:-1], ys[1:-1]
    return _lines_across(b, xs, ys, (xs[0], xs[-1]), (ys[0], ys[-1]))


# A still tile ends at its cell's edge (within a pixel); one still sliding in overlaps the gap
# beside its cell by a few pixels, short of the gap's middle line. Where the gaps are at least
# 2 * RIM_PX + 1 px wide, lines RIM_PX outside the cells' edges are sampled as well.
RIM_PX = 3


RIM_GAP_SHARE = 0.5  # a rim line is read only where at least this share of it shows the gap's colours


def rim_lines_in_gap(odd: np.ndarray) -> np.ndarray:
    """Per rim line (odd: lines x k, True where a point shows no gap colour): it runs through the gap.
    A look whose cells have a border or a shadow of their own shows that just outside them instead:
    there a rim line tells nothing."""
    return (~odd).mean(axis=1) >= RIM_GAP_SHARE


def _rim_lines(profile: Profile) -> tuple[np.ndarray, np.ndarray] | None:
    """Lines along the gaps RIM_PX outside every cell edge (and beside the frame, where its margin
    is wide enough), each across the whole board like the gap lines; None where the gaps are narrower."""
    b = profile.board_rect
    cells = profile.cells
    if _thinnest_gap(profile) < 2 * RIM_PX + 1 or profile.compressed:
        return None
    cols = [cells[k] for k in range(profile.cols)]
    rows = [cells[k * profile.cols] for k in range(profile.rows)]
    xs = [c.x - RIM_PX for c in cols[1:]] + [c.right - 1 + RIM_PX for c in cols[:-1]]
    ys = [c.y - RIM_PX for c in rows[1:]] + [c.bottom - 1 + RIM_PX for c in rows[:-1]]
    if cells[0].x - b.x > RIM_PX and b.right - cols[-1].right > RIM_PX:
        xs += [cols[0].x - RIM_PX, cols[-1].right - 1 + RIM_PX]
    if cells[0].y - b.y > RIM_PX and b.bottom - rows[-1].bottom > RIM_PX:
        ys += [rows[0].y - RIM_PX, rows[-1].bottom - 1 + RIM_PX]
    return _lines_across(b, xs, ys, (cols[0].x, cols[-1].right - 1), (rows[0].y, rows[-1].bottom - 1))


def _lines_across(b: Rect, xs: list[float], ys: list[float], x_span: tuple[float, float],
                  y_span: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """Board-relative points of vertical lines at xs (running over y_span) and horizontal ones at ys
    (over x_span), as many points on each as the longer span has pixels."""
    x_a, x_b = x_span
    y_a, y_b = y_span
    n = int(max(y_b - y_a, x_b - x_a))
    line_y, line_x = [], []
    t = np.linspace(0.0, 1.0, n)
    for gx in xs:
        line_x.append(np.full(n, int(gx) - b.x))
        line_y.append((y_a + t * (y_b - y_a)).astype(np.intp) - b.y)
    for gy in ys:
        line_y.append(np.full(n, int(gy) - b.y))
        line_x.append((x_a + t * (x_b - x_a)).astype(np.intp) - b.x)
    return np.stack(line_y).astype(np.intp), np.stack(line_x).astype(np.intp)


def _palette(profile: Profile) -> tuple[list[tuple[tuple[int, int, int], int]], list[Entry], Theme | None]:
    """(colour, label) pairs for the lookup table, and the tile entries behind the tile labels."""
    theme = THEMES.get(profile.theme)
    pairs: list[tuple[tuple[int, int, int], int]] = []
    entries: list[Entry] = []
    gap = tuple(profile.gap_colour)
    pairs.append((gap, GAP))
    pairs.extend((tuple(shade), GAP) for shade in profile.gap_shades)
    empty = tuple(profile.empty_colour) if profile.empty_colour is not None else None
    if empty is not None:
        pairs.append((empty, EMPTY))
    if theme is not None:
        if theme.glow is not None:  # big tiles tint the gaps and empty cells around them
            for a in np.arange(0.05, 0.65, 0.05):
                pairs.append((blend(gap, theme.glow, a), GAP))
                if empty is not None:
                    pairs.append((blend(empty, theme.glow, a), EMPTY))
        by_colour: dict[tuple[int, int, int], list[int]] = {}
        for value, colour in theme.tiles:
            by_colour.setdefault(colour, []).append(value)
        for colour, values in by_colour.items():
            entries.append(Entry(colour, values[0] if len(values) == 1 else None))
    for learned in profile.learned:
        if not any(max(abs(a - b) for a, b in zip(e.colour, learned.colour)) <= 4 for e in entries):
            entries.append(Entry(tuple(learned.colour), learned.value))
    for i, e in enumerate(entries):
        pairs.append((e.colour, FIRST_TILE + i))
    return pairs, entries, theme


def _build_lut(pairs: list[tuple[tuple[int, int, int], int]]) -> np.ndarray:
    """Label of every colour (6 bits per channel): the nearest palette colour within TOL, else OTHER."""
    n = 1 << LUT_BITS
    step = 256 // n
    labels = np.zeros((n, n, n), np.uint8)
    best = np.full((n, n, n), 1e9, np.float32)
    centres = np.arange(n) * step + (step - 1) / 2
    for colour, label in pairs:
        lo = [max(0, int((c - TOL - step) // step)) for c in colour]
        hi = [min(n, int((c + TOL + step) // step) + 1) for c in colour]
        cb = centres[lo[0] : hi[0]][:, None, None]
        cg = centres[lo[1] : hi[1]][None, :, None]
        cr = centres[lo[2] : hi[2]][None, None, :]
        d = np.maximum(np.maximum(np.abs(cb - colour[0]), np.abs(cg - colour[1])), np.abs(cr - colour[2]))
        sub_best = best[lo[0] : hi[0], lo[1] : hi[1], lo[2] : hi[2]]
        sub_lab = labels[lo[0] : hi[0], lo[1] : hi[1], lo[2] : hi[2]]
        win = (d <= TOL) & (d < sub_best)
        sub_best[win] = d[win]
        sub_lab[win] = label
    return labels.ravel()


def sampler_for(profile: Profile) -> Sampler:
    key = (profile.board_rect, profile.cells, profile.tile_inset, profile.compressed, profile.theme, profile.gap_colour, tuple(map(tuple, profile.gap_shades)),
           profile.empty_colour,
           tuple((e.colour, e.value) for e in profile.learned), len(profile.marks), id(profile.empty_ring),
           len(profile.empty_ring))
    cached = getattr(profile, "sampler_for", None)
    if cached is not None and cached.key == key:
        return cached
    origin = profile.board_rect
    sy, sx, cy, cx = [], [], [], []
    top_bottom = []  # per cell: how many strip points the top and bottom strips hold (they come first)
    for patches in profile.patches:
        ys, xs = [], []
        for p in patches[:STRIPS]:
            nx, ny = (16, 4) if p.w >= p.h else (4, 16)
            y, x = _grid_points(p, origin, nx, ny)
            ys.append(y)
            xs.append(x)
        top_bottom.append(len(ys[0]) + len(ys[1]))
        sy.append(np.concatenate(ys))
        sx.append(np.concatenate(xs))
        y, x = _grid_points(patches[STRIPS], origin, 8, 8)
        cy.append(y)
        cx.append(x)
    ly, lx = _gap_lines(profile)
    pairs, entries, theme = _palette(profile)
    sampler = Sampler(
        key=key,
        strip_y=_pad(sy), strip_x=_pad(sx), centre_y=_pad(cy), centre_x=_pad(cx),
        line_y=ly.clip(0, origin.h - 1), line_x=lx.clip(0, origin.w - 1),
        lut=_build_lut(pairs), entries=entries, theme=theme,
        top_bottom=min(top_bottom), cols=profile.cols,
        digit_like=np.array([any(max(abs(a - b) for a, b in zip(e.colour, t)) <= TOL for t in (theme.text if theme else ()))
                             for e in entries], bool),
    )
    rims = _rim_lines(profile)
    if rims is not None:
        sampler.rim_y, sampler.rim_x = rims[0].clip(0, origin.h - 1), rims[1].clip(0, origin.w - 1)
    sampler.centre_all_y, sampler.centre_all_x = _centre_pixels(profile)
    if _thinnest_gap(profile) < THIN_GAP_PX:  # drawn lines: no gap to catch a tile between cells
        ey, ex = edge_points(profile)
        sampler.edge_y, sampler.edge_x = ey.clip(0, origin.h - 1), ex.clip(0, origin.w - 1)
    if profile.marks:
        at = {(x - origin.x, y - origin.y) for x, y in profile.marks}
        marked = _marked(at, sampler.line_y, sampler.line_x)
        sampler.line_marked = marked
        if sampler.rim_y is not None:
            sampler.rim_marked = _marked(at, sampler.rim_y, sampler.rim_x)
        if sampler.edge_y is not None:
            near = _near_marks(at, origin)
            sampler.edge_marked = near[sampler.edge_y, sampler.edge_x]
    sampler.cell_lut = sampler.lut
    if profile.empty_colour is not None and max(abs(int(a) - int(b)) for a, b in zip(profile.empty_colour, profile.gap_colour)) <= 1:
        sampler.cell_lut = np.where(sampler.lut == GAP, EMPTY, sampler.lut).astype(sampler.lut.dtype)
    sampler.extra["ring"] = ring_sampler(profile)
    profile.sampler_for = sampler  # type: ignore[attr-defined]
    return sampler


def _marked(at: set[tuple[int, int]], ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """True at the sample points (ys, xs) that are marked points (`at`: board-relative (x, y))."""
    marked = np.zeros(ys.shape, bool)
    for idx in np.ndindex(marked.shape):
        marked[idx] = (int(xs[idx]), int(ys[idx])) in at
    return marked


def _centre_pixels(profile: Profile) -> tuple[np.ndarray, np.ndarray]:
    """(y, x) of every pixel of each cell's centre patch, board-relative: (16, h, w), h and w the
    smallest patch's (the patches differ by a pixel where cells do)."""
    origin = profile.board_rect
    centres = [p[STRIPS] for p in profile.patches]
    h, w = min(c.h for c in centres), min(c.w for c in centres)
    ys = np.stack([np.repeat((c.y - origin.y + np.arange(h))[:, None], w, axis=1) for c in centres])
    xs = np.stack([np.repeat((c.x - origin.x + np.arange(w))[None, :], h, axis=0) for c in centres])
    return ys.clip(0, origin.h - 1).astype(np.intp), xs.clip(0, origin.w - 1).astype(np.intp)


def labels_of(lut: np.ndarray, px: np.ndarray) -> np.ndarray:
    q = (px >> (8 - LUT_BITS)).astype(np.intp)
    return lut[(q[..., 0] << (2 * LUT_BITS)) | (q[..., 1] << LUT_BITS) | q[..., 2]]


THIN_GAP_PX = 4  # gaps narrower than this are drawn lines: no step test along them


def _thinnest_gap(profile: Profile) -> int:
    cells, (n_rows, n_cols) = profile.cells, profile.shape
    gaps = [cells[k].x - cells[k - 1].right for k in range(1, n_cols)]
    gaps += [cells[k * n_cols].y - cells[(k - 1) * n_cols].bottom for k in range(1, n_rows)]
    return min(gaps)


def _near_marks(at: set[tuple[int, int]], origin: Rect, reach: int = 6) -> np.ndarray:
    """Board-sized mask: within `reach` px of a marked point (marks are learned on the gap lines;
    the same writing runs on into the cells beside them)."""
    import cv2

    mask = np.zeros((origin.h, origin.w), np.uint8)
    for x, y in at:
        if 0 <= x < origin.w and 0 <= y < origin.h:
            mask[y, x] = 1
    return cv2.dilate(mask, np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)).astype(bool)


def grid_from_labels(labels: np.ndarray, entries: list[Entry], values: dict[int, int], cols: int) -> Grid:
    """The grid of the cells' labels (a tile's value by its palette entry), with `values` read otherwise."""
    out = []
    for i, lab in enumerate(labels.tolist()):
        if i in values:
            out.append(values[i])
        elif lab == EMPTY:
            out.append(0)
        else:
            out.append(int(entries[lab - FIRST_TILE].value))  # type: ignore[arg-type]
    return tuple(tuple(out[r * cols : (r + 1) * cols]) for r in range(len(out) // cols))
