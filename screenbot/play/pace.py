"""When to look after a key: the page's own timing (first frame of the new tile, frame interval), learned while playing.

Grabbing and reading frames that cannot show anything new only takes the CPU from the browser
that has to draw them (on a 2-core machine that delays the very frames play waits for). So play
rests until shortly before the earliest moment a new tile has been seen so far, and between the
new tile's first frame and its next one; both figures are measured on this page, in this game,
from the frames play grabbed, and resting stays off until enough of them were seen.
"""

from __future__ import annotations

import statistics
from collections import deque
from dataclasses import dataclass, field

# Moves remembered, and how many are needed before resting at all.
KEEP = 40
MIN_SAMPLES = 8
# Wake this long before the earliest expected frame (scheduler and grab jitter).
SLACK_MS = 2.0
# Changes further apart than this were not consecutive frames (the page skipped some, or play rested).
MAX_FRAME_MS = 40.0


@dataclass
class FramePace:
    """Learns, per move, when (after the key) the new tile's first frame was grabbed, and the time
    from that frame to the tile's next one; tells how long play may rest."""

    first_ms: deque = field(default_factory=lambda: deque(maxlen=KEEP))
    interval_ms: deque = field(default_factory=lambda: deque(maxlen=4 * KEEP))

    def saw_first_frame(self, ms_after_key: float) -> None:
        """The new tile first showed on a frame grabbed this long after the key."""
        self.first_ms.append(ms_after_key)

    def saw_frame_change(self, ms_since_last_change: float) -> None:
        """Two grabs in a row while play was looking closely showed different frames this far apart
        (while the tiles move, every frame differs from the one before)."""
        if ms_since_last_change <= MAX_FRAME_MS:
            self.interval_ms.append(ms_since_last_change)

    @property
    def frame_ms(self) -> float | None:
        """The interval between the page's frames (median), once measured often enough."""
        if len(self.interval_ms) < MIN_SAMPLES:
            return None
        return statistics.median(self.interval_ms)

    def quiet_ms(self) -> float:
        """How long after a key nothing needs looking at: until one frame before the earliest first
        frame of a new tile seen lately (so a cell the move emptied is still seen empty first)."""
        frame = self.frame_ms
        if frame is None or len(self.first_ms) < MIN_SAMPLES:
            return 0.0
        return max(0.0, min(self.first_ms) - frame - SLACK_MS)

    def next_frame_rest_ms(self, ms_since_last_empty_grab: float) -> float:
        """After the tile's first frame: how much longer to rest before its next frame can come.
        The first frame came after the last grab that did not show it, so the next one comes at
        least a frame interval after that grab."""
        frame = self.frame_ms
        if frame is None:
            return 0.0
        return max(0.0, frame - SLACK_MS - ms_since_last_empty_grab)


class EarnedShortcut:
    """A shortcut a game earns by a run of moves that allow it (AFTER in a row), and that is checked
    again now and then once earned: not taken on every EVERY-th move, which is watched the long way."""

    AFTER = 1
    EVERY = 1

    def __init__(self) -> None:
        self.run = 0  # moves in a row that allowed the shortcut
        self.since_check = 0  # moves that took it since the last watched the long way

    @property
    def earned(self) -> bool:
        return self.run >= self.AFTER

    def take(self) -> bool:
        """Whether this move takes the shortcut (never before it is earned; then on all moves but every
        EVERY-th)."""
        if not self.earned:
            return False
        self.since_check += 1
        if self.since_check >= self.EVERY:
            self.since_check = 0
            return False
        return True

    def record(self, allowed: bool) -> None:
        """A move watched the long way did (or did not) allow the shortcut."""
        self.run = self.run + 1 if allowed else 0

    def lose(self) -> None:
        """The shortcut led astray: earn it again from nothing."""
        self.run = self.since_check = 0


# A game whose new tile showed at once (never a growing square) this many moves in a row redraws
# without animation: play stops watching for a growing tile and reads the still board at once.
AT_ONCE_AFTER = 5
# ... and looks for a growing tile again every this many moves (a game may animate after all).
RECHECK_EVERY = 50


class RedrawStyle(EarnedShortcut):
    """How this game draws a move, learned from its first moves: animated (the new tile grows in, and
    play reads it while it grows) or at once (the next frame shows the new board, read still)."""

    AFTER, EVERY = AT_ONCE_AFTER, RECHECK_EVERY

    @property
    def at_once(self) -> bool:
        return self.earned

    def watch_growth(self) -> bool:
        """Whether to watch the next move's new tile grow (always, until the game is known to redraw
        at once; then every RECHECK_EVERY moves)."""
        return not self.take()

    def saw(self, grew: bool) -> None:
        """A watched move's new tile was (or was never) seen as a growing square."""
        self.record(not grew)


# A game whose board, the first time it was seen as the move's board, was already the board that then
# stood still, and whose pixels changed no more than a redraw's (watch.ONE_PIECE_CHANGES), this many
# moves in a row, draws each move in one piece: from then on play believes a move's board once two
# looks in a row show it alike, without waiting the still gap (which is what makes play slower than
# such a game). A terminal can be caught mid-redraw (2-23 % of keys in the corpus's terminal games,
# mostly for one grab: benchmarks/results/redraw_spans.md), so one look is never enough.
FIRST_SIGHT_AFTER = 20
# ... and waits for the still gap again every this many moves, to see that this still holds.
FIRST_SIGHT_RECHECK = 25


class FirstSight(EarnedShortcut):
    """Whether two looks in a row can stand for the still gap, learned from this game's moves (each
    watched for the still gap): they can once the first sight was the still board FIRST_SIGHT_AFTER
    moves in a row. A move whose board changed after its first sight, and a new tile found misread,
    start the count again."""

    AFTER, EVERY = FIRST_SIGHT_AFTER, FIRST_SIGHT_RECHECK

    @property
    def trusted(self) -> bool:
        return self.earned

    def two_looks_enough(self) -> bool:
        """Whether this move's board may be believed on two looks in a row (False on every
        FIRST_SIGHT_RECHECK-th move: that one is watched for the still gap)."""
        return self.take()

    def saw(self, final: bool) -> None:
        """A move watched for the still gap: was its first sight the board that stood still?"""
        self.record(final)

    def distrust(self) -> None:
        """A board believed was wrong (its new tile misread): watch every move for the still gap again."""
        self.lose()
