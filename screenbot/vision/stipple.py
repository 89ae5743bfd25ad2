"""A stippled overlay (every other pixel in the wash's colour, a checkerboard) told apart and evened out."""

from __future__ import annotations

import cv2
import numpy as np

STEP = 24  # colour levels between neighbouring pixels of a stipple ...
SAME = 10  # ... whose pixels two apart are within this of each other
SHARE = 0.5  # share of the gap lines' points that alternate so: the whole board is stippled


def stippled(line_px: np.ndarray) -> bool:
    """The gap lines (lines x k x 3) alternate pixel by pixel between two colours along most of their length."""
    p = line_px.astype(np.int16)
    if p.shape[1] < 3:
        return False
    next_one = np.abs(p[:, 1:-1] - p[:, :-2]).max(axis=2)
    two_on = np.abs(p[:, 2:] - p[:, :-2]).max(axis=2)
    return float(((next_one >= STEP) & (two_on <= SAME)).mean()) >= SHARE


def evened(region: np.ndarray) -> np.ndarray:
    """The picture with each pixel the mean of a 2 x 2 block: a stipple becomes the even wash it stands for."""
    return cv2.blur(region, (2, 2))
