"""The search's board evaluation: a per-row score (empties, merges, monotonicity, tile sizes) as a lookup table.

The features and weights are nneonneo/2048-ai's (2048.cpp, the heuristic settings `init_tables`
uses; tuned with CMA-ES, as its author's Stack Overflow answer on the optimal 2048 algorithm says):
for a row (or column) of ranks r0..r3

    200000 + 270 * empty + 700 * merges - 47 * min(mono_left, mono_right) - 11 * sum(r ** 3.5)

where `merges` counts, for each run of equal ranks that are neighbours once empty cells are
skipped, 1 + the run's extra tiles, and mono_left / mono_right sum the r ** 4 steps that go
down toward the left / the right. A board's score is its four rows' plus its four columns'.
Rank-15 tiles (32768 and up) do not count as merges: the fast form never merges them.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass

import numpy as np
from numba import njit

from screenbot.game.bitboard import RANK_LIMIT, ROW_COUNT


@dataclass(frozen=True)
class Weights:
    base: float = 200000.0  # a live row's floor, so any board still playable outscores a lost one (0)
    empty: float = 270.0
    merges: float = 700.0
    monotonicity_power: float = 4.0
    monotonicity: float = 47.0
    sum_power: float = 3.5
    sum: float = 11.0


@njit(cache=True)
def _fill_row_scores(out, base, w_empty, w_merges, mono_power, w_mono, sum_power, w_sum):
    ranks = np.zeros(4, np.float64)
    for word in range(ROW_COUNT):
        empty = 0
        merges = 0
        run = 0
        previous = 0
        total = 0.0
        for i in range(4):
            rank = (word >> (4 * i)) & 0xF
            ranks[i] = rank
            total += rank**sum_power
            if rank == 0:
                empty += 1
                continue
            if rank == previous and rank < RANK_LIMIT:
                run += 1
            elif run > 0:
                merges += 1 + run
                run = 0
            previous = rank
        if run > 0:
            merges += 1 + run
        mono_left = 0.0
        mono_right = 0.0
        for i in range(1, 4):
            a = ranks[i - 1] ** mono_power
            b = ranks[i] ** mono_power
            if ranks[i - 1] > ranks[i]:
                mono_left += a - b
            else:
                mono_right += b - a
        out[word] = (
            base + w_empty * empty + w_merges * merges - w_mono * min(mono_left, mono_right) - w_sum * total
        )


def row_score_table(weights: Weights = Weights()) -> np.ndarray:
    """The heuristic of every 16-bit row word (float64: the search adds them without conversions)."""
    out = np.zeros(ROW_COUNT, np.float64)
    _fill_row_scores(out, *astuple(weights))
    out.setflags(write=False)
    return out


ROW_SCORE = row_score_table()
