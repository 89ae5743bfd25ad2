"""The play loop: look at the board, choose a move, press its key, watch the board follow, repeat."""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Callable

import numpy as np

from screenbot.control.keyboard import FailSafeTriggered, Keyboard
from screenbot.errors import ScreenbotError
from screenbot.game.rules import Grid, Move, format_board, is_over, max_tile
from screenbot.play.eyes import Eyes, Sight
from screenbot.play.overlay import find_keep_going
from screenbot.play.record import FrameRecorder, MoveLog
from screenbot.play.safety import BoardLook, Safety
from screenbot.play.pace import FramePace
from screenbot.play.relocate import SEARCH_AFTER_S, SEARCH_EVERY_S, Found, find_board_again
from screenbot.play.spawn import Sighting
from screenbot.play.thinker import Thinker
from screenbot.play.tracker import Check, Prediction, Tracker, TrackingError, compare


# The X focus/stacking check made while watching counts for a key pressed within this time;
# while the new tile has not shown yet it is made again when older than FOCUS_RECHECK_S.
FOCUS_CHECK_FRESH_S = 0.06
FOCUS_RECHECK_S = 0.03


class StopPlaying(ScreenbotError):
    """Play stopped before the game ended, for a reason the user should know (the message says it)."""


@dataclass
class PlaySettings:
    """How long to wait for what. The timings of the classic game (FACTS.md, and measured on the rig
    by benchmarks/live.py): a key shows 40-75 ms later, the board is still ~300 ms after the key,
    the win/over overlay fades in 1.2-2.0 s after the last move."""

    max_moves: int | None = None
    budget_ms: float | None = None
    depth_cap: int | None = None  # cap on the agent's adaptive depth (None: the agent's default)
    dry_run: bool = False
    # a new board is believed once its new tile has stopped changing: the same pixels in two grabs
    # at least this far apart (Chromium draws at 60 Hz: a tile still over 20 ms has finished growing;
    # a growing tile's colour is a blend that can pass for another value)
    still_gap_s: float = 0.02
    # a board that disagrees with the prediction this long after the key is a misread (it is read again)
    misread_after_s: float = 0.45
    # after this long without the predicted board, stop
    settle_timeout_s: float = 2.0
    # the win overlay: wait this long for it after the first 2048
    overlay_wait_s: float = 3.5
    # the board covered, moved or without focus: re-check this long before stopping
    safety_wait_s: float = 5.0
    # pause between two grabs while watching (0 = as fast as grab + read allow)
    poll_gap_s: float = 0.0
    # read the new tile while it grows in (see play.spawn), when this game's colours allow it
    early_spawn: bool = True
    # give up reading the new tile while it grows this long after the key (then wait for the still board)
    early_give_up_s: float = 0.3
    # search the boards that may come next while the animation plays (see play.thinker)
    think_ahead: bool = True


@dataclass
class MoveTiming:
    read_ms: float  # the look that was believed: grab and read
    think_ms: float  # waiting for the agent's decision, after the board was believed
    wait_ms: float  # from the key to the look that was believed (the animation)
    agent_ms: float = 0.0  # the agent's own search time for the board (mostly while the animation played)


@dataclass
class Summary:
    moves: int = 0
    score: int = 0
    max_tile: int = 0
    duration_s: float = 0.0
    misreads: int = 0
    reason: str = ""
    ok: bool = True
    board: list | None = None
    moves_per_s: float = 0.0
    read_ms_median: float = 0.0
    think_ms_median: float = 0.0
    agent_ms_median: float = 0.0
    agent_ms_max: float = 0.0
    wait_ms_median: float = 0.0
    move_ms_median: float = 0.0
    diagnostics: str | None = None
    advice: dict | None = None
    early_reads: int = 0
    read_still: dict | None = None  # why new tiles were read only once still: reason -> moves
    relocations: int = 0  # times the board was found again at another place (a moved window)

    def as_dict(self) -> dict:
        return asdict(self)

    def text(self) -> str:
        lines = [
            f"stopped: {self.reason}",
            f"moves {self.moves}  score {self.score}  max tile {self.max_tile}  "
            f"{self.duration_s:.1f} s  {self.moves_per_s:.1f} moves/s  misreads re-read {self.misreads}  "
            f"new tiles read while growing {self.early_reads}",
        ]
        if self.moves:
            lines.append(
                f"per move (median): read {self.read_ms_median:.1f} ms, think {self.think_ms_median:.1f} ms "
                f"(search {self.agent_ms_median:.1f} ms, mostly while the tiles moved; longest {self.agent_ms_max:.0f} ms), "
                f"wait {self.wait_ms_median:.1f} ms, key to key {self.move_ms_median:.1f} ms"
            )
        if self.relocations:
            lines.append(f"the board moved {self.relocations} time{'s' if self.relocations > 1 else ''}: found again, played on")
        if self.read_still:
            lines.append("read only once still: " + ", ".join(f"{n} ({why})" for why, n in self.read_still.items()))
        if self.diagnostics:
            lines.append(f"diagnostic frames: {self.diagnostics}")
        return "\n".join(lines)


