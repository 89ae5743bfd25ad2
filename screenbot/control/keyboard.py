"""The hands: move keys, the few keys that dismiss a win message, and board-confined clicks, behind one small interface (pyautogui lazily)."""

from __future__ import annotations

import abc
import os
from dataclasses import dataclass

from screenbot.control.x11 import ensure_xauthority, open_x_display
from screenbot.errors import ScreenbotError
from screenbot.game.rules import Move
from screenbot.geometry import Point, Rect

# The only keys this program can ever press: one key per move, from the key set the game takes (for a
# game that reads its moves as lines, the letter and then Enter).
KEY_SETS: dict[str, dict[Move, str]] = {
    "arrows": {m: m.key for m in Move},
    "wasd": {Move.UP: "w", Move.LEFT: "a", Move.DOWN: "s", Move.RIGHT: "d"},
    "hjkl": {Move.LEFT: "h", Move.DOWN: "j", Move.UP: "k", Move.RIGHT: "l"},
}
# a key set whose move is a letter typed as a line: the letter, then Enter (a game that reads input())
KEY_SETS["wasd+enter"] = KEY_SETS["wasd"]
ENTER_AFTER = frozenset({"wasd+enter"})
ARROW_KEYS = frozenset(KEY_SETS["arrows"].values())
# The only other keys it can press: a win message that names a key to continue ("Press Enter to keep
# going") is dismissed with it, through the guard, while the message is up and the board's window has
# the focus. Letters that games bind to quit, restart, new game or undo (q, r, n, u, z) are not among them.
DISMISS_NAMED_KEYS = frozenset({"enter", "space", "escape"})
DISMISS_KEYS = DISMISS_NAMED_KEYS | (frozenset("abcdefghijklmnopqrstuvwxyz") - frozenset("qrnuz"))


class InputError(ScreenbotError):
    """Keyboard or mouse input could not be sent (no display, missing permission, library missing)."""


class UnsafeKeyError(ScreenbotError):
    """A key was asked for that is neither a move of the key set nor a dismiss key."""


class UnsafeClickError(ScreenbotError):
    """A click was asked for outside the area the bot is allowed to click (the board's frame)."""


class FailSafeTriggered(ScreenbotError):
    """The user moved the mouse into a screen corner: pyautogui's fail-safe stops all input."""

    exit_code = 3


def move_key(move: Move, keys: str = "arrows") -> str:
    """The key for a move in a key set; anything that is not a Move is refused."""
    if not isinstance(move, Move):
        raise TypeError(f"only moves can be pressed, not {move!r}")
    return KEY_SETS[keys][move]


@dataclass(frozen=True)
class Press:
    """One key press, as plain data (what a RecordingKeyboard keeps)."""

    move: Move


@dataclass(frozen=True)
class Dismiss:
    """One press of a dismiss key (enter, space, escape, a letter), as plain data."""

    key: str


@dataclass(frozen=True)
class Click:
    """One left click at a point (mouse points)."""

    x: int
    y: int


class Keyboard(abc.ABC):
    """Sends the key of a move from one key set (`keys`: arrows, wasd or hjkl), and clicks only
    inside `click_area` (mouse points; None = no clicks at all)."""

    def __init__(self, click_area: Rect | None = None, keys: str = "arrows") -> None:
        if keys not in KEY_SETS:
            raise ValueError(f"keys must be one of {', '.join(KEY_SETS)}, not {keys!r}")
        self.click_area = click_area
        self.keys = keys

    def use(self, keys: str) -> None:
        """Press the moves with another key set from now on (play learns the one the game takes)."""
        if keys not in KEY_SETS:
            raise ValueError(f"keys must be one of {', '.join(KEY_SETS)}, not {keys!r}")
        self.keys = keys

    def confine_clicks(self, area: Rect | None) -> None:
        """Allow clicks only inside `area` (mouse points), e.g. the board's frame."""
        self.click_area = area

    def press(self, move: Move) -> None:
        """Press and release the key of `move` (and then Enter, for a key set typed as a line)."""
        self._press_key(move_key(move, self.keys))
        if self.keys in ENTER_AFTER:
            self._press_key("enter")

    def press_dismiss(self, key: str) -> None:
        """Press and release a dismiss key (DISMISS_KEYS: enter, space, escape, most letters); anything
        else is refused."""
        if not isinstance(key, str) or key not in DISMISS_KEYS:
            raise UnsafeKeyError(f"refusing to press {key!r}: only moves and the keys {sorted(DISMISS_NAMED_KEYS)} "
                                 "or a letter that continues a win message can be pressed")
        self._press_dismiss_key(key)

    def click(self, x: int, y: int) -> None:
        """Left click at (x, y) in mouse points; refused outside the allowed area."""
        point = Point(int(x), int(y))
        if self.click_area is None or not self.click_area.contains(point):
            area = self.click_area.as_list() if self.click_area else "nowhere"
            raise UnsafeClickError(
                f"refusing to click at ({point.x}, {point.y}): clicks are allowed only inside the board ({area})"
            )
        self._click(point.x, point.y)

    def pointer(self) -> Point | None:
        """Where the mouse pointer is (mouse points), or None where that cannot be asked."""
        return None

    @abc.abstractmethod
    def _press_key(self, key: str) -> None:
        """Send one key of the key set (already checked)."""

    def _press_dismiss_key(self, key: str) -> None:
        """Send one dismiss key (already checked)."""
        self._press_key(key)

    @abc.abstractmethod
    def _click(self, x: int, y: int) -> None:
        """Send one left click (already checked)."""

    def close(self) -> None:
        """Release whatever the keyboard holds."""


