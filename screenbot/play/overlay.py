"""The win overlay: once it stands still, clicks its "Keep going" button (found from pixels inside the board's frame) or presses the key its text names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from screenbot.board_state import BoardState
from screenbot.control.screen import Frame
from screenbot.game.rules import Move, max_tile
from screenbot.geometry import Point, Rect
from screenbot.play.context import PlayContext, StopPlaying
from screenbot.play.eyes import Sight
from screenbot.play.guard import Guard
from screenbot.play.key_hint import ANY_KEY, key_hint, key_to_press
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
    """The win message. The classic game shows "You win!" after the first 2048 and ignores keys until
    "Keep going" is clicked; clones show it at another tile or never, or name a key instead of a
    button ("Press Enter to keep going"). Play waits for the message after the first 2048 (bounded,
    once), and whenever the message stands still it clicks "Keep going", or presses the key its text
    names (read with tesseract), and checks the board is back. What it saw is noted once among the
    game's rules ("win message at 4096", "win message dismissed with Enter", "no win message at 2048")."""

    def __init__(self, ctx: PlayContext, guard: Guard) -> None:
        self.ctx = ctx
        self.guard = guard
        self.handled = False  # the first 2048 was seen (and the message, if any, dismissed)
        # the move play would press next on the believed board: the key for "press any key"
        self.intended_move: Callable[[], Move | None] = lambda: None

    def seen_board(self, board) -> None:
        """The first board play believes: a 2048 on it means the win is behind us."""
        self.handled = max_tile(board) >= 2048

    def after_move(self, board) -> None:
        """After every believed board: the first 2048 may bring the message in. When none comes, that
        is noted and never waited for again (a later message is dismissed where it is seen)."""
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
        self.note(f"no win message at {max_tile(board)}")  # a clone without one (or a later one)

    def note(self, rule: str) -> None:
        if self.ctx.stats.note_rule(rule):
            self.ctx.say(f"screenbot: note: {rule}: playing on")

    def keep_going(self, sight: Sight, resume: bool = True, move: Move | None = None, after=None) -> None:
        """Dismiss the win message once it stands still: click "Keep going", or press the key its text
        names; then wait until the board shows again (as believed, when `resume`). `move`: the key
        play pressed and the message swallowed (for "any key"); `after`: that move's board."""
        ctx = self.ctx
        g = ctx.eyes.geometry
        # A text game's win box has no button to find by its pixels (its choices are words, often a
        # key to press): never click one of its words; only a key its text names is pressed.
        text_board = getattr(getattr(ctx.eyes, "profile", None), "kind", "tiles") == "text"
        # The overlay fades in (800 ms in the classic game), and while it fades the buttons'
        # contrast changes from frame to frame: act only once two looks in a row show the very same
        # pixels (the fade is over) with the button, if any, at the same place.
        deadline = ctx.clock() + ctx.settings.overlay_wait_s
        last = None  # (pixels, button) of the look before, when it showed the overlay
        read = False  # the still message's text was read
        while True:
            won = sight.state == BoardState.WON
            button = find_keep_going(sight.frame, g.board_rect) if won and not text_board else None
            still = won and last is not None and last[1] == button and np.array_equal(last[0], sight.frame.pixels)
            if still and button is not None:
                break
            if still and not read:
                read = True
                if self.press_named_key(sight, move, after):
                    return self.wait_for_board(resume, "pressed the key the win message names")
            last = (sight.frame.pixels, button) if won else None
            if ctx.clock() >= deadline:
                if text_board:
                    raise StopPlaying("the game says it is won, in a box drawn as text that names no key to keep "
                                      "going: continue the game by hand, then run play again; no key was pressed")
                if read:
                    raise StopPlaying("the win message is up with no 'Keep going' button and names no key to "
                                      "continue (its text was read); no key was pressed")
                raise StopPlaying("the win message is up but no 'Keep going' button was found on it once it stood still")
            ctx.sleep(ctx.settings.fade_look_gap_s)
            sight = ctx.look()
        self.note(f"win message at {self._win_tile(sight, after)}")
        self.guard.click(button.center.x, button.center.y)
        self.handled = True
        self.wait_for_board(resume, "clicked 'Keep going'")

    def press_named_key(self, sight: Sight, move: Move | None, after) -> bool:
        """Read the still message's text; when it names a key to continue, press that key through the
        guard (for "any key" the move play pressed or is about to press) and note it. False: no key named."""
        from screenbot.vision.ocr import OcrUnavailableError, read_until

        g = self.ctx.eyes.geometry
        pixels = sight.frame.crop(g.board_rect).pixels
        try:
            hint = read_until(pixels, key_hint)
        except OcrUnavailableError as exc:
            raise StopPlaying(f"the win message has no 'Keep going' button and its text cannot be read: {exc}") from exc
        if hint is None:
            return False
        if hint.key == ANY_KEY and move is None:
            move = self.intended_move()
        key = key_to_press(hint, move)
        if key is None and hint.key == ANY_KEY:
            raise StopPlaying(f"the win message says '{hint.words}' but play has no move to press; no key was pressed")
        if key is None:
            raise StopPlaying(f"the win message says '{hint.words}': screenbot does not press that key; "
                              "dismiss it yourself and start again; no key was pressed")
        tile = self._win_tile(sight, after)
        if self.ctx.look().state != BoardState.WON:  # reading took a while: look again before the key
            self.handled = True
            return True  # the message went away meanwhile (dismissed by hand): nothing to press
        self.guard.dismiss(key)
        self.handled = True
        self.note(f"win message at {tile}")
        pressed = f" ({key.key})" if isinstance(key, Move) else ""
        self.note(f"win message dismissed with {hint.name}{pressed}")
        return True

    def _win_tile(self, sight: Sight, after) -> int:
        """The biggest tile known when the message came: under the message (when read), the believed
        board, and the board of the move the message came after."""
        boards = [b for b in (self.ctx.tracker.board, after) if b is not None]
        if sight.grid is not None:
            boards.append([[v if isinstance(v, int) else 0 for v in row] for row in sight.grid])
        return max((max_tile(b) for b in boards), default=0)

    def wait_for_board(self, resume: bool, done: str) -> None:
        """After the message is dismissed: wait until the board shows again (as believed, when `resume`)."""
        ctx = self.ctx
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
        raise StopPlaying(f"{done} but the board did not come back")
