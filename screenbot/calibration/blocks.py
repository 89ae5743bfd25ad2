"""Finds boards of blocks that touch (3 to 8 cells each way): cells with no gap and no line between them,
told apart only where one cell's colour meets another's (a terminal game filling each cell with its
tile's colour).

Where two neighbours share a colour no edge shows, so the lattice is found from the edges that do:
long straight colour steps, each the whole side of a cell. A board is C + 1 evenly spaced vertical
positions and R + 1 horizontal ones such that every long step inside it lies on one of them and
runs from one lattice line to another, its cells are flat colours (a number or a dot written on
some), and the lattice goes on neither way beyond it (a chess board or a table would).

A board just begun shows few inner lines. Its whole outline and marks centred in most cells (dots on
the empty ones) confirm it; where the empty cells are bare, every other cell has something written on
it and the caller's `confirm` (the board read as 2048 tiles) decides."""

from __future__ import annotations

from typing import Callable

import numpy as np

from screenbot.calibration.lattice import MAX_ASPECT, MIN_CELL_PX, Lattice
from screenbot.game.rules import SIZE as CLASSIC
from screenbot.game.sizes import MAX_SIDE, MIN_SIDE
from screenbot.imaging import commonest_colour

STEP = 12  # a colour step sharper than this (largest channel difference) between neighbouring pixels is an edge (a
# window may draw its 2 just 24 levels off its empty cells, and its frame 20 off the board inside it)
SNAP = 2.0  # px: a step this near a lattice line is on it
SNAP_REACH = 3  # whole pixels looked at either side of a line for a step within SNAP
FLAT = 0.6  # a cell's commonest colour covers this share of it (the rest: its number)
MOST_SIDE = 0.6  # an outer side with steps along this share of it is the board's edge ...
WHOLE_SIDE = 0.9  # ... along this share, where few inner lines show (all four sides needed then)
CENTRED = 0.12  # what is written on a cell has its middle this near the cell's (share of its size) ...
CENTRED_SHARE = 0.75  # ... on this share of the cells, where few inner lines show:
SPARSE_SHARE = 0.5  # ... fewer than this share of the inner lines one way
CANDIDATES = 150  # the best supported pairs of spacings (across, down) tried ...
WAY_CANDIDATES = 400  # ... of these best supported spacings each way
# The steps along a line of the lattice, against its pitch: an outer line carries at least a side of the
# board (3 cells, each at least half as long across as the pitch), an inner one at least half a cell side.
OUTER_SIDE = 0.9
CELL_SIDE = 0.45


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


def _evens(weights: dict[int, int], min_pitch: int) -> list[tuple[int, float, int, int]]:
    """Evenly spaced positions, MIN_SIDE to MAX_SIDE cells apart: the outer two carrying steps as long as
    a side of the board, and at least one of the inner ones as long as a cell's side (a digit's strokes
    make short steps anywhere): (first, pitch, cells, inner lines that carry steps) for each, best
    supported first (the largest share of inner lines seen, then the fewest cells, then the most exact)."""
    pos = np.array(sorted(p for p, w in weights.items() if w >= MIN_CELL_PX), np.int64)
    if len(pos) < 2:
        return []
    dense = np.zeros(int(pos[-1]) + 2 * SNAP_REACH + 2, np.int64)  # the steps' length at each position
    dense[pos + SNAP_REACH] = [weights[int(p)] for p in pos]
    first, last = np.triu_indices(len(pos), 1)
    a, b = pos[first].astype(float), pos[last].astype(float)
    wa, wb = dense[pos[first] + SNAP_REACH], dense[pos[last] + SNAP_REACH]
    out = []
    for cells in range(MIN_SIDE, MAX_SIDE + 1):
        pitch = (b - a) / cells
        keep = (pitch >= min_pitch) & (np.minimum(wa, wb) >= OUTER_SIDE * pitch)
        if not keep.any():
            continue
        ka, kp = a[keep], pitch[keep]
        hits, off = np.zeros(len(ka), int), np.zeros(len(ka))
        for k in range(1, cells):
            x = ka + k * kp
            nearest = np.full(len(ka), np.inf)
            for d in range(-SNAP_REACH, SNAP_REACH + 1):
                q = np.rint(x).astype(np.int64) + d
                inside = (q >= 0) & (q + SNAP_REACH < len(dense))
                w = np.where(inside, dense[np.clip(q + SNAP_REACH, 0, len(dense) - 1)], 0)
                dist = np.abs(q - x)
                nearest = np.where((dist <= SNAP) & (w >= CELL_SIDE * kp), np.minimum(nearest, dist), nearest)
            seen = np.isfinite(nearest)
            hits += seen
            off += np.where(seen, nearest, 0.0)
        for i in np.nonzero(hits)[0]:
            out.append((int(ka[i]), float(kp[i]), cells, int(hits[i]), float(off[i] / hits[i])))
    out.sort(key=lambda t: (-t[3] / (t[2] - 1), t[2], t[4]))
    return [(a0, p, cells, n) for a0, p, cells, n, _ in out]


def _on(value: float, lines: np.ndarray) -> bool:
    return bool(np.abs(lines - value).min() <= SNAP)


