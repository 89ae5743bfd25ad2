"""The one place that makes players: `make_player(name, **options)`.

Every command that plays or judges (play, demo, hint, bench, coach, review) and the play loop's
default get their agent here, so a library user's `make_player()` plays as `screenbot play` does.

The players, by name (a name with a version changes only with a new version of what it plays):
- `corner-v4` (the default): the corner evaluation's search with play's three block tables
  (version 4 of the table file: BIG, SMALL and PAIR) after macroxue/2048-ai; where the tables know
  the board their move is played. The tables are built once into the user cache dir, in the
  background (table_supply.py): until they are ready the search plays alone.
- `corner-eval`: the same search without the tables.
- `plain`: the search on nneonneo/2048-ai's evaluation.
Their strength, measured: docs/strength.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from screenbot.errors import UsageError

if TYPE_CHECKING:
    from screenbot.agent.base import Agent
    from screenbot.agent.block_tables import BlockTables
    from screenbot.agent.table_supply import TableSupply


@dataclass(frozen=True)
class PlayerSpec:
    name: str
    summary: str  # one line, for help texts
    tables: bool = False  # plays the corner block tables (they must be loaded, or built once)
    evaluation: str = "plain"  # the search's evaluation: "plain" (nneonneo's) or "corner" (macroxue's)
    shapes: str = "4x4"  # the boards it plays: "4x4", "3x3", or "other" (every size but 4x4)

    def plays(self, shape: tuple[int, int]) -> bool:
        if self.shapes == "other":
            return tuple(shape) != (4, 4)
        return tuple(shape) == {"4x4": (4, 4), "3x3": (3, 3)}[self.shapes]


PLAYERS = {spec.name: spec for spec in (
    PlayerSpec("corner-v4", "the corner evaluation's search with three block tables after macroxue/2048-ai "
                            "(built once into the user cache dir)", tables=True, evaluation="corner"),
    PlayerSpec("corner-eval", "the corner evaluation's search without the tables", evaluation="corner"),
    PlayerSpec("plain", "the search on nneonneo/2048-ai's evaluation"),
    PlayerSpec("exact-3x3", "3x3 boards: the exact solution, the best move there is (built once into the user "
                            "cache dir)", shapes="3x3"),
    PlayerSpec("any-size", "boards other than 4x4: the search with an evaluation for their size", shapes="other"),
)}
DEFAULT_PLAYER = "corner-v4"
# The demo's: it shows a game at once and the same on every machine, with no tables to make or map.
DEMO_PLAYER = "plain"
# What a command plays when play's tables cannot be had now (not enough memory): the strongest player
# without them (docs/strength.md).
WITHOUT_TABLES = "plain"
PLAY_SOLVE_BUDGET = 50_000  # table states a decision may solve (~20 ms); a board it does not finish is searched


def default_player(shape: tuple[int, int] = (4, 4)) -> str:
    """What plays a board of this shape (rows, cols) when no player is named."""
    shape = tuple(shape)
    if shape == (4, 4):
        return DEFAULT_PLAYER
    return "exact-3x3" if shape == (3, 3) else "any-size"


def player_for(name: str | None, shape: tuple[int, int] = (4, 4)) -> str:
    """The player `name` (None: the default for the shape), checked to play boards of this shape; a
    UsageError in one line otherwise."""
    if name is None:
        return default_player(shape)
    spec = player_spec(name)
    if not spec.plays(shape):
        rows, cols = shape
        raise UsageError(f"the player {name!r} plays {spec.shapes} boards, not {rows}x{cols}: "
                         f"try --player {default_player(shape)}")
    return name


def player_spec(name: str) -> PlayerSpec:
    """The player of this name; a UsageError naming the players otherwise."""
    try:
        return PLAYERS[name]
    except (KeyError, TypeError):
        raise UsageError(f"no player named {name!r}: one of {', '.join(PLAYERS)}") from None


def make_player(name: str = DEFAULT_PLAYER, *, tables: BlockTables | TableSupply | None = None,
                wait: bool = False, depth_cap: int | str | None = None, deepen_gap: float | None = None,
                deepen_ms: float | None = None, threads: int | None = None,
                solve_budget: float = PLAY_SOLVE_BUDGET, shape: tuple[int, int] = (4, 4)) -> Agent:
    """A new agent of the player `name`. `tables` (players with tables only): play's block tables, loaded,
    or a TableSupply they come from. Without them they come from the user cache dir as play has them:
    the agent searches with the corner evaluation alone until they are ready (mapped from the file in
    seconds, or made there first by a background job: minutes), or, with `wait`, they are waited for.
    `depth_cap`, `deepen_gap`, `deepen_ms`, `threads`: the search's settings (None: its defaults).
    `solve_budget`: table states one decision may solve (play's by default). `shape`: the boards it will
    play (rows, cols); a player that does not play them is a UsageError."""
    spec = player_spec(player_for(name, shape))
    if spec.shapes == "3x3":
        from screenbot.agent.exact3 import Exact3Agent

        agent = Exact3Agent()
        if wait:
            agent.warm_up()  # the solution made (once) or mapped now
        return agent
    if spec.shapes == "other":
        from screenbot.agent.any_size import AnySizeAgent

        return AnySizeAgent()
    if tables is not None and not spec.tables:
        raise ValueError(f"the player {name!r} plays no tables")
    search = dict(depth_cap=depth_cap, threads=threads, deepen_gap=deepen_gap, deepen_ms=deepen_ms)
    if spec.evaluation == "plain":
        from screenbot.agent.search import ExpectimaxAgent

        return ExpectimaxAgent(**search)
    from screenbot.agent.corner import CornerAgent
    from screenbot.agent.table_supply import TableSupply

    if not spec.tables:
        return CornerAgent(None, **search)
    if tables is not None and not isinstance(tables, TableSupply):
        return CornerAgent(tables, solve_budget=solve_budget, **search)
    supply = (TableSupply() if tables is None else tables).start()
    if wait:
        return CornerAgent(supply.wait(), solve_budget=solve_budget, **search)
    return CornerAgent(None, solve_budget=solve_budget, later=supply, **search)


PLAYER_HELP = ("the player: " + "; ".join(f"'{s.name}' {s.summary}" for s in PLAYERS.values())
               + f" (default {DEFAULT_PLAYER!r}, what play plays)")
