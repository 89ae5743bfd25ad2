"""`calibrate --probe`: one arrow key, pressed only into the board the user points at, tells a 2048 board from a look-alike by how it answers."""

from __future__ import annotations

from typing import Callable, Sequence

from screenbot.board_state import BoardState
from screenbot.control.keyboard import Keyboard
from screenbot.control.screen import Screen
from screenbot.errors import ScreenbotError
from screenbot.game.rules import Move, legal_moves
from screenbot.geometry import Point
from screenbot.play.context import Clock, PlayContext, StopPlaying
from screenbot.play.eyes import ScreenEyes
from screenbot.play.guard import Guard
from screenbot.play.settings import PlaySettings
from screenbot.play.tracker import Tracker
from screenbot.profile import Profile

POINT_WAIT_S = 3.0  # time for the user to point at the game before the pointer is read
ANSWER_WAIT_S = 1.5  # how long the board may take to show the move
LOOK_GAP_S = 0.03


class ProbeError(ScreenbotError):
    """The probe pressed nothing (no board under the pointer) or the board did not answer as a 2048 does."""


def probe(candidates: Sequence[Profile], screen: Screen, keyboard: Keyboard, focus_watch_for=None,
          clock: Clock | None = None, say: Callable[[str], None] = print) -> Profile:
    """The candidate under the mouse pointer, once one key pressed into it moved its tiles as a 2048
    move does (the slid board plus one new 2 or 4). Raises ProbeError, with nothing pressed when no
    single candidate is under the pointer."""
    clock = clock or Clock()
    say(f"screenbot: point the mouse at the game's board and leave it there; one arrow key is pressed in {POINT_WAIT_S:g} s")
    clock.sleep(POINT_WAIT_S)
    at = keyboard.pointer()
    if at is None:
        raise ProbeError("cannot ask where the mouse pointer is on this desktop: calibrate with --pick N instead")
    under = [p for p in candidates
             if p.board_rect.contains(Point(round(at.x * p.scale), round(at.y * p.scale)))]
    if len(under) != 1:
        where = f"({at.x}, {at.y})"
        raise ProbeError(f"the mouse pointer at {where} is not on {'one' if under else 'any'} of the "
                         f"{len(candidates)} boards found: point at the game's board and try again (nothing was pressed)")
    profile = under[0]
    eyes = ScreenEyes(screen, profile)
    ctx = PlayContext(eyes, PlaySettings(), clock, say)
    guard = Guard(ctx, keyboard, focus_watch_for(profile.board_rect) if focus_watch_for else None)
    before = _still_board(ctx)
    if before is None:
        raise ProbeError("the board under the pointer is not a still, readable 2048 board (nothing was pressed)")
    legal = legal_moves(before)
    if not legal:
        raise ProbeError("no move is possible on the board under the pointer (nothing was pressed)")
    move = next(m for m in (Move.LEFT, Move.RIGHT, Move.UP, Move.DOWN) if m in legal)
    tracker = Tracker()
    tracker.begin(before)
    prediction = tracker.predict(move)
    guard.learn(ctx.last_sight)
    try:
        guard.focus()
        guard.press(move)
    except StopPlaying as exc:
        raise ProbeError(f"{exc}: calibrate again") from None
    deadline = clock() + ANSWER_WAIT_S
    matched = None
    while clock() < deadline:
        sight = ctx.look()
        if sight.grid is not None and sight.state == BoardState.PLAYING:
            check, _ = tracker.rules.follows(sight.grid, prediction)  # a 2048 with rules of its own too
            if check.matched:
                if matched == check.board:
                    say(f"screenbot: the board answered {move.key} as a 2048 board does")
                    return profile
                matched = check.board
        clock.sleep(LOOK_GAP_S)
    raise ProbeError(f"the board did not answer {move.key} as a 2048 board would (the slid board plus one new tile): "
                     "not calibrated, nothing saved")


def _still_board(ctx: PlayContext):
    """The board read twice the same, or None within a second."""
    previous = None
    deadline = ctx.clock() + 1.0
    while ctx.clock() < deadline:
        sight = ctx.look()
        if sight.grid is not None and sight.state == BoardState.PLAYING:
            grid = tuple(tuple(r) for r in sight.grid)
            if grid == previous:
                return grid
            previous = grid
        ctx.sleep(LOOK_GAP_S)
    return None
