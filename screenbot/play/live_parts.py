"""Play's live parts, assembled: the screen opened with its profile (board_source), the eyes, the keys and the focus watch."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from screenbot.board_source import Session, open_session
from screenbot.calibration import Profile
from screenbot.control.desktop import check_desktop
from screenbot.control.focus import FocusWatch
from screenbot.control.keyboard import Keyboard, RecordingKeyboard, live_keyboard
from screenbot.control.screen import Screen
from screenbot.play.eyes import ScreenEyes


@dataclass
class LiveParts:
    """What play needs on the live screen: the session (screen and profile), eyes, keys, focus watch
    (None in a dry run, which presses nothing)."""

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
    screenbot.board_source.open_session; a first profile is saved), then set up the eyes and the hands.
    `keys` auto: the arrows until play has learned the game's keys (Player's learn_keys)."""
    keys = "arrows" if keys == "auto" else keys
    check_desktop()
    session = open_session(profile=profile if profile is not None else profile_path, keep_new=True)
    try:
        eyes = ScreenEyes(session.screen, session.profile)
        keyboard: Keyboard = RecordingKeyboard(keys=keys) if dry_run else live_keyboard(keys)
    except BaseException:
        session.close()
        raise
    # where the desktop cannot tell which window has the focus, the watch says so (`available`
    # False) and the guard presses only move keys
    focus_watch = None if dry_run else FocusWatch(eyes.geometry.board_rect_in_points)
    return LiveParts(session, eyes, keyboard, focus_watch)
