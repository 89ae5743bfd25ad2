"""The errors a review reports as one line (`screenbot: error: ...`)."""

from __future__ import annotations

from screenbot.errors import ScreenbotError


class ReviewError(ScreenbotError):
    """A game that cannot be reviewed."""


class SourceError(ReviewError):
    """The source is missing, unreadable (a corrupt video or picture) or holds no frames."""


class NoBoardInSourceError(ReviewError):
    """No frame of the source shows a 2048 board that calibration can find."""
