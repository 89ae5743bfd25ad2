"""Expectimax search that chooses the move, and the simulated-game bench."""

from screenbot.agent.search import (  # noqa: F401
    DEFAULT_BUDGET_MS,
    DEFAULT_CUTOFF,
    DEFAULT_DEPTH,
    Decision,
    SearchCancelled,
    adaptive_depth,
    allow_search,
    cancel_search,
    choose_move,
    new_table,
    search_threads,
    set_threads,
    warm_up,
)
