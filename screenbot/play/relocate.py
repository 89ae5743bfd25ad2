"""Finds the board again on the whole screen after its window moved: the same size, showing the game play tracks."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Sequence

from screenbot.board_state import BoardState
from screenbot.control.screen import Frame
from screenbot.game.rules import Grid
from screenbot.geometry import Rect
from screenbot.play.eyes import Sight

# The board must have been missing this long before the screen is searched: a window passing over
# the board is gone again sooner, and a search costs a grab of every monitor.
SEARCH_AFTER_S = 0.5
# Between the end of one search and the start of the next (searching a 4K screen takes ~0.7 s).
SEARCH_EVERY_S = 1.0
# The board found must have the old board's size, and its cells the old cells' sizes and places
# relative to the board, within this many pixels (calibration rounds a fractional board).
SIZE_SLACK_PX = 2
# At most this many boards written as text are tried (a terminal that printed the board again and again).
MAX_TEXT_BOARDS = 6


@dataclass(frozen=True)
class Found:
    """The board at its new place: the old profile shifted there, the board read there, and what
    play believes that board is."""

    profile: object  # calibration Profile
    sight: Sight
    board: Grid


@dataclass(frozen=True)
class ScreenSearch:
    """One look over the whole screen: the board found again (or None) and, if not, what was seen."""

    found: Found | None
    note: str = ""


def same_size(old, new) -> bool:
    """The two profiles describe boards of one size (the same zoom): the board and every cell
    within SIZE_SLACK_PX, the cells at the same places relative to the board."""
    if abs(old.board_rect.w - new.board_rect.w) > SIZE_SLACK_PX or abs(old.board_rect.h - new.board_rect.h) > SIZE_SLACK_PX:
        return False
    dx, dy = new.board_rect.x - old.board_rect.x, new.board_rect.y - old.board_rect.y
    for a, b in zip(old.cells, new.cells):
        moved = a.translated(dx, dy)
        if max(abs(moved.x - b.x), abs(moved.y - b.y), abs(moved.right - b.right), abs(moved.bottom - b.bottom)) > SIZE_SLACK_PX:
            return False
    return True


def find_board_again(
    frame: Frame,
    monitors: Sequence[Rect],
    profile,
    read_at: Callable[[Frame, object], Sight],
    believe: Callable[[Sight], Grid | None],
) -> ScreenSearch:
    """Search the whole-screen `frame` for the board `profile` described, now somewhere else.

    Every board calibration finds is a candidate; one is taken only when it has the old size
    (`same_size`), is at another place, and the board read there with the old profile shifted
    to it is one play believes (`believe` returns that board, or None). Exactly one candidate
    must pass: two boards that would both do are not told apart by guessing.
    """
    from screenbot.calibration import calibrate, find_lattices
    from screenbot.calibration.errors import ManyBoardsError, NoBoardError

    search = find_lattices(frame.pixels)
    passed: list[Found] = []
    notes: list[str] = []
    # the lattices of tiles found, or where there are none, the boards written as text (each picked in turn;
    # one board alone is seen with no pick, a calibration saved)
    picks: list[int | None] = list(range(1, len(search.boards) + 1)) if search.boards else [None]
    while picks:
        pick = picks.pop(0)
        try:
            seen = calibrate(frame, pick=pick, monitors=monitors, scale=profile.scale, source="found again",
                             search=replace(search, boards=list(search.boards)))
        except ManyBoardsError as exc:
            picks = list(range(1, min(len(exc.candidates), MAX_TEXT_BOARDS) + 1))
            continue
        except NoBoardError:
            continue
        where = seen.board_rect.as_list()
        if seen.board_rect == profile.board_rect:
            continue  # still there: whatever is wrong there, the board did not move
        if not same_size(profile, seen):
            notes.append(f"a board of another size at {where} (zoomed or resized?)")
            continue
        moved = profile.moved_to(seen.board_rect, monitor=seen.monitor)
        sight = read_at(frame, moved)
        board = believe(sight)
        if board is None:
            if sight.grid is not None and sight.state == BoardState.PLAYING:
                notes.append(f"a board at {where} showing another position than this game's")
            else:
                notes.append(f"a board at {where} that could not be read ({sight.state})")
            continue
        passed.append(Found(moved, sight, board))
    if len(passed) == 1:
        return ScreenSearch(passed[0])
    if len(passed) > 1:
        notes.append(f"{len(passed)} boards that show this game")
    for x, y, w, h in search.cut_off:
        notes.append(f"a board running off the screen at {[int(x) + frame.left, int(y) + frame.top, int(w), int(h)]}")
    return ScreenSearch(None, "; ".join(notes))
