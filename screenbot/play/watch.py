"""Watching a move land: after a key, poll the board until it shows the predicted board with its new tile, and believe it."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np

from screenbot.board_state import BoardState
from screenbot.game.rules import Grid
from screenbot.play.context import GameOverShown, PlayContext, StopPlaying
from screenbot.play.eyes import Sight
from screenbot.play.guard import Guard
from screenbot.play.overlay import WinOverlay
from screenbot.play.pace import FirstSight, FramePace, RedrawStyle
from screenbot.play.pause import Pauser, game_over_shown
from screenbot.play.record import Recording
from screenbot.play.spawn import Sighting
from screenbot.play.stats import MoveTiming
from screenbot.play.thinker import Thinker
from screenbot.play.rulebook import Explanation
from screenbot.play.tracker import Check, Prediction, agrees_everywhere, compare


_NOT_YET = object()  # a value not worked out yet
# A move drawn in one piece changes the board's pixels at most twice after its key: the new board, and
# once more when a look caught the redraw half-way (an animation changes them on every frame).
ONE_PIECE_CHANGES = 2
# The board's frames: two changes seen in a row less than FRAME_GAP_MAX_S apart are frames of one redraw; once
# MIN_FRAME_GAPS were seen, a board is believed only once still FRAME_SLACK times their median (the last FRAME_GAPS).
FRAME_GAP_MAX_S = 0.1
MIN_FRAME_GAPS = 3
FRAME_GAPS = 40
FRAME_SLACK = 1.3


class Standing:
    """One picture of the screen held until it changes: whether it has stood still long enough."""

    def __init__(self) -> None:
        self.first: tuple[np.ndarray, float] | None = None  # (pixels, time) of its first sight

    @property
    def watching(self) -> bool:
        return self.first is not None

    def still_for(self, sight: Sight, seconds: float) -> bool:
        """Whether the screen has shown `sight`'s pixels for `seconds` (never on their first sight)."""
        if self.first is None or not np.array_equal(self.first[0], sight.frame.pixels):
            self.first = (sight.frame.pixels.copy(), sight.t)
            return False
        return sight.t - self.first[1] >= seconds

    def forget(self) -> None:
        self.first = None


