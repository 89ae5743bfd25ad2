"""`calibrate --probe`: one arrow key, pressed only into the board the user points at, tells a 2048 board from a look-alike by how it answers; where no board is drawn round the tiles, a few keys show where its cells are (probe_bare)."""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from screenbot.board_state import BoardState
from screenbot.calibration.bare import TILE_DIFF, Sighting, find_tiles, lattice_from, tile_rects
from screenbot.calibration.lattice import Lattice
from screenbot.control.keyboard import Keyboard
from screenbot.control.screen import Frame, Screen
from screenbot.errors import ScreenbotError
from screenbot.game.rules import Move, legal_moves
from screenbot.geometry import Point, Rect
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


# A board with nothing drawn but its tiles (calibration/bare.py): keys show where its cells are.
BARE_KEYS = (Move.LEFT, Move.UP, Move.RIGHT, Move.DOWN) * 3  # each side twice over at most, then once more
BARE_STILL_S = 0.15  # the tiles stand still when two grabs this far apart show them alike
BARE_SETTLE_S = 3.0  # how long a key's move may take to stand still
BARE_AROUND = 1.5  # the tiles' place: their box grown by this many tiles each way


def probe_bare(frame: Frame, screen: Screen, keyboard: Keyboard, profile_of: Callable[[Frame, Lattice], Profile],
               scale: float = 1.0, focus_watch_for=None, clock: Clock | None = None,
               say: Callable[[str], None] = print) -> Profile:
    """The board of a game that draws its tiles alone (no board, no empty cells: `frame` shows a few tiles
    on a plain background), placed by pressing arrow keys into the window under the mouse pointer and
    watching where the tiles stand after each (calibration.bare). Kept once its lattice is known and the
    last key moved it as a 2048 move does. Raises ProbeError, with nothing pressed when the pointer is not
    on the background beside the tiles."""
    clock = clock or Clock()
    found_tiles = find_tiles(frame.pixels)
    tiles = [t.translated(frame.left, frame.top) for t in found_tiles.rects] if found_tiles is not None else []
    if not tiles:
        raise ProbeError("no board and no tiles on a plain background were found: show the whole game and try again "
                         "(nothing was pressed)")
    w, h = tiles[0].w, tiles[0].h
    box = Rect.from_edges(min(t.x for t in tiles), min(t.y for t in tiles), max(t.right for t in tiles),
                          max(t.bottom for t in tiles))
    grow_x, grow_y = round(BARE_AROUND * w), round(BARE_AROUND * h)
    whole = Rect(frame.left, frame.top, frame.pixels.shape[1], frame.pixels.shape[0])
    area = Rect.from_edges(box.x - grow_x, box.y - grow_y, box.right + grow_x, box.bottom + grow_y).intersection(whole)
    say(f"screenbot: {len(tiles)} tile(s) with no board drawn round them: point the mouse at the game's background "
        f"beside them and leave it there; arrow keys are pressed in {POINT_WAIT_S:g} s to see where the tiles go")
    clock.sleep(POINT_WAIT_S)
    at = keyboard.pointer()
    if at is None:
        raise ProbeError("cannot ask where the mouse pointer is on this desktop, so no key is pressed into a board "
                         "that draws its tiles alone (nothing was pressed)")
    x, y = round(at.x * scale), round(at.y * scale)
    if area is None or not area.contains(Point(x, y)) or any(t.contains(Point(x, y)) for t in tiles) \
            or not _on_background(frame, x, y, found_tiles.background):
        raise ProbeError(f"the mouse pointer at ({at.x}, {at.y}) is not on the background beside the tiles: point there "
                         "and try again (nothing was pressed)")
    ctx = PlayContext(None, PlaySettings(), clock, say)
    guard = Guard(ctx, keyboard, focus_watch_for(area) if focus_watch_for else None)
    sightings = [Sighting(None, tuple(tiles))]
    frames = [frame]
    try:
        guard.click_unread(x, y, area, scale)
        for move in BARE_KEYS:
            guard.press_unread(move)
            after = _tiles_still(screen, whole, clock)
            if after is None:
                raise ProbeError(f"the picture did not stand still within {BARE_SETTLE_S:g} s of {move.key}: "
                                 "not calibrated, nothing saved")
            seen = tuple(t.translated(after.left, after.top) for t in tile_rects(after.pixels))
            sightings.append(Sighting(move, seen))
            frames.append(after)
            found = lattice_from(sightings)
            if found.refused:
                if all(set(s.tiles) == set(sightings[0].tiles) for s in sightings):
                    raise ProbeError(f"no key moved the tiles ({', '.join(m.key for m in BARE_KEYS[:len(sightings) - 1])}): "
                                     "a picture of a game, or keys that do not reach it: not calibrated, nothing saved")
                raise ProbeError(f"{found.refused}: not calibrated, nothing saved")
            if found.lattice is not None:
                return _answered(frames[-2], after, move, _local(found.lattice, after), profile_of, say)
    except StopPlaying as exc:
        raise ProbeError(f"{exc}: calibrate again") from None
    raise ProbeError(f"after {len(BARE_KEYS)} keys the tiles had not shown {found.missing}: not calibrated, nothing saved")


