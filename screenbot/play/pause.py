"""Pausing when the board is covered, moved or loses focus: wait, follow it to a new place, or stop with no key pressed."""

from __future__ import annotations

from typing import Callable

from screenbot.board_state import BoardState
from screenbot.game.rules import Grid, is_over
from screenbot.play.context import GameOverShown, PlayContext, StopPlaying
from screenbot.play.eyes import Sight
from screenbot.play.guard import Guard
from screenbot.play.relocate import SEARCH_AFTER_S, SEARCH_EVERY_S, Found, find_board_again
from screenbot.play.rulebook import CLASSIC_SPAWNS
from screenbot.play.tracker import Prediction, TrackingError, agrees_everywhere, compare


def game_over_shown(sight: Sight, prediction: Prediction, ctx: PlayContext) -> bool:
    """Whether the screen shows the game's own "over" message over a board it hides (no board read under
    it), after a move that can end the game: one of its new tiles (of a value this game spawns) on one of
    its cells leaves no move."""
    if sight.state != BoardState.OVER or sight.grid is not None:
        return False
    values = set(CLASSIC_SPAWNS) | set(ctx.tracker.rules.spawn_counts)
    return any(is_over(prediction.with_spawn(r, c, v)) for r, c in prediction.spawn_cells for v in values)


def _shows_move(prediction: Prediction) -> Callable[[Sight], Grid | None]:
    """The board a sight shows when it is the move's board with its new tile, else None."""
    def shows(sight: Sight) -> Grid | None:
        if sight.grid is None or sight.state != BoardState.PLAYING:
            return None
        check = compare(sight.grid, prediction)
        return check.board if check.matched else None
    return shows


