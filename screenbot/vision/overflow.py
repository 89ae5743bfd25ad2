"""Numbers written wider than their cell: found, their ink on the gap lines told from a tile between cells, and the whole number read."""

from __future__ import annotations

import numpy as np

from screenbot.geometry import Rect
from screenbot.imaging import EDGE_PX, FG_DIFF, glyph_mask, marks_alone
from screenbot.profile import Profile
from screenbot.segments import true_runs

# On a line down a gap, the ink of a number that runs over its cell crosses it within the band the digits
# are written in (the middle of the row), for less than this share of the cell's height; a tile between
# cells covers the line over its whole height.
INK_BAND = (0.2, 0.8)
INK_RUN = 0.6
INK_TOL = 60  # colour levels: a pixel this close to the digits' colour is their ink
INK_OUT_PX = 3  # this many such pixels beside the cell: the number runs over the cell's edge
SPACE = 0.4  # blank columns narrower than this share of the digits' height lie between two digits of one number
CENTRED = 0.06  # the number's ink is centred on its cell within this share of the cell's width (at least 3 px)


def ink_on_lines(odd: np.ndarray, ys: np.ndarray, xs: np.ndarray, profile: Profile) -> np.ndarray:
    """The points (lines x k, True) of lines down the gaps where the ink of a number running over its cell
    crosses them: per row of cells, what is not the gap (`odd`) lies within the digits' band, shorter than
    INK_RUN of the cell. Lines across (horizontal) are never ink: numbers run over sideways only."""
    out = np.zeros(odd.shape, bool)
    if not odd.any():  # every point shows the gap (a settled board): no ink to look for
        return out
    down = (xs == xs[:, :1]).all(axis=1)
    origin = profile.board_rect
    for r in range(profile.rows):
        cell = profile.tile_rect(r * profile.cols)
        top, h = cell.y - origin.y, cell.h
        lo, hi = top + INK_BAND[0] * h, top + INK_BAND[1] * h
        in_row = (ys >= top) & (ys < top + h)
        for k in np.nonzero(down)[0]:
            hit = np.nonzero(odd[k] & in_row[k])[0]
            if not len(hit):
                continue
            y_a, y_b = ys[k, hit.min()], ys[k, hit.max()]
            if y_a >= lo and y_b <= hi and y_b - y_a <= INK_RUN * h:
                out[k, hit.min() : hit.max() + 1] = True
    return out


def wide_number(region: np.ndarray, profile: Profile, i: int, background, plain: list) -> np.ndarray | None:
    """The number written on cell i that runs over its edges, alone on a picture of the tile's colour
    (`background`) with room round it, for its digits to be read; None unless its ink (the colour of its
    strongest marks inside the cell, not a colour of `plain`) makes one run of digits centred on the cell,
    with blank room on both sides before anything else (a neighbour's number joined to it is no number)."""
    origin = profile.board_rect
    cell = profile.tile_rect(i).translated(-origin.x, -origin.y)
    pitch = profile.cells[1].x - profile.cells[0].x
    y0, y1 = cell.y + int(0.12 * cell.h), cell.y + int(0.88 * cell.h)
    inside = region[y0:y1, cell.x : cell.right]
    mask = glyph_mask(inside, background).astype(bool)
    if not mask.any():
        return None
    x_a, x_b = max(0, cell.x - pitch), min(region.shape[1], cell.right + pitch)
    band = region[y0:y1, x_a:x_b].astype(np.int16)
    inky = _near(band, _ink(inside, mask, background)) & _unplain(band, plain)
    rows = np.nonzero(inky[:, cell.x - x_a : cell.right - x_a].any(axis=1))[0]
    if not len(rows):
        return None
    space = max(2, int(SPACE * (rows[-1] - rows[0] + 1)))
    cols = inky.any(axis=0)
    centre = (cell.x + cell.right) // 2 - x_a
    left = _run_end(cols, centre, -1, space)
    right = _run_end(cols, centre, 1, space)
    off = lambda a, b: abs((a + b + 1) / 2 - (centre + 0.5)) > max(3, CENTRED * cell.w) or b - a + 1 > 2 * pitch
    keep = inky
    if left is None or right is None or off(left, right):
        # joined to ink beside it (the ink runs on to the window's edge, or is not centred on the cell): a
        # neighbour's number as wide, written over the gap between them. Each digit belongs to the cell
        # whose middle is nearest (numbers are centred on their cells)
        found = _own_digits(inky, centre, pitch)
        if found is None:
            return None
        own, cut_left, cut_right = found
        left, right = int(np.nonzero(own)[0][0]), int(np.nonzero(own)[0][-1])
        # where it was cut from a neighbour's digit on one side only, its clean end on the other side and
        # its centring say where it ends (the cut falls where the two numbers' ink overlaps)
        if cut_right and not cut_left:
            right = min(len(cols) - 1, 2 * centre + 1 - left)
        elif cut_left and not cut_right:
            left = max(0, 2 * centre + 1 - right)
        if off(left, right):
            return None
        keep = inky.copy()
        keep[:, :left] = False
        keep[:, right + 1:] = False
        if cut_left and cut_right:
            keep &= own  # cut on both sides: what the cuts left it
    part = region[y0:y1, x_a + left : x_a + right + 1]
    return marks_alone(part, keep[:, left : right + 1], background, int(rows[-1] - rows[0] + 1))