def _on_background(frame: Frame, x: int, y: int, background) -> bool:
    """Whether the picture shows the tiles' background colour at (x, y) (captured pixels)."""
    px = frame.pixels[y - frame.top, x - frame.left].astype(int)
    return max(abs(px - np.array(background))) <= TILE_DIFF


def _tiles_still(screen: Screen, region: Rect, clock: Clock) -> Frame | None:
    """A grab of `region` once two grabs BARE_STILL_S apart are the same and show tiles (a new tile grown
    in, slid tiles at rest)."""
    deadline = clock() + BARE_SETTLE_S
    before = screen.grab(region)
    while clock() < deadline:
        clock.sleep(BARE_STILL_S)
        now = screen.grab(region)
        if np.array_equal(now.pixels, before.pixels) and tile_rects(now.pixels):
            return now
        before = now
    return None


def _local(lattice: Lattice, frame: Frame) -> Lattice:
    """A lattice in screen pixels moved into `frame`'s own (its pixel [0, 0] at the frame's left, top)."""
    from dataclasses import replace

    return replace(lattice, x0=lattice.x0 - frame.left, y0=lattice.y0 - frame.top)


def _answered(before: Frame, after: Frame, move: Move, lattice: Lattice, profile_of, say) -> Profile:
    """The profile of `lattice`, once the boards it reads before and after the last key follow as a 2048
    move does (the slid board plus one new tile; a key that moved nothing leaves the board as it was)."""
    from screenbot.vision.reader import read_board

    profile = profile_of(after, lattice)
    boards = []
    for f in (before, after):
        try:
            reading = read_board(f, profile)
        except ScreenbotError as exc:
            raise ProbeError(f"the tiles' lattice is found but the board on it cannot be read ({exc}): "
                             "not calibrated, nothing saved") from None
        if reading.grid is None or reading.state != BoardState.PLAYING:
            raise ProbeError(f"the tiles' lattice is found but the board on it reads {reading.state}: "
                             "not calibrated, nothing saved")
        boards.append(tuple(tuple(r) for r in reading.grid))
    tracker = Tracker()
    tracker.begin(boards[0])
    if move in legal_moves(boards[0]):
        check, _ = tracker.rules.follows(boards[1], tracker.predict(move))
        if not check.matched:
            raise ProbeError(f"the tiles did not answer {move.key} as a 2048 board does (the slid board plus one new "
                             "tile): not calibrated, nothing saved")
    elif boards[1] != boards[0]:
        raise ProbeError(f"the board changed on {move.key}, a key that moves nothing in 2048: not calibrated, nothing saved")
    say(f"screenbot: the tiles stand on a {lattice.rows}x{lattice.cols} board, found by {move.key} and the keys before it")
    return profile
