"""A tile's colour from its pixels: the commonest among sampled points, or its rim's."""

from __future__ import annotations

import numpy as np

from screenbot.vision.sampling import TOL


def mode_colour(px: np.ndarray) -> tuple[np.ndarray, float]:
    """Most common colour (4-level bins) among pixels (N x 3) and its share within 8 levels."""
    q = (px >> 2).astype(np.int32)
    codes = (q[:, 0] << 12) | (q[:, 1] << 6) | q[:, 2]
    top = np.bincount(codes).argmax()
    colour = px[codes == top].mean(axis=0)
    share = float((np.abs(px.astype(np.int16) - colour).max(axis=1) <= 8).mean())
    return colour, share


def rim_colour(cell_px: np.ndarray, colour: np.ndarray, share: float, plain: list) -> tuple[np.ndarray, float]:
    """The tile's colour: the strips' commonest, unless the tile's rim (just inside its edge), all of one
    other colour, says the strips fell on its digits (big block digits cross every strip). A rim of the
    board's own colours (`plain`: a picture tile drawn on an empty cell) is no tile's colour."""
    h, w = cell_px.shape[:2]
    a, b = max(1, h // 30), max(2, h // 12)
    c, d = max(1, w // 30), max(2, w // 12)
    sy, sx = max(1, h // 40), max(1, w // 40)  # about 40 points along each side
    rim = np.concatenate([cell_px[a:b, c:w - c:sx].reshape(-1, 3), cell_px[h - b:h - a, c:w - c:sx].reshape(-1, 3),
                          cell_px[b:h - b:sy, c:d].reshape(-1, 3), cell_px[b:h - b:sy, w - d:w - c].reshape(-1, 3)])
    if len(rim) == 0:
        return colour, share
    found, rim_share = mode_colour(rim)
    board = any(np.abs(found - np.asarray(c, float)).max() <= 3 * TOL for c in plain if c is not None)
    if rim_share >= RIM_SHARE and np.abs(found - colour).max() > 3 * TOL and not board:
        return found, rim_share
    return colour, share


RIM_SHARE = 0.8  # a rim this much one colour names the tile's colour
