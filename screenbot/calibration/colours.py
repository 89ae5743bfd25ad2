"""The colours of a board found: its gap and empty cells, each cell's commonest colour, the built-in look
they belong to (and an overlay seen through), and the other shades its gaps are drawn in."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from screenbot.board_state import BoardState
from screenbot.calibration.lattice import Lattice
from screenbot.calibration.look import dominant_share
from screenbot.control.screen import Frame, OutsideFrameError
from screenbot.imaging import LINE_THICK_PX
from screenbot.palette import THEMES, Theme, blend
from screenbot.profile import Profile

COLOUR_TOL = 8
SHADE_SHARE = 0.05  # a gap shade covers this share of the gap lines at least
FLAT_SHARE = 0.97  # an empty cell is one colour on this share of its interior at least
# A tile's number is drawn in the middle of its cell: on a big cell it covers so little of the whole
# interior that a tile looks flat there, so an empty cell must be flat inside this margin too.
MIDDLE_MARGIN = 0.3


def gap_samples(pixels: np.ndarray, lattice: Lattice) -> np.ndarray:
    """Pixels along the middle of every gap line and the frame (N x 3)."""
    h, w = pixels.shape[:2]
    out = []
    bx, by, bw, bh = lattice.board_rect
    xs = [lattice.x0 - lattice.margin_x / 2] + [lattice.x0 + k * lattice.pitch_x - lattice.gap_x / 2
                                                 for k in range(1, lattice.cols)]
    xs.append(lattice.x0 + (lattice.cols - 1) * lattice.pitch_x + lattice.cell_w + lattice.margin_x / 2)
    ys = [lattice.y0 - lattice.margin_y / 2] + [lattice.y0 + k * lattice.pitch_y - lattice.gap_y / 2
                                                 for k in range(1, lattice.rows)]
    ys.append(lattice.y0 + (lattice.rows - 1) * lattice.pitch_y + lattice.cell_h + lattice.margin_y / 2)
    y_a, y_b = int(max(ys[0], 0)), int(min(ys[-1], h))
    x_a, x_b = int(max(xs[0], 0)), int(min(xs[-1], w))
    for gx in xs:
        if 0 <= int(gx) < w:
            out.append(pixels[y_a:y_b, int(gx)])
    for gy in ys:
        if 0 <= int(gy) < h:
            out.append(pixels[int(gy), x_a:x_b])
    return np.concatenate(out) if out else np.zeros((0, 3), np.uint8)


def _cell_interior(pixels: np.ndarray, lattice: Lattice, r: int, c: int, n: int = 16,
                   margin: float = 0.12) -> np.ndarray:
    """n x n pixels spread over cell (r, c) inside `margin` (a share of its size) from each edge."""
    h, w = pixels.shape[:2]
    x, y, cw, ch = lattice.cell(r, c)
    ys = np.linspace(y + margin * ch, y + (1 - margin) * ch, n).astype(int).clip(0, h - 1)
    xs = np.linspace(x + margin * cw, x + (1 - margin) * cw, n).astype(int).clip(0, w - 1)
    return pixels[np.ix_(ys, xs)].reshape(-1, 3)


def _close(a, b, tol: float = COLOUR_TOL) -> bool:
    return max(abs(int(x) - int(y)) for x, y in zip(a, b)) <= tol


def identify_theme(gap: tuple[int, int, int], empty: tuple[int, int, int] | None,
                   cells: Sequence[tuple[int, int, int]] = ()) -> tuple[Theme | None, BoardState | None]:
    """The built-in theme these colours belong to, and the overlay they are seen through (if any).
    A look seen through an overlay is that theme only when every cell (`cells`: each cell's commonest
    colour) is its empty cell or one of its tiles through the same wash: a board of other colours can
    have a gap and empty cells near a theme's faded ones."""
    for theme in THEMES.values():
        if _close(gap, theme.gap) and (empty is None or _close(empty, theme.empty)):
            return theme, None
    for theme in THEMES.values():
        for overlay in theme.overlays:
            for alpha in np.arange(0.1, overlay.alpha + 0.051, 0.05):
                if _close(gap, blend(theme.gap, overlay.colour, alpha), 6) and (
                    empty is None or _close(empty, blend(theme.empty, overlay.colour, alpha), 10)
                ) and _cells_of(theme, overlay.colour, alpha, cells):
                    return theme, overlay.state
    return None, None


