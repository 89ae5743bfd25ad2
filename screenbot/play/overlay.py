"""The win overlay: finds its "Keep going" button from pixels inside the board's frame, and clicks it once it stands still."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from screenbot.board_state import BoardState
from screenbot.control.screen import Frame
from screenbot.game.rules import max_tile
from screenbot.geometry import Point, Rect
from screenbot.play.context import PlayContext, StopPlaying
from screenbot.play.eyes import Sight
from screenbot.play.guard import Guard
from screenbot.play.tracker import TrackingError

# The classic game's button colour (#8f7a66 in gabrielecirulli/2048's style/main.scss), preferred when it is there; any other palette is
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


def find_buttons(frame: Frame, board_rect: Rect) -> list[Button]:
    """Flat, wide, button-shaped regions of one colour in the lower half of the board_rect, left to right."""
    import cv2

    area_rect = Rect(board_rect.x, board_rect.y + board_rect.h // 2, board_rect.w, board_rect.h - board_rect.h // 2)
    region = frame.crop(area_rect).pixels
    size = board_rect.w
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


def find_keep_going(frame: Frame, board_rect: Rect) -> Button | None:
    """The "Keep going" button: on the win overlay it is the left one of the two buttons ("Try again"
    is the right one, and must never be clicked). None when no button can be told apart."""
    buttons = find_buttons(frame, board_rect)
    if not buttons:
        return None
    # The two buttons sit on one line; the leftmost of that line is "Keep going".
    first = buttons[0]
    same_line = [b for b in buttons if abs(b.rect.center.y - first.rect.center.y) <= first.rect.h // 2]
    if len(same_line) < 2:
        return None  # only one button: it could be "Try again" (game over) — never guess
    return min(same_line, key=lambda b: b.rect.x)


class WinOverlay:
    """The classic game shows "You win!" after the first 2048 and ignores keys until "Keep going" is
    clicked: play waits for the overlay (bounded), clicks the button once the fade is over, and
    checks the board is back."""

    def __init__(self, ctx: PlayContext, guard: Guard) -> None:
        self.ctx = ctx
        self.guard = guard
        self.handled = False  # the first 2048 was seen (and the overlay, if any, dismissed)

    def seen_board(self, board) -> None:
        """The first board play believes: a 2048 on it means the win is behind us."""
        self.handled = max_tile(board) >= 2048

    def after_move(self, board) -> None:
        """After every believed board: the first 2048 brings the overlay in."""
        if self.handled or max_tile(board) < 2048:
            return
        self.handled = True
        ctx = self.ctx
        deadline = ctx.clock() + ctx.settings.overlay_wait_s
        while ctx.clock() < deadline:
            sight = ctx.look()
            if sight.state == BoardState.WON:
                self.keep_going(sight)
                return
            ctx.sleep(ctx.settings.overlay_look_gap_s)
        # no overlay (a clone without one, or a game already continued): play on

    def keep_going(self, sight: Sight, resume: bool = True) -> None:
        """Click "Keep going" on the win overlay, then wait until the board shows again
        (as believed, when `resume`)."""
        ctx = self.ctx
        g = ctx.eyes.geometry
        if getattr(getattr(ctx.eyes, "profile", None), "kind", "tiles") == "text":
            # A text game's win box has no button to find by its pixels (its choices are words, often
            # a key to press): never click one of its words on a guess.
            raise StopPlaying("the game says it is won, in a box drawn as text: play cannot tell which key or "
                              "word keeps it going; continue the game by hand, then run play again")
        # The overlay fades in (800 ms in the classic game), and while it fades the buttons'
        # contrast changes from frame to frame: click only once two looks in a row show the very
        # same pixels with the button at the same place (the fade is over).
        deadline = ctx.clock() + ctx.settings.overlay_wait_s
        last = None  # (pixels, button) of the look before, when it showed the overlay and a button
        while True:
            button = find_keep_going(sight.frame, g.board_rect) if sight.state == BoardState.WON else None
            if button is not None and last is not None and last[1] == button and np.array_equal(last[0], sight.frame.pixels):
                break
            last = (sight.frame.pixels, button) if button is not None else None
            if ctx.clock() >= deadline:
                raise StopPlaying("the win overlay is up but no 'Keep going' button was found on it once it stood still")
            ctx.sleep(ctx.settings.fade_look_gap_s)
            sight = ctx.look()
        self.guard.click(button.center.x, button.center.y)
        self.handled = True
        deadline = ctx.clock() + ctx.settings.settle_timeout_s
        while ctx.clock() < deadline:
            sight = ctx.look()
            if sight.state == BoardState.PLAYING and sight.grid is not None:
                if ctx.tracker.board is None or not resume:
                    return
                try:
                    ctx.tracker.resume(sight.grid)
                    self.guard.remember_focus()
                    return
                except TrackingError:
                    pass
            ctx.sleep(ctx.settings.resume_look_gap_s)
        raise StopPlaying("clicked 'Keep going' but the board did not come back")
