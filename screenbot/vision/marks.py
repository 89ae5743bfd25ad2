"""Marks over the board (help text, a logo, a watermark) learned at calibration as part of its look."""

from __future__ import annotations

import numpy as np

from screenbot.calibration.profile import Profile
from screenbot.control.screen import Frame, OutsideFrameError
from screenbot.vision.sampling import GAP, labels_of, sampler_for


def learn_marks(frame: Frame, profile: Profile) -> int:
    """Remember the gap-line points that a still frame shows in no gap colour (text, an icon, a
    watermark drawn over the board): from now on they are part of the look, never a tile between
    cells. Returns how many points were marked. For the calibration frame, where the board is still."""
    try:
        region = frame.crop(profile.board_rect).pixels
    except OutsideFrameError:
        return 0
    s = sampler_for(profile)
    labels = labels_of(s.lut, region[s.line_y, s.line_x])
    odd = labels != GAP
    # a mark's rim blends into the gap: take two points either side too
    near = odd.copy()
    for shift in (1, 2):
        near[:, shift:] |= odd[:, :-shift]
        near[:, :-shift] |= odd[:, shift:]
    if odd.mean() > 0.2:  # not marks: a covered board, an overlay, or not a board at all
        return 0
    origin = profile.board_rect
    points = sorted({(int(s.line_x[i]) + origin.x, int(s.line_y[i]) + origin.y) for i in zip(*np.nonzero(near))})
    if points:
        profile.marks = [list(p) for p in points]
        profile.changed = True
    return len(points)
