"""Expectimax search that chooses the move, and the simulated-game bench."""

from screenbot.agent.search import (  # noqa: F401
    DEFAULT_BUDGET_MS,
    DEFAULT_CUTOFF,
    DEFAULT_DEPTH,
    Decision,
    adaptive_depth,
    choose_move,
    warm_up,
)
