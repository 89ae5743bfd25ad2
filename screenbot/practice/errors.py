"""What can go wrong while the live rig starts or runs."""

from __future__ import annotations

from screenbot.errors import ScreenbotError


class RigError(ScreenbotError):
    """The live rig could not start or lost one of its parts."""


class ToolMissingError(RigError):
    """A program the rig needs (Xvfb, Chromium, xdotool) is not installed."""


class PageLoadError(RigError):
    """The browser started but the practice page never reported its state."""
