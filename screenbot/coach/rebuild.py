"""Rebuilding a game from the boards seen on its frames: which move leads from one believed board to the next.

Between two believed boards the move is what the rules say it must be: exactly one legal move m
such that apply_move(before, m) plus exactly one new 2 or 4 gives the next board (the live
tracker's `compare`). When no single move does (the frames missed a board: several moves
happened between them), two moves are tried, every pair with every place and value of the new
tile between them, and taken only when exactly one path explains the jump. Anything else is a
**gap**: no move is made up; the game starts again from the next board (a cut, a new game, or too
much happening between two frames).

A single board that follows from nothing but is followed by a board that follows from the one
before it (a frame read while a move was drawing, a misread) is dropped, not believed. Two boards
that tell the same move with a different new tile (a new tile read while it grew in, then grown)
are one move: the one the game goes on from is kept (at the end, the later one). Boards
glimpsed on fewer frames than a belief needs (a video's board that stood still for one frame) are
used only to bridge a jump between believed boards that nothing else explains, and only along a
path where each board follows from the one before by the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Optional, Sequence

from screenbot.game.rules import Grid, Move, apply_move, empty_cells, legal_moves, place
from screenbot.play.tracker import LARGEST_OWN_COLOUR, Prediction, compare, is_big_marker

SPAWN_VALUES = (2, 4)


@dataclass(frozen=True)
class Seen:
    """A believed board and the frame it was believed on."""

    board: Grid
    at: str = ""
    sure: bool = True  # believed (seen on enough frames in a row), or only glimpsed


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
                middle = place(after1, r, c, v)
                for m2, board in _one_move(middle, seen):
                    found.append((m1, middle, m2, board))
    return found


def explain(before: Grid, after, at: str = "", told: str | None = None) -> Explanation:
    """How the seen board `after` follows from the believed board `before` (see Explanation). `told`:
    the key a recording's log says was pressed on `before`; it picks one of several moves that each
    lead to `after` (on a small board two moves often do)."""
    gained = None
    total_before, total_after = _tile_sum(before), _tile_sum(after)
    if total_before is not None and total_after is not None:
        gained = total_after - total_before  # moves keep the sum; each new tile adds 2 or 4
    if gained is None or gained in (2, 4):
        one = _one_move(before, after)
        if len(one) == 1:
            m, board = one[0]
            return Explanation("one", (Step(before, m, at),), board)
        picked = [(m, board) for m, board in one if m.key == told]
        if len(one) > 1 and len(picked) == 1:
            return Explanation("one", (Step(before, picked[0][0], at),), picked[0][1])
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
    dropped: list[Seen] = field(default_factory=list)  # believed, then found to follow from nothing
    boards: int = 0  # believed boards fed in
    two_move_jumps: int = 0  # jumps between two boards explained by a unique pair of moves
    bridged: int = 0  # jumps explained through boards glimpsed on fewer frames than a belief needs
    last: Grid | None = None  # the last board of the game


def _tiles_appeared(before: Grid, after: Grid) -> bool:
    """`after` is `before` with one or more new 2s or 4s in empty cells, and nothing else changed."""
    grew = False
    for row_b, row_a in zip(before, after):
        for b, a in zip(row_b, row_a):
            if b == a:
                continue
            if b != 0 or a not in SPAWN_VALUES:
                return False
            grew = True
    return grew


def _bridge(previous: Seen, glimpses: Sequence[Seen], current: Seen) -> tuple[list[Step], Grid] | None:
    """The moves from `previous` to `current` through one or more glimpsed boards between them, each
    following from the one before by the rules; None unless such a path reaches `current`. A glimpse
    is a single look and may be a misread (a tile caught as it appears): one that follows by the rules
    but leads nowhere is passed over and the glimpses after it tried instead (the first path in their
    order; the dead ends remembered, so a long run of glimpses costs little)."""
    dead: set[tuple[Grid, int, bool]] = set()

    def reach(board: Grid, at: str, k: int, through: bool) -> tuple[list[Step], Grid] | None:
        if (board, k, through) in dead:
            return None
        for j in range(k, len(glimpses)):
            g = glimpses[j]
            if g.board == board:
                continue
            why = explain(board, g.board, at)
            if why.ok and (rest := reach(why.board, g.at, j + 1, True)) is not None:
                return list(why.steps) + rest[0], rest[1]
        why = explain(board, current.board, at)
        if why.ok and through:
            return list(why.steps), why.board
        dead.add((board, k, through))
        return None

    return reach(previous.board, previous.at, 0, False)


class Rebuilder:
    """rebuild() one believed board at a time, for a game followed live (screenbot coach).

    `add(current, glimpses)` takes the next believed board and the boards glimpsed since the last
    one, and returns the moves and gaps it settles. A board that follows from nothing is held back
    until the next believed board tells whether it was a misread (the next follows from the board
    before it: dropped) or a cut (a gap there); `finish()` settles a board still held at the end.
    Fed a whole game, it gives what rebuild() gives. `told`: board -> the key a recording's log says
    was pressed on it (see explain).
    """

    def __init__(self, told: Mapping[Grid, str] | None = None) -> None:
        self.told = dict(told or {})
        self.game = Game()
        self.previous: Seen | None = None
        self._glimpses: list[Seen] = []  # boards glimpsed since `previous` was believed
        self._held: tuple[Seen, Explanation] | None = None  # a board nothing explained, and why
        self._cut = False  # `previous` begins a new stretch after a gap, and no move was rebuilt since
        self._last: Step | None = None  # the move that led to `previous` (None at a start or a cut)

    @property
    def board(self) -> Grid | None:
        """The last board the rebuilt game stands on."""
        return self.previous.board if self.previous is not None else None

    def add(self, current: Seen, glimpses: Sequence[Seen] = ()) -> tuple[list[Step], list[Gap]]:
        game = self.game
        game.boards += 1
        steps: list[Step] = []
        gaps: list[Gap] = []
        if self._held is not None:
            held, why_held = self._held
            self._held = None
            if explain(self.previous.board, current.board).ok:
                game.dropped.append(held)  # this board follows from the last one: the held board was a misread
            elif (retold := self._retold(held)) is not None and explain(retold.board, current.board).ok:
                self._take(retold)  # the game goes on from the held board: the last one misread the new tile
            else:
                gaps.append(self._gap(held, why_held))
                self.previous, self._glimpses, self._cut, self._last = held, [], True, None
        self._glimpses.extend(glimpses)
        previous = self.previous
        if previous is None or current.board == previous.board:
            if previous is None:
                self.previous, self._cut, self._last = current, True, None
            self._glimpses = []
            return steps, gaps
        why = explain(previous.board, current.board, previous.at, self.told.get(previous.board))
        found = (list(why.steps), why.board) if why.ok else None
        if found is None:
            found = _bridge(previous, self._glimpses, current)
            game.bridged += found is not None
        if found is not None:
            game.steps.extend(found[0])
            steps.extend(found[0])
            game.two_move_jumps += why.kind == "two"
            self.previous, self._glimpses, self._cut = Seen(found[1], current.at), [], False
            self._last = found[0][-1]
            return steps, gaps
        if self._cut and why.kind == "none" and _tiles_appeared(previous.board, current.board):
            # a new game's first tiles showing one after the other (drawn in, or grown): the same cut
            self.previous, self._glimpses = current, []
            return steps, gaps
        self._held = (current, why)
        return steps, gaps

    def _retold(self, held: Seen) -> Seen | None:
        """`held` as the outcome of the move that led to the last board, when it is one: the same move
        with another new tile (or the same tile read otherwise); None when it is not."""
        last = self._last
        if last is None:
            return None
        why = explain(last.board, held.board, last.at)
        if why.kind != "one" or why.steps[0].move != last.move:
            return None
        return Seen(why.board, held.at)

    def _take(self, retold: Seen) -> None:
        """The last move's board is `retold`: the board believed for it was a misread (dropped)."""
        self.game.dropped.append(self.previous)
        self.previous, self._glimpses = retold, []

    def _gap(self, held: Seen, why: Explanation) -> Gap:
        gap = Gap(len(self.game.steps), self.previous.at, held.at, why.detail or why.kind, why.kind)
        self.game.gaps.append(gap)
        return gap

    def finish(self) -> Game:
        """Settle a board still held back (a gap: nothing came after it) and return the game."""
        if self._held is not None:
            held, why = self._held
            self._held = None
            retold = self._retold(held)
            if retold is not None:
                self._take(retold)  # the same move, read again: a new tile grows in, the later reading is the grown one
            else:
                self._gap(held, why)
                self.previous, self._glimpses, self._cut, self._last = held, [], True, None
        self.game.last = self.board
        return self.game