class RecordingKeyboard(Keyboard):
    """Keeps every press and click as data instead of sending it (tests, dry runs)."""

    def __init__(self, on_press=None, keys: str = "arrows") -> None:
        super().__init__(keys=keys)
        self.events: list[Press | Dismiss | Click] = []
        self.on_press = on_press
        self.pointer_at: Point | None = None  # what pointer() answers

    def pointer(self) -> Point | None:
        return self.pointer_at

    @property
    def moves(self) -> list[Move]:
        return [e.move for e in self.events if isinstance(e, Press)]

    @property
    def dismissed(self) -> list[str]:
        return [e.key for e in self.events if isinstance(e, Dismiss)]

    def _press_dismiss_key(self, key: str) -> None:
        self.events.append(Dismiss(key))

    def _press_key(self, key: str) -> None:
        if key == "enter" and self.keys in ENTER_AFTER:
            return  # the line's end: the move is the letter before it
        move = next(m for m, k in KEY_SETS[self.keys].items() if k == key)
        self.events.append(Press(move))
        if self.on_press is not None:
            self.on_press(move)

    def _click(self, x: int, y: int) -> None:
        self.events.append(Click(x, y))


class PyAutoGuiKeyboard(Keyboard):
    """Real input through pyautogui, imported on first use; no built-in pause, fail-safe kept on."""

    def __init__(self, keys: str = "arrows") -> None:
        super().__init__(keys=keys)
        self._gui = None

    def _pyautogui(self):
        if self._gui is None:
            ensure_xauthority()
            try:
                import pyautogui
            except Exception as exc:  # KeyError('DISPLAY'), Xlib errors, missing backends
                raise InputError(
                    f"cannot send keys ({type(exc).__name__}: {exc}); a desktop session "
                    "(X11 with $DISPLAY on Linux) is needed"
                ) from exc
            pyautogui.PAUSE = 0
            pyautogui.FAILSAFE = True
            self._gui = pyautogui
        return self._gui

    def _guarded(self, action, *args, **kwargs) -> None:
        gui = self._pyautogui()
        try:
            action(gui, *args, **kwargs)
        except gui.FailSafeException as exc:
            raise FailSafeTriggered(
                "stopped: the mouse is in a screen corner (pyautogui fail-safe); move it away to play"
            ) from exc

    def pointer(self) -> Point | None:
        x, y = self._pyautogui().position()
        return Point(int(x), int(y))

    def _press_key(self, key: str) -> None:
        self._guarded(lambda gui: gui.press(key, _pause=False))

    def _click(self, x: int, y: int) -> None:
        self._guarded(lambda gui: gui.click(x, y, _pause=False))


class XTestKeyboard(Keyboard):
    """Real input on X11 through the XTEST extension (python-xlib), bound to one display.

    What pyautogui does on Linux, but with its own display connection (so one process can drive
    several displays, e.g. test rigs one after another) and the same fail-safe: nothing is sent
    while the pointer rests in a screen corner.
    """

    KEYSYMS = {"up": "Up", "down": "Down", "left": "Left", "right": "Right",
               "enter": "Return", "space": "space", "escape": "Escape"}  # letters are their own keysyms

    def __init__(self, click_area: Rect | None = None, keys: str = "arrows") -> None:
        super().__init__(click_area, keys)
        try:
            from Xlib import XK

            self._display = open_x_display()
        except Exception as exc:
            raise InputError(f"cannot open the X display for input ({type(exc).__name__}: {exc})") from exc
        if not self._display.has_extension("XTEST"):
            self._display.close()
            raise InputError("the X server has no XTEST extension: keys cannot be sent")
        self._root = self._display.screen().root
        self._codes = {
            key: self._display.keysym_to_keycode(XK.string_to_keysym(self.KEYSYMS.get(key, key)))
            for key in {*(k for keys in KEY_SETS.values() for k in keys.values()), *DISMISS_KEYS}
        }

    def pointer(self) -> Point | None:
        at = self._root.query_pointer()
        return Point(int(at.root_x), int(at.root_y))

    def _fail_safe(self) -> None:
        pointer = self._root.query_pointer()
        screen = self._display.screen()
        x, y = pointer.root_x, pointer.root_y
        if x in (0, screen.width_in_pixels - 1) and y in (0, screen.height_in_pixels - 1):
            raise FailSafeTriggered(
                "stopped: the mouse is in a screen corner (fail-safe); move it away to play"
            )

    def _press_key(self, key: str) -> None:
        from Xlib import X
        from Xlib.ext import xtest

        self._fail_safe()
        code = self._codes[key]
        xtest.fake_input(self._display, X.KeyPress, code)
        xtest.fake_input(self._display, X.KeyRelease, code)
        self._display.sync()

    def _click(self, x: int, y: int) -> None:
        from Xlib import X
        from Xlib.ext import xtest

        self._fail_safe()
        xtest.fake_input(self._display, X.MotionNotify, x=x, y=y)
        self._display.sync()
        xtest.fake_input(self._display, X.ButtonPress, 1)
        xtest.fake_input(self._display, X.ButtonRelease, 1)
        self._display.sync()

    def close(self) -> None:
        if self._display is not None:
            self._display.close()
            self._display = None


def live_keyboard(keys: str = "arrows") -> Keyboard:
    """The keyboard for this desktop: XTEST on X11 (Linux), pyautogui elsewhere."""
    import sys

    if sys.platform.startswith("linux") and os.environ.get("DISPLAY"):
        return XTestKeyboard(keys=keys)
    return PyAutoGuiKeyboard(keys=keys)
