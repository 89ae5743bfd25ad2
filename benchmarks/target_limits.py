"""The speed a 2048 program itself allows: 1000 / the median ms from a key to its window standing still again.

How (measure_limit): on the started target, before the bot plays, `keys` keys are sent one at a time
with the harness (target.wait_ready(), then the target's own xdotool key command, run in a thread).
The time counts from just before xdotool starts (so it includes xdotool's start: a few ms); from then
on the window's client area (or the part of it the target's `watch` names, when it names one) is
grabbed with mss about every 5 ms, also while xdotool runs. A key's time is that of the last grab that
differed from the one before it, once the window has then stood unchanged `still_s` (at least 0.2 s,
or the target's own `still_s` when longer: Debian's 2048 pauses 150 ms inside a move). A key after
which the window does not change within 0.8 s did nothing: the next key (down and left by turns, then
right, then up) is tried, and it is not counted. A player that waits for each board to stand still
cannot pass 1000 / the median: it is what play's moves/s on the program is held against (play reads
some boards while the new tile still grows in, so it can pass the board's figure).

Each grab keeps the box of pixels that changed, so the same keys also give the board's own figure
once calibration has found the board (`Limit.settles(board)`: only changes that touch the board
count): a score that floats up or counts on for half a second after the tiles stopped is the
window's time, not the board's, and play reads the board alone.

The pure parts (change_box, settle_ms, limit_moves_per_s, Limit's figures) need no display.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

GRAB_EVERY_S = 0.005  # the grabs' period: finer than any animation frame (60 Hz = 16.7 ms)
STILL_S = 0.2  # the window is still once unchanged this long (longer than a frame of any animation seen)
CHANGE_TIMEOUT_S = 0.8  # no change within this after a key: the key did nothing
SETTLE_TIMEOUT_S = 5.0  # a window that keeps changing this long after a key: no figure for that key

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (ends excluded) of the pixels that changed
Frames = Sequence[tuple[float, "Box | None"]]  # per grab after the key: its time, the box changed since the grab before


def move_order(step: int) -> tuple[str, ...]:
    """The keys tried at `step`, in turn until one changes the window: down and left by turns, then
    right, then up (a corner's keys, so most keys move something)."""
    first = ("down", "left") if step % 2 == 0 else ("left", "down")
    return (*first, "right", "up")


def change_box(before: np.ndarray, after: np.ndarray) -> Box | None:
    """The box of the pixels that differ between two grabs of the same region (h x w x channels)."""
    diff = np.any(before != after, axis=2)
    rows = np.flatnonzero(diff.any(axis=1))
    if not len(rows):
        return None
    cols = np.flatnonzero(diff.any(axis=0))
    return int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1


def _touches(box: Box, inside: tuple[int, int, int, int] | None) -> bool:
    if inside is None:
        return True
    x, y, w, h = inside
    return box[0] < x + w and box[2] > x and box[1] < y + h and box[3] > y


def settle_ms(key_t: float, frames: Frames, still_s: float = STILL_S,
              inside: tuple[int, int, int, int] | None = None) -> float | None:
    """ms from the key (sent at `key_t`) to the last change, given the grabs after the key in order.
    `inside` (x, y, w, h in the grabs' pixels): only changes touching it count. None if nothing
    counted changed, or the window did not stand unchanged `still_s` after its last change."""
    last_any = last = None
    for t, box in frames:
        if box is not None:
            last_any = t
            if _touches(box, inside):
                last = t
    if last is None or frames[-1][0] - last_any < still_s:
        return None
    return (last - key_t) * 1000


def limit_moves_per_s(settles_ms: Sequence[float]) -> float | None:
    """The moves per second a program allows: 1000 / the median key-to-still time (None with no keys)."""
    if not settles_ms:
        return None
    median = statistics.median(settles_ms)
    return round(1000 / median, 2) if median > 0 else None


@dataclass(frozen=True)
class KeyWatch:
    key_t: float
    frames: list  # Frames


@dataclass
class Limit:
    """What measure_limit saw: the counted keys' grabs, the grabbed region (x, y, w, h on the screen),
    xdotool's run time per key sent, and the stillness asked for."""

    keys: list[KeyWatch]
    region: tuple[int, int, int, int]
    xdotool_ms: list[float] = field(default_factory=list)
    keys_sent: int = 0
    still_s: float = STILL_S

    def settles(self, board: tuple[int, int, int, int] | None = None) -> list[float]:
        """ms from each counted key to the window standing still; with `board` (x, y, w, h on the
        screen), to the last change that touched the board."""
        inside = None if board is None else (board[0] - self.region[0], board[1] - self.region[1], board[2], board[3])
        found = (settle_ms(k.key_t, k.frames, self.still_s, inside) for k in self.keys)
        return [round(ms, 1) for ms in found if ms is not None]

    def figures(self, board: tuple[int, int, int, int] | None = None) -> dict:
        """The window's figures, and the board's when `board` is given: per-key ms, median, moves/s."""
        out = {"keys_sent": self.keys_sent, "still_s": self.still_s, "region": list(self.region),
               "xdotool_ms_median": round(statistics.median(self.xdotool_ms), 1) if self.xdotool_ms else None}
        for name, rect in (("", None), ("board_", board)):
            if name and board is None:
                continue
            settles = self.settles(rect)
            out[f"{name}settle_ms"] = settles
            out[f"{name}settle_ms_median"] = round(statistics.median(settles), 1) if settles else None
            out[f"{name}moves_per_s"] = limit_moves_per_s(settles)
        return out


def watch_key(grab, send, still_s: float, clock=time.monotonic, sleep=time.sleep,
              every_s: float = GRAB_EVERY_S) -> tuple[float, list, float]:
    """Send one key (`send()`, in a thread: grabs go on while it runs) and grab (`grab()` -> h x w x
    channels array) every `every_s` (GRAB_EVERY_S; 0: with no pause) until the window stands still `still_s` after a change, or did
    not change within CHANGE_TIMEOUT_S, or SETTLE_TIMEOUT_S. Returns (the key's time, [(time, box
    changed or None)], ms send() took)."""
    previous = grab()
    sent = threading.Event()
    took: list[float] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            send()
        except BaseException as exc:  # noqa: BLE001 - raised again in the caller's thread
            failed.append(exc)
        finally:
            took.append((clock() - key_t) * 1000)
            sent.set()

    key_t = clock()
    threading.Thread(target=run, daemon=True).start()
    frames: list[tuple[float, Box | None]] = []
    last_change = None
    while True:
        pixels = grab()
        now = clock()
        box = change_box(previous, pixels)
        frames.append((now, box))
        previous = pixels
        if box is not None:
            last_change = now
        done = sent.is_set()
        if done and last_change is None and now - key_t > CHANGE_TIMEOUT_S:
            break
        if done and last_change is not None and now - last_change >= still_s:
            break
        if now - key_t > SETTLE_TIMEOUT_S:
            break
        sleep(max(0.0, every_s - (clock() - now)))
    sent.wait(SETTLE_TIMEOUT_S)
    if failed:
        raise failed[0]
    return key_t, frames, took[0] if took else float("nan")


def measure_limit(target, keys: int = 20, max_tries: int | None = None, every_s: float = GRAB_EVERY_S) -> Limit:
    """Press `keys` keys that change the window of the started, focused `target` (a tests/targets
    Target) and keep each one's grabs (the module's docstring)."""
    import mss

    still_s = max(STILL_S, float(getattr(target, "still_s", 0.0)))
    x, y, w, h = target.window_rect()
    part = getattr(target, "watch", None)  # the part of the window the harness watches, when it names one
    if part is not None:
        x, y, w, h = x + part[0], y + part[1], part[2], part[3]
    limit = Limit([], (x, y, w, h), still_s=still_s)
    tries = max_tries if max_tries is not None else 4 * keys
    factory = getattr(mss, "MSS", None) or mss.mss
    with factory(display=target.display) as screen:
        def grab() -> np.ndarray:
            shot = screen.grab({"left": x, "top": y, "width": w, "height": h})
            return np.frombuffer(shot.raw, np.uint8).reshape(shot.height, shot.width, 4)

        step = 0
        while len(limit.keys) < keys and limit.keys_sent < tries:
            for move in move_order(step):
                target.wait_ready()
                key_t, frames, sent_ms = watch_key(
                    grab, lambda move=move: target._xdotool("key", "--clearmodifiers", target.key_for(move)), still_s,
                    every_s=every_s)
                limit.keys_sent += 1
                limit.xdotool_ms.append(round(sent_ms, 1))
                if settle_ms(key_t, frames, still_s) is not None:
                    limit.keys.append(KeyWatch(key_t, frames))
                    break
                if limit.keys_sent >= tries:
                    break
            step += 1
    return limit
