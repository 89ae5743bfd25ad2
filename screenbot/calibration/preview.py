"""The calibration preview: the frame with every candidate board numbered and the chosen one's cells drawn."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from screenbot.calibration.lattice import Search
from screenbot.control.screen import Frame
from screenbot.imaging import write_image
from screenbot.profile import Profile


def draw_preview(frame: Frame, search: Search, chosen: int | None = None, profile: Profile | None = None) -> np.ndarray:
    """The frame with every candidate board numbered, the chosen one's cells and sample patches drawn."""
    img = frame.pixels.copy()
    thick = max(2, int(round(max(img.shape[:2]) / 800)))
    font = max(0.6, max(img.shape[:2]) / 1600)
    for box in search.cut_off:
        x, y, w, h = (int(round(v)) for v in box)
        cv2.rectangle(img, (x, y), (x + w, y + h), (0, 140, 255), thick)
        cv2.putText(img, "cut off by the screen edge", (x, max(15, y - 6)), cv2.FONT_HERSHEY_SIMPLEX, font * 0.6, (0, 140, 255), thick)
    for rej in search.rejected:
        x, y, w, h = (int(round(v)) for v in rej.box)
        cv2.rectangle(img, (x, y), (x + w, y + h), (0, 0, 255), thick)
        cv2.putText(img, "not a board", (x, max(15, y - 6)), cv2.FONT_HERSHEY_SIMPLEX, font * 0.6, (0, 0, 255), thick)
    for i, lat in enumerate(search.boards, 1):
        x, y, w, h = (int(round(v)) for v in lat.board_rect)
        colour = (0, 200, 0) if chosen == i else (255, 120, 0)
        cv2.rectangle(img, (x, y), (x + w, y + h), colour, thick)
        cv2.putText(img, f"#{i}", (x + 4, max(20, y - 8)), cv2.FONT_HERSHEY_SIMPLEX, font, colour, thick + 1)
    if profile is not None:
        for cell, patches in zip(profile.cells, profile.patches):
            c = cell.translated(-frame.left, -frame.top)
            cv2.rectangle(img, (c.x, c.y), (c.right - 1, c.bottom - 1), (0, 200, 0), max(1, thick // 2))
            for p in patches:
                p = p.translated(-frame.left, -frame.top)
                cv2.rectangle(img, (p.x, p.y), (p.right - 1, p.bottom - 1), (255, 0, 255), 1)
    return img


def save_preview(path: Path, frame: Frame, search: Search, chosen: int | None = None, profile: Profile | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_image(path, draw_preview(frame, search, chosen, profile))
