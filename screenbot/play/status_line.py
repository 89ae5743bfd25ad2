"""Play's status line on the terminal: moves, speed, score and timings, rewritten in place."""

from __future__ import annotations

import sys
import time

from screenbot.play.loop import Player


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
        tables = getattr(player.agent, "tables_note", lambda: None)()
        if tables:
            text += f"  {tables}"
        pad = max(0, self._width - len(text))
        self.stream.write("\r" + text + " " * pad)
        self.stream.flush()
        self._width = len(text)

    def end(self) -> None:
        if self.enabled and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
