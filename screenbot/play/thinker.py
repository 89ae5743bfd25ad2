"""The agent in a background thread: it searches the boards that may come next while the animation plays."""

from __future__ import annotations

import statistics
import threading
import time
from collections import deque
from screenbot.agent.base import Agent
from screenbot.game.rules import Grid

RECENT = 5  # search times remembered for search_ms()


class Thinker:
    """Runs `agent.choose(board, budget_ms)` one board at a time in its own thread and keeps the answers.

    `expect(boards)` names the boards that may come next, most likely first: the thread searches
    them in that order while the caller watches the screen. `decide(board)` returns the agent's
    decision for the board that did come, at once if it was searched already, else as soon as the
    thread gets to it (it goes first). Every decision is the agent's own answer for exactly that
    board with the same budget, so thinking ahead changes when the answer is ready, not what it is
    (beyond the small amount a search on several threads varies by itself from run to run).
    The agent is only ever called from the thread, so it never runs twice at once.

    When the agent can cancel (`agent.can_cancel`), the search of a board that is no longer wanted
    (a guess the new tile proved wrong) is stopped half-way, so that the board that did come is
    searched at once rather than after it; a stopped search is dropped.
    """

    def __init__(self, agent: Agent, budget_ms: float | None = None, keep: int = 64) -> None:
        self.agent = agent
        self.budget_ms = budget_ms
        self.keep = keep
        self._cancelling: Grid | None = None  # the board whose search was told to stop
        self._lock = threading.Condition()
        self._wanted: list[Grid] = []  # boards to search, in order
        self._done: dict[Grid, tuple[object, float]] = {}  # board -> (decision, agent ms)
        self._failed: dict[Grid, BaseException] = {}
        self._busy: Grid | None = None
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="screenbot-thinker", daemon=True)
        self._thread.start()
        self.searched = 0  # boards searched
        self.ahead = 0  # decisions that were ready (or under way) before they were asked for
        self.cancelled = 0  # searches stopped half-way because their board did not come
        self.recent_ms: deque = deque(maxlen=RECENT)  # the agent's latest search times

    def search_ms(self) -> float | None:
        """What a search is likely to take now: the median of the latest few (boards change slowly)."""
        with self._lock:
            return statistics.median(self.recent_ms) if self.recent_ms else None

    @property
    def can_stop(self) -> bool:
        """Whether a search under way can be stopped half-way (the agent can cancel)."""
        return self.agent.can_cancel

    def expect(self, boards: list[Grid]) -> None:
        """Search these boards next (dropping earlier guesses not searched yet)."""
        with self._lock:
            self._wanted = [b for b in boards if b not in self._done and b != self._busy]
            if self._busy is not None and self._busy not in boards:
                self._stop_busy()
            self._lock.notify_all()

    def decide(self, board: Grid) -> tuple[object, float]:
        """The agent's decision for `board` and its own search time (ms); waits for it if needed."""
        with self._lock:
            if board in self._done or board == self._busy:
                self.ahead += 1
            else:
                if board not in self._wanted[:1]:
                    self._wanted = [board] + [b for b in self._wanted if b != board]
                if self._busy is not None:
                    self._stop_busy()  # a guess that did not come true
                self._lock.notify_all()
            while board not in self._done and board not in self._failed:
                if self._closed:
                    raise RuntimeError("the thinker was closed")
                self._lock.wait()
            if board in self._failed:
                raise self._failed.pop(board)
            decision, ms = self._done[board]
            # the answers for other boards are guesses that did not come true
            self._done = {}
            self._wanted = []
            return decision, ms

    def _stop_busy(self) -> None:
        """Stop the search under way (the lock is held): its board is not wanted any more."""
        if self.can_stop and self._cancelling is None:
            self._cancelling = self._busy
            self.agent.cancel()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._wanted = []
            if self._busy is not None:
                self._stop_busy()
            self._lock.notify_all()
        self._thread.join(timeout=5.0)

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._wanted and not self._closed:
                    self._lock.wait()
                if self._closed:
                    return
                board = self._busy = self._wanted.pop(0)
                if self._cancelling is not None:
                    self._cancelling = None
                    self.agent.allow()
            started = time.perf_counter()
            try:
                decision = self.agent.choose(board, self.budget_ms)
                failure = None
            except BaseException as exc:  # handed to whoever asks for this board
                decision, failure = None, exc
            ms = (time.perf_counter() - started) * 1000.0
            with self._lock:
                self._busy = None
                if failure is not None and self._cancelling == board:
                    self.cancelled += 1  # stopped half-way: nothing to keep
                    self._lock.notify_all()
                    continue
                self.searched += 1
                self.recent_ms.append(ms)
                if failure is not None:
                    self._failed[board] = failure
                else:
                    self._done[board] = (decision, ms)
                    if len(self._done) > self.keep:
                        self._done.pop(next(iter(self._done)))
                self._lock.notify_all()
