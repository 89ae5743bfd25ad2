"""The evaluations the any-size search can score a board with, and the kernel's arrays for each.

Each `Evaluation` names one of the kernel's kinds (`screenbot.agent.any_size_kernel`) with its
settings; `arrays(rows, cols)` makes the kernel's per-rank tables, scalars and cell weights for a
board of that shape. The kernel counts a board evaluated below 0 as lost (as nneonneo/2048-ai
does), so each evaluation's base puts any live board above 0, and its size is what losing costs.

- `lines`: nneonneo/2048-ai's line heuristic (screenbot.agent.heuristic) on every row and column,
  whatever its length: 270 per empty cell, 700 per merge, -47 x monotonicity (rank ** 4 steps),
  -11 x the sum of rank ** 3.5; its floor of 200,000 per 4-cell line grows with the line. The
  4x4 evaluation stretched to the size: the baseline the others are measured against.
- `corner`: macroxue/2048-ai's corner lines (screenbot.agent.corner): with s(r) = r * 2 ** r, each
  row read from the left and each column from the top scores s of its first tile plus, per
  neighbouring pair (a, b), a + b when falling or level (and a again when level) and 12 x (a - b)
  when rising. Big tiles go to the top-left corner; the search tries the board in each of its
  orientations and plays the one whose evaluation is highest.
- `snake`: a weight per cell falling by `ratio` along a snake path from the top-left corner (the
  top row left to right, the next right to left, ...), times each tile's value; losing costs
  `loss` times the current board's own score (set per decision, so the penalty keeps pace as the
  tiles grow).
- `ntuple`: a network trained on the size's own games (`screenbot.agent.any_size_ntuple`) that
  estimates the score still to come after a move; the search adds each move's score gain to it
  (gain 1), so a decision maximises the expected score itself.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from screenbot.agent import any_size_lines as kernel


@dataclass(frozen=True)
class Evaluation:
    name: str
    kind: int
    base: float = 0.0  # lines: per 4 cells of a line; corner and snake: the board's (what losing costs)
    empty: float = 0.0
    merges: float = 0.0
    mono: float = 0.0
    mono_power: float = 4.0
    sum: float = 0.0
    sum_power: float = 3.5
    penalty: float = 12.0  # corner: a rising pair costs this many times its difference
    ratio: float = 0.25  # snake: each next cell along the path weighs this much less
    loss: float = 0.0  # snake: losing costs this many times the board's own score (0: `base` as it is)
    oriented: bool = False  # the board's orientation matters: the search picks the best one at the root
    gain: float = 0.0  # weight of each move's score gain in the search's values

    def with_(self, **changes) -> "Evaluation":
        return replace(self, **changes)

    def arrays(self, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The kernel's (tab, coef, wmat) for a board of this shape."""
        ranks = np.arange(kernel.MAX_RANK, dtype=np.float64)
        tab = np.zeros((kernel.TAB_ROWS, kernel.MAX_RANK), np.float64)
        tab[kernel.T_SUM] = ranks ** self.sum_power
        tab[kernel.T_MONO] = ranks ** self.mono_power
        tab[kernel.T_CORNER] = ranks * 2.0 ** ranks
        tab[kernel.T_CORNER, 0] = 0.0
        tab[kernel.T_SNAKE] = 2.0 ** ranks
        tab[kernel.T_SNAKE, 0] = 0.0
        tab[kernel.T_GAIN] = 2.0 ** ranks
        coef = np.zeros(kernel.COEF_SIZE, np.float64)
        coef[kernel.C_BASE] = self.line_base(cols, rows, cols)
        coef[kernel.C_BASE_COL] = self.line_base(rows, rows, cols)
        coef[kernel.C_BOARD] = self.base if self.kind == kernel.SNAKE else 0.0
        coef[kernel.C_EMPTY] = self.empty
        coef[kernel.C_MERGES] = self.merges
        coef[kernel.C_MONO] = self.mono
        coef[kernel.C_SUM] = self.sum
        coef[kernel.C_PENALTY] = self.penalty
        wmat = snake_weights(rows, cols, self.ratio)
        return tab, coef, wmat

    def line_base(self, length: int, rows: int, cols: int) -> float:
        """The base of one line of `length` cells on a board of this shape (snake: none, the board has it)."""
        if self.kind == kernel.LINES:
            return self.base * length / 4.0
        if self.kind == kernel.CORNER:
            return self.base / (rows + cols)
        return 0.0


def snake_weights(rows: int, cols: int, ratio: float) -> np.ndarray:
    """ratio ** k for the k-th cell of the snake path from the top-left corner (8x8 array, unused cells 0)."""
    w = np.zeros((kernel.MAX_SIDE, kernel.MAX_SIDE), np.float64)
    k = 0
    for r in range(rows):
        order = range(cols) if r % 2 == 0 else range(cols - 1, -1, -1)
        for c in order:
            w[r, c] = ratio ** k
            k += 1
    return w


LINES = Evaluation("lines", kernel.LINES, base=200000.0, empty=270.0, merges=700.0,
                   mono=47.0, sum=11.0)
CORNER = Evaluation("corner", kernel.CORNER, base=2.0 ** 17, oriented=True)
SNAKE = Evaluation("snake", kernel.SNAKE, ratio=0.25, loss=4.0, oriented=True)
NTUPLE = Evaluation("ntuple", kernel.NTUPLE, gain=1.0)

EVALUATIONS = {e.name: e for e in (LINES, CORNER, SNAKE, NTUPLE)}


def evaluation_named(name: str | Evaluation) -> Evaluation:
    """The evaluation of this name (an Evaluation passes through); ValueError naming them otherwise."""
    if isinstance(name, Evaluation):
        return name
    try:
        return EVALUATIONS[name]
    except KeyError:
        raise ValueError(f"no evaluation named {name!r}: one of {', '.join(EVALUATIONS)}") from None
