"""The `Agent` interface play depends on: choose a move, stop a search, allow searches again."""

from __future__ import annotations

import abc
from dataclasses import dataclass, field

from screenbot.game.rules import Grid, Move


class SearchCancelled(Exception):
    """The search was stopped by the agent's `cancel()` from another thread; it has no answer."""


@dataclass(frozen=True)
class Decision:
    """The chosen move (None when no move is legal) and what the search saw."""

    move: Move | None
    values: dict[Move, float] = field(default_factory=dict)  # expected value of each legal move
    depth: int = 0  # the depth the values come from (chance layers after the root move)
    ms: float = 0.0  # wall time of the whole decision
    nodes: int = 0  # move nodes searched at that depth
    chance: float | None = None  # a table knew the board: its chance of reaching its goal with this move


class Agent(abc.ABC):
    """Chooses moves. Play calls `choose` from one background thread at a time and `cancel` from
    another thread; an agent that cannot stop half-way says so with `can_cancel = False` (then play
    only asks it for as many guesses as it can answer in time)."""

    can_cancel: bool = True

    @abc.abstractmethod
    def choose(self, board: Grid, budget_ms: float | None = None) -> Decision:
        """The move for `board` within about `budget_ms` (None: the agent's default)."""

    @abc.abstractmethod
    def cancel(self) -> None:
        """Stop the `choose` under way (another thread calls this): it raises SearchCancelled, and so
        does every `choose` until `allow()`."""

    @abc.abstractmethod
    def allow(self) -> None:
        """`choose` runs again after `cancel()`."""

    def warm_up(self) -> None:
        """Get ready (compile, load tables) before the first move; nothing by default."""

    def close(self) -> None:
        """Let go of threads and memory; nothing by default."""

    def set_four_share(self, share: float) -> None:
        """Think with this chance that a new tile is a 4 (a game whose share is not the classic 10 %);
        an agent that cannot ignores it."""
