"""Targets whose board cannot be read (C, C++ and Vala games): the window's pixels are the only witness.

A `ScreenTarget` has `has_truth = False`. There is no truth log: `board()` raises TargetError and
`history()` is empty. `start()` returns once the window is shown and has stood still, and `press()`
returns once the window has stopped changing after the key, with a record of what the screen did:

    {"kind": "screen", "move": "left", "changed": true, "settle_s": 0.212}

`changed` says whether the window's pixels (or those of the part set in `watch`) differ from before
the key (false: the move did nothing, or the game took no key); `settle_s` is the time from the key to
the window's last change (None when nothing changed): the game's own animation time. A subclass sets
`still_s`, how long the pixels must stay unchanged to count as still (longer than any pause inside
one move's drawing).

Like target_base.py this does not import screenbot.
"""

from __future__ import annotations

import time
from typing import Any

from target_base import Target
from target_processes import TargetError


class ScreenTarget(Target):
    """A program with no readable board: `press()` waits for its window to stand still."""

    has_truth = False
    still_s = 0.06  # the window is still once its pixels have not changed for this long
    change_timeout_s = 0.8  # a key after which the window has not changed within this did nothing
    start_still_s = 0.5  # start(): the first board is drawn once the window stands still this long
    grab_pause_s = 0.005  # between two grabs: the game shares the CPU with the grabs

    def __init__(self, display: str, seed: int | None = 1, workdir: Any = None) -> None:
        super().__init__(display, seed, workdir)
        # the part of the window that grab(), press() and the waits watch: x, y, w, h inside the
        # window (e.g. the board alone, without a score that keeps animating); None: all of it
        self.watch: tuple[int, int, int, int] | None = None

    def _begin(self, timeout_s: float) -> None:
        # start() returns once the window has stood still `start_still_s`: the first board is drawn
        if self.wait_still(timeout_s, self.start_still_s) is None:
            raise TargetError(f"{self.name}: the window kept changing for {timeout_s:g} s{self._logs()}")

    def grab(self) -> bytes:
        """The watched pixels now (BGRA rows), for comparing one moment with another."""
        return bytes(self._grab(self.watch).raw)

    def wait_change(self, before: bytes, timeout_s: float) -> float | None:
        """Wait until the window differs from `before`; the time it was first seen different
        (time.monotonic()), or None if it did not change within `timeout_s`."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.grab() != before:
                return time.monotonic()
            time.sleep(self.grab_pause_s)
        return None

    def wait_still(self, timeout_s: float = 3.0, still_s: float | None = None) -> float | None:
        """Wait until the window's pixels have not changed for `still_s` (default: the target's);
        the time of the last change seen (time.monotonic(); the start of the wait if there was none),
        or None if the window did not stand still within `timeout_s`."""
        still_s = self.still_s if still_s is None else still_s
        start = time.monotonic()
        last, last_change = self.grab(), start
        while True:
            time.sleep(self.grab_pause_s)
            now_pixels = self.grab()
            now = time.monotonic()
            if now_pixels != last:
                last, last_change = now_pixels, now
            elif now - last_change >= still_s:
                return last_change
            if now - start > timeout_s:
                return None

    def press(self, move: str, timeout_s: float = 3.0) -> dict[str, Any] | None:
        """Press the key for `move` with a real X event (XTEST) and return once the window stands
        still: {"kind": "screen", "move", "changed", "settle_s"} (see the module's docstring), or
        None if the window did not stand still within `timeout_s`."""
        self.wait_ready()
        before = self.grab()
        sent = time.monotonic()
        self._xdotool("key", "--clearmodifiers", self.key_for(move))
        if self.wait_change(before, self.change_timeout_s) is None:
            return {"kind": "screen", "move": move, "changed": False, "settle_s": None}
        last_change = self.wait_still(timeout_s)
        if last_change is None:
            return None
        return {"kind": "screen", "move": move, "changed": self.grab() != before,
                "settle_s": round(last_change - sent, 4)}

    def board(self) -> list[list[int]]:
        """No board can be read from this program: always TargetError."""
        raise TargetError(f"{self.name} has no readable board (has_truth is False): compare its screen instead")
