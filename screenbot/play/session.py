"""A live session for play: the shared session (screen and profile) plus the eyes, the keys and the focus watch."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path

from screenbot.calibration import Profile
from screenbot.control.desktop import FocusWatch, check_desktop
from screenbot.control.keyboard import Keyboard, RecordingKeyboard, live_keyboard
from screenbot.control.screen import Screen
from screenbot.play.eyes import ScreenEyes
from screenbot.play.loop import Player
from screenbot.session import Session, open_session


@dataclass
class LiveParts:
    """What play needs on the live screen: the session (screen and profile), eyes, keys, focus watch."""

    session: Session
    eyes: ScreenEyes
    keyboard: Keyboard
    focus_watch: FocusWatch | None

    @property
    def screen(self) -> Screen:
        return self.session.screen

    @property
    def profile(self) -> Profile:
        return self.session.profile

    def save_learned(self) -> Path | None:
        """Save what the profile learned to the file it came from (not one found for this run only)."""
        return self.session.save_learned()

    def close(self) -> None:
        self.eyes.close()
        self.keyboard.close()
        if self.focus_watch is not None:
            self.focus_watch.close()
        self.session.close()


def open_live(profile_path: str | Path | None = None, dry_run: bool = False, profile=None,
              keys: str = "arrows") -> LiveParts:
    """Check the desktop allows it, open the live screen with a profile that fits it (see
    screenbot.session.open_session; a first profile is saved), then set up the eyes and the hands."""
    check_desktop()
    session = open_session(profile=profile if profile is not None else profile_path, keep_new=True)
    try:
        eyes = ScreenEyes(session.screen, session.profile)
        keyboard: Keyboard = RecordingKeyboard(keys=keys) if dry_run else live_keyboard(keys)
    except BaseException:
        session.close()
        raise
    focus_watch = None
    if not dry_run and sys.platform.startswith("linux") and abs(eyes.geometry.scale - 1.0) < 1e-6:
        watch = FocusWatch(eyes.geometry.board_rect)
        focus_watch = watch if watch.available else None
    return LiveParts(session, eyes, keyboard, focus_watch)


class StatusLine:
    """One terminal line, rewritten in place (at most ~10 times a second): moves, speed, score, timings."""

    def __init__(self, stream=None, every_s: float = 0.1) -> None:
        self.stream = stream or sys.stderr
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.every_s = every_s
        self._last = 0.0
        self._width = 0

    def __call__(self, player: Player) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last < self.every_s:
            return
        self._last = now
        timings = player.stats.timings
        t = timings[-1] if timings else None
        board = player.tracker.board
        text = (
            f"moves {player.tracker.moves}  {player.moves_per_s:4.1f}/s  score {player.tracker.score}  "
            f"max {max(max(r) for r in board) if board else 0}"
        )
        if t is not None:
            text += f"  read {t.read_ms:5.1f} ms  think {t.think_ms:5.1f} ms"
        if player.tracker.misreads:
            text += f"  misreads {player.tracker.misreads}"
        pad = max(0, self._width - len(text))
        self.stream.write("\r" + text + " " * pad)
        self.stream.flush()
        self._width = len(text)

    def end(self) -> None:
        if self.enabled and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
