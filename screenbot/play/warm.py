"""Play's start: the agent made ready in a thread while play reads the board, and a quick player for the moves before."""

from __future__ import annotations

import threading
import time
from functools import lru_cache

from screenbot.agent.base import Agent, Decision
from screenbot.game.rules import Grid, Move, apply_move, empty_cells, legal_moves, place

# The first move waits this long (from the warm-up's start) for the agent: its compiled search loads
# from numba's cache in about 0.06 s; compiled anew (a first start, an empty cache) it takes 8 s or
# more, and the quick player moves meanwhile.
FIRST_MOVE_WAIT_S = 0.5
# A game that ends before the compile does waits this long for it, so that numba's cache is written
# and the next start is quick (a Ctrl-C does not wait).
FINISH_WAIT_S = 60.0


class WarmUp:
    """`agent.warm_up()` (numba compiles the search, or loads it from its cache) in a thread of its own.
    Compiling holds Python's lock only part of the time: play reads the screen and moves meanwhile."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.started = time.monotonic()
        self.seconds: float | None = None  # how long the warm-up took, once done
        self._error: BaseException | None = None
        self._done = threading.Event()
        threading.Thread(target=self._run, name="screenbot-warm-up", daemon=True).start()

    def _run(self) -> None:
        try:
            self.agent.warm_up()
        except BaseException as exc:  # raised in play's thread, by take()
            self._error = exc
        finally:
            self.seconds = time.monotonic() - self.started
            self._done.set()

    @property
    def ready(self) -> bool:
        return self._done.is_set()

    def wait(self, until_s: float) -> bool:
        """Wait until the warm-up is done or `until_s` seconds from its start have passed; whether done."""
        return self._done.wait(max(0.0, self.started + until_s - time.monotonic()))

    def take(self) -> Agent:
        """The agent, ready (the warm-up is done); its warm-up's error is raised here."""
        if self._error is not None:
            raise self._error
        return self.agent


# ---------------------------------------------------------------- the quick corner player
PENALTY = 12  # a rising pair of neighbours costs 12 times its difference (the corner evaluation's rule)
LOST = -1e9  # a board with no move left
CORNERS = ((0, 0), (0, 3), (3, 0), (3, 3))
TURN_TILE = 512  # the largest tile, at least this, held in another corner: that corner is kept


@lru_cache(maxsize=1 << 16)
def line_value(line: tuple[int, ...]) -> float:
    """The corner evaluation of one line of tiles read from the corner side (macroxue/2048-ai's, as in
    screenbot.agent.corner): with s = r * 2**r for a tile 2**r, s of the first tile, and for each pair
    of neighbours (a, b): a + b when a >= b (a again when equal), 12 * (a - b) when a < b."""
    s = [(r << r) for r in (v.bit_length() - 1 if v else 0 for v in line)]
    score = float(s[0])
    for a, b in zip(s, s[1:]):
        score += a + b + (a if a == b else 0) if a >= b else (a - b) * PENALTY
    return score


def corner_value(grid: Grid, corner: tuple[int, int]) -> float:
    """The corner evaluation of a board towards `corner` (row, column): its rows read from that side,
    its columns read from that end."""
    r0, c0 = corner
    rows = grid if r0 == 0 else grid[::-1]
    lines = [row if c0 == 0 else row[::-1] for row in rows]
    columns = [tuple(row[c] for row in rows) for c in (range(4) if c0 == 0 else range(3, -1, -1))]
    return sum(line_value(tuple(line)) for line in lines) + sum(line_value(col) for col in columns)


class QuickCorner(Agent):
    """A corner player that needs nothing compiled, for the few moves before the agent's search is ready:
    each legal move is scored by the corner evaluation two moves deep (the move, every new tile, the best
    next move), among the moves that leave the largest tile in the corner when there are any. The corner is
    the top-left one (another when the largest tile, at least TURN_TILE, already sits there, as the
    corner search turns such a board). A few milliseconds a move in Python."""

    can_cancel = False

    def choose(self, board: Grid, budget_ms: float | None = None) -> Decision:
        start = time.perf_counter()
        grid = tuple(tuple(row) for row in board)
        moves = legal_moves(grid)
        if not moves:
            return Decision(None, {}, 0, (time.perf_counter() - start) * 1000.0)
        corner = self.corner(grid)
        afters = {m: apply_move(grid, m)[0] for m in moves}
        values = {m: self.expected(after, corner) for m, after in afters.items()}
        # the moves that leave the largest tile in the corner, when there are any (two moves deep, the
        # evaluation alone may let it out for a better-looking next move that a new tile there spoils)
        r, c = corner
        keep = [m for m, after in afters.items() if after[r][c] == max(max(row) for row in after)] or moves
        best = max(keep, key=lambda m: values[m])  # on a tie the first in Move order
        return Decision(best, values, 1, (time.perf_counter() - start) * 1000.0)

    @staticmethod
    def corner(grid: Grid) -> tuple[int, int]:
        top = max(max(row) for row in grid)
        if top >= TURN_TILE:
            for r, c in CORNERS:
                if grid[r][c] == top:
                    return r, c
        return 0, 0

    @staticmethod
    def expected(after: Grid, corner: tuple[int, int]) -> float:
        """The value of a move's board: over every new tile (2 or 4 in each empty cell, 0.9 and 0.1), the
        corner value after the best next move (LOST when there is none)."""
        cells = empty_cells(after)
        if not cells:
            return corner_value(after, corner)
        total = 0.0
        for r, c in cells:
            for tile, chance in ((2, 0.9), (4, 0.1)):
                spawned = place(after, r, c, tile)
                best = LOST
                for move in Move:
                    nxt, _ = apply_move(spawned, move)
                    if nxt != spawned:
                        best = max(best, corner_value(nxt, corner))
                total += chance * best
        return total / len(cells)

    def cancel(self) -> None:
        """Nothing to stop: a decision takes milliseconds."""

    def allow(self) -> None:
        pass
