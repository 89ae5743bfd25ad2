"""Checks on the lattice of a text board found (text_lattice): whether the space between its cells is its paper,
whether it is part of a bigger grid or of another board found, and whether it stands on its background."""

from __future__ import annotations

import numpy as np

from screenbot.calibration.lattice import Lattice
from screenbot.imaging import FG_DIFF, clear_share

EVEN = 0.12  # spacings of rows or columns may differ by this share
RULED = 0.6  # a line between cells with ink along this share of the board is ruled


def gap_share(writing: np.ndarray, lat: Lattice) -> float:
    """Share of the points between the cells (the middle of every gap line) where nothing is written."""
    xs = [lat.x0 + c * lat.pitch_x - (lat.pitch_x - lat.cell_w) / 2 for c in range(1, lat.cols)]
    ys = [lat.y0 + r * lat.pitch_y - (lat.pitch_y - lat.cell_h) / 2 for r in range(1, lat.rows)]
    far_x, far_y = lat.far
    return clear_share(writing, xs, ys, (lat.x0, far_x), (lat.y0, far_y))


def rule_shares(writing: np.ndarray, lat: Lattice, down: bool, at: list[int] | None = None) -> list[float]:
    """The share of the board's width (`down`: lines between rows) or height (lines between columns) with ink
    near each line between cells, at the lattice's edges too (k = 0 .. rows, or the steps `at`, -1 the one
    before the first)."""
    h, w = writing.shape[:2]
    far_x, far_y = lat.far
    if down:
        reach, span, first, pitch, n = max(2, int(0.1 * lat.pitch_y)), (int(max(lat.x0, 0)), int(min(far_x, w))), \
            lat.y0 - (lat.pitch_y - lat.cell_h) / 2, lat.pitch_y, lat.rows
    else:
        reach, span, first, pitch, n = max(2, int(0.1 * lat.pitch_x)), (int(max(lat.y0, 0)), int(min(far_y, h))), \
            lat.x0 - (lat.pitch_x - lat.cell_w) / 2, lat.pitch_x, lat.cols
    out = []
    for k in (range(n + 1) if at is None else at):
        v = int(round(first + k * pitch))
        if down:
            band = writing[max(v - reach, 0):max(v + reach + 1, 0), span[0]:span[1]]
            out.append(float(band.any(axis=0).mean()) if band.size and 0 <= v < h else 0.0)
        else:
            band = writing[span[0]:span[1], max(v - reach, 0):max(v + reach + 1, 0)]
            out.append(float(band.any(axis=1).mean()) if band.size and 0 <= v < w else 0.0)
    return out


def ruled_on(writing: np.ndarray, lat: Lattice) -> bool:
    """Whether the lines ruled between the cells (box lines, ASCII bars and dashes) go on a cell's step past
    the lattice: the cells found are part of a bigger grid whose other cells show nothing (empty, no dot)."""
    for down, n in ((False, lat.cols), (True, lat.rows)):
        if min(rule_shares(writing, lat, down)) >= RULED and max(rule_shares(writing, lat, down, at=[-1, n + 1])) >= RULED:
            return True
    return False


def part_of(a: Lattice, b: Lattice) -> bool:
    """Whether the cells of lattice `a` are some of lattice `b`'s, and fewer (neighbouring ones, or every
    other row or column of it)."""
    if a.rows * a.cols >= b.rows * b.cols:
        return False
    kx, ky = max(1, round(a.pitch_x / b.pitch_x)), max(1, round(a.pitch_y / b.pitch_y))
    if abs(a.pitch_x - kx * b.pitch_x) > EVEN * a.pitch_x or abs(a.pitch_y - ky * b.pitch_y) > EVEN * a.pitch_y:
        return False
    col = round((a.x0 + a.cell_w / 2 - b.x0 - b.cell_w / 2) / b.pitch_x)
    row = round((a.y0 + a.cell_h / 2 - b.y0 - b.cell_h / 2) / b.pitch_y)
    near = (abs(a.x0 + a.cell_w / 2 - (b.x0 + b.cell_w / 2 + col * b.pitch_x)) <= b.pitch_x / 4
            and abs(a.y0 + a.cell_h / 2 - (b.y0 + b.cell_h / 2 + row * b.pitch_y)) <= b.pitch_y / 4)
    return (near and 0 <= col and col + (a.cols - 1) * kx < b.cols
            and 0 <= row and row + (a.rows - 1) * ky < b.rows)


ROUND_SHARE = 0.6  # a board stands on a colour that covers this share of a ring round it


def stands_on(pixels: np.ndarray, lat: Lattice, background) -> bool:
    """Whether the colour round the board (a ring half a step wide outside its cells) is mostly `background`."""
    h, w = pixels.shape[:2]
    x0, y0 = lat.x0, lat.y0
    x1, y1 = lat.far
    reach = 0.5 * min(lat.pitch_x, lat.pitch_y)
    ox0, oy0, ox1, oy1 = (int(max(0, x0 - reach)), int(max(0, y0 - reach)), int(min(w, x1 + reach)), int(min(h, y1 + reach)))
    ring = np.ones((oy1 - oy0, ox1 - ox0), bool)
    ring[int(y0) - oy0:int(y1) - oy0, int(x0) - ox0:int(x1) - ox0] = False
    if not ring.any():
        return False
    near = np.abs(pixels[oy0:oy1, ox0:ox1].astype(np.int16) - np.asarray(background, np.int16)).max(axis=2) <= FG_DIFF
    return float(near[ring].mean()) >= ROUND_SHARE


FULL_STEP_PX = 2  # a block as wide as its column's step, give or take this, fills its cell across


def half_off(lat: Lattice, shape) -> bool:
    """Whether an outer cell of the lattice lies more than half outside the picture (a board written at its
    edge has its cells reach half a step past its numbers at most)."""
    far_x, far_y = lat.far
    return (lat.x0 < -lat.cell_w / 2 or lat.y0 < -lat.cell_h / 2
            or far_x > shape[1] + lat.cell_w / 2 or far_y > shape[0] + lat.cell_h / 2)


EDGE_SLACK_PX = 1.01  # on_blocks: what is written may reach a pixel past its band (a block a whole step long), give or take float error


def on_blocks(start: float, size: float, pitch: float, blocks: list[tuple[int, int]],
               spans: list[tuple[int, int]]) -> float:
    """Where a lattice's first band starts (across or down) when its bands are centred on the blocks in them,
    or `start` as it was when the blocks disagree or something written would then fall out of its band."""
    first = start + size / 2
    offsets = [(a + b) / 2 - (first + round(((a + b) / 2 - first) / pitch) * pitch) for a, b in blocks]
    if max(offsets) - min(offsets) > FULL_STEP_PX * 2:
        return start
    moved = start + float(np.median(offsets))
    if abs(moved - start) < 1:
        return start  # centred on them already, give or take the rounding
    for a, b in spans:
        k = round(((a + b) / 2 - moved - size / 2) / pitch)
        if a < moved + k * pitch - EDGE_SLACK_PX or b > moved + k * pitch + size + EDGE_SLACK_PX:
            return start
    return moved
