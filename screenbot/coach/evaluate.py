"""Judging each move of a rebuilt game against play's player: the loss and its band.

The judge is the player `screenbot play` plays (screenbot.agent.players; another with `player`). The
loss of a move is the share of the best move's expected value that the played move gives up:
(V_best - V_played) / V_best, where V is the player's search value after each move (0 when the
played move is the player's; clamped to [0, 1]; 0 when V_best <= 0). Where the player's tables know
the board, the best move is theirs and V still comes from its search. Being a ratio, it
does not grow with the board: the values themselves rise as the tiles do, a share of them does
not, so a loss early in a game and one late in it can be compared (docs/coach.md).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Callable

from screenbot.errors import ScreenbotError
from screenbot.game.rules import Grid, Move
from screenbot.game.sizes import CLASSIC, Size, format_size, size_of

# Bands by loss: a move loses at least this share of the best value. Set from reviewed seeded games
# judged on the plain evaluation (docs/coach.md): a random other legal move loses a median 0.1-0.6 %
# (rising through a game), the worst legal move a median 0.4 % early, 1.2-1.6 % mid-game and 4 %
# late. So: worse than a typical other move is an inaccuracy, as bad as the worst move mid-game a
# mistake, as bad as the worst move late a blunder. On the same boards the corner evaluation (play's)
# gives the worst move about the same loss and a random other move less (benchmarks/results/
# coach_bands.json), so the same bands hold for it; with it fewer random moves count as inaccuracies.
INACCURACY = 0.005
MISTAKE = 0.015
BLUNDER = 0.04
BANDS = ("good", "inaccuracy", "mistake", "blunder")  # from the best to the worst


@dataclass(frozen=True)
class Bands:
    """The least loss of an inaccuracy, a mistake and a blunder, for one judging player's values."""

    inaccuracy: float = INACCURACY
    mistake: float = MISTAKE
    blunder: float = BLUNDER

    def band_of(self, loss: float) -> str:
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return "good"

    def as_json(self) -> dict:
        return {"inaccuracy": self.inaccuracy, "mistake": self.mistake, "blunder": self.blunder}


CLASSIC_BANDS = Bands()
# The players of other sizes judge on values of other scales (exact-3x3: the expected score itself; any-size:
# its own evaluation), so their bands come from their own games (benchmarks/results/coach_bands_sizes.jsonl,
# docs/coach.md): an inaccuracy loses as much as a typical other legal move (the median over the game), a
# mistake as much as a typical worst legal move, a blunder three times that (the 4x4 bands' ratio, about
# 2.7). exact-3x3, 20 games: 1.5 % and 11.7 %. any-size, the median of 4x3, 5x5 and 8x8: 0.76 % and 7.7 %.
OTHER_SIZE_BANDS: dict[str, Bands] = {
    "exact-3x3": Bands(inaccuracy=0.015, mistake=0.12, blunder=0.35),
    "any-size": Bands(inaccuracy=0.0075, mistake=0.08, blunder=0.24),
}


def bands_for(player: str) -> Bands:
    """The bands of a judging player's values: the 4x4 players' unless the player has its own."""
    return OTHER_SIZE_BANDS.get(player, CLASSIC_BANDS)


class OtherSizeJudged(ScreenbotError):
    """A board of another size than the judge's player plays."""


def loss_of(values: dict[Move, float], played: Move, best: Move | None) -> float:
    """The share of the best move's expected value the played move gives up, in [0, 1]."""
    if best is None or played == best:
        return 0.0
    v_best = values.get(best)
    if v_best is None or v_best <= 0:
        return 0.0
    v_played = values.get(played)
    if v_played is None:  # a move the agent saw as illegal: everything is given up
        return 1.0
    return min(1.0, max(0.0, (v_best - v_played) / v_best))


def percent(x: float | None) -> str:
    """A share as a percentage; two decimals below 1 % (a near-tie is not shown as 0.0 %)."""
    if x is None:
        return "-"
    return f"{100 * x:.2f}%" if abs(x) < 0.01 else f"{100 * x:.1f}%"