def find_block_boards(pixels: np.ndarray, confirm: Callable[[Lattice], bool] | None = None,
                      max_aspect: float = MAX_ASPECT) -> list[Lattice]:
    """Every board of touching blocks in a BGR picture (usually none or one). `confirm` (the board on a
    lattice reads as 2048 tiles) picks among lattices found on one board, and decides on a board just
    begun whose empty cells are bare (without it such a board is not found). `max_aspect`: how much wider
    than tall (or taller than wide) a cell may be."""
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
    across, down = _evens(vw, MIN_CELL_PX), _evens(hw, MIN_CELL_PX)
    for (x0, px, cols, nx), (y0, py, rows, ny) in _pairs(across, down, max_aspect):
        lat = Lattice(float(x0), float(y0), px, py, px, py, 0.0, 0.0, 0, rows, cols)
        # few inner lines seen (a board just begun: most neighbours share the empty colour): the
        # whole outline, and what is written on the cells centred in them, confirm the lattice
        sparse = min(nx / (cols - 1), ny / (rows - 1)) < SPARSE_SHARE
        edge = _fits(pixels, lat, vertical, horizontal, sparse, confirm)
        if edge:
            found.append((edge, lat))
    # lattices that overlap are one board seen twice (a window's edge a pitch past it lines up too). The
    # one whose outline is most complete comes first; of two as complete, the larger (a column of empty
    # cells at the side shows no inner line: the rest outlines a board too), then the one whose lines lie
    # nearest the steps, then the one of fewer cells (the lines of a board are lines of one with each cell
    # split in two too). Where `confirm` is given, the first of them that reads as a board stays.
    read: dict[Lattice, bool] = {}

    def reads(lat: Lattice) -> bool:
        if lat not in read:
            read[lat] = confirm(lat) if confirm is not None else True
        return read[lat]

    ranked = [lat for _e, lat in sorted(found, key=lambda t: (-round(t[0], 2), -_area(t[1]), _off_steps(t[1], vw, hw),
                                                                t[1].rows * t[1].cols))]
    kept: list[Lattice] = []
    seen: set[Lattice] = set()
    for lat in ranked:
        if lat in seen or any(_overlap(lat, other) for other in kept):
            continue
        rivals = [other for other in ranked if _overlap(other, lat)]
        seen.update(rivals)
        chosen = next((other for other in rivals if reads(other)), None)
        if chosen is None and lat.shape == (CLASSIC, CLASSIC):
            chosen = lat  # a classic board that does not read (caught mid-move): reading says so later
        if chosen is not None:
            kept.append(chosen)
    return kept


def _off_steps(lat: Lattice, vw: dict[int, int], hw: dict[int, int]) -> float:
    """How far the lattice's lines lie from the steps, on average (px): where a line shows no step (two
    neighbours of one colour), the nearest step beside it counts."""
    out = []
    for weights, first, pitch, cells in ((vw, lat.x0, lat.pitch_x, lat.cols), (hw, lat.y0, lat.pitch_y, lat.rows)):
        pos = np.array([p for p, w in weights.items() if w >= MIN_CELL_PX], float)
        out += [float(np.abs(pos - (first + k * pitch)).min()) for k in range(cells + 1)]
    return float(np.mean(out))


def _pairs(across: list, down: list, max_aspect: float = MAX_ASPECT) -> list[tuple[tuple, tuple]]:
    """The CANDIDATES pairs of spacings (across, down) that make cells of a board's shape: the best
    supported both ways first, then the largest (a part of a board is outlined by its inner lines too)."""
    if not across or not down:
        return []
    # each way, the best supported spacings, then the largest
    across, down = (sorted(way, key=lambda e: (-e[3] / (e[2] - 1), -e[1] * e[2]))[:WAY_CANDIDATES]
                    for way in (across, down))
    ax, dn = np.array([e[1:] for e in across], float), np.array([e[1:] for e in down], float)
    share = (ax[:, 2] / (ax[:, 1] - 1))[:, None] + (dn[:, 2] / (dn[:, 1] - 1))[None, :]
    area = (ax[:, 0] * ax[:, 1])[:, None] * (dn[:, 0] * dn[:, 1])[None, :]
    ratio = ax[:, 0][:, None] / dn[:, 0][None, :]
    # the share first (its steps are at least 1/42 apart), the area within it
    key = np.where((ratio >= 1 / max_aspect) & (ratio <= max_aspect), share * 100 + area / (area.max() + 1), -1.0).ravel()
    best = np.argpartition(-key, min(CANDIDATES, key.size - 1))[:CANDIDATES]
    best = best[np.argsort(-key[best], kind="stable")]
    return [(across[i // len(down)], down[i % len(down)]) for i in best if key[i] >= 0]


def _area(lat: Lattice) -> int:
    """The board's area in whole pixels (two lattices on the same outline tie)."""
    _x, _y, w, h = lat.board_rect
    return int(round(w)) * int(round(h))


def _overlap(a: Lattice, b: Lattice) -> bool:
    ax, ay, aw, ah = a.board_rect
    bx, by, bw, bh = b.board_rect
    inter = max(0.0, min(ax + aw, bx + bw) - max(ax, bx)) * max(0.0, min(ay + ah, by + bh) - max(ay, by))
    return inter > 0.1 * min(aw * ah, bw * bh)


def _fits(pixels: np.ndarray, lat: Lattice, vertical, horizontal, sparse: bool = False,
          confirm: Callable[[Lattice], bool] | None = None) -> float:
    """0 when the lattice is no board of blocks; else how much of its outline shows (0..4]: the share of
    each outer side along which a step runs, summed."""
    xs = lat.x0 + lat.pitch_x * np.arange(lat.cols + 1)
    ys = lat.y0 + lat.pitch_y * np.arange(lat.rows + 1)
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
    for r in range(lat.rows):
        for c in range(lat.cols):
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
    if sparse and centred < CENTRED_SHARE * lat.rows * lat.cols and not (
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