def rebuild(seen: Sequence[Seen], told: Mapping[Grid, str] | None = None) -> Game:
    """The moves between consecutive believed boards (see the module's docstring). Boards seen but
    not believed (`sure=False`: on too few frames in a row) only ever bridge a jump that the believed
    boards around them cannot explain. `told`: board -> the key a recording's log says was pressed on it."""
    rebuilder = Rebuilder(told)
    glimpses: list[Seen] = []
    for s in seen:
        if s.sure:
            rebuilder.add(s, glimpses)
            glimpses = []
        else:
            glimpses.append(s)
    return rebuilder.finish()


class Believer:
    """Turns frame-by-frame readings into boards: each new still board is kept in `boards` in order;
    it is believed (`sure`) once `still_frames` frames in a row show it (and, for readings given a
    time `t`, once they span at least `still_s` seconds)."""

    def __init__(self, still_frames: int = 1, still_s: float = 0.0) -> None:
        self.still_frames = max(1, int(still_frames))
        self.still_s = still_s
        self.boards: list[Seen] = []
        self._run: Grid | None = None
        self._count = 0
        self._entry = -1
        self._since: float | None = None  # when the run began (readings given a time)

    @property
    def glimpsed(self) -> int:
        """Boards seen on too few frames in a row to be believed."""
        return sum(1 for s in self.boards if not s.sure)

    @property
    def believed(self) -> list[Seen]:
        return [s for s in self.boards if s.sure]

    def see(self, grid, at: str, frames: int = 1, t: float | None = None) -> Seen | None:
        """One reading (`grid` None: nothing still was seen), standing for `frames` identical frames,
        taken at time `t` (seconds; None: untimed). Returns the board when this reading makes it believed."""
        if grid is None or any(not isinstance(v, int) or v < 0 for row in grid for v in row):
            # unsettled, an overlay, no board, or a big tile nothing could name: the run is broken
            self._run, self._count, self._entry, self._since = None, 0, -1, None
            return None
        grid = tuple(tuple(row) for row in grid)
        if grid != self._run:
            self._run, self._count, self._since = grid, 0, t
            if not self.boards or self.boards[-1].board != grid:
                self.boards.append(Seen(grid, at, False))
            self._entry = len(self.boards) - 1
        self._count += frames
        entry = self.boards[self._entry]
        lasted = t is None or self._since is None or t - self._since >= self.still_s
        if not entry.sure and self._count >= self.still_frames and lasted:
            self.boards[self._entry] = entry = Seen(entry.board, entry.at, True)
            return entry
        return None

    def again(self, frames: int = 1, t: float | None = None) -> Seen | None:
        """The last reading repeated (an unchanged frame that was not read again)."""
        if self._run is None:
            return None
        return self.see(self._run, "", frames, t)


def rebuild_boards(boards: Iterable[Grid]) -> Game:
    """rebuild() for plain boards (tests, and callers that believe boards themselves)."""
    return rebuild([Seen(tuple(tuple(r) for r in b), f"board {i}") for i, b in enumerate(boards)])