@dataclass(frozen=True)
class DefaultAgent:
    """screenbot.agent.choose_move as play calls it: agent(grid, budget_ms), with play's depth cap."""

    depth_cap: int | None = None
    keep_table: bool = False  # use what the searches since the agent's new_table() stored (the thinker's rounds)

    def __call__(self, grid: Grid, budget_ms: float | None):
        try:
            from screenbot.agent import choose_move
        except ImportError as exc:
            raise StopPlaying(f"the agent (screenbot.agent.choose_move) cannot be loaded: {exc}") from exc
        return choose_move(grid, budget_ms=budget_ms, depth_cap=self.depth_cap, keep_table=self.keep_table)


def warm_up_agent() -> None:
    """Compile the agent's search, or load it from numba's cache (about a second); a missing agent
    is reported by its first move."""
    try:
        from screenbot.agent import warm_up
    except ImportError:
        return
    warm_up()


def focus_point(eyes: Eyes) -> tuple[int, int]:
    """Where to click to give the game focus: the board's own background, in the frame's top edge
    between the two middle columns (never a tile, never a button). Captured pixels."""
    g = eyes.geometry
    left, right = g.cells[1], g.cells[2]
    x = (left.right + right.x) // 2
    y = (g.board.y + min(left.y, right.y)) // 2
    return x, y


