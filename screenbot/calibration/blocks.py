"""Finds 4x4 boards of blocks that touch: cells with no gap and no line between them, told apart only
where one cell's colour meets another's (a terminal game filling each cell with its tile's colour).

Where two neighbours share a colour no edge shows, so the lattice is found from the edges that do:
long straight colour steps, each the whole side of a cell. A board is five evenly spaced vertical
positions and five horizontal ones such that every long step inside it lies on one of them and
runs from one lattice line to another, its cells are flat colours (a number or a dot written on
some), and the lattice goes on neither way beyond it (a chess board or a table would)."""

from __future__ import annotations

import numpy as np

from screenbot.calibration.lattice import MIN_CELL_PX, Lattice
from screenbot.game.rules import SIZE

STEP = 24  # a colour step this sharp (largest channel difference) between neighbouring pixels is an edge
SNAP = 2.0  # px: a step this near a lattice line is on it
FLAT = 0.6  # a cell's commonest colour covers this share of it (the rest: its number)
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


def find_block_boards(pixels: np.ndarray) -> list[Lattice]:
    """Every 4x4 board of touching blocks in a BGR picture (usually none or one)."""
    h, w = pixels.shape[:2]
    vertical, horizontal = _steps(pixels)
    if len(vertical) < 2 or len(horizontal) < 2:
        return []
    vw: dict[int, int] = {}
    for x, a, b in vertical:
        vw[x] = vw.get(x, 0) + b - a
    hw: dict[int, int] = {}
    for y, a, b in horizontal:
        hw[y] = hw.get(y, 0) + b - a
    found: list[Lattice] = []
    for x0, px, nx in _evens(vw, MIN_CELL_PX)[:12]:
        for y0, py, ny in _evens(hw, MIN_CELL_PX)[:12]:
            if not 0.5 <= px / py <= 2.0:
                continue
            lat = Lattice(float(x0), float(y0), px, py, px, py, 0.0, 0.0, 0)
            # few inner lines seen (a board just begun: most neighbours share the empty colour): the
            # whole outline, and what is written on the cells centred in them, confirm the lattice
            sparse = min(nx, ny) < SIZE - 2
            if _fits(pixels, lat, vertical, horizontal, sparse) and not any(_same(lat, f) for f in found):
                found.append(lat)
    return found


def _same(a: Lattice, b: Lattice) -> bool:
    return abs(a.x0 - b.x0) < a.pitch_x / 2 and abs(a.y0 - b.y0) < a.pitch_y / 2


def _fits(pixels: np.ndarray, lat: Lattice, vertical, horizontal, sparse: bool = False) -> bool:
    xs = lat.x0 + lat.pitch_x * np.arange(SIZE + 1)
    ys = lat.y0 + lat.pitch_y * np.arange(SIZE + 1)
    h, w = pixels.shape[:2]
    if xs[-1] > w or ys[-1] > h:
        return False
    # every long step inside the board lies on the lattice and spans whole cells
    for lines, across, steps, cell in ((xs, ys, vertical, lat.pitch_y), (ys, xs, horizontal, lat.pitch_x)):
        for pos, a, b in steps:
            if not (lines[0] + SNAP < pos < lines[-1] - SNAP and a < across[-1] - SNAP and b > across[0] + SNAP):
                continue
            if b - a < 0.5 * cell:
                continue  # a digit's stroke, not a cell's side
            if not (_on(pos, lines) and across[0] - SNAP <= a and b <= across[-1] + SNAP):
                return False  # off the lattice, or running on past the board: a bigger grid
            if not (_on(a, across) and _on(b, across)):
                return False
    # the board's outline: steps along most of each outer side (the board against what lies around it)
    outline = 0
    for lines, steps, span in ((xs, vertical, (ys[0], ys[-1])), (ys, horizontal, (xs[0], xs[-1]))):
        for edge in (lines[0], lines[-1]):
            covered = sum(max(0.0, min(b, span[1]) - max(a, span[0])) for pos, a, b in steps if abs(pos - edge) <= SNAP)
            outline += covered >= 0.6 * (span[1] - span[0])
    if outline < (4 if sparse else 3):
        return False
    # flat cells, and at least two colours among them (a board, not one panel)
    colours, centred = [], 0
    for r in range(SIZE):
        for c in range(SIZE):
            x, y, cw, ch = lat.cell(r, c)
            cell = pixels[int(y + 0.1 * ch):int(y + 0.9 * ch), int(x + 0.1 * cw):int(x + 0.9 * cw)]
            codes, counts = np.unique(cell.reshape(-1, 3), axis=0, return_counts=True)
            if counts.max() < FLAT * cell.shape[0] * cell.shape[1]:
                return False
            colour = codes[counts.argmax()]
            colours.append(tuple(colour))
            mark_y, mark_x = np.nonzero((cell != colour).any(axis=2))
            if len(mark_x):
                centred += (abs(mark_x.mean() - (cell.shape[1] - 1) / 2) <= CENTRED * cell.shape[1]
                            and abs(mark_y.mean() - (cell.shape[0] - 1) / 2) <= CENTRED * cell.shape[0])
    if len(set(colours)) < 2:
        return False
    if sparse and centred < MIN_CENTRED:
        return False
    # the lattice goes on no further: no cell-long step a pitch beyond the outline, in line with the cells
    for lines, across, steps, pitch in ((xs, ys, vertical, lat.pitch_x), (ys, xs, horizontal, lat.pitch_y)):
        for beyond in (lines[0] - pitch, lines[-1] + pitch):
            if any(abs(pos - beyond) <= SNAP and min(b, across[-1]) - max(a, across[0]) >= 0.9 * (across[1] - across[0])
                   for pos, a, b in steps):
                return False
    return True
