"""Finds the "Keep going" button on the win overlay from pixels inside the board's frame."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from screenbot.control.screen import Frame
from screenbot.geometry import Point, Rect

# The classic game's button colour (FACTS.md), preferred when it is there; any other palette is
# found by shape: a flat, wide rectangle in the lower half of the board.
CLASSIC_BUTTON_BGR = (0x66, 0x7A, 0x8F)


@dataclass(frozen=True)
class Button:
    """A button found on screen (absolute pixels)."""

    rect: Rect

    @property
    def center(self) -> Point:
        return self.rect.center


def _button_shaped(w: int, h: int, area: int, board: int) -> bool:
    if h <= 0 or w <= 0:
        return False
    return (
        1.8 <= w / h <= 6.0
        and 0.04 * board <= h <= 0.14 * board
        and 0.12 * board <= w <= 0.5 * board
        and area >= 0.55 * w * h
    )


def find_buttons(frame: Frame, board: Rect) -> list[Button]:
    """Flat, wide, button-shaped regions of one colour in the lower half of the board, left to right."""
    import cv2

    area_rect = Rect(board.x, board.y + board.h // 2, board.w, board.h - board.h // 2)
    region = frame.crop(area_rect).pixels
    size = board.w
    # Pixels equal to their right and lower neighbours (within 3 levels) form flat areas.
    px = region.astype(np.int16)
    flat = np.zeros(region.shape[:2], dtype=bool)
    flat[:-1, :-1] = (
        (np.abs(px[:-1, :-1] - px[:-1, 1:]).max(axis=2) <= 3)
        & (np.abs(px[:-1, :-1] - px[1:, :-1]).max(axis=2) <= 3)
    )
    # Quantise the colour so one flat area is one label, then split by connectivity.
    key = (px[:, :, 0] // 12) * 10000 + (px[:, :, 1] // 12) * 100 + (px[:, :, 2] // 12)
    found: list[tuple[int, Button, bool]] = []
    for value in np.unique(key[flat]):
        mask = ((key == value) & flat).astype(np.uint8)
        if mask.sum() < 0.04 * size * 0.12 * size * 0.5:
            continue
        count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        for i in range(1, count):
            x, y, w, h, n = (int(v) for v in stats[i])
            if not _button_shaped(w, h, n, size):
                continue
            ys, xs = np.nonzero(mask[y:y + h, x:x + w])
            colour = region[y + ys[0], x + xs[0]]
            classic = bool(np.abs(colour.astype(int) - CLASSIC_BUTTON_BGR).max() <= 10)
            rect = Rect(area_rect.x + x, area_rect.y + y, w, h)
            found.append((rect.x, Button(rect), classic))
    if any(classic for _, _, classic in found):
        found = [f for f in found if f[2]]
    return [b for _, b, _ in sorted(found, key=lambda f: (f[0], f[1].rect.y))]


def find_keep_going(frame: Frame, board: Rect) -> Button | None:
    """The "Keep going" button: on the win overlay it is the left one of the two buttons ("Try again"
    is the right one, and must never be clicked). None when no button can be told apart."""
    buttons = find_buttons(frame, board)
    if not buttons:
        return None
    # The two buttons sit on one line; the leftmost of that line is "Keep going".
    first = buttons[0]
    same_line = [b for b in buttons if abs(b.rect.center.y - first.rect.center.y) <= first.rect.h // 2]
    if len(same_line) < 2:
        return None  # only one button: it could be "Try again" (game over) — never guess
    return min(same_line, key=lambda b: b.rect.x)
