"""Fakes for the play loop's unit tests: a simulated game behind scripted eyes, and a virtual clock."""

from __future__ import annotations

import threading

import numpy as np

from screenbot.agent import Agent, Decision, SearchCancelled
from screenbot.board_state import BoardState
from screenbot.control.keyboard import RecordingKeyboard
from screenbot.control.screen import Frame
from screenbot.game.rules import Game, Move, apply_move, legal_moves
from screenbot.geometry import Rect
from screenbot.play.eyes import BoardGeometry, Eyes, Sight

BOARD_BGR = (160, 173, 187)  # #bbada0
CELL = 20
GAP = 4


def geometry() -> BoardGeometry:
    cells = tuple(
        Rect(GAP + c * (CELL + GAP), GAP + r * (CELL + GAP), CELL, CELL) for r in range(4) for c in range(4)
    )
    return BoardGeometry(Rect(0, 0, 4 * CELL + 5 * GAP, 4 * CELL + 5 * GAP), cells, 1.0)


def board_pixels(colour=BOARD_BGR) -> np.ndarray:
    g = geometry()
    pixels = np.zeros((g.board_rect.h, g.board_rect.w, 3), dtype=np.uint8)
    pixels[:] = colour
    for cell in g.cells:
        pixels[cell.y:cell.bottom, cell.x:cell.right] = (180, 193, 205)
    return pixels


class VirtualClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


class FirstLegalAgent(Agent):
    """A trivial agent: the first legal move in `order`, after `think_s` of real time during which
    `cancel()` stops it. Counts the calls play makes of each part of the interface."""

    def __init__(self, order=(Move.LEFT, Move.DOWN, Move.RIGHT, Move.UP), think_s=0.0):
        self.order = order
        self.think_s = think_s
        self.chosen = 0
        self.cancels = 0
        self.allows = 0
        self.warmed = False
        self._stop = threading.Event()

    def warm_up(self):
        self.warmed = True

    def choose(self, board, budget_ms=None):
        if self._stop.wait(self.think_s):
            raise SearchCancelled("cancelled")
        legal = legal_moves(board)
        self.chosen += 1
        for m in self.order:
            if m in legal:
                return Decision(m, {x: 0.0 for x in legal}, depth=1)
        return Decision(None, {})

    def cancel(self):
        self.cancels += 1
        self._stop.set()

    def allow(self):
        self.allows += 1
        self._stop.clear()


class SimulatedScreen(Eyes):
    """A seeded game that the keyboard drives; looks show it as the real page would over time:
    the old board for `lag` looks after a key, then the slid board without its new tile for
    `no_spawn` looks, then the new board. Tests change `misread`, `covered`, `state` to script trouble.
    """

    def __init__(self, clock: VirtualClock, seed=1, start=None, lag=2, no_spawn=2, look_ms=5.0, max_tile_win=None):
        self.clock = clock
        self.geometry = geometry()
        self.game = Game(seed=seed)
        self.game.reset(start=start)
        self.shown = self.game.grid
        self.pending: list[tuple[int, object]] = []
        self.lag, self.no_spawn, self.look_ms = lag, no_spawn, look_ms
        self.keyboard = RecordingKeyboard(on_press=self.on_key)
        self.misread = None  # callable(grid) -> grid, applied to every look while set
        self.covered = False
        self.state = BoardState.PLAYING
        self.won_overlay = False
        self.over_message = False  # the game's "over" message hides the board: read as over, no board
        self.keys_ignored = False
        self.looks = 0
        self.keep_going_clicks = 0
        self.win_pending = False
        self.win_delay_looks = lag + no_spawn + 4

    def on_key(self, move: Move) -> None:
        if self.keys_ignored or self.won_overlay:
            return
        before = self.game.grid
        after, _ = apply_move(before, move)
        grid, _, changed = self.game.step(move)
        if changed:
            self.pending = [(self.lag, before), (self.lag + self.no_spawn, after), (0, grid)]
            self.looks = 0

    def look(self) -> Sight:
        self.clock.now += self.look_ms / 1000
        self.looks += 1
        shown = self.game.grid
        for limit, grid in self.pending:
            if self.looks <= limit:
                shown = grid
                break
        if self.win_pending and not self.won_overlay and self.looks > self.win_delay_looks:
            self.won_overlay, self.win_pending = True, False
        pixels = board_pixels((20, 200, 20) if self.covered or self.over_message else BOARD_BGR)
        state = BoardState.WON if self.won_overlay else BoardState.OVER if self.over_message else self.state
        grid = None if state == BoardState.WON or self.over_message else shown
        if grid is not None and self.misread is not None:
            grid = self.misread(grid)
        return Sight(grid, state, Frame(pixels, 0, 0), self.clock.now, self.look_ms)
