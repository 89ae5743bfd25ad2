"""Rebuilding a game from the boards seen on its frames: which move leads from one believed board to the next.

Between two believed boards the move is what the rules say it must be: exactly one legal move m
such that apply_move(before, m) plus exactly one new 2 or 4 gives the next board (the live
tracker's `compare`). When no single move does (the frames missed a board: several moves
happened between them), two moves are tried, every pair with every place and value of the new
tile between them, and taken only when exactly one path explains the jump. Anything else is a
**gap**: no move is made up; the game starts again from the next board (a cut, a new game, or too
much happening between two frames).

A single board that follows from nothing but is followed by a board that follows from the one
before it (a frame read while a move was drawing, a misread) is dropped, not believed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

from screenbot.game.rules import Grid, Move, apply_move, empty_cells, legal_moves
from screenbot.play.tracker import LARGEST_OWN_COLOUR, Prediction, compare, is_big_marker

SPAWN_VALUES = (2, 4)


@dataclass(frozen=True)
class Seen:
    """A believed board and the frame it was believed on."""

    board: Grid
    at: str = ""


@dataclass(frozen=True)
class Step:
    """One move of the rebuilt game: the board it was played on and the move."""

    board: Grid
    move: Move
    at: str = ""  # the frame the board was seen on ("" for a board between two frames)


@dataclass(frozen=True)
class Explanation:
    """How `after` follows from `before`.

    kind: "one" (one move), "two" (two moves, unique), "none" (no move or pair of moves), "ambiguous"
    (more than one). `steps` (for one/two) are the moves with the boards they were played on;
    `board` is the next board with unnamed big tiles filled in from the rules.
    """

    kind: str
    steps: tuple[Step, ...] = ()
    board: Grid | None = None
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.kind in ("one", "two")


def _with(after: Grid, r: int, c: int, v: int) -> Grid:
    rows = [list(row) for row in after]
    rows[r][c] = v
    return tuple(tuple(row) for row in rows)


def _tile_sum(board) -> Optional[int]:
    """The sum of the tiles; None when a tile is above 2048 (a reader may name those wrongly or not
    at all: the rules fill them in) or not a number."""
    total = 0
    for row in board:
        for v in row:
            if is_big_marker(v) or not isinstance(v, int) or v > LARGEST_OWN_COLOUR:
                return None
            total += v
    return total


def _one_move(before: Grid, seen) -> list[tuple[Move, Grid]]:
    found = []
    for m in legal_moves(before):
        after, gain = apply_move(before, m)
        check = compare(seen, Prediction(before, m, after, gain))
        if check.matched:
            found.append((m, check.board))
    return found


def _two_moves(before: Grid, seen) -> list[tuple[Move, Grid, Move, Grid]]:
    found = []
    for m1 in legal_moves(before):
        after1, _ = apply_move(before, m1)
        for r, c in empty_cells(after1):
            for v in SPAWN_VALUES:
                middle = _with(after1, r, c, v)
                for m2, board in _one_move(middle, seen):
                    found.append((m1, middle, m2, board))
    return found


def explain(before: Grid, after, at: str = "") -> Explanation:
    """How the seen board `after` follows from the believed board `before` (see Explanation)."""
    gained = None
    total_before, total_after = _tile_sum(before), _tile_sum(after)
    if total_before is not None and total_after is not None:
        gained = total_after - total_before  # moves keep the sum; each new tile adds 2 or 4
    if gained is None or gained in (2, 4):
        one = _one_move(before, after)
        if len(one) == 1:
            m, board = one[0]
            return Explanation("one", (Step(before, m, at),), board)
        if len(one) > 1:
            return Explanation("ambiguous", detail="moves " + " and ".join(m.key for m, _ in one)
                               + " both lead to this board")
    if gained is None or gained in (4, 6, 8):
        two = _two_moves(before, after)
        paths = {(m1, middle, m2) for m1, middle, m2, _ in two}
        if len(paths) == 1:
            m1, middle, m2, board = two[0]
            return Explanation("two", (Step(before, m1, at), Step(middle, m2, "")), board)
        if len(paths) > 1:
            return Explanation("ambiguous", detail=f"{len(paths)} pairs of moves lead to this board")
    if gained is not None and gained <= 0:
        return Explanation("none", detail="fewer tiles than a move and a new tile would leave (a new game or a cut?)")
    return Explanation("none", detail="no move or pair of moves leads to this board")


@dataclass(frozen=True)
class Gap:
    """Where the game could not be followed: after `moves_before` rebuilt moves, between two boards."""

    moves_before: int
    before_at: str
    after_at: str
    reason: str
    kind: str = "none"  # "none": nothing explains the jump; "ambiguous": more than one thing does

    def as_json(self) -> dict:
        return {"after_move": self.moves_before, "from": self.before_at, "to": self.after_at, "kind": self.kind,
                "reason": self.reason}


@dataclass
class Game:
    """A rebuilt game: the moves (with the boards they were played on), the gaps, the boards dropped."""

    steps: list[Step] = field(default_factory=list)
    gaps: list[Gap] = field(default_factory=list)
    dropped: list[Seen] = field(default_factory=list)  # believed once, then found to follow from nothing
    boards: int = 0  # believed boards fed in
    two_move_jumps: int = 0
    last: Grid | None = None  # the last board of the game


def rebuild(seen: Sequence[Seen]) -> Game:
    """The moves between consecutive believed boards (see the module's docstring)."""
    game = Game(boards=len(seen))
    previous: Seen | None = None
    k = 0
    while k < len(seen):
        current = seen[k]
        if previous is None or current.board == previous.board:
            previous = previous or current
            k += 1
            continue
        why = explain(previous.board, current.board, previous.at)
        if why.ok:
            game.steps.extend(why.steps)
            game.two_move_jumps += why.kind == "two"
            previous = Seen(why.board, current.at)
            k += 1
            continue
        if k + 1 < len(seen) and explain(previous.board, seen[k + 1].board).ok:
            game.dropped.append(current)  # the next board follows from the last: this one was a misread
            k += 1
            continue
        game.gaps.append(Gap(len(game.steps), previous.at, current.at, why.detail or why.kind, why.kind))
        previous = current
        k += 1
    game.last = previous.board if previous is not None else None
    return game


class Believer:
    """Turns frame-by-frame readings into believed boards: a board is believed once `still_frames`
    frames in a row show it, and only when it differs from the last board believed."""

    def __init__(self, still_frames: int = 1) -> None:
        self.still_frames = max(1, int(still_frames))
        self.boards: list[Seen] = []
        self._run: Grid | None = None
        self._count = 0
        self._at = ""

    def see(self, grid, at: str, frames: int = 1) -> Seen | None:
        """One reading (`grid` None: nothing still was seen), standing for `frames` identical frames."""
        if grid is None or any(not isinstance(v, int) or v < 0 for row in grid for v in row):
            # unsettled, an overlay, no board, or a big tile nothing could name: the run is broken
            self._run, self._count = None, 0
            return None
        grid = tuple(tuple(row) for row in grid)
        if grid != self._run:
            self._run, self._count, self._at = grid, 0, at
        before = self._count
        self._count += frames
        if before < self.still_frames <= self._count:
            if not self.boards or self.boards[-1].board != grid:
                seen = Seen(grid, self._at)
                self.boards.append(seen)
                return seen
        return None

    def again(self, frames: int = 1) -> Seen | None:
        """The last reading repeated (an unchanged frame that was not read again)."""
        if self._run is None:
            return None
        return self.see(self._run, self._at, frames)


def rebuild_boards(boards: Iterable[Grid]) -> Game:
    """rebuild() for plain boards (tests, and callers that believe boards themselves)."""
    return rebuild([Seen(tuple(tuple(r) for r in b), f"board {i}") for i, b in enumerate(boards)])
