"""Whether a lattice found by its squares looks like a 2048 board, and the colour measure calibration
shares: the gaps between the cells (a checkerboard has none, a grid of thin lines has a line), the cells
flat (a grid of photos is not), the cells unlike their lines, or each boxed on its own. `lat` is a
calibration.lattice.Lattice (this module is below it: lattice.py calls these checks).
"""

from __future__ import annotations

import numpy as np

RULED_GAP = 0.15  # gaps at most this share of a cell are a ruled line's room
# A box line drawn round each cell differs from the cell and from the room between boxes by this much.
OUTLINE_CONTRAST = 60
DASH_PX = 4  # a ruled line's breaks (between two `-` or two `|`) are at most twice this long
TOUCH = "squares touch (no gaps between them): a checkerboard or table, not a 2048 board"


def dominant_share(samples: np.ndarray, tol: int = 12) -> tuple[np.ndarray, float]:
    """The most common colour among samples (N x 3) and the share of samples within tol of it."""
    if len(samples) == 0:
        return np.zeros(3), 0.0
    q = (samples >> 3).astype(np.int32)
    codes = (q[:, 0] << 10) | (q[:, 1] << 5) | q[:, 2]
    top = np.bincount(codes).argmax()
    colour = samples[codes == top].mean(axis=0)
    share = float((np.abs(samples.astype(np.int16) - colour).max(axis=1) <= tol).mean())
    return colour, share


def check_look(pixels: np.ndarray, lat) -> str | None:
    """None when the lattice looks like a 2048 board; else why it does not."""
    gap = min(lat.gap_x, lat.gap_y)
    # boards drawn with lines have gaps of a line's width (1-2 px at any size; a light line on a pale
    # tile may measure thinner one way than the other); a checkerboard has none either way
    if max(lat.gap_x, lat.gap_y) < max(1.0, 0.012 * lat.cell_w):
        return TOUCH
    if lat.gap_x > 0.7 * lat.cell_w or lat.gap_y > 0.7 * lat.cell_h:
        return "squares too far apart for a 2048 board"
    h, w = pixels.shape[:2]
    # Gap lines between cells: one colour (glow from big tiles may tint part of them).
    gap_samples = []
    y_a, y_b = int(lat.y0), int(lat.y0 + (lat.rows - 1) * lat.pitch_y + lat.cell_h)
    x_a, x_b = int(lat.x0), int(lat.far[0])
    for k in range(1, lat.cols):
        gx = int(round(lat.x0 + k * lat.pitch_x - lat.gap_x / 2))
        if 0 <= gx < w:
            gap_samples.append(pixels[max(y_a, 0) : min(y_b, h), gx])
    for k in range(1, lat.rows):
        gy = int(round(lat.y0 + k * lat.pitch_y - lat.gap_y / 2))
        if 0 <= gy < h:
            gap_samples.append(pixels[gy, max(x_a, 0) : min(x_b, w)])
    gap_colour, gap_share = dominant_share(np.concatenate(gap_samples) if gap_samples else np.zeros((0, 3), np.uint8))
    if gap_share < 0.35:
        return "the lines between the squares are not one colour"
    flat_cells = distinct_cells = 0
    most = 0.75 * lat.rows * lat.cols  # 12 of 16
    for r in range(lat.rows):
        for c in range(lat.cols):
            x, y, cw, ch = lat.cell(r, c)
            ys = np.linspace(y + 0.1 * ch, y + 0.9 * ch, 12).astype(int).clip(0, h - 1)
            xs = np.linspace(x + 0.1 * cw, x + 0.9 * cw, 12).astype(int).clip(0, w - 1)
            samples = pixels[np.ix_(ys, xs)].reshape(-1, 3)
            colour, share = dominant_share(samples)
            flat_cells += share >= 0.45
            distinct_cells += np.abs(colour - gap_colour).max() > 3  # overlays wash contrast out
    if flat_cells < most:
        return "the squares are not flat-coloured tiles (a picture, not a game board)"
    # a grid ruled with characters (| and - with room between them) leaves its cells' own colour
    # between them where the sample line misses the rule: there the edges found the cells
    ruled = max(lat.gap_x, lat.gap_y) <= RULED_GAP * min(lat.cell_w, lat.cell_h)
    if distinct_cells < most and not ruled and not outlined(pixels, lat, gap_colour):
        return "the squares are the colour of the lines between them"
    return None


