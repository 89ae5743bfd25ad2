"""macroxue/2048-ai's settings measured against the corner player and not kept in it: `MacroxueAgent`.

The corner player (`screenbot.agent.corner.CornerAgent`, play's `corner-v4`) takes macroxue's
evaluation and block tables; these are the rest of macroxue's program, each a knob of the agent here:

- `fixed_depth=D`: macroxue's search, depth D with the paths less likely than 2**-(D + 4) cut, within
  the time budget (DEFAULT_BUDGET_MS unless one is given), instead of nneonneo's adaptive rule.
- `loss="tile"`: a lost board lies max(2**17, 2 s(largest tile)) below macroxue's 0, with
  s(r) = r * 2**r (its node.h, Search: game_over_score), instead of play's 2**17 ("fixed"). From an
  8192 on, a loss then costs more than a broken formation. Each search gets the corner row table of
  its root board's lost value (`row_table_for`).
- `big_min=P`: the big table's move only from chance P (macroxue's rule: any chance above 0), played
  through `RuleTables`, block tables with thresholds of their own.

Not reproduced: macroxue's pruning by pass score (node.h, Search: when the board searched from scores
at least macroxue's 0, a chance node scoring below twice its largest tile's s(r) is not searched
further). It needs a kernel that tests every chance node against a pass score, and screenbot's kernel
(screenbot/agent/expectimax.py) has none. Commit 20335a7 has the version with it (`git show
20335a7:screenbot/agent/corner.py`: `_pass_value`; its expectimax.py: W_PASS). Its depth-D runs searched
with it: benchmarks/results/final_phase/d8_*.jsonl and strength_32768_corner_d8_160_games.json
(2026-11-25); `fixed_depth` here searches without it.
"""

from __future__ import annotations

import numpy as np

from screenbot.agent.base import Decision
from screenbot.agent.block_tables import DEFAULT_KINDS, BlockTables
from screenbot.agent.corner import LOST_VALUE, CornerAgent, corner_row_table
from screenbot.agent.limits import check_depth
from screenbot.agent.search import DEFAULT_BUDGET_MS
from screenbot.game.rules import Grid, max_tile

LOSS_RULES = ("fixed", "tile")  # how far below macroxue's 0 a lost board lies: see lost_value
PASS_SCORE = ("macroxue's pruning by pass score is not reproduced: screenbot's kernel has no pass score "
              "(git commit 20335a7 has the version with it; see research/macroxue.py)")
_THRESHOLDS = ("small_sure", "pair_min", "big_min")


def lost_value(top: int, rule: str = "fixed") -> float:
    """How far below macroxue's 0 a lost board lies, for a search from a board whose largest tile has rank
    `top`: 'fixed', 2**17 (play's); 'tile', macroxue's max(2**17, 2 s(top)) with s(r) = r * 2**r."""
    if rule not in LOSS_RULES:
        raise ValueError(f"loss rule {rule!r}: one of {', '.join(LOSS_RULES)}")
    return float(LOST_VALUE if rule == "fixed" else max(LOST_VALUE, 2 * (top << top)))


class RuleTables(BlockTables):
    """Block tables whose moves are played from other chances than macroxue's rule (`BlockTables.suggest`):
    `small_sure`, `pair_min`, `big_min` (None: the rule's)."""

    def __init__(self, kinds: tuple[int, ...] = DEFAULT_KINDS, *, small_sure: float | None = None,
                 pair_min: float | None = None, big_min: float | None = None) -> None:
        super().__init__(kinds)
        for name, value in zip(_THRESHOLDS, (small_sure, pair_min, big_min)):
            if value is not None:
                setattr(self, name, float(value))

    @classmethod
    def sharing(cls, tables: BlockTables, **thresholds: float | None) -> RuleTables:
        """`tables`' solved states (the same objects, not copies) under these thresholds."""
        out = cls(kinds=(), **thresholds)
        out.tables = tables.tables
        return out

    def describe(self) -> str | None:
        """The thresholds that differ from macroxue's rule, in words (None: none)."""
        words = {"small_sure": "the small table's move from chance {:g}", "pair_min": "the pair table's above {:g}",
                 "big_min": "the big table's from {:g}"}
        changed = [words[n].format(getattr(self, n)) for n in _THRESHOLDS
                   if getattr(self, n) != getattr(BlockTables, n)]
        return ", ".join(changed) or None


class MacroxueAgent(CornerAgent):
    """The corner agent with macroxue's knobs that play does not keep (see the module): `fixed_depth`,
    `loss`, `big_min`; the other arguments are CornerAgent's."""

    def __init__(self, tables: BlockTables | None = None, depth_cap: int | str | None = None,
                 threads: int | None = None, deepen_gap: float | None = None, deepen_ms: float | None = None,
                 solve_budget: float = np.inf, *, fixed_depth: int | None = None, loss: str = "fixed",
                 big_min: float | None = None) -> None:
        lost_value(0, loss)  # a wrong rule fails here, not at the first search
        if big_min is not None and tables is not None:
            tables = RuleTables.sharing(tables, big_min=big_min)
        super().__init__(tables, depth_cap, threads, deepen_gap, deepen_ms, solve_budget)
        self.fixed_depth = None if fixed_depth is None else int(check_depth(fixed_depth, "fixed_depth"))
        self.loss = loss
        self._by_lost: dict[float, np.ndarray] = {}  # the corner row table for each lost value met

    @property
    def variant(self) -> str | None:
        """How this agent differs from play's corner player, in words (BenchSettings' `variant`); None: not at all."""
        parts = []
        if self.fixed_depth is not None:
            parts.append(f"macroxue's search at depth {self.fixed_depth} (paths below 2**-{self.fixed_depth + 4} cut) "
                         "without its pass-score pruning")
        if self.loss != "fixed":
            parts.append(f"loss rule {self.loss}")
        if isinstance(self.block, RuleTables) and self.block.describe():
            parts.append(self.block.describe())
        return ", ".join(parts) or None

    def search(self, board: Grid, budget_ms: float | None = None, depth: int | str | None = None,
               **kwargs) -> Decision:
        """With `fixed_depth` D (and no other depth asked for): depth D, paths below 2**-(D + 4) cut, within
        the budget; else the corner search as play's."""
        if self.fixed_depth is not None and depth in (None, self.fixed_depth):
            depth = self.fixed_depth
            budget_ms = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
            kwargs.setdefault("cutoff", 2.0 ** -(self.fixed_depth + 4))
        return super().search(board, budget_ms, depth, **kwargs)

    def row_table_for(self, grid: Grid) -> np.ndarray:
        if self.loss == "fixed":  # play's: one table
            return super().row_table_for(grid)
        lost = lost_value(max_tile(grid).bit_length() - 1, self.loss)
        table = self._by_lost.get(lost)
        if table is None:  # a line's offset is lost / 8: the kernel's 0 (a lost board) lies `lost` below macroxue's 0
            table = self._by_lost[lost] = corner_row_table(lost / 8)
        return table