class Watcher:
    """Watches the board after each key: reads the new tile while it grows in when this game's
    colours allow it (and meanwhile has the thinker search the boards the move can make), else once
    it is still; accepts only the predicted board; re-reads what disagrees; stops (frames saved) when
    the board keeps disagreeing."""

    def __init__(self, ctx: PlayContext, guard: Guard, pauser: Pauser, overlay: WinOverlay, record: Recording,
                 thinker: Thinker | None = None, spawn_reader=None) -> None:
        self.ctx = ctx
        self.guard = guard
        self.pauser = pauser
        self.overlay = overlay
        self.record = record
        self.thinker = thinker
        self.spawn_reader = spawn_reader
        self.pace = FramePace()
        self.still_gap_s = ctx.settings.still_gap_s  # how long a board must stand still to be believed
        self.frame_gaps: list[float] = []  # seconds between two changes of the board seen in a row (its frames)
        self.redraw = RedrawStyle()
        self.first_sight = FirstSight()  # whether this game's boards can be believed on two looks in a row
        self.key_trial = None  # play.keys_trial.KeyTrial while the game's keys are being learned
        self._rng = random.Random(0)  # the order of the guessed cells
        pauser.on_moved.append(self._board_moved)

    def _still_for(self) -> float:
        """How long a board must show the same pixels to be believed: the still gap, and longer than one of
        this game's frames (a game drawing 50 or 30 frames a second holds a growing tile that long)."""
        if len(self.frame_gaps) < MIN_FRAME_GAPS:
            return self.still_gap_s
        return max(self.still_gap_s, FRAME_SLACK * float(np.median(self.frame_gaps)))

    def _board_moved(self, found) -> None:
        if self.spawn_reader is not None:
            from screenbot.play.spawn import SpawnReader

            self.spawn_reader = SpawnReader.for_profile(found.profile)
            self.spawn_reader.learn(found.sight.frame, found.board)

    def first_board(self, sight: Sight, board: Grid) -> None:
        """The first board believed: learn its look (new tiles are read by their colours)."""
        if self.spawn_reader is not None:
            self.spawn_reader.learn(sight.frame, board)

    def watch(self, prediction: Prediction, think_ms: float, agent_ms: float) -> Grid:
        """Watch the board after a key until it shows the predicted board with its new tile: read
        while the tile grows in when this game's colours allow it, else once it is still."""
        key_t = self.ctx.clock()
        timing = (think_ms, agent_ms)
        # the still watch from the key on, in a game not seen animating its new tiles: this move may
        # teach (or use) that its boards are drawn in one piece
        from_key = self.spawn_reader is None or self.redraw.at_once
        if self.spawn_reader is not None:
            if not self.spawn_reader.ready_for(prediction):
                self.ctx.stats.read_still["a colour not seen on a still board yet"] += 1
            elif self.redraw.watch_growth():
                board = self.watch_growing(prediction, key_t, timing)
                if board is not None:
                    return board
                from_key = False  # watched late: the frames it missed taught nothing
            else:
                self.ctx.stats.read_still["the game redraws at once"] += 1
                if self.thinker is not None:
                    self.thinker.expect(self.guesses(prediction, key_t))  # while the new board is drawn
        return self.watch_still(prediction, key_t, timing, from_key)

    def watch_growing(self, prediction: Prediction, key_t: float, timing: tuple[float, float]) -> Grid | None:
        """Grab frames (no full read) until the new tile is known while it grows in. Meanwhile the
        thinker searches the boards the move can make (a 2 in each empty cell, then, once the
        tile's cell shows, a 2 and a 4 there) and the window side of the safety check runs.
        None: not read early (the tile outgrew the watched window, something else moved, or time
        ran out); the still read takes over.

        Rests while no frame can show anything new (see play.pace)."""
        ctx, pace, read_still = self.ctx, self.pace, self.ctx.stats.read_still
        watch = self.spawn_reader.watch(prediction)
        if self.thinker is not None:
            self.thinker.expect(self.guesses(prediction, key_t))
        as_keyed, _ = self._glance_and_see(watch)  # the board as the key left it: cells seen empty before anything moves
        recheck = self.redraw.at_once  # a game taken to redraw at once, looked at again for a growing tile
        keyed = watch.signature(as_keyed.frame) if recheck else None
        rest = pace.quiet_ms() / 1000 - (ctx.clock() - key_t)
        if rest > 0:
            ctx.sleep(rest)
        self.guard.forget_window_check()
        cell = None  # where the new tile grows
        first_t = last_empty_t = None  # grab times: the tile's first frame, the last frame before it
        signature, changed_t = None, None  # to time the page's frames
        seen = None
        t = ctx.clock()
        while t - key_t < ctx.settings.early_give_up_s:
            self.guard.check_window_while_watching(t)
            sight, seen = self._glance_and_see(watch)
            now_signature = watch.signature(sight.frame)
            if now_signature != signature:
                if changed_t is not None:
                    pace.saw_frame_change((sight.t - changed_t) * 1000)
                signature, changed_t = now_signature, sight.t
            elif recheck and cell is None and sight.t - changed_t >= self.still_gap_s and (
                    signature != keyed or any(look.kind == "other" for look in seen.looks.values())):
                # the board changed, or shows a whole tile where one may come, and stood still with nothing
                # growing: drawn at once, as learned (no need to wait longer; were it wrong, the still read
                # that follows reads the board all the same)
                read_still["the new board stood still with no tile growing"] += 1
                self.redraw.saw(grew=False)
                return None
            if seen.cell is not None and cell is None:
                cell, first_t = seen.cell, sight.t
                pace.saw_first_frame((first_t - key_t) * 1000)
                if self.thinker is not None and seen.spawn is None:
                    r, c = cell  # its value shows on a later frame: think about both, the likelier first
                    first = seen.looks[cell].likely or 2
                    self.thinker.expect([prediction.with_spawn(r, c, first), prediction.with_spawn(r, c, 6 - first)])
            if seen.spawn is not None:
                self.redraw.saw(grew=True)
                check = Check("match", prediction.with_spawn(*seen.spawn), seen.spawn)
                ctx.stats.early_reads += 1
                board = self.believe(check, prediction, sight, key_t, timing, learn=False)
                ctx.tracker.early_spawn = seen.spawn
                return board
            if seen.cell is None:
                if cell is not None:
                    # the new tile outgrew the window unread, or something passed over it
                    self.redraw.saw(grew=True)
                    look = seen.looks.get(cell)
                    read_still[f"the new tile: {look.why if look is not None else 'gone'}"] += 1
                    return None
                last_empty_t = sight.t
            elif seen.cell != cell:
                read_still["another cell showed a tile"] += 1
                return None
            elif sight.t == first_t and last_empty_t is not None:
                # the tile's first frame did not tell its value: rest until its next frame can come
                rest = pace.next_frame_rest_ms((ctx.clock() - last_empty_t) * 1000) / 1000
                if rest > 0:
                    ctx.sleep(rest)
            t = ctx.clock()
        whys = sorted({look.why or look.kind for look in seen.looks.values()}) if seen is not None else []
        read_still["no new tile in time" + (f" ({'; '.join(whys)})" if whys else "")] += 1
        self.redraw.saw(grew=cell is not None)
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
                left_ms = min(self.pace.first_ms) - (self.ctx.clock() - key_t) * 1000
                boards = boards[:max(0, int(left_ms // max(search_ms, 0.1)) + 1)]
        return boards

    def _glance_and_see(self, watch) -> tuple[Sight, Sighting]:
        sight = self.ctx.glance()
        seen = watch.see(sight.frame)
        return replace(sight, ms=(self.ctx.clock() - sight.t) * 1000), seen  # grab and spawn reading

    def watch_still(self, prediction: Prediction, key_t: float, timing: tuple[float, float],
                    from_key: bool = False) -> Grid:
        """Poll the board until it shows the predicted board with its new tile fully grown;
        re-read what disagrees; stop if it keeps disagreeing. `from_key`: watched from the key on, in
        a game not seen animating (see FirstSight)."""
        ctx, s = self.ctx, self.ctx.settings
        candidate = None  # (board, spawn cell pixels, time) of the first sight that matched
        first = None  # (board, spawn cell pixels) of the move's very first sight that matched
        at_once = from_key and self.first_sight.two_looks_enough()  # two looks in a row alike are enough
        last_pixels = None  # the look before this one
        changes = 0  # looks whose pixels differed from the look before (a game drawn in one piece: at most 2)
        no_spawn = Standing()  # the slid board without a new tile
        went_back = Standing()  # the board before the last move
        amended_still = Standing()  # the last board with its new tile amended, the key lost on it
        amended = _NOT_YET  # the prediction from the last board with its new tile amended (tracker.amended)
        misread = False
        check: Check | None = None
        overlay_cleared_t: float | None = None
        repressed = False
        searched_for = None  # the key after which the screen was searched for the board printed elsewhere
        last_change_t = None
        while True:
            sight = ctx.look()
            same = last_pixels is not None and np.array_equal(last_pixels, sight.frame.pixels)
            changes += from_key and last_pixels is not None and not same
            if last_pixels is not None and not same:
                if last_change_t is not None and sight.t - last_change_t < FRAME_GAP_MAX_S:
                    self.frame_gaps = (self.frame_gaps + [sight.t - last_change_t])[-FRAME_GAPS:]
                last_change_t = sight.t
            last_pixels = sight.frame.pixels
            if sight.state == BoardState.WON:
                # "You win!" came up (moves are ignored until "Keep going"): dismiss it and watch on
                self.overlay.keep_going(sight, resume=False, move=prediction.move, after=prediction.after)
                overlay_cleared_t = ctx.clock()
                continue
            if (
                not repressed and check is not None and check.verdict == "unchanged"
                and (overlay_cleared_t is not None or self.first_sight.trusted)
                and ctx.clock() - (key_t if overlay_cleared_t is None else overlay_cleared_t) > s.misread_after_s
            ):
                # the key met the overlay and was ignored, or came within milliseconds of the game's last
                # redraw (a game played on two looks) and was lost: press it again, once
                self.guard.press(prediction.move)
                repressed, key_t = True, ctx.clock()
            if self.guard.safety is not None and (sight.grid is None or sight.state == BoardState.NO_BOARD):
                problem = self.guard.safety.problem(sight.frame, prediction.merged_cells)
                if problem is not None and ctx.clock() - key_t > s.misread_after_s:
                    self.pauser.pause_after_key(problem, prediction)
                    key_t = ctx.clock()
                    continue
            readable = sight.grid is not None and sight.state in (BoardState.PLAYING, BoardState.OVER)
            lines = self.key_trial is None or self.key_trial.keys == "wasd+enter"
            if searched_for != key_t and ctx.clock() - key_t > s.key_try_s and (not readable or (
                    lines and ctx.tracker.rules.follows(sight.grid, prediction)[0].verdict == "unchanged")):
                # once a key, where it seems to have moved nothing: the move's board printed at another place
                # (a terminal that scrolls), the old one left where it was or scrolled away? While the keys are
                # learned, only for a letter and Enter where the board still stands (a game that prints its
                # boards one under another reads its moves as lines; the other key sets are tried at once)
                searched_for = key_t
                if self.pauser.printed_elsewhere(prediction):
                    continue
            if not readable:
                # what the screen shows now is not the board as it was: a key is pressed again only while the
                # last look still shows the board unmoved (a board read unmoved, then changed to one not read,
                # took the key)
                check = None
            if readable:
                # a variant of the rules may explain the board (believed once still, like any)
                check, explained = ctx.tracker.rules.follows(sight.grid, prediction)
                if (check.verdict == "unchanged" and self.key_trial is not None
                        and ctx.clock() - key_t > s.key_try_s):
                    keys = self.key_trial.next_keys()
                    if keys is not None:  # the key moved nothing: the same move in the next key set
                        self.guard.press_with(keys, prediction.move)
                        key_t = ctx.clock()
                        continue
                follows = prediction  # the prediction the board matches
                if check.verdict == "mismatch":
                    if amended is _NOT_YET:
                        amended = ctx.tracker.amended(prediction)
                    if amended is not None and amended.after != amended.before:
                        amended_check = compare(sight.grid, amended)
                        if amended_check.matched:
                            check, follows = amended_check, amended
                    elif amended is not None and agrees_everywhere(sight.grid, amended.before):
                        check = Check("amended")  # the key moved nothing on the board as it truly was
                if check.matched:
                    r, c, _ = check.spawn
                    pixels = sight.frame.crop(ctx.eyes.geometry.cells[r * len(sight.grid[0]) + c]).pixels
                    again = candidate is not None and candidate[0] == check.board and np.array_equal(candidate[1], pixels)
                    if not again:
                        candidate = (check.board, pixels.copy(), sight.t)
                        if first is None:
                            first = candidate[:2]
                    if again and ((at_once and same) or sight.t - candidate[2] >= self._still_for()):
                        if from_key and not at_once:
                            self.first_sight.saw(final=first[0] == check.board and np.array_equal(first[1], pixels)
                                                 and changes <= ONE_PIECE_CHANGES)
                        if follows is not prediction:
                            self.amend_read(follows)
                        return self.believe(check, follows, sight, key_t, timing, learn=True, explained=explained)
                else:
                    candidate = None
                    if check.verdict == "amended":
                        if amended_still.still_for(sight, s.no_spawn_still_s):
                            self.amend_read(amended)
                            self._timed(sight, key_t, timing)
                            return ctx.tracker.board
                    elif check.verdict == "mismatch" and self._went_back(sight.grid):
                        if went_back.still_for(sight, s.no_spawn_still_s):
                            return self.believe_undo(sight, key_t, timing)
                    else:
                        went_back.forget()
                    # a board with no new tile is watched for stillness only once it is overdue (not
                    # while an animated game is still drawing its new tile: no work on the usual path)
                    if (check.verdict == "no-spawn" and sight.state == BoardState.PLAYING
                            and ctx.clock() - key_t > s.misread_after_s):
                        if no_spawn.still_for(sight, s.no_spawn_still_s):
                            return self.believe_no_spawn(prediction, sight, key_t, timing)
                    else:
                        no_spawn.forget()
                    if (check.verdict == "mismatch" and not misread and not went_back.watching
                            and ctx.clock() - key_t > s.misread_after_s):
                        misread = True
                        ctx.tracker.note_misread()
            # the board has settle_timeout_s to show up from the key, or from the win message's dismissal
            # when the key brought one up (dismissing it takes its own time, longer on a busy machine)
            since = key_t if overlay_cleared_t is None else max(key_t, overlay_cleared_t)
            if ctx.clock() - since > s.settle_timeout_s:
                if game_over_shown(sight, prediction, ctx):
                    raise GameOverShown()
                raise self.desync(prediction, check, sight)
            if s.poll_gap_s:
                ctx.sleep(s.poll_gap_s)

    def believe(self, check: Check, prediction: Prediction, sight: Sight, key_t: float,
                timing: tuple[float, float], learn: bool, explained: Explanation | None = None) -> Grid:
        if explained is None:
            board = self.ctx.tracker.accept(check, prediction)
        else:
            board, notes = self.ctx.tracker.adopt(explained)
            for note in notes:
                if self.ctx.stats.note_rule(note):
                    self.ctx.say(f"screenbot: note: a rule of this game: {note}; playing on")
        if learn and self.spawn_reader is not None:
            self.spawn_reader.learn(sight.frame, board)
        self._timed(sight, key_t, timing)
        return board

    def believe_no_spawn(self, prediction: Prediction, sight: Sight, key_t: float, timing: tuple[float, float]) -> Grid:
        """The slid board stood still with no new tile: a rule of this game (say so once)."""
        ctx = self.ctx
        board = ctx.tracker.accept_without_spawn(prediction)
        if len(ctx.tracker.no_spawn_moves) == 1:
            ctx.say(f"screenbot: note: the game added no new tile after move {ctx.tracker.moves} "
                    "(a rule of this game): playing on")
        self._timed(sight, key_t, timing)
        return board

    def amend_read(self, amended: Prediction) -> None:
        """The last new tile was the other of 2 and 4 (the board now on screen follows from that one):
        believe it so and count a misread. A tile read while it grew in means this game's animation
        does not fit the spawn reader: new tiles are read once still from now on; one read still means
        the game's frames came slower than the still gap: the gap doubles (to 0.2 s at most). Said."""
        ctx = self.ctx
        r, c, v = ctx.tracker.spawns[-1]
        self.first_sight.distrust()
        if ctx.tracker.amend(amended):
            self.spawn_reader = None
            then = "reading new tiles once they stand still from now on"
        else:
            self.still_gap_s = min(0.2, 2 * self.still_gap_s + 0.01)
            then = f"a board must now stand still {self.still_gap_s * 1000:.0f} ms to be believed"
        ctx.say(f"screenbot: note: the new tile at row {r + 1}, column {c + 1} was a {6 - v}, not the {v} read; "
                f"{then}")

    def _went_back(self, seen) -> bool:
        """The screen shows the board from before the last move believed (the game took it back)."""
        history = self.ctx.tracker.history
        return len(history) >= 2 and agrees_everywhere(seen, history[-2])

    def believe_undo(self, sight: Sight, key_t: float, timing: tuple[float, float]) -> Grid:
        """The board before the last move stood still: the game took the move back (say so once)."""
        ctx = self.ctx
        board = ctx.tracker.go_back()
        if ctx.stats.note_rule("undo: the board went back one move"):
            ctx.say("screenbot: note: the board went back one move (an undo): playing on from it")
        self._timed(sight, key_t, timing)
        return board

    def _timed(self, sight: Sight, key_t: float, timing: tuple[float, float]) -> None:
        """The believed move's figures. read: the look that was believed; wait: the rest of the watch
        (the animation)."""
        ctx = self.ctx
        wait_ms = (ctx.clock() - key_t) * 1000 - sight.ms
        think_ms, agent_ms = timing
        ctx.stats.timings.append(MoveTiming(sight.ms, think_ms, max(wait_ms, 0.0), agent_ms))
        ctx.stats.last_read_ms = sight.ms

    def desync(self, prediction: Prediction, check: Check | None, sight: Sight) -> StopPlaying:
        if check is None:
            what = f"the board could not be read (state {sight.state}{': ' + sight.why if sight.why else ''})"
        elif check.verdict == "unchanged" and self.key_trial is not None:
            what = (f"the board did not move with any key tried ({self.key_trial.tried()}): did the window "
                    "lose focus, or does the game take other keys?")
        elif check.verdict == "unchanged":
            what = "the key did not reach the game (the board did not move; did the window lose focus?)"
        elif check.verdict == "no-spawn":
            what = "the board moved but no new tile appeared"
        elif check.verdict == "match":
            what = "the board after the move never stood still long enough to be read"
        else:
            cells = ", ".join(
                f"row {r + 1} col {c + 1} shows {v if v is not None else '?'} (expected {e or 'empty'})"
                for r, c, v, e in check.differences[:4]
            )
            what = f"the board on screen does not follow from the last move: {cells}"
        folder = self.record.save_stop(what, prediction.move, prediction.before, prediction.after, sight.frame,
                                       sight.state, sight.grid)
        return StopPlaying(f"{what}; frames saved in {folder}", diagnostics=str(folder))