class Player:
    """Plays one game on the screen: `play()` returns the Summary (it never leaves keys pressed)."""

    def __init__(
        self,
        eyes: Eyes,
        keyboard: Keyboard,
        settings: PlaySettings | None = None,
        agent: Callable | None = None,
        focus_watch=None,
        log: MoveLog | None = None,
        recorder: FrameRecorder | None = None,
        status: Callable[["Player"], None] | None = None,
        diagnostics_dir: str | Path | None = None,
        on_frame: Callable[[Sight], None] | None = None,
        spawn_reader=None,
        clock: Callable[[], float] = time.perf_counter,
        sleep: Callable[[float], None] = time.sleep,
        say: Callable[[str], None] | None = None,
    ) -> None:
        self.eyes = eyes
        self.keyboard = keyboard
        self.settings = settings or PlaySettings()
        self.agent = agent or DefaultAgent(self.settings.depth_cap)
        self.focus_watch = focus_watch
        self.log = log
        self.recorder = recorder
        self.status = status
        self.diagnostics_dir = Path(diagnostics_dir) if diagnostics_dir else None
        self.on_frame = on_frame
        if spawn_reader is None and self.settings.early_spawn and getattr(eyes, "profile", None) is not None:
            from screenbot.play.spawn import SpawnReader

            spawn_reader = SpawnReader.for_profile(eyes.profile)
        self.spawn_reader = spawn_reader
        self.early_accepts = 0
        self.read_still: Counter = Counter()  # why a new tile was not read while it grew
        self.accepted_early: list[int] = []  # indexes (into tracker.history) of boards believed while growing
        self.thinker: Thinker | None = None
        self._agent_ms = 0.0
        self.pace = FramePace()
        self._rng = random.Random(0)  # the order of the guessed cells
        self._focus_problem: tuple[float, str | None] | None = None  # (when, what) checked while watching
        self.clock = clock
        self.sleep = sleep
        self.say = say or self._say
        self.relocations = 0
        self._missing_since: float | None = None  # the board first failed the pixel check (while paused)
        self._searched_at: float | None = None  # the last search of the whole screen ended
        self._search_note = ""  # what the last search saw instead of the board
        self.tracker = Tracker()
        self.safety: Safety | None = None
        self.timings: list[MoveTiming] = []
        self.key_times: list[float] = []
        self.last_sight: Sight | None = None
        self.last_decision = None
        self.last_prediction: Prediction | None = None
        self.won_handled = False
        self.started = 0.0
        self._read_ms = 0.0

    # ----------------------------------------------------------------- the loop
    def play(self) -> Summary:
        self.started = self.clock()
        reason, ok, diagnostics = "", True, None
        if isinstance(self.agent, DefaultAgent):
            warm_up_agent()  # load the compiled search now, not on the first move
        if self.settings.think_ahead and not self.settings.dry_run:
            agent, cancel, allow, new_round = self.agent, None, None, None
            if isinstance(self.agent, DefaultAgent):
                from screenbot.agent import allow_search, cancel_search, new_table

                # the boards one key can lead to share one table (see Thinker, screenbot.agent.search)
                agent, cancel, allow, new_round = replace(self.agent, keep_table=True), cancel_search, allow_search, new_table
            self.thinker = Thinker(agent, self.settings.budget_ms, cancel=cancel, allow=allow, new_round=new_round)
        try:
            board = self.first_board()
            if not self.settings.dry_run:
                self.focus()
            while True:
                if self.settings.max_moves is not None and self.tracker.moves >= self.settings.max_moves:
                    reason = f"played --max-moves {self.settings.max_moves}"
                    break
                if is_over(board):
                    reason = "game over"
                    break
                move, think_ms = self.think(board)
                if self.settings.dry_run:
                    reason = f"dry run: the move is {move.key}"
                    break
                self.ensure_safe(self.last_prediction.merged_cells if self.last_prediction else ())
                prediction = self.last_prediction = self.tracker.predict(move)
                self.press(move, board, think_ms)
                board = self.watch(prediction, think_ms)
                if max_tile(board) >= 2048 and not self.won_handled:
                    self.after_first_2048()
        except KeyboardInterrupt:
            reason = "interrupted (Ctrl-C)"
        except FailSafeTriggered as exc:
            reason, ok = str(exc), False
        except StopPlaying as exc:
            reason, ok = str(exc), False
            diagnostics = getattr(exc, "diagnostics", None)
        except TrackingError as exc:
            reason, ok = str(exc), False
        finally:
            if self.thinker is not None:
                try:
                    self.thinker.close()
                except KeyboardInterrupt:  # a second Ctrl-C while the search thread stops: stop anyway
                    reason = reason or "interrupted (Ctrl-C)"
        summary = self.summary(reason, ok, diagnostics)
        if self.log is not None:
            self.log.write({"summary": summary.as_dict()})
        return summary

    # ----------------------------------------------------------------- steps
    def first_board(self) -> Grid:
        """Read until the board is still (the same twice, state playing), then believe it."""
        deadline = self.clock() + self.settings.settle_timeout_s + self.settings.overlay_wait_s
        previous = None
        while True:
            sight = self.look()
            if sight.state == "won" and not self.settings.dry_run:
                self.keep_going(sight)
                previous = None
                continue
            if sight.state == "over":
                raise StopPlaying("the game on screen is already over: start a new game first")
            if sight.state == "playing" and sight.grid is not None:
                grid = tuple(tuple(row) for row in sight.grid)
                if grid == previous:
                    board = self.tracker.begin(grid)
                    self._read_ms = sight.ms
                    self.learn_look(sight)
                    if self.spawn_reader is not None:
                        self.spawn_reader.learn(sight.frame, board)
                    self.won_handled = max_tile(board) >= 2048
                    return board
                previous = grid
            if self.clock() > deadline:
                if sight.state == "no-board":
                    raise StopPlaying(
                        "no board where the profile says: run `screenbot calibrate` with the game visible"
                    )
                why = f": {sight.why}" if sight.why else ""
                raise StopPlaying(f"the board did not settle (last state: {sight.state}{why})")
            self.sleep(0.02)

    def learn_look(self, sight: Sight) -> None:
        g = self.eyes.geometry
        self.safety = Safety(BoardLook.learn(sight.frame, g.board, g.cells), self.focus_watch)

    def focus(self) -> None:
        """One click on the board's background so the keys go to the game, then remember the focus."""
        g = self.eyes.geometry
        self.keyboard.confine_clicks(g.board_in_points)
        x, y = g.to_points(*focus_point(self.eyes))
        self.keyboard.click(x, y)
        self.sleep(0.05)  # let the window manager hand over focus before it is remembered
        if self.safety is not None:
            self.safety.remember_focus()

    def think(self, board: Grid) -> tuple[Move, float]:
        """The agent's move for `board`, and how long play waited for it (ms)."""
        start = self.clock()
        if self.thinker is not None:
            decision, self._agent_ms = self.thinker.decide(board)
        else:
            decision = self.agent(board, self.settings.budget_ms)
            self._agent_ms = (self.clock() - start) * 1000
        think_ms = (self.clock() - start) * 1000
        self.last_decision = decision
        if decision.move is None:
            raise StopPlaying("the agent found no legal move")
        return Move(decision.move), think_ms

    def ensure_safe(self, skip=()) -> None:
        """Press nothing unless the board is where it was, looks like a board, and has focus."""
        if self.safety is None or self.last_sight is None:
            return
        checked, self._focus_problem = self._focus_problem, None
        if checked is not None and self.clock() - checked[0] <= FOCUS_CHECK_FRESH_S:
            # the window side was checked while the new tile grew in, a frame or two ago
            problem = self.safety.look.problem(self.last_sight.frame, skip) or checked[1]
        else:
            problem = self.safety.problem(self.last_sight.frame, skip)
        if problem is not None:
            self.wait_until_safe(problem)

    def wait_until_safe(self, problem: str) -> None:
        """Pause: re-check for a while (a window passing over the board); if the board stays away,
        look for it over the whole screen (a moved window); if the problem stays, stop."""

        def back(sight: Sight) -> bool | None:
            if sight.state != "playing":
                return False
            return self.same_as_tracked(sight) is not None or None  # None: the board changed meanwhile

        self.pause(problem, self.same_as_tracked, back)

    def pause(self, problem: str, believe: Callable[[Sight], Grid | None], back: Callable[[Sight], bool | None]) -> None:
        """Look again every 0.1 s until the board is where it was, with focus, and `back(sight)` is
        True; while it is away, follow it to another place showing a board `believe` accepts. Stop
        (no key) after safety_wait_s, or at once when `back` says None."""
        deadline = self.clock() + self.settings.safety_wait_s
        self._missing_since, self._search_note = None, ""
        while self.clock() < deadline:
            self.sleep(0.1)
            sight = self.look()
            if self.safety.look.problem(sight.frame) is not None:
                if self.follow_board(believe):
                    deadline = max(deadline, self.clock() + 1.0)  # time to see it there again
                continue
            self._missing_since = None
            if self.safety.focus_problem() is None and sight.grid is not None:
                verdict = back(sight)
                if verdict is None:
                    break
                if verdict:
                    return
        raise self.paused_too_long(problem)

    def paused_too_long(self, problem: str) -> StopPlaying:
        note = f"; searched the screen and saw {self._search_note}" if self._search_note else ""
        return StopPlaying(f"paused, then stopped: {problem}{note}; no key was pressed")

    def same_as_tracked(self, sight: Sight) -> Grid | None:
        """The tracked board, when the sight shows it (still, every tile as tracked); else None."""
        if sight.grid is None or sight.state != "playing":
            return None
        try:
            return self.tracker.resume(sight.grid)
        except TrackingError:
            return None

    def follow_board(self, believe: Callable[[Sight], Grid | None]) -> bool:
        """The board has left its place: once it has been away SEARCH_AFTER_S, search the whole
        screen for it (at most every SEARCH_EVERY_S) and, if it is found at another place showing
        the board `believe` accepts, move everything there and focus it. True when it moved."""
        now = self.clock()
        if self._missing_since is None:
            self._missing_since = now
        if now - self._missing_since < SEARCH_AFTER_S:
            return False
        if self._searched_at is not None and now - self._searched_at < SEARCH_EVERY_S:
            return False
        around = self.eyes.look_around()
        if around is None or getattr(self.eyes, "profile", None) is None:
            return False
        frame, monitors = around
        result = find_board_again(frame, monitors, self.eyes.profile,
                                  lambda f, profile: self.eyes.read_frame(f, profile=profile), believe)
        self._searched_at = self.clock()
        if result.found is None:
            self._search_note = result.note
            return False
        self.move_board(result.found)
        return True

    def move_board(self, found: Found) -> None:
        """Everything that knows where the board is moves to its new place; then one click on the
        board there gives it focus (no key yet: the caller reads the board there once more)."""
        self.eyes.move_to(found.profile)
        g = self.eyes.geometry
        if self.focus_watch is not None:
            self.focus_watch.move_to(g.board)
        self.learn_look(found.sight)
        if self.spawn_reader is not None:
            from screenbot.play.spawn import SpawnReader

            self.spawn_reader = SpawnReader.for_profile(found.profile)
            self.spawn_reader.learn(found.sight.frame, found.board)
        self._focus_problem = None
        self._missing_since, self._search_note = None, ""
        self.relocations += 1
        self.say(f"screenbot: the board moved to ({g.board.x}, {g.board.y}): carrying on")
        self.focus()

    def _say(self, message: str) -> None:
        end = getattr(self.status, "end", None)
        if end is not None:
            end()  # a status line being rewritten in place gives way to the message
        print(message, file=sys.stderr)

    def press(self, move: Move, board: Grid, think_ms: float) -> None:
        t = self.clock() - self.started
        self.key_times.append(t)
        self.keyboard.press(move)
        if self.log is not None:
            entry = {
                "i": self.tracker.moves,
                "board": [list(row) for row in board],
                "move": move.key,
                "t": round(t, 4),
                "read_ms": round(self._read_ms, 2),
                "think_ms": round(think_ms, 2),
            }
            if self.recorder is not None and self.last_sight is not None:
                entry["frame"] = self.recorder.save(f"{self.tracker.moves:06d}", self.last_sight.frame)
                entry["origin"] = [self.last_sight.frame.left, self.last_sight.frame.top]
            self.log.write(entry)

    def watch(self, prediction: Prediction, think_ms: float) -> Grid:
        """Watch the board after a key until it shows the predicted board with its new tile: read
        while the tile grows in when this game's colours allow it, else once it is still."""
        key_t = self.clock()
        if self.thinker is not None:
            self.thinker.next_round()
        if self.spawn_reader is not None:
            if self.spawn_reader.ready_for(prediction):
                board = self.watch_growing(prediction, key_t, think_ms)
                if board is not None:
                    return board
            else:
                self.read_still["a colour not seen on a still board yet"] += 1
        return self.watch_still(prediction, key_t, think_ms)

    def watch_growing(self, prediction: Prediction, key_t: float, think_ms: float) -> Grid | None:
        """Grab frames (no full read) until the new tile is known while it grows in. Meanwhile the
        thinker searches the boards the move can make (a 2 in each empty cell, then, once the
        tile's cell shows, a 2 and a 4 there) and the window side of the safety check runs.
        None: not read early (the tile outgrew the watched window, something else moved, or time
        ran out); the still read takes over.

        Rests while no frame can show anything new (see play.pace)."""
        watch = self.spawn_reader.watch(prediction)
        pace = self.pace
        if self.thinker is not None:
            self.thinker.expect(self.guesses(prediction, key_t))
        self.glance_and_see(watch)  # the board as the key left it: cells seen empty before anything moves
        rest = pace.quiet_ms() / 1000 - (self.clock() - key_t)
        if rest > 0:
            self.sleep(rest)
        self._focus_problem = None
        cell = None  # where the new tile grows
        first_t = last_empty_t = None  # grab times: the tile's first frame, the last frame before it
        first_side = 0.0
        signature, changed_t = None, None  # to time the page's frames
        seen = None
        t = self.clock()
        while t - key_t < self.settings.early_give_up_s:
            if self.safety is not None and (self._focus_problem is None or t - self._focus_problem[0] > FOCUS_RECHECK_S):
                self._focus_problem = (t, self.safety.focus_problem())
            sight, seen = self.glance_and_see(watch)
            now_signature = watch.signature(sight.frame)
            if now_signature != signature:
                if changed_t is not None:
                    pace.saw_frame_change((sight.t - changed_t) * 1000)
                signature, changed_t = now_signature, sight.t
            if seen.cell is not None and cell is None:
                cell, first_t, first_side = seen.cell, sight.t, seen.looks[seen.cell].side
                pace.saw_first_frame((first_t - key_t) * 1000)
                if self.thinker is not None and seen.spawn is None:
                    r, c = cell  # its value shows on a later frame: think about both, the likelier first
                    first = seen.looks[cell].likely or 2
                    self.thinker.expect([prediction.with_spawn(r, c, first), prediction.with_spawn(r, c, 6 - first)])
            if seen.spawn is not None:
                check = Check("match", prediction.with_spawn(*seen.spawn), seen.spawn)
                self.early_accepts += 1
                self.accepted_early.append(self.tracker.moves + 1)
                return self.believe(check, prediction, sight, key_t, think_ms, learn=False)
            if seen.cell is None:
                if cell is not None:
                    # the new tile outgrew the window unread, or something passed over it
                    look = seen.looks.get(cell)
                    self.read_still[f"the new tile: {look.why if look is not None else 'gone'}"] += 1
                    return None
                last_empty_t = sight.t
            elif seen.cell != cell:
                self.read_still["another cell showed a tile"] += 1
                return None
            elif sight.t == first_t and last_empty_t is not None:
                # the tile's first frame did not tell its value: rest until its next frame can come
                rest = pace.next_frame_rest_ms((self.clock() - last_empty_t) * 1000) / 1000
                if rest > 0:
                    self.sleep(rest)
            t = self.clock()
        whys = sorted({look.why or look.kind for look in seen.looks.values()}) if seen is not None else []
        self.read_still["no new tile in time" + (f" ({'; '.join(whys)})" if whys else "")] += 1
        return None

    def guesses(self, prediction: Prediction, key_t: float) -> list[Grid]:
        """The boards to think about before the new tile shows: a 2 in each empty cell (in random
        order: the game picks the cell uniformly), then a 4 in each. A search under way when the
        tile shows is stopped if it guessed wrong; a thinker that cannot stop one gets only as many
        as it can search before the earliest first frame seen so far, so that it is free again then."""
        cells = list(prediction.spawn_cells)
        self._rng.shuffle(cells)
        boards = [prediction.with_spawn(r, c, 2) for r, c in cells]
        boards += [prediction.with_spawn(r, c, 4) for r, c in cells]
        if self.thinker is not None and not self.thinker.can_stop:
            search_ms = self.thinker.search_ms()
            if search_ms is not None and self.pace.first_ms:
                left_ms = min(self.pace.first_ms) - (self.clock() - key_t) * 1000
                boards = boards[:max(0, int(left_ms // max(search_ms, 0.1)) + 1)]
        return boards

    def glance_and_see(self, watch) -> tuple[Sight, "Sighting"]:
        sight = self.glance()
        seen = watch.see(sight.frame)
        return replace(sight, ms=(self.clock() - sight.t) * 1000), seen  # grab and spawn reading

    def watch_still(self, prediction: Prediction, key_t: float, think_ms: float) -> Grid:
        """Poll the board until it shows the predicted board with its new tile fully grown;
        re-read what disagrees; stop if it keeps disagreeing."""
        s = self.settings
        candidate = None  # (board, spawn cell pixels, time) of the first sight that matched
        misread = False
        check: Check | None = None
        overlay_cleared_t: float | None = None
        repressed = False
        while True:
            sight = self.look()
            if sight.state == "won":
                # "You win!" came up (moves are ignored until "Keep going"): dismiss it and watch on
                self.keep_going(sight, resume=False)
                overlay_cleared_t = self.clock()
                continue
            if (
                overlay_cleared_t is not None and not repressed and check is not None
                and check.verdict == "unchanged" and self.clock() - overlay_cleared_t > s.misread_after_s
            ):
                # the key met the overlay and was ignored: press it again, once
                self.keyboard.press(prediction.move)
                repressed, key_t = True, self.clock()
            if self.safety is not None and (sight.grid is None or sight.state == "no-board"):
                problem = self.safety.problem(sight.frame, prediction.merged_cells)
                if problem is not None and self.clock() - key_t > s.misread_after_s:
                    self.pause_watch(problem, prediction)
                    key_t = self.clock()
                    continue
            if sight.grid is not None and sight.state in ("playing", "over"):
                check = compare(sight.grid, prediction)
                if check.matched:
                    r, c, _ = check.spawn
                    pixels = sight.frame.crop(self.eyes.geometry.cells[r * 4 + c]).pixels
                    if candidate is None or candidate[0] != check.board or not np.array_equal(candidate[1], pixels):
                        candidate = (check.board, pixels.copy(), sight.t)
                    elif sight.t - candidate[2] >= s.still_gap_s:
                        return self.believe(check, prediction, sight, key_t, think_ms, learn=True)
                else:
                    candidate = None
                    if check.verdict == "mismatch" and not misread and self.clock() - key_t > s.misread_after_s:
                        misread = True
                        self.tracker.note_misread()
            elapsed = self.clock() - key_t
            if elapsed > s.settle_timeout_s:
                raise self.desync(prediction, check, sight)
            if s.poll_gap_s:
                self.sleep(s.poll_gap_s)

    def believe(self, check: Check, prediction: Prediction, sight: Sight, key_t: float, think_ms: float,
                learn: bool) -> Grid:
        board = self.tracker.accept(check, prediction)
        if learn and self.spawn_reader is not None:
            self.spawn_reader.learn(sight.frame, board)
        # read: the look that was believed; wait: the rest of the watch (the animation)
        wait_ms = (self.clock() - key_t) * 1000 - sight.ms
        self.timings.append(MoveTiming(sight.ms, think_ms, max(wait_ms, 0.0), self._agent_ms))
        self._read_ms = sight.ms
        if self.status is not None:
            self.status(self)
        return board

    def pause_watch(self, problem: str, prediction: Prediction) -> None:
        """The board went out of sight after a key: wait (bounded) until it shows again, or is
        found at another place showing the move's board with its new tile; else stop."""

        def follows(sight: Sight) -> Grid | None:
            if sight.grid is None or sight.state != "playing":
                return None
            check = compare(sight.grid, prediction)
            return check.board if check.matched else None

        self.pause(problem, follows, lambda sight: True)

    def after_first_2048(self) -> None:
        """The classic game shows "You win!" after the first 2048 and ignores keys until "Keep going"
        is clicked: wait for the overlay (bounded), click the button, and check the board is back."""
        self.won_handled = True
        deadline = self.clock() + self.settings.overlay_wait_s
        while self.clock() < deadline:
            sight = self.look()
            if sight.state == "won":
                self.keep_going(sight)
                return
            self.sleep(0.05)
        # no overlay (a clone without one, or a game already continued): play on

    def keep_going(self, sight: Sight, resume: bool = True) -> None:
        """Click "Keep going" on the win overlay, then wait until the board shows again
        (as believed, when `resume`)."""
        g = self.eyes.geometry
        # The overlay fades in (800 ms in the classic game), and while it fades the buttons'
        # contrast changes from frame to frame: click only once two looks in a row show the very
        # same pixels with the button at the same place (the fade is over).
        deadline = self.clock() + self.settings.overlay_wait_s
        last = None  # (pixels, button) of the look before, when it showed the overlay and a button
        while True:
            button = find_keep_going(sight.frame, g.board) if sight.state == "won" else None
            if button is not None and last is not None and last[1] == button and np.array_equal(last[0], sight.frame.pixels):
                break
            last = (sight.frame.pixels, button) if button is not None else None
            if self.clock() >= deadline:
                raise StopPlaying("the win overlay is up but no 'Keep going' button was found on it once it stood still")
            self.sleep(0.1)
            sight = self.look()
        self.keyboard.confine_clicks(g.board_in_points)
        self.keyboard.click(*g.to_points(button.center.x, button.center.y))
        self.won_handled = True
        deadline = self.clock() + self.settings.settle_timeout_s
        while self.clock() < deadline:
            sight = self.look()
            if sight.state == "playing" and sight.grid is not None:
                if self.tracker.board is None or not resume:
                    return
                try:
                    self.tracker.resume(sight.grid)
                    if self.safety is not None:
                        self.safety.remember_focus()
                    return
                except TrackingError:
                    pass
            self.sleep(0.03)
        raise StopPlaying("clicked 'Keep going' but the board did not come back")

    # ----------------------------------------------------------------- helpers
    def look(self) -> Sight:
        sight = self.eyes.look()
        self.last_sight = sight
        if self.on_frame is not None:
            self.on_frame(sight)
        return sight

    def glance(self) -> Sight:
        """Grab the board without reading it (state "unread"), for the spawn reader."""
        sight = self.eyes.glance()
        self.last_sight = sight
        if self.on_frame is not None:
            self.on_frame(sight)
        return sight

    def desync(self, prediction: Prediction, check: Check | None, sight: Sight) -> StopPlaying:
        if check is None:
            what = f"the board could not be read (state {sight.state})"
        elif check.verdict == "unchanged":
            what = "the key did not reach the game (the board did not move; did the window lose focus?)"
        elif check.verdict == "no-spawn":
            what = "the board moved but no new tile appeared"
        else:
            cells = ", ".join(
                f"row {r + 1} col {c + 1} shows {v if v is not None else '?'} (expected {e or 'empty'})"
                for r, c, v, e in check.differences[:4]
            )
            what = f"the board on screen does not follow from the last move: {cells}"
        folder = self.save_diagnostics(prediction, sight, what)
        exc = StopPlaying(f"{what}; frames saved in {folder}")
        exc.diagnostics = str(folder)  # type: ignore[attr-defined]
        return exc

    def save_diagnostics(self, prediction: Prediction, sight: Sight, what: str) -> Path:
        folder = self.diagnostics_dir or Path(tempfile.mkdtemp(prefix="screenbot-stop-"))
        folder.mkdir(parents=True, exist_ok=True)
        sight.frame.save(folder / "seen.png")
        lines = [
            what,
            f"move: {prediction.move.key}",
            "board before the move:",
            format_board(prediction.before),
            "expected (before the new tile):",
            format_board(prediction.after),
            f"seen (state {sight.state}):",
            format_board(sight.grid) if sight.grid is not None else "(nothing read)",
        ]
        (folder / "diagnostic.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        return folder

    @property
    def moves_per_s(self) -> float:
        if len(self.key_times) < 2:
            return 0.0
        span = self.key_times[-1] - self.key_times[0]
        return (len(self.key_times) - 1) / span if span > 0 else 0.0

    def summary(self, reason: str, ok: bool, diagnostics: str | None) -> Summary:
        board = self.tracker.board
        timings = self.timings
        med = lambda xs: round(statistics.median(xs), 2) if xs else 0.0  # noqa: E731
        gaps = [b - a for a, b in zip(self.key_times, self.key_times[1:])]
        advice = None
        if self.settings.dry_run and self.last_decision is not None:
            d = self.last_decision
            advice = {
                "move": Move(d.move).key if d.move is not None else None,
                "values": {Move(m).key: float(v) for m, v in getattr(d, "values", {}).items()},
            }
        return Summary(
            moves=self.tracker.moves,
            score=self.tracker.score,
            max_tile=max_tile(board) if board else 0,
            duration_s=round(self.clock() - self.started, 3),
            misreads=self.tracker.misreads,
            reason=reason,
            ok=ok,
            board=[list(r) for r in board] if board else None,
            moves_per_s=round(self.moves_per_s, 2),
            read_ms_median=med([t.read_ms for t in timings]),
            think_ms_median=med([t.think_ms for t in timings]),
            agent_ms_median=med([t.agent_ms for t in timings]),
            agent_ms_max=round(max((t.agent_ms for t in timings), default=0.0), 1),
            wait_ms_median=med([t.wait_ms for t in timings]),
            move_ms_median=med([g * 1000 for g in gaps]),
            diagnostics=diagnostics,
            advice=advice,
            early_reads=self.early_accepts,
            read_still=dict(self.read_still.most_common()) or None,
            relocations=self.relocations,
        )
