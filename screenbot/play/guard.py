"""The only way to the keyboard and the mouse: every key and click is checked against the screen first."""

from __future__ import annotations

from typing import Callable, Iterable

from screenbot.board_state import BoardState
from screenbot.control.keyboard import KEY_SETS, Keyboard
from screenbot.game.rules import Move
from screenbot.geometry import Point, Rect
from screenbot.play.context import PlayContext, StopPlaying
from screenbot.play.eyes import BoardGeometry, Sight
from screenbot.play.safety import Safety, learn_look

Cells = Iterable[tuple[int, int]]

# Said once where the focus watch cannot tell which window has the keyboard focus.
UNKNOWN_FOCUS_NOTE = ("screenbot: note: this desktop does not tell which window has the keyboard focus ({why}): "
                      "only {keys} will be pressed, and only while the board looks as calibrated")


def focus_point(geometry: BoardGeometry) -> tuple[int, int]:
    """Where to click to give the game focus: the board's own background, in the frame's top edge
    between the two middle columns (never a tile, never a button). Captured pixels."""
    left, right = geometry.cells[1], geometry.cells[2]
    x = (left.right + right.x) // 2
    y = (geometry.board_rect.y + min(left.y, right.y)) // 2
    return x, y


class Guard:
    """Holds the keyboard. A key is pressed only while the board is where it was, looks like a board,
    and its window has the focus with nothing over it (the focus watch, control/focus.py); otherwise
    `when_unsafe(problem)` runs (play pauses there, and returns once it is safe again or raises). A
    click lands only inside the board's frame, and never while another window is over the board.

    Where the focus watch cannot tell which window has the focus, that is said once and only move
    keys are pressed (a win message's Enter, Space or letter could type into another window). No
    focus watch at all (a simulated screen, a replay) leaves the window side out."""

    def __init__(self, ctx: PlayContext, keyboard: Keyboard, focus_watch=None) -> None:
        self.ctx = ctx
        self._keyboard = keyboard
        self.focus_watch = focus_watch
        self.safety: Safety | None = None
        self.when_unsafe: Callable[[str], None] | None = None
        self._window_check: tuple[float, str | None] | None = None  # (when, problem) checked while watching
        self._said_focus_unknown = False

    def learn(self, sight: Sight) -> None:
        """Remember how the board looks now (the pixels the check compares with)."""
        g = self.ctx.eyes.geometry
        kind = getattr(getattr(self.ctx.eyes, "profile", None), "kind", "")
        self.safety = Safety(learn_look(sight.frame, g.board_rect, g.cells, kind == "blocks", kind == "text"), self.focus_watch)

    def board_moved(self, geometry: BoardGeometry) -> None:
        if self.focus_watch is not None:
            self.focus_watch.move_to(geometry.board_rect_in_points)
        self._window_check = None

    @property
    def focus_known(self) -> bool:
        """False where a focus watch is given but cannot tell which window has the keyboard focus
        (no backend for this desktop, a library missing, its window API failed)."""
        return self.focus_watch is None or getattr(self.focus_watch, "available", True)

    def remember_focus(self) -> None:
        if self.safety is not None:
            self.safety.remember_focus()
        if not self.focus_known and not self._said_focus_unknown:
            self._said_focus_unknown = True
            keys = self._keyboard.keys
            named = "arrow keys" if keys == "arrows" else f"the move keys ({' '.join(KEY_SETS[keys].values())})"
            self.ctx.say(UNKNOWN_FOCUS_NOTE.format(why=getattr(self.focus_watch, "reason", "") or "unknown", keys=named))

    def check_window_while_watching(self, t: float) -> None:
        """The window side of the check (a few X round trips), made while a move's tiles slide so
        that the key after it need not wait for it; made again when older than focus_recheck_s."""
        if self.safety is not None and (self._window_check is None or t - self._window_check[0] > self.ctx.settings.focus_recheck_s):
            self._window_check = (t, self.safety.focus_problem())

    def forget_window_check(self) -> None:
        self._window_check = None

    def problem(self, skip: Cells = ()) -> str | None:
        """What is wrong with pressing a key now (None: nothing). `skip`: cells whose tiles just
        merged (their pop may reach over the gaps the pixel check looks at)."""
        ctx = self.ctx
        if self.safety is None or ctx.last_sight is None:
            return "the board has not been looked at yet"
        checked, self._window_check = self._window_check, None
        if checked is not None and ctx.clock() - checked[0] <= ctx.settings.focus_check_fresh_s:
            return self.safety.look.problem(ctx.last_sight.frame, skip) or checked[1]
        return self.safety.problem(ctx.last_sight.frame, skip)

    def press(self, move: Move, skip: Cells = ()) -> None:
        problem = self.problem(skip)
        if problem is not None:
            if self.when_unsafe is None:
                raise StopPlaying(f"{problem}; no key was pressed")
            self.when_unsafe(problem)  # returns only once it is safe again
        self._keyboard.press(move)

    def press_with(self, keys: str, move: Move) -> None:
        """Press `move` in another key set (a KEY_SETS name), kept from now on: the checks of press."""
        self._keyboard.use(keys)
        self.press(move)

    def dismiss(self, key: str | Move) -> None:
        """Press the key a win message names to continue: a dismiss key (enter, space, escape, a
        letter; the keyboard refuses any other), or for "any key" the move's own key. Only while the
        last look shows the win message in the board's place and the board's window has the focus
        with nothing over it; a dismiss key also needs a desktop that tells which window has the
        focus. Else nothing is pressed and play stops."""
        sight = self.ctx.last_sight
        if sight is None or sight.state != BoardState.WON:
            raise StopPlaying("the win message is no longer on screen; no key was pressed")
        if self.safety is None:
            raise StopPlaying("the win message asks for a key before play has given the game the focus: "
                              "dismiss it yourself and start again; no key was pressed")
        if not isinstance(key, Move) and not self.focus_known:
            name = key.capitalize() if len(key) > 1 else key.upper()
            raise StopPlaying(f"the win message asks for {name}, but this desktop does not tell which window has "
                              "the keyboard focus, so screenbot presses only move keys: dismiss the message "
                              "yourself and run play again; no key was pressed")
        problem = self.safety.focus_problem()
        if problem is not None:
            raise StopPlaying(f"{problem}; no key was pressed")
        if isinstance(key, Move):
            self._keyboard.press(key)
        else:
            self._keyboard.press_dismiss(key)

    def click(self, x: int, y: int) -> None:
        """Click at (x, y) in captured pixels, inside the board's frame."""
        g = self.ctx.eyes.geometry
        if not g.board_rect.contains(Point(x, y)):
            raise StopPlaying(f"a click at ({x}, {y}) would land outside the board; nothing was clicked")
        problem = self.safety.focus_problem() if self.safety is not None else None
        if problem is not None and "over the board" in problem:
            raise StopPlaying(f"{problem}; nothing was clicked")
        self._keyboard.confine_clicks(g.board_rect_in_points)
        self._keyboard.click(*g.to_points(x, y))

    def click_unread(self, x: int, y: int, area: Rect, scale: float) -> None:
        """A board whose lattice is not known yet (tiles alone, probed by keys): click at (x, y), captured
        pixels, inside `area` (where its tiles are), only while no other window is over it; then the
        focus is remembered."""
        if not area.contains(Point(x, y)):
            raise StopPlaying(f"a click at ({x}, {y}) would land outside the tiles' place; nothing was clicked")
        problem = self.focus_watch.problem() if self.focus_watch is not None else None
        if problem is not None and "over the board" in problem:
            raise StopPlaying(f"{problem}; nothing was clicked")
        self._keyboard.confine_clicks(area.scaled(1.0 / scale))
        self._keyboard.click(round(x / scale), round(y / scale))
        self.ctx.sleep(self.ctx.settings.focus_settle_s)
        if self.focus_watch is not None:
            self.focus_watch.remember()

    def press_unread(self, move: Move) -> None:
        """A move key into a board whose lattice is not known yet (see click_unread): only a move key,
        and only while the window clicked keeps the focus with nothing over the tiles."""
        problem = self.focus_watch.problem() if self.focus_watch is not None else None
        if problem is not None:
            raise StopPlaying(f"{problem}; no key was pressed")
        self._keyboard.press(move)

    def focus(self) -> None:
        """One click on the board's background so the keys go to the game, then remember the focus."""
        self.click(*focus_point(self.ctx.eyes.geometry))
        self.ctx.sleep(self.ctx.settings.focus_settle_s)
        self.remember_focus()