def _cells_of(theme: Theme, wash, alpha: float, cells: Sequence[tuple[int, int, int]]) -> bool:
    """Every cell colour is the theme's empty cell or one of its tiles, seen through `wash` at `alpha`."""
    known = [blend(c, wash, alpha) for c in [theme.empty, *(colour for _v, colour in theme.tiles)]]
    return all(any(_close(cell, k, 2 * COLOUR_TOL) for k in known) for cell in cells)


def cell_colours(pixels: np.ndarray, lattice: Lattice) -> list[tuple[int, int, int]]:
    """The commonest colour of each cell's interior."""
    return [tuple(int(round(v)) for v in dominant_share(_cell_interior(pixels, lattice, r, c), tol=6)[0])
            for r in range(lattice.rows) for c in range(lattice.cols)]  # type: ignore[misc]


def measure_colours(pixels: np.ndarray, lattice: Lattice) -> tuple[tuple[int, int, int], tuple[int, int, int] | None]:
    """The gap colour and the empty-cell colour (None when no cell is empty)."""
    gap, _ = dominant_share(gap_samples(pixels, lattice), tol=4)
    flat = []
    for r in range(lattice.rows):
        for c in range(lattice.cols):
            colour, share = dominant_share(_cell_interior(pixels, lattice, r, c), tol=6)
            if share < FLAT_SHARE or _close(colour, gap, 4):
                continue
            if dominant_share(_cell_interior(pixels, lattice, r, c, margin=MIDDLE_MARGIN), tol=6)[1] >= FLAT_SHARE:
                flat.append(tuple(int(round(v)) for v in colour))
    empty = None
    if flat:
        # the colour most flat cells agree on
        best = max(flat, key=lambda col: sum(_close(col, o, 6) for o in flat))
        empty = best
    return tuple(int(round(v)) for v in gap), empty  # type: ignore[return-value]


def gap_shades(frame: Frame, profile: Profile, lattice: Lattice, most: int = 3) -> list[tuple[int, int, int]]:
    """The other colours a learned look draws its gaps in (ruled lines in a margin, their crossings),
    seen where the reader samples its gap lines: each covering at least SHADE_SHARE of them, none
    near the empty cells' colour or a cell's."""
    from screenbot.vision.sampling import GAP, labels_of, sampler_for

    try:
        region = frame.crop(profile.board_rect).pixels
    except OutsideFrameError:
        return []
    s = sampler_for(profile)
    line_px = region[s.line_y, s.line_x].reshape(-1, 3)
    left = line_px[labels_of(s.lut, line_px) != GAP].astype(np.int16)
    avoid = [np.asarray(dominant_share(_cell_interior(frame.pixels, lattice, r, c), tol=6)[0], float)
             for r in range(lattice.rows) for c in range(lattice.cols)]
    if profile.empty_colour is not None:
        avoid.append(np.asarray(profile.empty_colour, float))
    out: list[tuple[int, int, int]] = []
    for _ in range(most):
        if len(left) < SHADE_SHARE * len(line_px):
            break
        colour, _share = dominant_share(left.astype(np.uint8), tol=COLOUR_TOL)
        near = np.abs(left - colour).max(axis=1) <= COLOUR_TOL
        if near.sum() < SHADE_SHARE * len(line_px):
            break
        if all(np.abs(colour - a).max() > 2 * COLOUR_TOL for a in avoid):
            out.append(tuple(int(round(v)) for v in colour))
        left = left[~near]
    return out


def theme_of(frame: Frame, lattice: Lattice) -> tuple[Theme | None, BoardState | None]:
    """The built-in look of the board on `lattice` and the overlay it is seen through (identify_theme);
    none for cells that touch (a built-in look stands its cells apart: cells in its colours that touch
    are a terminal's blocks, whose colours can be anything, the built-in ones too)."""
    if max(lattice.gap_x, lattice.gap_y) <= LINE_THICK_PX:
        return None, None
    return identify_theme(*measure_colours(frame.pixels, lattice), cell_colours(frame.pixels, lattice))
