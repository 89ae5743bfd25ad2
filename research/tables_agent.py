"""The endgame tables' say over the search's move: `TablesAgent`, measured weaker than the search alone
(docs/strength.md), so not one of screenbot's players."""

from __future__ import annotations

from dataclasses import replace

from screenbot.agent.base import Decision
from screenbot.agent.endgame import EndgameTables
from screenbot.agent.search import ExpectimaxAgent
from screenbot.game.rules import Grid, to_grid

# TablesAgent's defaults: the tables' say wherever they know the board (threshold 0), their best
# moves counted within TABLE_TIE of each other, the search's own move kept only when it is one of them
TABLE_THRESHOLD = 0.0
TABLE_TIE = 0.005
TABLE_MARGIN = TABLE_TIE


class TablesAgent(ExpectimaxAgent):
    """The expectimax agent with the endgame tables' say over its move (weaker than the search alone:
    docs/strength.md). Where the tables know the board with at least `threshold` chance of
    success, the search's move stands if its chance (0 for a move that shifts the block) is within
    `margin` of the best; otherwise, of the moves within TABLE_TIE of the best chance, the one the search
    values most. The search's values are kept, to compare moves by; `min_target` leaves smaller
    targets to the search."""

    def __init__(self, tables: EndgameTables, depth_cap: int | str | None = None, threads: int | None = None,
                 threshold: float = TABLE_THRESHOLD, margin: float = TABLE_MARGIN, min_target: int = 0) -> None:
        super().__init__(depth_cap, threads)
        self.tables = tables
        self.threshold = threshold
        self.margin = margin
        self.min_target = min_target

    def choose(self, board: Grid, budget_ms: float | None = None, depth: int | str | None = None,
               **kwargs) -> Decision:
        decision = super().choose(board, budget_ms, depth, **kwargs)
        if decision.move is None:
            return decision
        suggestion = self.tables.suggest(to_grid(board), min_target=self.min_target)
        if suggestion is None or suggestion.probability < self.threshold:
            return decision
        if suggestion.chances.get(decision.move, 0.0) >= suggestion.probability - self.margin:
            return replace(decision, chance=suggestion.probability)
        good = [m for m, p in suggestion.chances.items()
                if p >= suggestion.probability - TABLE_TIE and m in decision.values]
        if not good:
            return decision
        move = max(good, key=lambda m: (decision.values[m], -m))  # on a tie the first in Move order
        return replace(decision, move=move, chance=suggestion.probability)
