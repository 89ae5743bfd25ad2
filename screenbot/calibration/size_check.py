"""Tells whether the board where a profile points has the profile's size (a profile kept for one size, a board of another on screen)."""

from __future__ import annotations

import numpy as np

from screenbot.calibration.calibrate import calibrate
from screenbot.calibration.profiles import board_rect, cell_rects
from screenbot.calibration.errors import OtherSizeError
from screenbot.calibration.lattice import Lattice, Search, find_lattices
from screenbot.calibration.look import dominant_share
from screenbot.calibration.lattice_grow import _gap_colour, _near_gap
from screenbot.control.screen import Frame
from screenbot.errors import ScreenbotError
from screenbot.game.sizes import Size, format_size
from screenbot.geometry import Rect
from screenbot.profile import Profile

# The search looks this many board widths (heights) beyond each side of the profile's board: a board
# drawn with fixed cells (a terminal's characters) grows from its corner with its size, up to 8/3 of
# a 3x3 board's width for an 8x8, and a smaller search than the whole screen is quicker.
AROUND_BOARDS = 2.0
# A lattice is the board the profile points at when they share this share of the smaller of the two.
SAME_PLACE_SHARE = 0.5
# A cell of a lattice lies on a cell of the profile when every edge is within this share of the cell's
# size (at least 3 px: calibration rounds a fractional board).
ON_CELL_SHARE = 0.1
# The profile's gap lines outside such a part show the part's gap colour on at least this share of
# their points (a big tile's glow may tint some): the rest of the profile's board is there too.
LINES_GO_ON_SHARE = 0.75


def _around(rect: Rect, frame: Frame) -> Rect | None:
    """`rect` grown by AROUND_BOARDS of its own size on each side, kept to the frame."""
    dx, dy = int(rect.w * AROUND_BOARDS), int(rect.h * AROUND_BOARDS)
    return Rect(rect.x - dx, rect.y - dy, rect.w + 2 * dx, rect.h + 2 * dy).intersection(frame.rect)


def _shared(a: Rect, b: Rect) -> float:
    """The share of the smaller rectangle that lies in the other one too."""
    inter = a.intersection(b)
    return 0.0 if inter is None else inter.area / max(1, min(a.area, b.area))


def size_seen(frame: Frame, profile: Profile, moving: bool = False) -> Size | None:
    """The size of the board the frame shows where `profile` says, when it is not the profile's size.

    None when a board of the profile's size is there, or when no board of another size is seen
    there (no board at all is the reader's to say). A grid of another size counts only when
    calibration takes it as a board (for any size but 4x4: its cells read as 2048 tiles). `moving`:
    the profile's reading of the frame found it mid-move; a smaller grid on the profile's own cells is
    then the part of the board that stood still (a row of tiles between cells breaks its squares up).
    """
    near = _around(profile.board_rect, frame)
    if near is None or near.w < 2 or near.h < 2:
        return None
    part = frame.crop(near)
    here: list[tuple[float, Lattice]] = []
    for lattice in find_lattices(part.pixels).boards:
        share = _shared(board_rect(lattice, part), profile.board_rect)
        if share >= SAME_PLACE_SHARE:
            if lattice.shape == profile.shape:
                return None
            here.append((share, lattice))
    for _share, lattice in sorted(here, key=lambda item: -item[0]):
        if _part_of(lattice, part, profile) and (moving or _lines_go_on(part, profile, lattice)):
            continue  # some of the profile's cells, and the profile's board is there as a whole
        try:
            seen = calibrate(part, search=Search(boards=[lattice]))
        except ScreenbotError:  # not a board after all (a grid whose cells are no tiles)
            continue
        if seen.shape != profile.shape:
            return seen.shape
    return None


