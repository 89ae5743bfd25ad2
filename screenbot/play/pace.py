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