def lined(pixels: np.ndarray, lat) -> bool:
    """Whether cells that touch have a thin line between them: on most of every border between two
    neighbouring cells, the cells' sides 3 px from the border are one colour and a pixel within 2 px of
    the border is far from it (a checkerboard's squares change colour at the border with no line)."""
    h, w = pixels.shape[:2]
    px = pixels.astype(np.int16)
    hits = total = 0
    for axis in (0, 1):  # borders between columns, then between rows
        n_along, n_across = (lat.rows, lat.cols) if axis == 0 else (lat.cols, lat.rows)
        for k in range(1, n_across):
            for j in range(n_along):
                r, c = (j, k) if axis == 0 else (k, j)
                x, y, cw, ch = lat.cell(r, c)
                border = x if axis == 0 else y
                span = (y, ch) if axis == 0 else (x, cw)
                for t in np.linspace(span[0] + 0.2 * span[1], span[0] + 0.8 * span[1], 6).astype(int):
                    line = [int(round(border + d)) for d in range(-3, 4)]
                    if min(line) < 0 or max(line) >= (w if axis == 0 else h) or not 0 <= t < (h if axis == 0 else w):
                        return False
                    total += 1
                    # a line drawn with characters (`-` and `|` a text cell apart) has breaks: a point counts
                    # where the line crosses within DASH_PX of it along the border
                    for u in range(max(0, t - DASH_PX), min(h if axis == 0 else w, t + DASH_PX + 1)):
                        strip = px[u, line] if axis == 0 else px[line, u]
                        before, after = strip[0], strip[-1]
                        if (np.abs(before - after).max() <= 24
                                and np.abs(strip[1:-1] - (before + after) / 2).max() > OUTLINE_CONTRAST):
                            hits += 1
                            break
    return total > 0 and hits >= 0.8 * total


def outlined(pixels: np.ndarray, lat, gap_colour: np.ndarray) -> bool:
    """Every cell drawn as a box of its own: a line all round it (within 3 px of the cell the edges
    found) unlike both its inside and the room between the boxes (a terminal game that boxes each
    cell on a plain background)."""
    h, w = pixels.shape[:2]
    px = pixels.astype(np.int16)
    for r in range(lat.rows):
        for c in range(lat.cols):
            x, y, cw, ch = lat.cell(r, c)
            if x - 3 < 0 or y - 3 < 0 or x + cw + 3 >= w or y + ch + 3 >= h:
                return False
            inside, _ = dominant_share(pixels[int(y + 0.1 * ch):int(y + 0.9 * ch), int(x + 0.1 * cw):int(x + 0.9 * cw)]
                                        .reshape(-1, 3))
            ys = np.linspace(y + 0.15 * ch, y + 0.85 * ch, 8).astype(int)
            xs = np.linspace(x + 0.15 * cw, x + 0.85 * cw, 8).astype(int)
            sides = []
            for d in (0, 1, 2, 3):  # per point of each side, the pixel across the box's edge least like the inside
                xa, xb = int(round(x - d)), int(round(x + cw - 1 + d))
                ya, yb = int(round(y - d)), int(round(y + ch - 1 + d))
                sides.append(np.stack([px[ys, xa], px[ys, xb], px[ya, xs], px[yb, xs]]))
            sides = np.stack(sides)  # offset x side x point x BGR
            far = np.abs(sides - inside).max(axis=3)
            line = np.take_along_axis(sides, far.argmax(axis=0)[None, ..., None], axis=0)[0]
            unlike_inside = far.max(axis=0) > OUTLINE_CONTRAST
            unlike_gap = np.abs(line - gap_colour).max(axis=2) > OUTLINE_CONTRAST
            if not (unlike_inside & unlike_gap).all(axis=1).any() or (unlike_inside & unlike_gap).mean() < 0.8:
                return False
    return True