JOINED = 1.5  # a piece of ink this many times the usual digit's width is two digits that touch


def _own_digits(inky: np.ndarray, centre: int, pitch: int) -> tuple[np.ndarray, bool, bool] | None:
    """(own, cut on the left, cut on the right): the columns of `inky` (a band one cell's pitch either side
    of a cell's middle, `centre`) that hold the digits nearer that middle than a neighbour's: pieces of ink
    between blank columns, a piece as wide as two digits split where least ink crosses it near its middle;
    and whether its outer pieces came from such a split. None when a piece is cut by the band's edge on the
    cell's side, or nothing is the cell's."""
    counts = inky.sum(axis=0)
    cols = counts > 0
    pieces = true_runs(cols)
    if not pieces:
        return None
    usual = float(np.median([b - a for a, b in pieces]))
    split = []  # (from, to, made by a cut)
    for a, b in pieces:
        if b - a > JOINED * usual and b - a >= 4:
            lo, hi = a + (b - a) // 4, b - (b - a) // 4
            cut = lo + int(np.argmin(counts[lo:hi]))
            split += [(a, cut, True), (cut, b, True)]
        else:
            split.append((a, b, False))
    mine = [(a, b, made) for a, b, made in split
            if abs((a + b) / 2 - centre) <= pitch / 2]  # nearer this cell's middle than either neighbour's
    if not mine or any(a == 0 or b == len(cols) for a, b, _ in mine):
        return None  # nothing of its own, or cut by the band: not all of it seen
    own = np.zeros(len(cols), bool)
    for a, b, _ in mine:
        own[a:b] = True
    return own, mine[0][2], mine[-1][2]


def _run_end(cols: np.ndarray, start: int, step: int, space: int) -> int | None:
    """The last inked column from `start` going `step`-wards before `space` blank columns in a row;
    None when the window ends first."""
    last, blank = start, 0
    x = start
    while 0 <= x < len(cols):
        if cols[x]:
            last, blank = x, 0
        else:
            blank += 1
            if blank > space:
                return last
        x += step
    return None


def runs_over(region: np.ndarray, cell: Rect, neighbours: tuple[int, int], background, plain) -> bool:
    """The digits written on `cell` (board-relative) run on past its left or right edge: pixels of their
    ink's colour, and not of the gap's, in the rows they are written in, in the gap on either side
    (`neighbours`: the x where it ends on the left and on the right); a line drawn along the cell
    is no ink, nor a pixel of the colours in `plain` (the gap's, an inset tile's margin).
    Read inside its cell, such a number would lose digits (a 1024 read as 2)."""
    y0, y1 = cell.y + int(0.12 * cell.h), cell.y + int(0.88 * cell.h)
    left, right = neighbours
    # the neighbours' own edges (a px or two past their rectangles) are left out
    band = np.concatenate([region[y0:y1, max(0, left + EDGE_PX) : cell.x], region[y0:y1, cell.right : right - EDGE_PX]], axis=1)
    if not band.size:
        return False
    px = band.astype(np.int16)
    unplain = _unplain(px, [*plain, background])  # the tile's own colour past its edge is no ink either
    if int(unplain.sum()) < INK_OUT_PX:  # the gap beside the cell all in plain colours (the usual case): no ink
        return False
    inside = region[y0:y1, cell.x : cell.right]
    mask = glyph_mask(inside, background).astype(bool)
    rim = max(1, int(0.08 * cell.w))  # a tile's rounded or antialiased edge is no writing
    mask[:, :rim] = False
    mask[:, -rim:] = False
    if not mask.any():
        return False
    rows = np.nonzero(mask.any(axis=1))[0]
    inky = _near(px, _ink(inside, mask, background)) & unplain
    written = np.zeros(len(inky), bool)
    written[rows] = True
    # a column as inky above and below the writing as beside it is a line drawn along the cell, not ink
    # (the writing's own rows alone when it fills the cell's height: a column inky in nearly all of them)
    line = inky[~written].mean(axis=0) >= 0.5 if (~written).any() else inky.mean(axis=0) >= 0.9
    return int(inky[written][:, ~line].sum()) >= INK_OUT_PX


def _ink(inside: np.ndarray, mask: np.ndarray, background) -> np.ndarray:
    """The colour of the digits written in `inside` (`mask`: their pixels): the median of their strongest
    marks, those at least 0.7 as far from the tile's colour as the farthest (an antialiased rim is paler)."""
    strongest = np.abs(inside.astype(np.int16) - np.asarray(background, np.int16)).max(axis=2)
    return np.median(inside[mask & (strongest >= 0.7 * strongest[mask].max())], axis=0)


def _near(px: np.ndarray, ink: np.ndarray) -> np.ndarray:
    """True where a pixel (int16) is within INK_TOL of the ink's colour."""
    return np.abs(px - ink).max(axis=2) <= INK_TOL


def _unplain(px: np.ndarray, plain) -> np.ndarray:
    """True where a pixel (int16) is more than FG_DIFF from every colour in `plain`."""
    out = np.ones(px.shape[:2], bool)
    for colour in plain:
        out &= np.abs(px - np.asarray(colour, np.int16)).max(axis=2) > FG_DIFF
    return out
