"""A live session's parts put together: profile (loaded or calibrated now), screen, eyes, keys, focus watch."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path

from screenbot.control.desktop import FocusWatch, check_desktop
from screenbot.control.keyboard import Keyboard, RecordingKeyboard, live_keyboard
from screenbot.control.screen import MssScreen, Screen
from screenbot.play.eyes import ScreenEyes
from screenbot.play.loop import PlaySettings, Player


def calibrate_live(screen: Screen, profile_path: str | Path | None = None, save: bool = True):
    """Find the board on the live screen now (every monitor) and save the profile."""
    from screenbot.calibration import calibrate, hidpi_scale

    monitors = screen.monitors()
    frame = screen.grab(monitors[0])
    # On X11 the mouse (XTEST) and the capture (mss) share the root window's pixels: scale 1.
    linux = sys.platform.startswith("linux")
    scale = hidpi_scale(monitors[0].w) if len(monitors) == 2 and not linux else 1.0
    profile = calibrate(frame, monitors=monitors, scale=scale, source="live screen")
    if save:
        profile.save(profile_path)
    return profile


def load_or_calibrate(screen: Screen, profile_path: str | Path | None, quiet: bool = False):
    """The profile at `profile_path` (or the default one); with no default profile yet, calibrate now."""
    from screenbot.calibration import Profile, default_profile_path

    if profile_path is not None:
        return Profile.load(profile_path)
    path = default_profile_path()
    if Path(path).is_file():
        return Profile.load(path)
    profile = calibrate_live(screen, path)
    if not quiet:
        print(f"screenbot: no profile yet: calibrated on the live screen, saved {path}", file=sys.stderr)
    return profile


@dataclass
class LiveParts:
    screen: Screen
    profile: object
    eyes: ScreenEyes
    keyboard: Keyboard
    focus_watch: FocusWatch | None

    def close(self) -> None:
        self.eyes.close()
        self.keyboard.close()
        if self.focus_watch is not None:
            self.focus_watch.close()
        self.screen.close()


def open_live(profile_path: str | Path | None = None, dry_run: bool = False, profile=None) -> LiveParts:
    """Check the desktop allows it, then set up the screen, the profile, the eyes and the hands."""
    check_desktop()
    screen = MssScreen()
    if profile is None:
        profile = load_or_calibrate(screen, profile_path)
    eyes = ScreenEyes(screen, profile)
    keyboard: Keyboard = RecordingKeyboard() if dry_run else live_keyboard()
    focus_watch = None
    if not dry_run and sys.platform.startswith("linux") and abs(eyes.geometry.scale - 1.0) < 1e-6:
        watch = FocusWatch(eyes.geometry.board)
        focus_watch = watch if watch.available else None
    return LiveParts(screen, profile, eyes, keyboard, focus_watch)


def advise_from_screen(profile_path: str | Path | None = None, budget_ms: float | None = None):
    """Read the live screen and choose a move without pressing anything (for `screenbot hint`).

    Returns (grid, decision) — the decision as screenbot.agent.choose_move gives it.
    """
    parts = open_live(profile_path, dry_run=True)
    try:
        player = Player(parts.eyes, parts.keyboard, PlaySettings(dry_run=True, budget_ms=budget_ms))
        summary = player.play()
        if not summary.ok or player.tracker.board is None:
            from screenbot.play.loop import StopPlaying

            raise StopPlaying(summary.reason)
        return player.tracker.board, player.last_decision
    finally:
        parts.close()


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