def _part_of(lattice: Lattice, part: Frame, profile: Profile) -> bool:
    """Every cell of `lattice` lies on a cell of the profile: calibration may see only part of a board
    (a column of tiles whose pictures break the squares up), and a board drawn in fixed cells that
    shrank keeps some of them."""
    def near(a: Rect, b: Rect) -> bool:
        slack = max(3.0, ON_CELL_SHARE * min(b.w, b.h))
        return max(abs(a.x - b.x), abs(a.y - b.y), abs(a.right - b.right), abs(a.bottom - b.bottom)) <= slack

    return all(any(near(cell, mine) for mine in profile.cells) for cell in cell_rects(lattice, part))


def _lines_go_on(part: Frame, profile: Profile, lattice: Lattice) -> bool:
    """The gap lines of the profile's board, where they lie outside `lattice` (part of that board),
    show the gap colour of the lattice's own lines: the profile's board is there as a whole. A board
    drawn in fixed cells that shrank leaves the page's colour there."""
    pixels = part.pixels
    gap = _gap_colour(pixels, lattice, dominant_share)
    if gap is None or not part.rect.contains(profile.board_rect):
        return False
    mine = _lattice_of(profile, part)
    x, y, w, h = lattice.board_rect
    ys = np.arange(int(mine.y0), int(mine.y0 + (mine.rows - 1) * mine.pitch_y + mine.cell_h))
    xs = np.arange(int(mine.x0), int(mine.far[0]))
    ys_out, xs_out = ys[(ys < y) | (ys >= y + h)], xs[(xs < x) | (xs >= x + w)]
    shown: list[np.ndarray] = []
    for k in range(1, mine.cols):  # a vertical line: its points beside the lattice, or all of them
        gx = int(round(mine.x0 + k * mine.pitch_x - mine.gap_x / 2))
        shown.append(_on_gap(pixels, gap, ys_out if x <= gx < x + w else ys, gx, vertical=True))
    for k in range(1, mine.rows):
        gy = int(round(mine.y0 + k * mine.pitch_y - mine.gap_y / 2))
        shown.append(_on_gap(pixels, gap, xs_out if y <= gy < y + h else xs, gy, vertical=False))
    points = np.concatenate(shown) if shown else np.zeros(0, bool)
    return points.size == 0 or float(points.mean()) >= LINES_GO_ON_SHARE


def _on_gap(pixels: np.ndarray, gap: np.ndarray, along: np.ndarray, at: int, vertical: bool) -> np.ndarray:
    """Per point of a line (x = `at` over the rows `along`, or y = `at` over the columns), whether one
    of the three pixels across it shows the gap (a 1 px line lies within a pixel of where it is put)."""
    limit = pixels.shape[1 if vertical else 0] - 1
    out = np.zeros(len(along), bool)
    for d in (-1, 0, 1):
        k = min(max(at + d, 0), limit)
        out |= _near_gap(pixels[along, k] if vertical else pixels[k, along], gap)
    return out


def _lattice_of(profile: Profile, part: Frame) -> Lattice:
    """The profile's cells as a lattice in the picture `part`."""
    first, last = profile.cells[0], profile.cells[-1]
    pitch_x = (last.x - first.x) / (profile.cols - 1)
    pitch_y = (last.y - first.y) / (profile.rows - 1)
    cell_w = sum(c.w for c in profile.cells) / len(profile.cells)
    cell_h = sum(c.h for c in profile.cells) / len(profile.cells)
    return Lattice(first.x - part.left, first.y - part.top, pitch_x, pitch_y, cell_w, cell_h,
                   first.x - profile.board_rect.x, first.y - profile.board_rect.y, len(profile.cells),
                   profile.rows, profile.cols)


def other_size_error(kept: Size, seen: Size, live: bool, where_kept: str = "", saved: bool = True) -> OtherSizeError:
    """The one line for a profile of size `kept` used on a board of size `seen` (`where_kept`: the
    sentence's tail saying where the frame is kept; `saved`: the profile came from a file)."""
    where = "on the screen" if live else "in the picture"
    return OtherSizeError(f"the {'saved ' if saved else ''}profile is for a {format_size(kept)} board; the board {where} looks "
                          f"{format_size(seen)}: run `screenbot calibrate` again{where_kept}")
