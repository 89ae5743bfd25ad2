"""A plain OpenCV count of the cells in a picture of a board, independent of screenbot's calibration.

Every look of the practice board draws its cells with sharp edges: a cell (empty or not) against the
gap, a line or a frame of another colour. Sobel finds those edges in each colour channel; a column of
the picture where edges run along most of the board's height is the side of a column of cells (a
row likewise). Between those sides lie wide runs (the cells) and narrow ones (the gaps, the lines,
the outer padding); a tile's glow is smooth and a tile's digits are short, so neither makes a side.
The wide runs across and down are the columns and the rows: their product is the number of cells.
"""

from __future__ import annotations

import cv2
import numpy as np

EDGE = 40  # a Sobel (3x3) response of a step of about 10 levels in one channel
SIDE_SHARE = 0.65  # edges along this share of a line of the picture make it a cells' side
WIDE_SHARE = 0.5  # a run between sides this share of the widest run or wider is a cell


def _edges(picture: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """Where any colour channel steps sharply (across x for dx=1, across y for dy=1)."""
    responses = [np.abs(cv2.Sobel(picture[:, :, ch].astype(np.float32), cv2.CV_32F, dx, dy, ksize=3))
                 for ch in range(picture.shape[2])]
    return np.max(responses, axis=0) > EDGE


def _runs(sides: np.ndarray) -> list[int]:
    """The lengths of the runs of False between True stretches (and the picture's ends)."""
    lengths, current = [], 0
    for is_side in sides:
        if is_side:
            if current:
                lengths.append(current)
            current = 0
        else:
            current += 1
    if current:
        lengths.append(current)
    return lengths


def cells_along(picture: np.ndarray, axis: int) -> int:
    """The number of columns of cells (axis=1, across) or rows of cells (axis=0, down)."""
    across = axis == 1
    edges = _edges(picture, 1, 0) if across else _edges(picture, 0, 1)
    share = edges.mean(axis=0 if across else 1)  # per x (across) or per y (down)
    runs = _runs(share >= SIDE_SHARE)
    if not runs:
        return 0
    widest = max(runs)
    return sum(1 for r in runs if r >= WIDE_SHARE * widest)


def lattice(picture: np.ndarray) -> tuple[int, int]:
    """(rows, columns) of cells in a BGR picture cropped to a board (a small margin is fine)."""
    return cells_along(picture, 0), cells_along(picture, 1)
