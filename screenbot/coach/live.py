"""Coaching live: follow the game a person plays on the screen, judge each move as it lands, press nothing.

The coach looks at the board's region every `look_s` seconds (a grab, and a read unless the pixels
are exactly those of the last still look). A board is believed once `still_looks` looks in a row,
`still_s` seconds apart at least, show it, so a frame caught mid-move is not; each believed board is
explained from the last by the rules (rebuild.Rebuilder): one move, the one pair of moves that leads
there when the person was faster than the looks, a board glimpsed in between, else a gap. No move is
ever made up. With no still board for a moment the whole screen is searched for the board at a new
place (a dragged window), and followed there.

The agent searches on a thread of its own, so looking never waits for it: a move's line comes a
little after the move when the person plays fast, and always in order. With `advise`, the best move
for the board on screen is said as soon as it is known, unless the person has moved on already.

Nothing here touches the keyboard or the mouse (tests/test_layers.py checks the imports).
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from screenbot.board_state import BoardState
from screenbot.coach.evaluate import Judge, Judged, percent
from screenbot.coach.rebuild import Believer, Gap, Rebuilder, Seen, Step, explain
from screenbot.coach.review import FrameStats, Review
from screenbot.game.rules import Grid, legal_moves
from screenbot.play.relocate import find_board_again

LOOK_S = 0.012  # pause between two looks (a grab and a read take 1-4 ms more)
STILL_LOOKS = 2  # looks in a row that must show a board before it is believed ...
# ... over at least this long: mid-move, a browser can show one picture for two looks (~15-35 ms
# on the practice board under Xvfb, a mid-pop tile read as its old value among them), while a
# board at rest stands for 100 ms and more between a person's keys (docs/coach.md)
STILL_S = 0.05
LOST_NOTE_S = 2.0  # say the board is out of sight once it has been this long
LOST_END_S = 60.0  # end the session once the board has been out of sight this long
# With no still board this long, search the whole screen for it at a new place, and again at most
# this often: sooner than play does (a person plays on while the window is dragged; every move
# missed meanwhile may become a gap), at the cost of a whole-screen grab and search (~0.1-0.3 s)
# about twice a second while the board is away.
SEARCH_AFTER_S = 0.15
SEARCH_EVERY_S = 0.4
# A board read mid-move ("unsettled") is where it was: a move's slide and pop last 0.2-0.4 s, and a
# search meanwhile (the looks stop for it) could miss the board the move lands on when the person
# plays on quickly. Only a board unsettled this long in a row is searched for elsewhere.
UNSETTLED_SEARCH_S = 1.0


@dataclass
class CoachSettings:
    look_s: float = LOOK_S
    still_looks: int = STILL_LOOKS
    still_s: float = STILL_S
    advise: bool = False
    max_moves: int | None = None  # end after this many moves were followed
    seconds: float | None = None  # end after this long
    lost_end_s: float = LOST_END_S


@dataclass
class CoachResult:
    review: Review
    ended: str  # why the session ended, in words
    seconds: float
    advice: int = 0  # advice lines said
    behind_max: int = 0  # most moves waiting for the agent at once


def move_line(j: Judged) -> str:
    """One line for a judged move: the person's move, the agent's, and what was lost."""
    best = j.best.key if j.best is not None else "-"
    head = f"move {j.i + 1:>4}: you {j.move.key:<5}  agent {best:<5}"
    if j.best is None or j.move == j.best:
        return f"{head}  best move"
    return f"{head}  loss {percent(j.loss):>6}  {j.band}"


def gap_line(gap: Gap) -> str:
    return f"gap after move {gap.moves_before}: {gap.reason}; following again from this board"


class _Worker(threading.Thread):
    """Runs the agent for the coach: advice first (only while its board is still on screen), then
    the moves to judge, in the order they were played."""

    ADVISE, JUDGE, STOP = 0, 1, 2

    def __init__(self, judge: Judge, on_judged: Callable[[Judged], None],
                 on_advice: Callable[[Grid, object], None], current: Callable[[], Grid | None]) -> None:
        super().__init__(name="coach-agent", daemon=True)
        self.judge = judge
        self.on_judged, self.on_advice, self.current = on_judged, on_advice, current
        self.tasks: queue.PriorityQueue = queue.PriorityQueue()
        self.judged: list[Judged] = []
        self.error: BaseException | None = None
        self._seq = 0
        self.handed = 0  # moves handed over (by the looking thread; the worker only appends to `judged`)

    def _put(self, kind: int, item) -> None:
        self._seq += 1
        self.tasks.put((kind, self._seq, item))

    def advise(self, board: Grid) -> None:
        self._put(self.ADVISE, board)

    @property
    def waiting(self) -> int:
        """Moves handed over and not judged yet."""
        return self.handed - len(self.judged)

    def judge_move(self, i: int, step: Step) -> None:
        self.handed += 1
        self._put(self.JUDGE, (i, step))

    def stop(self) -> None:
        self._put(self.STOP, None)

    def run(self) -> None:
        try:
            while True:
                kind, _, item = self.tasks.get()
                if kind == self.STOP:
                    return
                if kind == self.ADVISE:
                    if item == self.current():  # the person has not moved on yet
                        decision = self.judge.decision(item)
                        if item == self.current():
                            self.on_advice(item, decision)
                    continue
                i, step = item
                judged = self.judge.judge(i, step.board, step.move, step.at)
                self.judged.append(judged)
                self.on_judged(judged)
        except BaseException as exc:  # handed to the looking thread, which raises it
            self.error = exc


class Coach:
    """Follows one game on the screen (`eyes`: grab() and read_frame(), as play's ScreenEyes has) and
    judges its moves with `judge`; `say` gets each line to show."""

    def __init__(self, eyes, judge: Judge, settings: CoachSettings | None = None,
                 say: Callable[[str], None] = print, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep, ready: str | None = None) -> None:
        self.eyes = eyes
        self.ready = ready  # said once the first board is believed: from then on the person's moves are followed
        self.judge = judge
        self.settings = settings or CoachSettings()
        self.say = say
        self.clock, self.sleep = clock, sleep
        self.rebuilder = Rebuilder()
        self.believer = Believer(self.settings.still_looks, self.settings.still_s)
        self.stats = FrameStats()
        self.moves = 0  # moves followed (rebuilt) so far
        self.advice = 0
        self.behind_max = 0
        self._lock = threading.Lock()
        self._believed_at = -1  # index in believer.boards of the last believed board
        self._advised: Grid | None = None  # the last board advice was asked for
        self._searched_at = float("-inf")  # the last search of the whole screen for a moved board ended
        self.relocations = 0
        self._worker = _Worker(judge, self._said_judged, self._said_advice, lambda: self.rebuilder.board)

    # ---- what the agent's thread says -----------------------------------------------------------
    def _said_judged(self, j: Judged) -> None:
        with self._lock:
            self.say(move_line(j))

    def _said_advice(self, board: Grid, decision) -> None:
        if decision.move is None:
            return
        others = sorted(((m, v) for m, v in decision.values.items() if m != decision.move), key=lambda mv: -mv[1])
        best_v = decision.values.get(decision.move, 0.0)
        costs = ", ".join(f"{m.key} -{percent((best_v - v) / best_v) if best_v > 0 else '-'}" for m, v in others)
        with self._lock:
            self.advice += 1
            self.say(f"advice: {decision.move.key}" + (f"  ({costs})" if costs else ""))

    # ---- following the game ------------------------------------------------------------------
    def _believed(self, seen: Seen) -> bool:
        """A board was believed: rebuild the moves to it. True when the session should end (--max-moves)."""
        boards = self.believer.boards
        index = len(boards) - 1
        if self._believed_at < 0 and self.ready:
            with self._lock:
                self.say(self.ready)
        glimpses = [s for s in boards[self._believed_at + 1:index] if not s.sure]
        self._believed_at = index
        steps, gaps = self.rebuilder.add(seen, glimpses)
        for gap in gaps:
            with self._lock:
                self.say(gap_line(gap))
        for step in steps:
            self._worker.judge_move(self.moves, step)
            self.moves += 1
        self.behind_max = max(self.behind_max, self._worker.waiting)
        limit = self.settings.max_moves
        if limit is not None and self.moves >= limit:
            return True
        board = self.rebuilder.board
        if self.settings.advise and board is not None and board != self._advised and legal_moves(board):
            self._advised = board
            self._worker.advise(board)
        return False

    def _follows(self, grid) -> bool:
        """`grid` is the game's last board, or one move on (or no board is known yet)."""
        board = self.rebuilder.board
        if board is None:
            return True
        grid = tuple(tuple(row) for row in grid)
        return grid == board or explain(board, grid).kind == "one"

    def _search_moved(self, now: float, lost_since: float, mid_move: bool = False) -> bool:
        """No still board for a while (gone, or something else read where it was; `mid_move`: every look
        since `lost_since` read the board mid-move): look over the whole screen for it at a new place (a
        dragged window, a scrolled page): one board of the same size, still, at most every
        SEARCH_EVERY_S. True when found: the eyes look there from now on."""
        wait = UNSETTLED_SEARCH_S if mid_move else SEARCH_AFTER_S
        if now - lost_since < wait or now - self._searched_at < SEARCH_EVERY_S:
            return False
        board = self.rebuilder.board
        around = self.eyes.look_around() if board is not None and hasattr(self.eyes, "look_around") else None
        if around is None:
            return False

        def believe(sight) -> Grid | None:
            # the person may have played on meanwhile: any still board of the old size will do (exactly
            # one on the screen); the moves from the last board to it are rebuilt as usual, or a gap
            if sight.state != BoardState.PLAYING or sight.grid is None:
                return None
            return tuple(tuple(row) for row in sight.grid)

        frame, monitors = around
        result = find_board_again(frame, monitors, self.eyes.profile,
                                  lambda f, profile: self.eyes.read_frame(f, profile=profile), believe)
        self._searched_at = self.clock()
        if result.found is None:
            return False
        self.eyes.move_to(result.found.profile)
        rect = result.found.profile.board_rect
        self.relocations += 1
        self.say(f"the board moved to {rect.x},{rect.y}: following it there")
        return True

    def run(self) -> CoachResult:
        """Follow the game until it is over, `max_moves`, `seconds`, the board is gone for `lost_end_s`,
        or Ctrl-C; then judge what is left and return the review."""
        settings = self.settings
        self._worker.start()
        start = self.clock()
        last_pixels: np.ndarray | None = None  # the last still look's pixels ...
        state = BoardState.NO_BOARD  # ... and what was read on them
        lost_since: float | None = None  # no board where it was, since
        away_since: float | None = None  # no still board (no board, moving, covered), since
        mid_move = False  # every look since away_since read the board mid-move
        lost_said = False
        ended = ""
        try:
            while not ended:
                if self._worker.error is not None:
                    raise self._worker.error
                now = self.clock()
                if settings.seconds is not None and now - start >= settings.seconds:
                    ended = f"{settings.seconds:g} s are up"
                    break
                frame = self.eyes.grab()
                self.stats.frames += 1
                if last_pixels is not None and np.array_equal(frame.pixels, last_pixels):
                    self.stats.unchanged += 1
                    seen = self.believer.again(t=now)  # the state read on those pixels holds too
                else:
                    last_pixels = None
                    self.stats.read += 1
                    sight = self.eyes.read_frame(frame, now)
                    state = sight.state
                    grid = sight.grid if state in (BoardState.PLAYING, BoardState.OVER) else None
                    if grid is not None and state == BoardState.OVER and not self._follows(grid):
                        grid = None  # a wash over something else than this game's last board (a moved window?)
                    if grid is None:
                        self.stats.not_still += 1
                        if away_since is None:
                            away_since, mid_move = now, True
                        mid_move = mid_move and state == BoardState.UNSETTLED
                        if self._search_moved(now, away_since, mid_move):
                            lost_since = away_since = last_pixels = None
                            lost_said = False
                            continue
                    else:
                        last_pixels = frame.pixels  # a still look: the same pixels again need no read
                        away_since = None
                    label = f"{now - start:.2f} s"
                    seen = self.believer.see(grid, label, t=now)
                    if state == BoardState.NO_BOARD:
                        lost_since = now if lost_since is None else lost_since
                        if not lost_said and now - lost_since >= LOST_NOTE_S:
                            self.say(f"the board is out of sight ({sight.why or 'not where it was'}): waiting for it")
                            lost_said = True
                        if now - lost_since >= settings.lost_end_s:
                            ended = f"the board was out of sight for {settings.lost_end_s:g} s"
                    else:
                        if lost_said:
                            self.say("the board is back")
                        lost_since, lost_said = None, False
                if seen is not None:
                    if self._believed(seen):
                        ended = f"{self.moves} moves followed"
                    elif state == BoardState.OVER:
                        ended = "game over"
                if not ended:
                    self.sleep(settings.look_s)
        except KeyboardInterrupt:
            ended = "stopped (Ctrl-C)"
        return self._finish(ended, self.clock() - start)

    def _finish(self, ended: str, seconds: float) -> CoachResult:
        before = len(self.rebuilder.game.gaps)
        game = self.rebuilder.finish()
        for gap in game.gaps[before:]:
            self.say(gap_line(gap))
        self._worker.stop()
        if self._worker.waiting:
            self.say(f"judging the last {self._worker.waiting} move(s)...")
        try:
            while self._worker.is_alive():
                self._worker.join(0.1)
        except KeyboardInterrupt:  # a second Ctrl-C: end now, with the moves judged so far
            self.judge.cancel()
            self._worker.join(5)
            ended += "; the last moves were not judged (Ctrl-C again)"
        else:
            if self._worker.error is not None:
                raise self._worker.error
        moves = list(self._worker.judged)  # one worker, first in first out: in the order played
        self.stats.glimpsed = self.believer.glimpsed
        source = {"path": "live screen", "kind": "live", "frames": self.stats.frames,
                  "seconds": round(seconds, 2), "ended": ended, "relocations": self.relocations}
        review = Review(source, game, moves, self.stats, self.judge.described)
        return CoachResult(review, ended, seconds, self.advice, self.behind_max)
