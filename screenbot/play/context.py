"""What every phase of play works from: the eyes, the tracked game, the settings, the clock and the figures."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Callable

from screenbot.errors import ScreenbotError
from screenbot.play.eyes import Eyes, Sight
from screenbot.play.settings import PlaySettings
from screenbot.play.stats import Stats
from screenbot.play.tracker import Tracker


class StopPlaying(ScreenbotError):
    """Play stopped before the game ended, for a reason the user should know (the message says it)."""

    def __init__(self, message: str, diagnostics: str | None = None) -> None:
        super().__init__(message)
        self.diagnostics = diagnostics  # where the frames that explain it were saved


class GameOverShown(ScreenbotError):
    """The game says it is over (its message over the board) right after a move that can end it, and the
    board under the message cannot be read: the game ended, its last board not known."""

    def __init__(self) -> None:
        super().__init__("the game says it is over (its message over the board hides the last board)")


class Clock:
    """Real time: `clock()` is now (seconds), `clock.sleep(s)` waits."""

    def __call__(self) -> float:
        return time.perf_counter()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


def _print(message: str) -> None:
    print(message, file=sys.stderr)


@dataclass
class PlayContext:
    """The parts the loop and its phases share; `look`/`glance` keep the last sight for the guard."""

    eyes: Eyes
    settings: PlaySettings
    clock: Clock = field(default_factory=Clock)
    say: Callable[[str], None] = _print
    on_frame: Callable[[Sight], None] | None = None
    tracker: Tracker = field(default_factory=Tracker)
    stats: Stats = field(default_factory=Stats)
    last_sight: Sight | None = None

    def sleep(self, seconds: float) -> None:
        self.clock.sleep(seconds)

    def look(self) -> Sight:
        """Grab and read the board."""
        return self._seen(self.eyes.look())

    def glance(self) -> Sight:
        """Grab the board without reading it (state "unread"), for the spawn reader."""
        return self._seen(self.eyes.glance())

    def _seen(self, sight: Sight) -> Sight:
        self.last_sight = sight
        if self.on_frame is not None:
            self.on_frame(sight)
        return sight