def band_of(loss: float, bands: Bands = CLASSIC_BANDS) -> str:
    return bands.band_of(loss)


@dataclass(frozen=True)
class Judged:
    """One move of the game, judged."""

    i: int
    board: Grid
    move: Move
    best: Move | None
    loss: float
    band: str
    values: dict[Move, float] = field(default_factory=dict)
    at: str = ""

    def as_json(self) -> dict:
        return {
            "i": self.i,
            "board": [list(row) for row in self.board],
            "move": self.move.key,
            "best": self.best.key if self.best is not None else None,
            "loss": round(self.loss, 6),
            "band": self.band,
            "values": {m.key: round(v, 3) for m, v in sorted(self.values.items())},
            "at": self.at,
        }


class Judge:
    """Searches each distinct board once (a cache by board) and judges the moves played on them.

    `choose(board)` -> Decision (move, values); by default the player `player` (None: the one play
    plays on boards of `shape`, screenbot.agent.players.default_player; its tables loaded or built,
    when it has them, unless given as `tables`) searching `depth` (an int, or "adaptive": on 4x4
    nneonneo's rule capped at `depth_cap`, on other sizes the player's own deepening within its budget
    counted in the thread's CPU time) with no time limit, so a review gives the same losses on a busy
    machine as on a quiet one (`budget_ms` trades that for speed). A board of another size than
    `shape` is an OtherSizeJudged error.
    """

    def __init__(self, choose: Callable | None = None, depth: int | str = "adaptive", depth_cap: int | None = None,
                 budget_ms: float | None = None, player: str | None = None, tables=None,
                 shape: Size = CLASSIC) -> None:
        self.settings: dict = {}
        self.agent = None
        self.bands = CLASSIC_BANDS
        self.shape = None if choose is not None else tuple(shape)
        if choose is None:
            from screenbot.agent.players import make_player, player_for, player_spec

            player = player_for(player, self.shape)  # a player of another size: one line
            if self.shape == CLASSIC:
                agent = make_player(player, tables=tables, wait=True, depth_cap=depth_cap)
            else:  # the 4x4 search's tables and depth cap are not this size's
                agent = make_player(player, wait=True, shape=self.shape)
                if hasattr(agent, "clock"):
                    agent.clock = time.thread_time  # its budget in CPU time: as strong on a busy machine
            self.agent = agent
            exact = player_spec(player).shapes == "3x3"  # the exact answer: no depth, no budget
            self.bands = bands_for(player)
            self.settings = {"player": player, "shape": format_size(self.shape), "depth": None if exact else depth,
                             "depth_cap": getattr(agent, "depth_cap", None), "budget_ms": None if exact else budget_ms}

            def choose(board: Grid):
                if exact:
                    return agent.choose(board)
                decision = agent.choose(board, budget_ms, depth)
                if decision.move is not None and not decision.values:  # a table's move: the search values it
                    values = agent.search(board, budget_ms, depth).values
                    decision = replace(decision, values=values)
                return decision

        self._choose = choose
        self.cache: dict[Grid, object] = {}
        self.searches = 0

    @property
    def described(self) -> dict:
        """The search's settings and how many boards it searched (a review's `search`)."""
        return {**self.settings, "searches": self.searches}

    def cancel(self) -> None:
        """Stop the agent's search under way (from another thread); the judge is done after this."""
        if self.agent is not None:
            self.agent.cancel()

    def decision(self, board: Grid):
        if self.shape is not None and size_of(board) != self.shape:
            raise OtherSizeJudged(f"a {format_size(size_of(board))} board, and the judge plays "
                                  f"{format_size(self.shape)} boards")
        if board not in self.cache:
            self.cache[board] = self._choose(board)
            self.searches += 1
        return self.cache[board]

    def judge(self, i: int, board: Grid, move: Move, at: str = "") -> Judged:
        decision = self.decision(board)
        values = dict(decision.values)
        best = decision.move
        loss = loss_of(values, move, best)
        return Judged(i, board, move, best, loss, self.bands.band_of(loss), values, at)
