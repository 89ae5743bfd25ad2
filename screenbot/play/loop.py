"""The play loop: look at the board, choose a move, check it is safe, press its key, watch the board follow, repeat."""

from __future__ import annotations

import sys
import time
from typing import Callable

from screenbot.board_state import BoardState
from screenbot.agent.base import Agent
from screenbot.control.keyboard import FailSafeTriggered, Keyboard
from screenbot.game.rules import FOUR_SHARE, Grid, Move, is_over
from screenbot.play.context import Clock, GameOverShown, PlayContext, StopPlaying
from screenbot.play.eyes import Eyes, Sight
from screenbot.play.guard import Guard
from screenbot.play.keys_trial import KeyTrial
from screenbot.play.overlay import WinOverlay
from screenbot.play.pause import Pauser
from screenbot.play.record import Recording
from screenbot.play.settings import PlaySettings
from screenbot.play.stats import Summary
from screenbot.play.thinker import Thinker
from screenbot.play.tracker import TrackingError
from screenbot.play.warm import FINISH_WAIT_S, FIRST_MOVE_WAIT_S, WarmUp
from screenbot.play.watch import Watcher

__all__ = ["Player", "PlaySettings", "StopPlaying", "Summary"]


def default_agent(settings: PlaySettings, shape: tuple[int, int] = (4, 4)) -> Agent:
    """The player `settings.player` (play's by default) with the settings' search limits (loads the
    compiled search; a player's tables come in the background, make_player); on a board of another
    size than 4x4, that size's own player."""
    try:
        from screenbot.agent.players import DEFAULT_PLAYER, make_player

        if tuple(shape) != (4, 4):
            name = None if settings.player == DEFAULT_PLAYER else settings.player
            return make_player(name, shape=tuple(shape))
        return make_player(settings.player, depth_cap=settings.depth_cap, deepen_gap=settings.deepen_gap,
                           deepen_ms=settings.deepen_ms)
    except ImportError as exc:
        raise StopPlaying(f"the agent (screenbot.agent) cannot be loaded: {exc}") from exc


