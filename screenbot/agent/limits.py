"""The search settings a user can give (depth, depth cap, time budget), checked once for every command and the agent."""

from __future__ import annotations

from screenbot.errors import UsageError

MAX_FIXED_DEPTH = 40  # the deepest search allowed (the kernel's table keeps depths up to 127)
MAX_BUDGET_MS = 600_000.0
# The agent's defaults for searching past the depth cap (here, beside their checks, so that the command
# line can name them without loading the agent).
# deepen_gap: when the capped depth's two best moves lie closer than this share of the best value,
# the search goes on deepening up to the uncapped rule's depth (within the budget and DEFAULT_DEEPEN_MS);
# 0 is off, 1 every decision whose second-best move is not lost. 1: deepening close calls only (1e-3)
# left most of the uncapped rule's middle-game strength behind (docs/strength.md: how each was measured).
DEFAULT_DEEPEN_GAP = 1.0
# ... and by default the depths past the cap get this long from the decision's start (or the budget,
# if shorter): live play thinks while the page animates (~150 ms a move, 2 threads), and unbounded
# close calls (up to 265 ms) made it wait for the agent in the endgame (docs/strength.md: what each cost).
DEFAULT_DEEPEN_MS = 80.0


class SearchSettingError(UsageError, ValueError):
    """A depth, depth cap or budget out of range (a usage error on the command line, a ValueError in the API)."""


def _int_or_word(value: int | str, word: str, name: str, lo: int) -> int:
    """An integer lo..MAX_FIXED_DEPTH, also as text (the caller has let `word` and None through)."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise SearchSettingError(f"{name} must be an integer or {word!r}, got {value!r}")
    try:
        number = int(value)
    except ValueError:
        raise SearchSettingError(f"{name} must be an integer or {word!r}, got {value!r}") from None
    if not lo <= number <= MAX_FIXED_DEPTH:
        raise SearchSettingError(f"{name} must be from {lo} to {MAX_FIXED_DEPTH}, got {number}")
    return number


def check_depth(value: int | str | None, name: str = "depth") -> int | str | None:
    """None, 'adaptive', or an integer 0..MAX_FIXED_DEPTH (also as text)."""
    if value is None or value == "adaptive":
        return value
    return _int_or_word(value, "adaptive", name, 0)


ENDGAME_CAP = "endgame"  # a depth cap: the default cap until a 16384 is on the board, none from then on


def check_depth_cap(value: int | str | None, name: str = "depth_cap") -> int | str | None:
    """None (the agent's default), 1..MAX_FIXED_DEPTH (also as text), or ENDGAME_CAP."""
    if value is None or value == ENDGAME_CAP:
        return value
    return _int_or_word(value, ENDGAME_CAP, name, 1)


def check_budget(value: float | None, name: str = "budget_ms") -> float | None:
    """None (the agent's default) or above 0 and at most MAX_BUDGET_MS milliseconds."""
    if value is not None and not 0 < value <= MAX_BUDGET_MS:
        raise SearchSettingError(f"{name} must be above 0 and at most {MAX_BUDGET_MS:.0f}, got {value:g}")
    return value


# the command line's words for --deepen-gap (play, hint and bench)
DEEPEN_GAP_HELP = ("when the two best moves' values at the depth cap lie within this share of the best, search on "
                   f"up to nneonneo's uncapped rule, within {DEFAULT_DEEPEN_MS:g} ms of the decision's start (default "
                   f"{DEFAULT_DEEPEN_GAP:g}: every decision whose second-best move is not lost; 0: off)")


def check_deepen_gap(value: float | str | None, name: str = "deepen_gap") -> float | None:
    """None (the agent's default) or a share from 0 (off) to 1, also as text."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise SearchSettingError(f"{name} must be a number from 0 (off) to 1, got {value!r}")
    try:
        number = float(value)
    except ValueError:
        raise SearchSettingError(f"{name} must be a number from 0 (off) to 1, got {value!r}") from None
    if not 0 <= number <= 1:  # (NaN fails too)
        raise SearchSettingError(f"{name} must be a number from 0 (off) to 1, got {value!r}")
    return number
