"""Block-table variants for the corner player's last phase (benchmarks/final_phase.py), measured and not kept.

- `phase_tables`: play's tables as a variant plays them: without the pair table (version 2's set), the
  small table taken up to 256 (block_tables.SMALL_256, solved by `final_phase build256`) in place of
  play's, other thresholds for a table's move (`RuleTables`).
- `AheadAgent`: the big table's chance for a board of anchor a solved with its block prefilled at
  min(MAX, a + ahead) instead of at the largest anchor (results/final_phase/big_table_exact_anchor.jsonl).
- `L7Agent`: the exact L7 endgame table (screenbot.agent.endgame) before the block tables
  (results/final_phase/l7_table_from_64.jsonl).
Both agents are `MacroxueAgent`s, so that macroxue's other knobs combine with them.
"""

from __future__ import annotations

import time

import numpy as np

from screenbot.agent.base import Decision
from screenbot.agent.block_tables import (BIG, BLOCK_MASK, BLOCKS, MAX_ANCHORS, PAIR, PREFILLS, Q, SMALL, SMALL_256,
                                         TABLE_KEYS, BlockTables, anchor, default_table_path, is_goal, orientations,
                                         solve_state, state_key)
from screenbot.errors import TableError
from screenbot.game.rules import Grid, Move

from research.macroxue import MacroxueAgent, RuleTables


def play_tables() -> BlockTables:
    """play's corner tables from the user cache dir (compact, 1.8 GB); TableError saying how to get them
    when they are not there (`screenbot play` builds them once)."""
    path = default_table_path()
    if not path.exists():
        raise TableError(f"no corner tables at {path}: run `screenbot play` once (it builds them)")
    return BlockTables.load(path)


def phase_tables(tables: BlockTables, *, small256: BlockTables | None = None, pair: bool = True,
                 small_sure: float | None = None, pair_min: float | None = None,
                 big_min: float | None = None) -> RuleTables:
    """`tables`' solved states (shared, not copied) as a variant plays them: `small256` (a SMALL_256
    table) with BIG in place of all of play's; without PAIR (`pair=False`); a table's move from other
    chances (see RuleTables; None: macroxue's rule)."""
    kinds = dict(tables.tables)
    if small256 is not None:
        kinds = {BIG: kinds[BIG], SMALL_256: small256.tables[SMALL_256]}
    if not pair:
        kinds.pop(PAIR, None)
    out = RuleTables(kinds=(), small_sure=small_sure, pair_min=pair_min, big_min=big_min)
    out.tables = kinds
    return out


def load_small256(path) -> BlockTables:
    """A SMALL_256 table saved by `final_phase build256`."""
    return BlockTables.load(path, kinds=(SMALL_256,))


class AheadAgent(MacroxueAgent):
    """A variant: the big table's chance for a board of anchor a solved with the block prefilled at
    anchor min(MAX, a + ahead) (play: always MAX, macroxue's way), in dense tables of its own per anchor
    (4.2 GB of address space each). The small table is asked first, as play asks it; the pair table not."""

    def __init__(self, tables: BlockTables, ahead: int, **kwargs) -> None:
        super().__init__(tables, **kwargs)
        self.ahead = ahead
        self.dense: dict[int, np.ndarray] = {}  # by the anchor the block is prefilled at
        self.work = np.zeros(2, np.float64)
        self.empty = (np.zeros(0, np.uint64), np.zeros(0, np.int64), np.zeros(0, np.uint16),
                      np.zeros(0, np.int64), np.zeros(0, np.uint16))

    @property
    def variant(self) -> str | None:
        return _joined(super().variant, f"the big table solved at the board's anchor + {self.ahead}")

    def big(self, b: np.uint64, a: int) -> tuple[float, int]:
        """(chance, move) of an oriented board whose block is regular for BIG with anchor a."""
        p = min(MAX_ANCHORS[BIG], a + self.ahead)
        if p == MAX_ANCHORS[BIG]:
            return self.block.lookup(b, BIG, [np.inf])
        if p not in self.dense:
            self.dense[p] = np.zeros(TABLE_KEYS[BIG], np.uint16)
        dense = self.dense[p]
        prefill = np.uint64(sum(r << (4 * c) for r, c in zip(PREFILLS[BIG][:5] + (p,), BLOCKS[BIG])))
        k = state_key(b, BIG)
        if dense[k] == 0:
            self.work[:] = (0.0, np.inf)
            solve_state((b & ~BLOCK_MASK[BIG]) | prefill, BIG, dense, *self.empty, self.work)
        e = int(dense[k]) - 1
        return (e >> 2) / Q, e & 3

    def table_decision(self, grid: Grid) -> Decision | None:
        start = time.perf_counter()
        oriented = orientations(grid)
        small, small_move, _ = self.block.answer(oriented, SMALL, [self.solve_budget])
        if small_move is not None and small >= self.block.small_sure and small > 0:
            return Decision(small_move, {}, 0, (time.perf_counter() - start) * 1000.0, 0, chance=small)
        best, move = 0.0, None
        for b, moves in oriented:
            a = anchor(b, BIG)
            if a < 0 or is_goal(b, a, BIG):
                continue
            p, m = self.big(b, a)
            if p > best:
                best, move = p, moves[Move(m)]
        if move is None:
            return None
        return Decision(move, {}, 0, (time.perf_counter() - start) * 1000.0, 0, chance=best)


class L7Agent(MacroxueAgent):
    """A variant: the exact L7 endgame table's move (a 3x3 block of big tiles, its smallest T in the
    inner corner: the chance of building a second T from the 7 cells around it) wherever it knows the
    board with a target of at least `l7_min`, before the block tables. `l7`: EndgameTables of the L7
    shape alone (`EndgameTables.build(shapes=SHAPES[:1])`, about 10 s)."""

    def __init__(self, tables: BlockTables, l7, l7_min: int, **kwargs) -> None:
        super().__init__(tables, **kwargs)
        self.l7, self.l7_min = l7, l7_min

    @property
    def variant(self) -> str | None:
        return _joined(f"the L7 endgame table first from target {self.l7_min}", super().variant)

    def table_decision(self, grid: Grid) -> Decision | None:
        start = time.perf_counter()
        s = self.l7.suggest(grid, min_block_tile=16384, min_target=self.l7_min)
        if s is not None and s.probability > 0:
            return Decision(s.move, {}, 0, (time.perf_counter() - start) * 1000.0, 0, chance=s.probability)
        return super().table_decision(grid)


def _joined(*parts: str | None) -> str | None:
    return ", ".join(p for p in parts if p) or None
