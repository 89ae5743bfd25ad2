"""The tracker: compares every board seen with the one the rules predict (board + move + one spawn)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Optional, Sequence

from screenbot.errors import ScreenbotError
from screenbot.game.rules import Grid, Move, empty_cells, is_tile, merged_cells, to_grid

if TYPE_CHECKING:
    from screenbot.play.rulebook import RuleBook

# The largest tile the classic palette gives a colour of its own; every tile above it shares one.
LARGEST_OWN_COLOUR = 2048
# What a reader may put in a cell it knows holds a tile above 2048 but cannot name.
BIG_TILE = -1

Cell = tuple[int, int]
Spawn = tuple[int, int, int]  # row, col, value
SeenGrid = Sequence[Sequence[Optional[int]]]


class TrackingError(ScreenbotError):
    """The board on screen does not follow from the last one: the bot will not play on it."""


class UnknownTileError(TrackingError):
    """A tile above 2048 whose value nothing (colour, OCR, history) could tell."""


def is_big_marker(value: Optional[int]) -> bool:
    """True for a cell a reader marked as 'a tile above 2048, value unknown'."""
    return value is None or value == BIG_TILE


def cell_agrees(seen: Optional[int], expected: int) -> bool:
    """A seen cell is consistent with the expected value.

    Above 2048 the classic palette shares one colour, so a reader may name such a tile wrongly
    (any value above 2048) or not at all (BIG_TILE): the tracked history knows the value.
    """
    if seen == expected:
        return True
    if expected > LARGEST_OWN_COLOUR:
        return is_big_marker(seen) or (isinstance(seen, int) and seen > LARGEST_OWN_COLOUR)
    return False


@dataclass(frozen=True)
class Prediction:
    """What the board must look like after `move`: `after` plus one 2 or 4 on one of its empty cells."""

    before: Grid
    move: Move
    after: Grid
    gain: int

    @property
    def spawn_cells(self) -> list[Cell]:
        return empty_cells(self.after)

    @property
    def merged_cells(self) -> list[Cell]:
        """Cells of `after` holding a tile made by a merge (drawn with a 'pop' that overshoots the cell)."""
        return merged_cells(self.before, self.move)

    def with_spawn(self, r: int, c: int, value: int) -> Grid:
        rows = [list(row) for row in self.after]
        rows[r][c] = value
        return tuple(tuple(row) for row in rows)


@dataclass(frozen=True)
class Check:
    """How one seen board compares with a prediction.

    verdict:
      "match"      the predicted board with exactly one new 2 or 4: `board` is it (big tiles
                   filled in from the prediction), `spawn` where the new tile is
      "unchanged"  still the board before the move (the key has not shown yet)
      "no-spawn"   the slid board without its new tile (the spawn is not visible yet)
      "mismatch"   anything else: `differences` lists (row, col, seen, expected) against `after`
    """

    verdict: str
    board: Grid | None = None
    spawn: Spawn | None = None
    differences: tuple[tuple[int, int, object, int], ...] = ()

    @property
    def matched(self) -> bool:
        return self.verdict == "match"


def agrees_everywhere(seen: SeenGrid, expected: Grid) -> bool:
    return all(cell_agrees(seen[r][c], value) for r, row in enumerate(expected) for c, value in enumerate(row))


def compare(seen: SeenGrid, prediction: Prediction, any_value: bool = False) -> Check:
    """Compare a seen board with the prediction (pure; see Check for the verdicts). With `any_value`
    the new tile may hold any power of two (a game that spawns more than 2s and 4s)."""
    after = prediction.after
    differences = []
    spawns = []
    shape = (len(after), len(after[0]))
    for r in range(shape[0]):
        for c in range(shape[1]):
            value, expected = seen[r][c], after[r][c]
            if cell_agrees(value, expected):
                continue
            if expected == 0 and (value in (2, 4) or (any_value and isinstance(value, int) and value > 0
                                                      and is_tile(value, shape))):
                spawns.append((r, c, value))
            else:
                differences.append((r, c, value, expected))
    if not differences and len(spawns) == 1:
        r, c, v = spawns[0]
        return Check("match", prediction.with_spawn(r, c, v), (r, c, v))
    if not differences and not spawns:
        return Check("no-spawn")
    if agrees_everywhere(seen, prediction.before):
        return Check("unchanged")
    extra = tuple((r, c, v, 0) for r, c, v in spawns) if len(spawns) > 1 else ()
    return Check("mismatch", differences=tuple(differences) + extra)


def fill_from(seen: SeenGrid, believed: Grid) -> Grid:
    """`seen` with unnamed or shared-colour big tiles replaced by the believed values."""
    rows = []
    for r, row in enumerate(believed):
        rows.append(tuple(
            value if (value > LARGEST_OWN_COLOUR and cell_agrees(seen[r][c], value)) else seen[r][c]
            for c, value in enumerate(row)
        ))
    return tuple(rows)


def _rule_book():
    from screenbot.play.rulebook import RuleBook  # it builds on this module's Prediction and compare

    return RuleBook()


@dataclass
class Tracker:
    """Holds the board the bot believes in and checks each new sight of the screen against the rules.

    `begin(seen)` takes the first board (it must name every tile: a game joined mid-way needs its
    big tiles read, e.g. by OCR); afterwards `predict(move)` and `check(seen, prediction)` tell
    whether a board on screen follows, and `accept(check, prediction)` moves the belief on.
    """

    board: Grid | None = None
    score: int = 0
    moves: int = 0
    misreads: int = 0
    history: list[Grid] = field(default_factory=list)
    spawns: list[Spawn] = field(default_factory=list)
    no_spawn_moves: list[int] = field(default_factory=list)  # moves after which the game added no tile
    rules: RuleBook = field(default_factory=_rule_book)  # the game's rules as seen so far
    scores: list[int] = field(default_factory=list)  # the score at each board of `history`
    early_spawn: Spawn | None = None  # the last new tile, when it was read while it grew in

    def begin(self, seen: SeenGrid, score: int = 0) -> Grid:
        shape = (len(seen), len(seen[0]))
        cells = [v for row in seen for v in row]
        unknown = [divmod(i, shape[1]) for i, v in enumerate(cells) if is_big_marker(v)]
        if unknown:
            r, c = unknown[0]
            raise UnknownTileError(
                f"the tile at row {r + 1}, column {c + 1} is above 2048 but its value could not be read; "
                "start the bot before that tile appears, or make sure tesseract is installed"
            )
        if any(not isinstance(v, int) or not is_tile(v, shape) for v in cells):
            raise TrackingError(f"not a board: {[list(row) for row in seen]}")
        self.board = to_grid(seen)
        self.score = score
        self.history.append(self.board)
        self.scores.append(self.score)
        return self.board

    def predict(self, move: Move) -> Prediction:
        if self.board is None:
            raise TrackingError("the tracker has no board yet: call begin() with the first reading")
        prediction = self.rules.predict(self.board, move)
        if prediction.after == self.board:
            raise TrackingError(f"{Move(move).key} does not change the board: the agent chose an illegal move")
        return prediction

    def check(self, seen: SeenGrid, prediction: Prediction) -> Check:
        return compare(seen, prediction)

    def accept(self, check: Check, prediction: Prediction) -> Grid:
        if not check.matched or check.board is None:
            raise TrackingError(f"cannot accept a board that does not match ({check.verdict})")
        self._advance(prediction, check.board)
        if check.spawn is not None:
            self.spawns.append(check.spawn)
            self.rules.saw_spawn(check.spawn[2])
        return self.board

    def explain(self, seen: SeenGrid, prediction: Prediction):
        """A board that does not follow by the rules known so far, explained by a variant (see
        play.rulebook), or None."""
        return self.rules.explain(seen, prediction)

    def adopt(self, explanation) -> tuple[Grid, list[str]]:
        """Believe an explained board and keep its variant: the board and the rules new to the book."""
        notes = self.rules.adopt(explanation)
        return self.accept(explanation.check, explanation.prediction), notes

    def amended(self, prediction: Prediction) -> Prediction | None:
        """`prediction` made from the last board with its new tile as the other of 2 and 4 (a tile read
        too soon, while it grew in), or None when the last board had no new 2 or 4. Its `after` equals
        its `before` when the key moves nothing on that board."""
        if not self.spawns or len(self.history) < 2 or prediction.before != self.board:
            return None
        r, c, v = self.spawns[-1]
        if v not in (2, 4) or self.board[r][c] != v:
            return None
        rows = [list(row) for row in self.board]
        rows[r][c] = 6 - v
        before = tuple(tuple(row) for row in rows)
        return self.rules.predict(before, prediction.move)

    def amend(self, amended: Prediction) -> bool:
        """Believe the last board with its new tile amended (see `amended`): one misread. True when that
        tile had been read while it grew in."""
        r, c, v = self.spawns[-1]
        early = self.early_spawn is not None
        self.board = amended.before
        self.history[-1] = amended.before
        self.spawns[-1] = (r, c, 6 - v)
        self.rules.spawn_counts[v] -= 1
        self.rules.spawn_counts[6 - v] += 1
        self.early_spawn = None
        self.misreads += 1
        return early

    def go_back(self) -> Grid:
        """The board went back to the one before the last move (the game's undo)."""
        if len(self.history) < 2:
            raise TrackingError("no move to take back")
        self.history.pop()
        self.scores.pop()
        if self.rules.steps:
            self.rules.steps.pop()
        self.board, self.score = self.history[-1], self.scores[-1]
        self.moves -= 1
        return self.board

    def accept_without_spawn(self, prediction: Prediction) -> Grid:
        """The move's board with no new tile: some games add none after certain moves (e.g. the
        one that first makes 2048). Only for a board seen still that way for a while."""
        self._advance(prediction, prediction.after)
        self.no_spawn_moves.append(self.moves)
        return self.board

    def _advance(self, prediction: Prediction, board: Grid) -> None:
        if prediction.before != self.board:
            raise TrackingError("the prediction was made from another board")
        self.rules.saw_move(prediction)
        self.early_spawn = None  # the watcher marks a new tile read while it grew in
        self.board = board
        self.score += prediction.gain
        self.moves += 1
        self.history.append(self.board)
        self.scores.append(self.score)

    def note_misread(self) -> None:
        """Count one board that disagreed with the prediction and had to be read again."""
        self.misreads += 1

    def resume(self, seen: SeenGrid) -> Grid:
        """The same game seen again (e.g. after an overlay): keep big tiles from the belief."""
        if self.board is None:
            return self.begin(seen)
        filled = fill_from(seen, self.board)
        if not agrees_everywhere(filled, self.board):
            raise TrackingError("the board changed while the bot was not playing")
        return self.board
