"""The agents that choose moves: the `Agent` interface, and `make_player`, the one place that makes them."""

from screenbot.agent.base import Agent, Decision, SearchCancelled  # noqa: F401
from screenbot.agent.players import DEFAULT_PLAYER, PLAYERS, make_player  # noqa: F401


def __getattr__(name: str):
    """The expectimax agent and its constants load the compiled kernel (numba): only when asked for."""
    if name in ("ExpectimaxAgent", "DEFAULT_BUDGET_MS", "DEFAULT_CUTOFF", "DEFAULT_DEPTH", "DEFAULT_DEPTH_CAP",
                "adaptive_depth", "default_threads"):
        from screenbot.agent import search

        return getattr(search, name)
    raise AttributeError(f"module 'screenbot.agent' has no attribute {name!r}")