class Player:
    """Plays one game on the screen: `play()` returns the Summary (it never leaves keys pressed).

    Its parts, one per phase: the guard (every key and click), the pauser (a covered or moved
    board), the watcher (a move landing), the win overlay, and the thinker (the agent, thinking
    ahead in its own thread); they share one PlayContext (eyes, tracker, settings, clock, figures).

    `first_moves`: a quick player (warm.QuickCorner) for the moves before the agent is ready: the
    agent's warm-up then runs in a thread while play reads the board, the first move waits for it
    up to FIRST_MOVE_WAIT_S, and the quick player moves until it is done (a first start compiles the
    search: seconds); its moves are counted (`fallback` in the log and the summary). Without it (and
    in a dry run) the agent is made ready before the first look."""

    def __init__(
        self,
        eyes: Eyes,
        keyboard: Keyboard,
        settings: PlaySettings | None = None,
        agent: Agent | None = None,
        *,
        focus_watch=None,
        record: Recording | None = None,
        status: Callable[["Player"], None] | None = None,
        on_frame: Callable[[Sight], None] | None = None,
        spawn_reader=None,
        clock: Clock | None = None,
        say: Callable[[str], None] | None = None,
        first_moves: Agent | None = None,
        learn_keys: bool = False,
    ) -> None:
        self.settings = settings = settings or PlaySettings()
        self.ctx = ctx = PlayContext(eyes, settings, clock or Clock(), say or self._say, on_frame)
        self.agent = agent
        self.first_moves = first_moves
        self.learn_keys = learn_keys  # the first move tries other key sets when the arrows move nothing
        self.warming: WarmUp | None = None  # the agent's warm-up under way in its thread
        self.by_first_moves = False  # the last decision was the quick player's
        self.record = record or Recording()
        self.status = status
        self.guard = Guard(ctx, keyboard, focus_watch)
        self.pauser = Pauser(ctx, self.guard)
        self.guard.when_unsafe = self.unsafe
        self.overlay = WinOverlay(ctx, self.guard)
        self.overlay.intended_move = lambda: self.think(ctx.tracker.board)[0] if ctx.tracker.board else None
        profile = getattr(eyes, "profile", None)
        # a new tile grows in a tile game; a text board (a terminal game) is redrawn at once
        if spawn_reader is None and settings.early_spawn and profile is not None and profile.kind == "tiles":
            from screenbot.play.spawn import SpawnReader

            spawn_reader = SpawnReader.for_profile(profile)
        self.thinker: Thinker | None = None
        self.watcher = Watcher(ctx, self.guard, self.pauser, self.overlay, self.record, spawn_reader=spawn_reader)
        self.last_decision = None
        self.last_prediction = None
        self.four_share = FOUR_SHARE  # what the agent thinks with

    # the parts tests and the status line read
    @property
    def eyes(self) -> Eyes:
        return self.ctx.eyes

    @property
    def tracker(self):
        return self.ctx.tracker

    @property
    def stats(self):
        return self.ctx.stats

    @property
    def last_sight(self) -> Sight | None:
        return self.ctx.last_sight

    @property
    def moves_per_s(self) -> float:
        return self.ctx.stats.moves_per_s

    # ----------------------------------------------------------------- the loop
    def play(self) -> Summary:
        ctx, s = self.ctx, self.settings
        ctx.stats.started = ctx.clock()
        reason, ok, diagnostics = "", True, None
        try:
            self.start_agent()
            board = self.first_board()
            if not s.dry_run:
                self.guard.focus()
                if self.learn_keys:
                    profile = getattr(self.eyes, "profile", None)
                    self.watcher.key_trial = KeyTrial(self.guard.focus_known, getattr(profile, "kind", "") == "text")
            while True:
                if s.max_moves is not None and ctx.tracker.moves >= s.max_moves:
                    reason = f"played --max-moves {s.max_moves}"
                    break
                if is_over(board):
                    reason = "game over"
                    break
                move, think_ms, agent_ms = self.think(board)  # look (done) -> think
                if s.dry_run:
                    reason = f"dry run: the move is {move.key}"
                    break
                just_merged = self.last_prediction.merged_cells if self.last_prediction else ()
                prediction = self.last_prediction = ctx.tracker.predict(move)
                self.press(move, board, think_ms, just_merged)  # guard -> press
                board = self.watcher.watch(prediction, think_ms, agent_ms)  # watch it land
                if self.watcher.key_trial is not None:
                    self.keys_learned()
                self.follow_rules()
                if self.status is not None:
                    self.status(self)
                self.overlay.after_move(board)
        except KeyboardInterrupt:
            reason = "interrupted (Ctrl-C)"
        except (FailSafeTriggered, TrackingError) as exc:
            reason, ok = str(exc), False
        except StopPlaying as exc:
            reason, ok, diagnostics = str(exc), False, exc.diagnostics
        except GameOverShown as exc:
            ctx.say(f"screenbot: {exc}")
            reason = "game over"
        finally:
            if self.warming is not None and reason and not reason.startswith("interrupted"):
                try:
                    self.finish_warm_up()
                except KeyboardInterrupt:  # a Ctrl-C while it finishes: stop at once
                    pass
            if self.thinker is not None:
                try:
                    self.thinker.close()
                except KeyboardInterrupt:  # a second Ctrl-C while the search thread stops: stop anyway
                    reason = reason or "interrupted (Ctrl-C)"
        summary = self.summary(reason, ok, diagnostics)
        self.record.summary(summary.as_dict())
        return summary

    # ----------------------------------------------------------------- steps
    def start_agent(self) -> None:
        """Load the agent's search now (not on the first move), or start loading it in a thread when a
        quick player can move meanwhile; think ahead in a thread unless dry."""
        if self.agent is None:
            profile = getattr(self.ctx.eyes, "profile", None)
            self.agent = default_agent(self.settings, getattr(profile, "shape", (4, 4)))
        if self.first_moves is not None and not self.settings.dry_run:
            self.warming = WarmUp(self.agent)
            return
        started = self.ctx.clock()
        self.agent.warm_up()
        self.ctx.stats.start["warm_up"] = round(self.ctx.clock() - started, 3)
        self.agent_ready()

    def agent_ready(self) -> None:
        if self.settings.think_ahead and not self.settings.dry_run:
            self.thinker = Thinker(self.agent, self.settings.budget_ms)
            self.watcher.thinker = self.thinker

    def agent_warmed(self) -> bool:
        """Whether the agent is ready for this move: the first move waits for its warm-up up to
        FIRST_MOVE_WAIT_S from its start, later ones not at all; once done, it decides from now on."""
        warming = self.warming
        if warming is None:
            return True
        if not warming.ready and self.ctx.tracker.moves == 0:
            warming.wait(FIRST_MOVE_WAIT_S)
        if not warming.ready:
            return False
        self.warming = None
        self.agent = warming.take()
        self.ctx.stats.start["warm_up"] = round(warming.seconds, 3)
        self.agent_ready()
        return True

    def finish_warm_up(self) -> None:
        """The game ended before the agent's warm-up did: let it finish (FINISH_WAIT_S at most), so that
        numba's cache is written and the next start is quick."""
        self.ctx.say("screenbot: finishing the search's compile, once, so that the next start is quick")
        if self.warming.wait(FINISH_WAIT_S + (time.monotonic() - self.warming.started)):
            self.ctx.stats.start["warm_up"] = round(self.warming.seconds, 3)

    def first_board(self) -> Grid:
        """Read until the board is still (the same twice, state playing), then believe it."""
        ctx, s = self.ctx, self.settings
        deadline = ctx.clock() + s.settle_timeout_s + s.overlay_wait_s
        previous = None
        while True:
            sight = ctx.look()
            if sight.state == BoardState.WON and not s.dry_run:
                self.overlay.keep_going(sight)
                previous = None
                continue
            if sight.state == BoardState.OVER:
                raise StopPlaying("the game on screen is already over: start a new game first")
            if sight.state == BoardState.PLAYING and sight.grid is not None:
                grid = tuple(tuple(row) for row in sight.grid)
                if grid == previous:
                    board = ctx.tracker.begin(grid)
                    ctx.stats.start["first_board"] = round(ctx.clock() - ctx.stats.started, 3)
                    ctx.stats.last_read_ms = sight.ms
                    self.guard.learn(sight)
                    self.watcher.first_board(sight, board)
                    self.overlay.seen_board(board)
                    return board
                previous = grid
            if ctx.clock() > deadline:
                if sight.state == BoardState.NO_BOARD:
                    raise StopPlaying("no board where the profile says: run `screenbot calibrate` with the game visible")
                why = f": {sight.why}" if sight.why else ""
                raise StopPlaying(f"the board did not settle (last state: {sight.state}{why})")
            ctx.sleep(s.first_look_gap_s)

    def unsafe(self, problem: str) -> None:
        """The guard found the board unsafe for a key: a win message come up since the last look (one
        shown at a later tile, after a move) is dismissed; anything else pauses play."""
        sight = self.ctx.look()
        if sight.state == BoardState.WON:
            self.overlay.keep_going(sight)
            return
        self.pauser.wait_until_safe(problem)

    def think(self, board: Grid) -> tuple[Move, float, float]:
        """The agent's move for `board`, how long play waited for it and the agent's own search time (ms)."""
        ctx = self.ctx
        start = ctx.clock()
        self.by_first_moves = not self.agent_warmed()
        if self.by_first_moves:
            decision = self.first_moves.choose(board, self.settings.budget_ms)
            agent_ms = (ctx.clock() - start) * 1000
        elif self.thinker is not None:
            decision, agent_ms = self.thinker.decide(board)
        else:
            decision = self.agent.choose(board, self.settings.budget_ms)
            agent_ms = (ctx.clock() - start) * 1000
        think_ms = (ctx.clock() - start) * 1000
        self.last_decision = decision
        depth = getattr(decision, "depth", None)
        if self.by_first_moves:
            ctx.stats.fallback_moves += 1
        elif isinstance(depth, int):
            ctx.stats.depths[depth] += 1
        if decision.move is None:
            raise StopPlaying("the agent found no legal move")
        return Move(decision.move), think_ms, agent_ms

    def press(self, move: Move, board: Grid, think_ms: float, just_merged) -> None:
        """Through the guard (it pauses while the board is unsafe), then one log line."""
        ctx = self.ctx
        self.guard.press(move, skip=just_merged)
        t = ctx.clock() - ctx.stats.started
        ctx.stats.key_times.append(t)
        ctx.stats.start.setdefault("first_key", round(t, 3))
        frame = ctx.last_sight.frame if ctx.last_sight is not None else None
        self.record.move(ctx.tracker.moves, board, move, t, ctx.stats.last_read_ms, think_ms, frame,
                         fallback=self.by_first_moves)

    def follow_rules(self) -> None:
        """The agent thinks with the share of 4s this game has shown (the rule book's, once enough
        new tiles came)."""
        share = self.ctx.tracker.rules.four_share()
        if self.agent is not None and self.warming is None and share != self.four_share:
            self.agent.set_four_share(share)
            self.four_share = share

    def keys_learned(self) -> None:
        """The first move landed: the key set that moved it is this game's (said when not the arrows)."""
        trial, self.watcher.key_trial = self.watcher.key_trial, None
        rule = trial.rule()
        if rule is not None:
            self.ctx.stats.note_rule(rule)
            self.ctx.say(trial.learned_note())

    def summary(self, reason: str, ok: bool, diagnostics: str | None) -> Summary:
        ctx, advice = self.ctx, None
        if self.settings.dry_run and self.last_decision is not None:
            d = self.last_decision
            advice = {
                "move": Move(d.move).key if d.move is not None else None,
                "values": {Move(m).key: float(v) for m, v in getattr(d, "values", {}).items()},
            }
        t = ctx.tracker
        spawns = t.rules.spawn_note()  # how the new tiles came, when not as in the classic game
        if spawns:
            ctx.stats.note_rule(spawns)
        return ctx.stats.summary(ctx.clock(), t.board, t.moves, t.score, t.misreads, reason, ok, diagnostics, advice,
                                 len(t.no_spawn_moves))

    def _say(self, message: str) -> None:
        end = getattr(self.status, "end", None)
        if end is not None:
            end()  # a status line being rewritten in place gives way to the message
        print(message, file=sys.stderr)