class Pauser:
    """Play's pauses: before a key (`wait_until_safe`, the guard's answer to a problem) and after one
    (`pause_after_key`, the board went out of sight while a move landed). While the board is away it
    searches the whole screen and follows it to a new place showing the board play believes in;
    `on_moved` hears of such a move (after everything that knows where the board is has moved)."""

    def __init__(self, ctx: PlayContext, guard: Guard) -> None:
        self.ctx = ctx
        self.guard = guard
        self.on_moved: list[Callable[[Found], None]] = []
        self._missing_since: float | None = None  # the board first failed the pixel check (while paused)
        self._searched_at: float | None = None  # the last search of the whole screen ended
        self._search_note = ""  # what the last search saw instead of the board

    def wait_until_safe(self, problem: str) -> None:
        """Before a key: re-check for a while (a window passing over the board); if the board stays
        away, look for it over the whole screen (a moved window); if the problem stays, stop."""

        def back(sight: Sight) -> bool | None:
            if sight.state != BoardState.PLAYING:
                return False
            return self.same_as_tracked(sight) is not None or None  # None: the board changed meanwhile

        self.pause(problem, self.same_as_tracked, back)

    def pause_after_key(self, problem: str, prediction: Prediction) -> None:
        """After a key: wait (bounded) until the board shows again, or is found at another place
        showing the move's board with its new tile; else stop."""

        self.pause(problem, _shows_move(prediction), lambda sight: True, ended=lambda sight: game_over_shown(sight, prediction, self.ctx))

    def printed_elsewhere(self, prediction: Prediction) -> bool:
        """The key seems to have moved nothing: a game that prints each board under the last (a terminal that
        scrolls) leaves the old board where it was and shows the move's board at another place. Search the
        whole screen once for a board of the same size there showing the move's board with its new tile,
        or the board as it was (printed again for a line the game refused); if there is exactly one, move
        everything there (True), and the watch goes on there."""
        ctx = self.ctx
        around = ctx.eyes.look_around()
        if around is None or getattr(ctx.eyes, "profile", None) is None:
            return False

        shows_move = _shows_move(prediction)

        def follows(sight: Sight) -> Grid | None:
            if sight.grid is not None and sight.state == BoardState.PLAYING and agrees_everywhere(sight.grid, prediction.before):
                return prediction.before
            return shows_move(sight)

        frame, monitors = around
        result = find_board_again(frame, monitors, ctx.eyes.profile,
                                  lambda f, profile: ctx.eyes.read_frame(f, profile=profile), follows)
        if result.found is None:
            return False
        self.move_board(result.found, click=False)
        return True

    def pause(self, problem: str, believe: Callable[[Sight], Grid | None], back: Callable[[Sight], bool | None],
              ended: Callable[[Sight], bool] | None = None) -> None:
        """Look again every pause_look_gap_s until the board is where it was, with focus, and
        `back(sight)` is True; while it is away, follow it to another place showing a board `believe`
        accepts. Stop (no key) after safety_wait_s, or at once when `back` says None. `ended(sight)`
        True: the game's own message over the board says it is over (GameOverShown)."""
        ctx, safety = self.ctx, self.guard.safety
        deadline = ctx.clock() + ctx.settings.safety_wait_s
        self._missing_since, self._search_note = None, ""
        while ctx.clock() < deadline:
            ctx.sleep(ctx.settings.pause_look_gap_s)
            sight = ctx.look()
            if ended is not None and ended(sight):
                raise GameOverShown()
            if safety.look.problem(sight.frame) is not None:
                if self.follow_board(believe):
                    safety = self.guard.safety
                    deadline = max(deadline, ctx.clock() + ctx.settings.refound_grace_s)  # time to see it there again
                continue
            self._missing_since = None
            if safety.focus_problem() is None and sight.grid is not None:
                verdict = back(sight)
                if verdict is None:
                    break
                if verdict:
                    return
        note = f"; searched the screen and saw {self._search_note}" if self._search_note else ""
        raise StopPlaying(f"paused, then stopped: {problem}{note}; no key was pressed")

    def same_as_tracked(self, sight: Sight) -> Grid | None:
        """The tracked board, when the sight shows it (still, every tile as tracked); else None."""
        if sight.grid is None or sight.state != BoardState.PLAYING:
            return None
        try:
            return self.ctx.tracker.resume(sight.grid)
        except TrackingError:
            return None

    def follow_board(self, believe: Callable[[Sight], Grid | None]) -> bool:
        """The board has left its place: once it has been away SEARCH_AFTER_S, search the whole
        screen for it (at most every SEARCH_EVERY_S) and, if it is found at another place showing
        the board `believe` accepts, move everything there and focus it. True when it moved."""
        ctx = self.ctx
        now = ctx.clock()
        if self._missing_since is None:
            self._missing_since = now
        if now - self._missing_since < SEARCH_AFTER_S:
            return False
        if self._searched_at is not None and now - self._searched_at < SEARCH_EVERY_S:
            return False
        around = ctx.eyes.look_around()
        if around is None or getattr(ctx.eyes, "profile", None) is None:
            return False
        frame, monitors = around
        result = find_board_again(frame, monitors, ctx.eyes.profile,
                                  lambda f, profile: ctx.eyes.read_frame(f, profile=profile), believe)
        self._searched_at = ctx.clock()
        if result.found is None:
            self._search_note = result.note
            return False
        self.move_board(result.found)
        return True

    def move_board(self, found: Found, click: bool = True) -> None:
        """Everything that knows where the board is moves to its new place; then one click on the
        board there gives it focus (no key yet: the caller reads the board there once more). No click
        where the game printed its board at another place in a window that kept the focus."""
        ctx = self.ctx
        ctx.eyes.move_to(found.profile)
        g = ctx.eyes.geometry
        self.guard.board_moved(g)
        self.guard.learn(found.sight)
        for hear in self.on_moved:
            hear(found)
        self._missing_since, self._search_note = None, ""
        ctx.stats.relocations += 1
        ctx.say(f"screenbot: the board moved to ({g.board_rect.x}, {g.board_rect.y}): carrying on")
        if click:
            self.guard.focus()
