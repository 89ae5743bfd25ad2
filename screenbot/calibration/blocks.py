"""Finds 4x4 boards of blocks that touch: cells with no gap and no line between them, told apart only
where one cell's colour meets another's (a terminal game filling each cell with its tile's colour).

Where two neighbours share a colour no edge shows, so the lattice is found from the edges that do:
long straight colour steps, each the whole side of a cell. A board is five evenly spaced vertical
positions and five horizontal ones such that every long step inside it lies on one of them and
runs from one lattice line to another, its cells are flat colours (a number or a dot written on
some), and the lattice goes on neither way beyond it (a chess board or a table would).

A board just begun shows few inner lines. Its whole outline and marks centred in most cells (dots on
the empty ones) confirm it; where the empty cells are bare, every other cell has something written on
it and the caller's `confirm` (the board read as 2048 tiles) decides."""

from __future__ import annotations

import numpy as np

from screenbot.calibration.lattice import MIN_CELL_PX, Lattice
from screenbot.game.rules import SIZE
from typing import Callable

from screenbot.imaging import commonest_colour

STEP = 24  # a colour step this sharp (largest channel difference) between neighbouring pixels is an edge
SNAP = 2.0  # px: a step this near a lattice line is on it
FLAT = 0.6  # a cell's commonest colour covers this share of it (the rest: its number)
MOST_SIDE = 0.6  # an outer side with steps along this share of it is the board's edge ...
WHOLE_SIDE = 0.9  # ... along this share, where few inner lines show (all four sides needed then)
CENTRED = 0.12  # what is written on a cell has its middle this near the cell's (share of its size) ...
MIN_CENTRED = 12  # ... on this many cells, where few inner lines show


def _runs(edge: np.ndarray, min_len: int) -> list[tuple[int, int, int]]:
    """Runs of True down each column of `edge`, at least min_len long: (column, start, end)."""
    out = []
    padded = np.zeros((edge.shape[0] + 2, edge.shape[1]), np.int8)
    padded[1:-1] = edge
    d = np.diff(padded, axis=0)
    for col in np.nonzero(edge.any(axis=0))[0]:
        starts = np.nonzero(d[:, col] == 1)[0]
        ends = np.nonzero(d[:, col] == -1)[0]
        out.extend((int(col), int(a), int(b)) for a, b in zip(starts, ends) if b - a >= min_len)
    return out


def _steps(pixels: np.ndarray) -> tuple[list, list]:
    """Long vertical steps (x, y0, y1) and long horizontal ones (y, x0, x1); x or y is the position
    between the two pixels (the left or top edge of the second)."""
    p = pixels.astype(np.int16)
    vx = np.abs(p[:, 1:] - p[:, :-1]).max(axis=2) > STEP  # between x and x+1
    vy = np.abs(p[1:] - p[:-1]).max(axis=2) > STEP
    vertical = [(x + 1, a, b) for x, a, b in _runs(vx, MIN_CELL_PX)]
    horizontal = [(y + 1, a, b) for y, a, b in _runs(vy.T, MIN_CELL_PX)]
    return vertical, horizontal


def _evens(weights: dict[int, int], min_pitch: int) -> list[tuple[int, float]]:
    """Five evenly spaced positions: the outer two carrying steps, and at least one of the inner three:
    (first, pitch, inner lines that carry steps) for each, best supported first."""
    pos = sorted(p for p, w in weights.items() if w >= MIN_CELL_PX)
    out = []
    for i, a in enumerate(pos):
        for b in pos[i + 1:]:
            pitch = (b - a) / SIZE
            if pitch < min_pitch:
                continue
            inner = [a + k * pitch for k in range(1, SIZE)]
            off = [min((abs(q - x) for q in pos), default=99) for x in inner]
            hits = [d for d in off if d <= SNAP]
            if hits:
                out.append((a, pitch, len(hits), sum(hits) / len(hits)))
    out.sort(key=lambda t: (-t[2], t[3]))  # most inner lines seen, then the most exact
    return [(a, p, n) for a, p, n, _ in out]


def _on(value: float, lines: np.ndarray) -> bool:
    return bool(np.abs(lines - value).min() <= SNAP)


def find_block_boards(pixels: np.ndarray, confirm: Callable[[Lattice], bool] | None = None) -> list[Lattice]:
    """Every 4x4 board of touching blocks in a BGR picture (usually none or one). `confirm` decides on a
    board just begun whose empty cells are bare (without it such a board is not found)."""
    vertical, horizontal = _steps(pixels)
    if len(vertical) < 2 or len(horizontal) < 2:
        return []
    vw: dict[int, int] = {}
    for x, a, b in vertical:
        vw[x] = vw.get(x, 0) + b - a
    hw: dict[int, int] = {}
    for y, a, b in horizontal:
        hw[y] = hw.get(y, 0) + b - a
    found: list[tuple[float, Lattice]] = []
    for x0, px, nx in _evens(vw, MIN_CELL_PX)[:12]:
        for y0, py, ny in _evens(hw, MIN_CELL_PX)[:12]:
            if not 0.5 <= px / py <= 2.0:
                continue
            lat = Lattice(float(x0), float(y0), px, py, px, py, 0.0, 0.0, 0)
            # few inner lines seen (a board just begun: most neighbours share the empty colour): the
            # whole outline, and what is written on the cells centred in them, confirm the lattice
            sparse = min(nx, ny) < SIZE - 2
            edge = _fits(pixels, lat, vertical, horizontal, sparse, confirm)
            if edge:
                found.append((edge, lat))
    # lattices that overlap are one board seen twice (a window's edge a pitch past it lines up too):
    # the one whose outline is most complete stays
    kept: list[tuple[float, Lattice]] = []
    for edge, lat in sorted(found, key=lambda t: -t[0]):
        if not any(_overlap(lat, other) for _, other in kept):
            kept.append((edge, lat))
    return [lat for _, lat in kept]


