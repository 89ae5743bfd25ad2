"""The search settings a user can give (depth, depth cap, time budget), checked once for every command and the agent."""

from __future__ import annotations

from screenbot.errors import UsageError

MAX_FIXED_DEPTH = 40  # the deepest search allowed (the kernel's table keeps depths up to 127)
MAX_BUDGET_MS = 600_000.0


class SearchSettingError(UsageError, ValueError):
    """A depth, depth cap or budget out of range (a usage error on the command line, a ValueError in the API)."""


def check_depth(value: int | str | None, name: str = "depth") -> int | str | None:
    """None, 'adaptive', or an integer 0..MAX_FIXED_DEPTH (also as text)."""
    if value is None or value == "adaptive":
        return value
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise SearchSettingError(f"{name} must be an integer or 'adaptive', got {value!r}")
    try:
        depth = int(value)
    except ValueError:
        raise SearchSettingError(f"{name} must be an integer or 'adaptive', got {value!r}") from None
    if not 0 <= depth <= MAX_FIXED_DEPTH:
        raise SearchSettingError(f"{name} must be from 0 to {MAX_FIXED_DEPTH}, got {depth}")
    return depth


ENDGAME_CAP = "endgame"  # a depth cap: the default cap until a 16384 is on the board, none from then on


def check_depth_cap(value: int | str | None, name: str = "depth_cap") -> int | str | None:
    """None (the agent's default), 1..MAX_FIXED_DEPTH (also as text), or ENDGAME_CAP."""
    if value is None or value == ENDGAME_CAP:
        return value
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise SearchSettingError(f"{name} must be an integer or {ENDGAME_CAP!r}, got {value!r}")
    try:
        cap = int(value)
    except ValueError:
        raise SearchSettingError(f"{name} must be an integer or {ENDGAME_CAP!r}, got {value!r}") from None
    if not 1 <= cap <= MAX_FIXED_DEPTH:
        raise SearchSettingError(f"{name} must be from 1 to {MAX_FIXED_DEPTH}, got {cap}")
    return cap


def check_budget(value: float | None, name: str = "budget_ms") -> float | None:
    """None (the agent's default) or above 0 and at most MAX_BUDGET_MS milliseconds."""
    if value is not None and not 0 < value <= MAX_BUDGET_MS:
        raise SearchSettingError(f"{name} must be above 0 and at most {MAX_BUDGET_MS:.0f}, got {value:g}")
    return value
