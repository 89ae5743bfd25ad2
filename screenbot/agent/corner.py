"""Corner play, after macroxue/2048-ai: a corner evaluation and block tables solved on demand.

Ideas read in macroxue/2048-ai at commit fee3359 (node.h: the evaluation; tuple.h: the "Tuple10" and
"Tuple11" tables; 2048.cc: the tables' move wherever they know the board), written anew here (not
copied). The players `corner-v4` (with the tables) and `corner-eval` (without) of
`screenbot.agent.players`.

**The evaluation.** For a line of ranks r0..r3 read from the corner side, with s(r) = r * 2**r:
s(r0) plus, for each neighbouring pair (a, b) = (s(r_i), s(r_i+1)), a + b when a >= b and 12 * (a - b)
(a penalty) when a < b, plus a again when a == b. A board's value is its four rows read from the left
and its four columns read from the top, so big tiles are driven to the top-left corner, in falling
order along the top row and the left column. In the kernel's row table the nibble 0 of a row word is
its left cell, and the transposed board's rows are the columns read from the top, so one table
serves both. The kernel counts a board below 0 as lost (0); a lost board lies 2**17 below macroxue's 0
(LOST_VALUE): each line gets LINE_OFFSET so that a value of 0 lands there.

**The block tables** (`screenbot.agent.block_tables`): wherever a board has a block of big tiles in a
corner that they know, their move is played (macroxue's rule, `BlockTables.suggest`). They are built
once by playing a whole game on them and solving the pair table from its starts (`build_tables`), and
kept in the user cache dir.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from screenbot.agent.base import Decision
from screenbot.agent.block_tables import (BIG, EARLIER_KINDS, EARLIER_VERSION, PAIR, SMALL, SYMMETRIES, BlockTables,
                                         FREES, TableError, default_table_path)
from screenbot.agent.search import ExpectimaxAgent
from screenbot.agent.table_store import SolvedStates
from screenbot.game.bitboard import ROW_COUNT
from screenbot.game.rules import Game, Grid, legal_moves, to_grid

if TYPE_CHECKING:
    from screenbot.agent.table_supply import TableSupply

LOST_VALUE = 2**17  # how far below macroxue's 0 a lost board lies
LINE_OFFSET = LOST_VALUE / 8  # per line: a board at macroxue's -2**17 scores 0 here (lost)
PENALTY = 12  # a rising pair costs 12 times its difference


@njit(cache=True)
def _fill_corner(out, offset):
    for word in range(out.shape[0]):
        r0 = word & 0xF
        score = float(r0 << r0)
        for i in range(3):
            ra = (word >> (4 * i)) & 0xF
            rb = (word >> (4 * i + 4)) & 0xF
            a = float(ra << ra)
            b = float(rb << rb)
            if a >= b:
                score += a + b
            else:
                score += (a - b) * PENALTY
            if a == b:
                score += a
        out[word] = score + offset


def corner_row_table(offset: float = LINE_OFFSET) -> np.ndarray:
    """The corner evaluation of every 16-bit row word, nibble 0 the corner side (float64, read-only)."""
    out = np.zeros(ROW_COUNT, np.float64)
    _fill_corner(out, float(offset))
    out.setflags(write=False)
    return out


class CornerAgent(ExpectimaxAgent):
    """The expectimax agent on the corner evaluation, with the block tables' move wherever they know the
    board (macroxue's rule, see BlockTables.suggest); `tables=None`: the corner evaluation alone, until
    `later` (a TableSupply, table_supply.py) has them ready: they are taken at the start of a decision.
    `solve_budget`: at most this many table states solved per decision (unbounded by default; play
    bounds it so that a board the tables have not met yet costs one move's time, not minutes)."""

    def __init__(self, tables: BlockTables | None = None, depth_cap: int | str | None = None,
                 threads: int | None = None, deepen_gap: float | None = None, deepen_ms: float | None = None,
                 solve_budget: float = np.inf, later: TableSupply | None = None) -> None:
        super().__init__(depth_cap, threads, weights=corner_row_table(), deepen_gap=deepen_gap, deepen_ms=deepen_ms)
        self.block = tables
        self.later = later
        self.solve_budget = solve_budget

    def tables_note(self) -> str | None:
        """Where the tables are while they are not taken yet (for a status line), else None."""
        return self.later.note() if self.block is None and self.later is not None else None

    def table_decision(self, grid: Grid) -> Decision | None:
        """The tables' move and its chance where they know the board, else None."""
        if self.block is None and self.later is not None:
            self.block = self.later.poll(largest=max(max(row) for row in grid))
        if self.block is None:
            return None
        start = time.perf_counter()
        chance, move, _ = self.block.suggest(grid, self.solve_budget)
        if move is None:
            return None
        return Decision(move, {}, 0, (time.perf_counter() - start) * 1000.0, 0, chance=chance)

    def choose(self, board: Grid, budget_ms: float | None = None, depth: int | str | None = None,
               **kwargs) -> Decision:
        grid = to_grid(board, (4, 4))  # the corner tables and search are 4x4 only
        decision = self.table_decision(grid)
        if decision is not None:
            return decision
        return self.search(grid, budget_ms, depth, **kwargs)

    def search(self, board: Grid, budget_ms: float | None = None, depth: int | str | None = None,
               **kwargs) -> Decision:
        """The corner evaluation's search alone (the tables not asked), the board turned so that its
        largest tile sits in the top-left corner (see corner_turn); the values of every legal move.
        (ExpectimaxAgent.choose checks the board, so it is not converted here.)"""
        turn = corner_turn(board)
        if turn is None:
            return super().choose(board, budget_ms, depth, **kwargs)
        source, moves = SYMMETRIES[turn]
        decision = super().choose(_turned(board, source), budget_ms, depth, **kwargs)
        if decision.move is None:
            return decision
        return replace(decision, move=moves[decision.move], values={moves[m]: v for m, v in decision.values.items()})


REORIENT_TILE = 512  # a board whose largest tile, at least this, sits in another corner is searched turned
_CORNER_TURNS = (2, 3, 4)  # SYMMETRIES that bring the top-right, bottom-left, bottom-right corner to the top left


def corner_turn(grid: Grid) -> int | None:
    """The evaluation wants the big tiles in the top-left corner. A game joined half-way (or a corner
    lost) may hold them elsewhere: when the largest tile (at least REORIENT_TILE) is not in the top-left
    corner but in another, the index in SYMMETRIES of the turn that brings it there; else None."""
    top = max(max(row) for row in grid)
    if top < REORIENT_TILE or grid[0][0] == top:
        return None
    for turn in _CORNER_TURNS:
        source, _ = SYMMETRIES[turn]
        if grid[source[0] // 4][source[0] % 4] == top:
            return turn
    return None


def _turned(grid: Grid, source: np.ndarray) -> Grid:
    cells = [grid[i // 4][i % 4] for i in range(16)]
    return tuple(tuple(cells[source[4 * r + c]] for c in range(4)) for r in range(4))


BUILD_SEED = 2001  # the game the build plays
BUILD_DEPTH = 3
BUILD_STEP = 2_000_000  # states solved between two progress reports
BUILD_QUICK = 20_000  # a board needing more new states than this has them solved on BUILD_THREADS threads
BUILD_THREADS = 2
GAME_STATES = 655_000_000  # about what one whole game makes BIG and SMALL solve (654 M measured)
PAIR_STATES = 389_000_000  # what PAIR's starts make it solve (388.5 M counted, 381.9 M kept)
BUILD_STATES = GAME_STATES + PAIR_STATES


def build_tables(progress: Callable[[int], None] | None = None, seed: int = BUILD_SEED,
                 earlier: BlockTables | None = None, threads: int = BUILD_THREADS,
                 hold: Callable[[], bool] | None = None) -> BlockTables:
    """Solve what the tables need: BIG and SMALL by playing one whole game on them (depth BUILD_DEPTH),
    solving every board the game asks about completely first (a big solve on `threads` threads, one
    while `hold()` is true), unless `earlier` (a version-2 file's) has them; then PAIR from its starts.
    progress(states solved so far) now and then. Nearly all the states later games ask about are solved by then (a second and a third
    game add 0.1 % more)."""
    solved = 0
    reported = 0

    def report(now: int) -> None:
        nonlocal reported
        if progress is not None and solved + now - reported >= BUILD_STEP:
            reported = solved + now
            progress(reported)

    if earlier is None:
        tables = _play_build_game(report, seed, threads, hold)
        solved = tables.solved
    else:
        tables = earlier
    tables.tables[PAIR] = solve_pair_table(threads, report, hold)
    return tables


def pair_starts() -> list[Grid]:
    """The boards PAIR is solved from in a build: its block (16384 ... 512) with two new tiles in its free
    cells, every way (180 boards). Nearly all its states are reached from the first (388 M; the other
    179 add 0.04 %)."""
    free = FREES[PAIR]
    starts = []
    for i, a in enumerate(free):
        for b in free[i + 1:]:
            for ta in (2, 4):
                for tb in (2, 4):
                    grid = [[16384, 8192, 4096, 0], [2048, 1024, 512, 0], [0] * 4, [0] * 4]
                    grid[a // 4][a % 4], grid[b // 4][b % 4] = ta, tb
                    starts.append(tuple(tuple(row) for row in grid))
    return starts


def solve_pair_table(threads: int = BUILD_THREADS, report: Callable[[int], None] | None = None,
                     hold: Callable[[], bool] | None = None) -> SolvedStates:
    """PAIR solved whole from its starts (dense while solving: 4.4 GB), compact."""
    pair = BlockTables(kinds=(PAIR,))
    for grid in pair_starts():
        pair.solve_shared(grid, PAIR, threads, report, hold)
    return pair.compact().tables[PAIR]


def _play_build_game(report: Callable[[int], None], seed: int, threads: int = BUILD_THREADS,
                     hold: Callable[[], bool] | None = None) -> BlockTables:
    """BIG and SMALL as one whole game asks for them, compact."""
    tables = BlockTables(kinds=EARLIER_KINDS)
    agent = CornerAgent(tables, threads=1)
    game = Game(seed=seed)
    game.reset()
    try:
        while legal_moves(game.grid):
            while True:  # most boards need few new states (or none); a big solve is shared out
                before = tables.unfinished_by_kind()
                tables.suggest(game.grid, BUILD_QUICK)
                short = [k for k, n in tables.unfinished_by_kind().items() if n != before[k]]
                if not short:
                    break
                # the first table suggest did not finish, as a solve without a budget goes: the same states
                tables.solve_shared(game.grid, min(short, key=(SMALL, BIG).index), threads, report, hold)
            report(tables.solved)
            game.step(agent.choose(game.grid, depth=BUILD_DEPTH).move)
    finally:
        agent.close()
    return tables.compact()


def build_states(path: Path) -> int:
    """About how many states a build of the file at `path` solves: the pair table's alone beside a
    version-2 file."""
    return PAIR_STATES if earlier_table_path(path).exists() else BUILD_STATES


def earlier_table_path(path: Path) -> Path:
    """Where a version-2 file (BIG and SMALL without PAIR) lies beside `path`."""
    return path.parent / f"corner_tables_v{EARLIER_VERSION}.npz"


def earlier_tables(path: Path) -> BlockTables | None:
    """BIG and SMALL from the version-2 file beside `path`, or None."""
    older = earlier_table_path(path)
    if not older.exists():
        return None
    try:
        return BlockTables.load(older, kinds=EARLIER_KINDS, version=EARLIER_VERSION)
    except TableError:
        return None


def load_or_build(path: Path | None = None, progress: Callable[[int], None] | None = None,
                  hold: Callable[[], bool] | None = None) -> tuple[BlockTables, float | None]:
    """The tables from `path` (default: the user cache dir), waited for: mapped from the file, converted
    from numpy's zip file of the same tables beside it, or built and saved there when missing or
    unusable (BIG and SMALL taken from a version-2 file when there is one); (tables, seconds the build
    took, or None when loaded). Play does not wait: table_supply.py."""
    path = default_table_path() if path is None else path
    if path.exists():
        try:
            return BlockTables.load(path), None
        except TableError:
            pass  # rebuilt below and saved over it
    twin = path.with_suffix(".npz")
    if path.suffix != ".npz" and twin.exists():
        try:
            BlockTables.load(twin).save(path)
            twin.unlink()
            return BlockTables.load(path, verify=False), None
        except TableError:
            pass
    start = time.perf_counter()
    tables = build_tables(progress, earlier=earlier_tables(path), hold=hold)
    seconds = time.perf_counter() - start
    tables.save(path)
    del tables  # the file's mapped copy is what is kept
    drop_older_versions(path)
    return BlockTables.load(path, verify=False), seconds


def drop_older_versions(path: Path) -> None:
    """A new file replaces the files of other table versions beside it (1.7 to 2.8 GB each), and its
    own tables in numpy's zip file."""
    for old in (*path.parent.glob("corner_tables_v*.npz"), *path.parent.glob("corner_tables_v*.tables")):
        version = old.name[len("corner_tables_v"):-len(old.suffix)]
        if old.name != path.name and version.isdigit():
            try:
                old.unlink()
            except OSError:
                pass  # not ours to remove after all: it stays