def _overlap(a: Lattice, b: Lattice) -> bool:
    ax, ay, aw, ah = a.board_rect
    bx, by, bw, bh = b.board_rect
    inter = max(0.0, min(ax + aw, bx + bw) - max(ax, bx)) * max(0.0, min(ay + ah, by + bh) - max(ay, by))
    return inter > 0.1 * min(aw * ah, bw * bh)


def _fits(pixels: np.ndarray, lat: Lattice, vertical, horizontal, sparse: bool = False,
          confirm: Callable[[Lattice], bool] | None = None) -> float:
    """0 when the lattice is no board of blocks; else how much of its outline shows (0..4]: the share of
    each outer side along which a step runs, summed."""
    xs = lat.x0 + lat.pitch_x * np.arange(SIZE + 1)
    ys = lat.y0 + lat.pitch_y * np.arange(SIZE + 1)
    h, w = pixels.shape[:2]
    if xs[-1] > w or ys[-1] > h:
        return 0.0
    # every long step inside the board lies on the lattice and spans whole cells
    for lines, across, steps, cell in ((xs, ys, vertical, lat.pitch_y), (ys, xs, horizontal, lat.pitch_x)):
        for pos, a, b in steps:
            if not (lines[0] + SNAP < pos < lines[-1] - SNAP and a < across[-1] - SNAP and b > across[0] + SNAP):
                continue
            if b - a < 0.5 * cell:
                continue  # a digit's stroke, not a cell's side
            if not (_on(pos, lines) and across[0] - SNAP <= a and b <= across[-1] + SNAP):
                return 0.0  # off the lattice, or running on past the board: a bigger grid
            if not (_on(a, across) and _on(b, across)):
                return 0.0
    # the board's outline: steps along most of each outer side (the board against what lies around it)
    outline, shown = 0, 0.0
    for lines, steps, span in ((xs, vertical, (ys[0], ys[-1])), (ys, horizontal, (xs[0], xs[-1]))):
        for edge in (lines[0], lines[-1]):
            covered = sum(max(0.0, min(b, span[1]) - max(a, span[0])) for pos, a, b in steps if abs(pos - edge) <= SNAP)
            share = min(1.0, covered / (span[1] - span[0]))
            outline += share >= (WHOLE_SIDE if sparse else MOST_SIDE)
            shown += share
    if outline < (4 if sparse else 3):
        return 0.0
    # flat cells, and at least two colours among them (a board, not one panel)
    colours, centred, marks = [], 0, []
    for r in range(SIZE):
        for c in range(SIZE):
            x, y, cw, ch = lat.cell(r, c)
            cell = pixels[int(y + 0.1 * ch):int(y + 0.9 * ch), int(x + 0.1 * cw):int(x + 0.9 * cw)]
            colour = commonest_colour(cell)
            if (cell == colour).all(axis=2).sum() < FLAT * cell.shape[0] * cell.shape[1]:
                return 0.0
            colours.append(colour)
            mark_y, mark_x = np.nonzero((cell != colour).any(axis=2))
            mark = None  # nothing written on the cell
            if len(mark_x):
                mark = (abs(mark_x.mean() - (cell.shape[1] - 1) / 2) <= CENTRED * cell.shape[1]
                        and abs(mark_y.mean() - (cell.shape[0] - 1) / 2) <= CENTRED * cell.shape[0])
                centred += mark
            marks.append(mark)
    if len(set(colours)) < 2:
        return 0.0
    if _goes_on(xs, ys, vertical, horizontal, lat.pitch_x, lat.pitch_y):
        return 0.0
    if sparse and centred < MIN_CENTRED and not (
            confirm is not None and _bare_empties(colours, marks) and confirm(lat)):
        return 0.0
    return shown


def _bare_empties(colours: list, marks: list) -> bool:
    """Cells of the commonest colour (the empty ones) with nothing written on them, and every other
    cell (a tile) with something written on it (centred or not: a number on one of a cell's two text
    lines is off its middle): a board just begun whose empty cells carry no dot."""
    empty = max(set(colours), key=colours.count)
    return all((mark is None) == (colour == empty) for colour, mark in zip(colours, marks))


def _goes_on(xs: np.ndarray, ys: np.ndarray, vertical, horizontal, px: float, py: float) -> bool:
    """Whether the lattice carries on past a side: a band of cells just beyond it, split by steps on
    two or more of the lattice's inner lines (a chess board, a table; a window's edge a pitch away, or
    help text under the board, splits nothing)."""
    def split(steps, lines, lo, hi, length) -> int:
        return sum(any(abs(pos - line) <= SNAP and min(b, hi) - max(a, lo) >= 0.9 * length for pos, a, b in steps)
                   for line in lines)

    for lo, hi in ((xs[0] - px, xs[0]), (xs[-1], xs[-1] + px)):
        if split(horizontal, ys[1:-1], lo, hi, px) >= 2:
            return True
    for lo, hi in ((ys[0] - py, ys[0]), (ys[-1], ys[-1] + py)):
        if split(vertical, xs[1:-1], lo, hi, py) >= 2:
            return True
    return False
