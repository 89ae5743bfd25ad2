"""Corner play, after macroxue/2048-ai: a corner evaluation and two block tables solved on demand.

Ideas read in macroxue/2048-ai at commit fee3359 (node.h: the evaluation; tuple.h: the "Tuple10" and
"Tuple11" tables; 2048.cc: the tables' move wherever they know the board), written anew here (not
copied). `play --corner`, `bench --corner table`.

**The evaluation.** For a line of ranks r0..r3 read from the corner side, with s(r) = r * 2**r:
s(r0) plus, for each neighbouring pair (a, b) = (s(r_i), s(r_i+1)), a + b when a >= b and 12 * (a - b)
(a penalty) when a < b, plus a again when a == b. A board's value is its four rows read from the left
and its four columns read from the top, so big tiles are driven to the top-left corner, in falling
order along the top row and the left column. In the kernel's row table the nibble 0 of a row word is
its left cell, and the transposed board's rows are the columns read from the top, so one table
serves both. The kernel counts a board below 0 as lost (0); macroxue's lost board is worth
-max(2**17, ...): each line gets LINE_OFFSET so that a value of 0 lands there.

**The block tables.** A block of big tiles in the top-left corner (BLOCKS), the other cells free, each
capped (CAPS). A board is "regular" for a table when the block's neighbours differ and fall as
`_anchor` says, and the free cells stay below the anchor (a tile of the block) by each cell's margin
(LIMITS). The goal (`_is_goal`) is a chain lined up in the free cells, one merge sequence from a new
anchor-sized tile. A table holds, for every arrangement of the free cells, the best chance of reaching
the goal with the block never moving, and the move that gets it. As macroxue does, one table serves
every block: it is solved with the block prefilled (PREFILLS: the largest anchor), so a board with a
smaller anchor is scored by its chance of building up to that goal without moving the block. States
are solved on demand, depth first from the board asked about, and kept (2 bytes each: the key spaces
are 2.1 G and 1.2 G states; one whole game asks for 654 M of them).
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
from numba import njit

from screenbot.agent.base import Decision
from screenbot.agent.search import ExpectimaxAgent
from screenbot.game.bitboard import ROW_COUNT, execute_move, to_bitboard
from screenbot.game.rules import Game, Grid, Move, legal_moves, to_grid

LOST_VALUE = 2**17  # macroxue's lost board, below a board's value of 0
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


# ---- the block tables ------------------------------------------------------------------------
# Cells are numbered 4 * row + column. Two tables (macroxue's "Tuple11" and "Tuple10"):
#  - BIG (kind 0): the 3 x 2 block of rows 0-1, columns 0-2; ten free cells; anchors up to 1024.
#  - SMALL (kind 1): row 0's first three cells and row 1's first two; eleven free cells, (1, 2) among
#    them, the cell being built; anchors up to 128. Played only where it is at least SMALL_SURE.

BIG, SMALL = 0, 1
BLOCKS = ((0, 1, 2, 4, 5, 6), (0, 1, 2, 4, 5))
FREES = ((3, 7, 8, 9, 10, 11, 12, 13, 14, 15), (3, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))  # key digits, most significant first
CAPS = ((10, 9, 10, 9, 8, 8, 8, 8, 8, 8), (7, 8, 7, 7, 7, 7, 7, 6, 6, 6, 6))  # ranks a free cell holds: 0 .. cap - 1
# a free cell holds at most anchor - limit (0: no such bound; the small table's built cell is bounded in `_anchor`)
LIMITS = ((1, 2, 1, 2, 3, 3, 3, 3, 3, 3), (1, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2))
MAX_ANCHORS = (10, 7)  # 1024, 128
PREFILLS = ((15, 14, 13, 12, 11, 10), (15, 14, 13, 12, 11))  # the block each table is solved with
SMALL_SURE = 0.9
STATES = tuple(int(np.prod(c, dtype=np.int64)) for c in CAPS)

_FREE = np.full((2, 11), -1, np.int64)
_CAPS = np.ones((2, 11), np.int64)
_LIMITS = np.zeros((2, 11), np.int64)
for _k in (BIG, SMALL):
    _n = len(FREES[_k])
    _FREE[_k, :_n], _CAPS[_k, :_n], _LIMITS[_k, :_n] = FREES[_k], CAPS[_k], LIMITS[_k]
del _k, _n
_NFREE = np.array([len(f) for f in FREES], np.int64)
_BLOCK_MASK = np.array([sum(0xF << (4 * c) for c in b) for b in BLOCKS], np.uint64)
_PREFILL_BITS = np.array([sum(r << (4 * c) for r, c in zip(p, b)) for p, b in zip(PREFILLS, BLOCKS)], np.uint64)
_M4 = np.uint64(0xF)
Q = 16382  # chances are kept in 1/Q steps


@njit(cache=True, inline="always")
def _at(b, cell):
    return np.int64((b >> np.uint64(4 * cell)) & _M4)


@njit(cache=True)
def _anchor(b, kind):
    """The anchor rank when the board's block is regular for this table, else -1."""
    t00 = _at(b, 0)
    t01 = _at(b, 1)
    t02 = _at(b, 2)
    t10 = _at(b, 4)
    t11 = _at(b, 5)
    t12 = _at(b, 6)
    if t00 == t01 or t01 == t02 or t00 == t10 or t01 == t11:
        return -1
    if kind == BIG:
        if t10 == t11 or t11 == t12 or t02 <= t12:
            return -1
        a = min(t10, t11, t12)
        if a > MAX_ANCHORS[BIG]:
            return -1
    else:
        # row 1 falls from the left into the cell being built, which stays below the tile above it
        if t10 <= t11 or t11 <= t12 or t02 <= t12 or t11 == t02 or t12 > MAX_ANCHORS[SMALL]:
            return -1
        a = min(MAX_ANCHORS[SMALL], t11, t02)
    for i in range(_NFREE[kind]):
        if _LIMITS[kind, i] and _at(b, _FREE[kind, i]) > a - _LIMITS[kind, i]:
            return -1
    return a


@njit(cache=True)
def _is_goal(b, a, kind):
    """BIG: a chain a-1, a-2, a-3, a-3 lined up in the free cells, one merge sequence from a new
    anchor-sized tile: along row 2 from the left (the last a-3 beside the first), or down column 3.
    SMALL: the cell (1, 2) holds g = min(MAX, smaller of its two big neighbours - 1) with a g-1 beside
    it and another beside that, or a g-1, g-2, g-2 down column 3."""
    if kind == BIG:
        if _at(b, 8) == a - 1 and _at(b, 9) == a - 2:
            if _at(b, 10) == a - 3 and (_at(b, 14) == a - 3 or _at(b, 11) == a - 3):
                return True
            if _at(b, 13) == a - 3 and (_at(b, 12) == a - 3 or _at(b, 14) == a - 3):
                return True
        return (_at(b, 3) == a - 1 and _at(b, 7) == a - 2 and _at(b, 11) == a - 3
                and (_at(b, 10) == a - 3 or _at(b, 15) == a - 3))
    g = min(MAX_ANCHORS[SMALL], min(_at(b, 5), _at(b, 2)) - 1)
    if _at(b, 6) != g:
        return False
    if _at(b, 7) == g - 1 and (_at(b, 3) == g - 1 or _at(b, 11) == g - 1):
        return True
    if _at(b, 3) == g - 1 and _at(b, 7) == g - 2 and _at(b, 11) == g - 2:
        return True
    return _at(b, 10) == g - 1 and (_at(b, 9) == g - 1 or _at(b, 14) == g - 1 or _at(b, 11) == g - 1)


@njit(cache=True)
def _key(b, kind):
    k = np.int64(0)
    for i in range(_NFREE[kind]):
        k = k * _CAPS[kind, i] + _at(b, _FREE[kind, i])
    return k


W_SOLVED = 0  # work[]: states solved so far ...
W_LIMIT = 1  # ... and how many a call may solve before it gives up (the states it finished are kept)


@njit(cache=True)
def _solve(b, table, kind, work):
    """The best chance from board b (after its new tile; block prefilled and regular), stored with its
    move; -1.0 when work[W_LIMIT] states were solved first (only finished states are ever stored, so
    a later call goes on from there)."""
    k = _key(b, kind)
    e = table[k]
    if e != 0:
        return ((np.int64(e) - 1) >> 2) / Q
    if work[W_SOLVED] >= work[W_LIMIT]:
        return -1.0
    best = 0.0
    best_move = 0
    mask = _BLOCK_MASK[kind]
    block = b & mask
    for m in range(4):
        nb, _ = execute_move(b, m)
        if nb == b or (nb & mask) != block:
            continue
        a = _anchor(nb, kind)
        if a < 0:
            continue
        if _is_goal(nb, a, kind):
            p = 1.0
        else:
            twos = 0.0
            fours = 0.0
            empty = 0
            for i in range(_NFREE[kind]):
                cell = _FREE[kind, i]
                if _at(nb, cell) == 0:
                    empty += 1
                    shift = np.uint64(4 * cell)
                    p2 = _solve(nb | (np.uint64(1) << shift), table, kind, work)
                    if p2 < 0.0:
                        return -1.0
                    p4 = _solve(nb | (np.uint64(2) << shift), table, kind, work)
                    if p4 < 0.0:
                        return -1.0
                    twos += p2
                    fours += p4
            p = (0.9 * twos + 0.1 * fours) / empty
        if p > best:
            best = p
            best_move = m
    q = np.int64(best * Q + 0.5)
    table[k] = np.uint16(1 + best_move + 4 * q)
    work[W_SOLVED] += 1.0
    return q / Q


@njit(cache=True)
def _lookup(b, table, kind, work):
    """(chance, move) for an oriented board whose block is regular and not at its goal, solved first
    if need be; (-1.0, 0) when the solve ran out of work[W_LIMIT]."""
    k = _key(b, kind)
    if table[k] == 0:
        if _solve((b & ~_BLOCK_MASK[kind]) | _PREFILL_BITS[kind], table, kind, work) < 0.0:
            return -1.0, np.int64(0)
    e = np.int64(table[k]) - 1
    return (e >> 2) / Q, e & 3


def _symmetries() -> list[tuple[np.ndarray, dict[Move, Move]]]:
    """The 8 symmetries: for each, where each oriented cell comes from, and each oriented move's
    original move."""
    maps = [
        lambda r, c: (r, c), lambda r, c: (c, r), lambda r, c: (r, 3 - c), lambda r, c: (3 - r, c),
        lambda r, c: (3 - r, 3 - c), lambda r, c: (c, 3 - r), lambda r, c: (3 - c, r), lambda r, c: (3 - c, 3 - r),
    ]
    vectors = {Move.UP: (-1, 0), Move.DOWN: (1, 0), Move.LEFT: (0, -1), Move.RIGHT: (0, 1)}
    out = []
    for f in maps:
        source = np.zeros(16, np.int64)  # oriented cell i holds the original cell source[i]
        for r in range(4):
            for c in range(4):
                orow, ocol = f(r, c)
                source[4 * orow + ocol] = 4 * r + c
        moves = {}
        for move, (dr, dc) in vectors.items():
            a, b = f(1, 1), f(1 + dr, 1 + dc)
            oriented = (b[0] - a[0], b[1] - a[1])
            moves[next(m for m, v in vectors.items() if v == oriented)] = move
        out.append((source, moves))
    return out


SYMMETRIES = _symmetries()


class TableError(Exception):
    """A block table file that cannot be used (corrupt, another version)."""


TABLE_VERSION = 1
CHUNK = 1 << 16  # a table's length is rounded up to a multiple of this
BLOCK_STATES = 1 << 20  # files keep the solved states bitmap only of blocks of this many states that hold any


def _header() -> bytes:
    parts = [f"{b}:{f}:{c}:{lim}:{m}:{p}" for b, f, c, lim, m, p in zip(BLOCKS, FREES, CAPS, LIMITS, MAX_ANCHORS, PREFILLS)]
    return f"screenbot corner block tables v{TABLE_VERSION} q{Q} ".encode() + ";".join(parts).encode()


def _digest(arrays: dict[str, np.ndarray]) -> str:
    h = hashlib.sha256(_header())
    for name in sorted(arrays):
        h.update(name.encode())
        h.update(np.ascontiguousarray(arrays[name]).tobytes())
    return h.hexdigest()


def default_table_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("screenbot")) / f"corner_tables_v{TABLE_VERSION}.npz"


class BlockTables:
    """The two block tables in memory, solved as boards ask for them (and kept in a file between runs)."""

    def __init__(self, kinds: tuple[int, ...] = (SMALL, BIG)) -> None:
        # 2.4 GB and 4.2 GB of address space, touched page by page as states are solved (one whole
        # game touches nearly all of it)
        self.tables = {kind: np.zeros(-(-STATES[kind] // CHUNK) * CHUNK, np.uint16) for kind in kinds}
        self.work = np.zeros(2, np.float64)
        self.solved = 0  # states solved since made or loaded
        self.unfinished = 0  # lookups that ran out of their budget

    def suggest(self, grid: Grid, budget: float = np.inf) -> tuple[float, Move | None, int]:
        """macroxue's order: the small table's move where it is at least SMALL_SURE, else the big
        table's where it is above 0: (chance, move, kind); (0.0, None, -1) when neither applies. Each
        table takes the best chance over the board's 8 orientations whose block is regular and not at
        its goal. States not solved yet are solved first, at most `budget` of them per call: a board
        whose solve does not finish in it counts as unknown this time (the solve goes on from where it
        stopped next time)."""
        board = to_bitboard(grid)
        cells = [(board >> (4 * i)) & 0xF for i in range(16)]
        oriented = []
        for source, moves in SYMMETRIES:
            word = 0
            for i in range(16):
                word |= cells[source[i]] << (4 * i)
            oriented.append((np.uint64(word), moves))
        self.work[W_SOLVED] = 0.0
        self.work[W_LIMIT] = budget
        try:
            for kind in (SMALL, BIG):
                if kind not in self.tables:
                    continue
                best, best_move = 0.0, None
                for b, moves in oriented:
                    a = _anchor(b, kind)
                    if a < 0 or _is_goal(b, a, kind):
                        continue
                    p, m = _lookup(b, self.tables[kind], kind, self.work)
                    if p < 0.0:
                        self.unfinished += 1
                        if kind == BIG:  # the big table's word counts only when every orientation is known
                            return 0.0, None, -1
                    elif p > best:
                        best, best_move = p, moves[Move(int(m))]
                if best_move is not None and best >= (SMALL_SURE if kind == SMALL else 0.0) and best > 0:
                    return best, best_move, kind
            return 0.0, None, -1
        finally:
            self.solved += int(self.work[W_SOLVED])

    def _stored(self) -> dict[str, np.ndarray]:
        """The arrays a file keeps: per table, the numbers of the blocks (BLOCK_STATES states) holding
        any solved state, a bitmap of those blocks' solved states and the solved entries in order."""
        arrays = {}
        for kind, table in sorted(self.tables.items()):
            blocks, bits, values = [], [], []
            for lo in range(0, len(table), BLOCK_STATES):  # block by block: no whole-table temporaries
                part = table[lo:lo + BLOCK_STATES]
                solved = part != 0
                if solved.any():
                    blocks.append(lo // BLOCK_STATES)
                    bits.append(np.packbits(solved))
                    values.append(part[solved])
            arrays[f"blocks_{kind}"] = np.array(blocks, np.int64)
            arrays[f"solved_{kind}"] = np.concatenate(bits) if bits else np.zeros(0, np.uint8)
            arrays[f"entries_{kind}"] = np.concatenate(values) if values else np.zeros(0, np.uint16)
        return arrays

    def save(self, path: Path) -> int:
        """Write the solved states to `path` (whole or not at all); returns the file's size in bytes."""
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays = self._stored()
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        try:
            with open(tmp, "wb") as f:
                np.savez(f, header=np.frombuffer(_header(), np.uint8),
                         checksum=np.frombuffer(_digest(arrays).encode(), np.uint8), **arrays)
            os.replace(tmp, path)  # also with two processes saving at once
        finally:
            tmp.unlink(missing_ok=True)
        return path.stat().st_size

    @classmethod
    def load(cls, path: Path) -> BlockTables:
        tables = cls()
        arrays = {}
        try:
            with np.load(path, allow_pickle=False) as data:
                if bytes(data["header"]) != _header():
                    raise TableError(f"{path} holds other block tables (another version)")
                for kind, table in sorted(tables.tables.items()):
                    blocks, bits, entries = (data[f"{name}_{kind}"] for name in ("blocks", "solved", "entries"))
                    arrays[f"blocks_{kind}"], arrays[f"solved_{kind}"], arrays[f"entries_{kind}"] = blocks, bits, entries
                    sizes = [min(BLOCK_STATES, len(table) - int(b) * BLOCK_STATES) for b in blocks]
                    if (blocks.dtype != np.int64 or bits.dtype != np.uint8 or entries.dtype != np.uint16
                            or any(n <= 0 for n in sizes) or len(bits) != sum(n // 8 for n in sizes)):
                        raise TableError(f"{path} has a table of the wrong shape")
                    at = bit_at = 0
                    for b, n in zip(blocks, sizes):
                        solved = np.unpackbits(bits[bit_at:bit_at + n // 8]).view(np.bool_)
                        bit_at += n // 8
                        count = int(np.count_nonzero(solved))
                        if at + count > len(entries):
                            raise TableError(f"{path} has a table of the wrong shape")
                        lo = int(b) * BLOCK_STATES
                        table[lo:lo + n][solved] = entries[at:at + count]
                        at += count
                    if at != len(entries) or not np.all(entries):
                        raise TableError(f"{path} has a table of the wrong shape")
                stored = bytes(data["checksum"]).decode()
        except TableError:
            raise
        except Exception as exc:  # a truncated or foreign file: zipfile, KeyError, ValueError ...
            raise TableError(f"{path} is not a readable block table file ({type(exc).__name__})") from None
        if _digest(arrays) != stored:
            raise TableError(f"{path} is corrupt (checksum mismatch)")
        return tables

    def states_solved(self) -> int:
        return sum(int(np.count_nonzero(t)) for t in self.tables.values())


class CornerAgent(ExpectimaxAgent):
    """The expectimax agent on the corner evaluation, with the block tables' move wherever they know the
    board (macroxue's rule, see BlockTables.suggest); `tables=None`: the corner evaluation alone.
    `solve_budget`: at most this many table states solved per decision (unbounded by default; play
    bounds it so that a board the tables have not met yet costs one move's time, not minutes)."""

    def __init__(self, tables: BlockTables | None = None, depth_cap: int | str | None = None,
                 threads: int | None = None, deepen_gap: float | None = None, deepen_ms: float | None = None,
                 solve_budget: float = np.inf) -> None:
        super().__init__(depth_cap, threads, weights=corner_row_table(), deepen_gap=deepen_gap, deepen_ms=deepen_ms)
        self.block = tables
        self.solve_budget = solve_budget

    def choose(self, board: Grid, budget_ms: float | None = None, depth: int | str | None = None,
               **kwargs) -> Decision:
        grid = to_grid(board)
        if self.block is not None:
            start = time.perf_counter()
            chance, move, _ = self.block.suggest(grid, self.solve_budget)
            if move is not None:
                return Decision(move, {}, 0, (time.perf_counter() - start) * 1000.0, 0, table=chance)
        turn = corner_turn(grid)
        if turn is None:
            return super().choose(grid, budget_ms, depth, **kwargs)
        source, moves = SYMMETRIES[turn]
        decision = super().choose(_turned(grid, source), budget_ms, depth, **kwargs)
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
BUILD_STATES = 655_000_000  # about what one whole game makes the tables solve (session 15: 654 M)
PLAY_SOLVE_BUDGET = 50_000  # states a live decision may solve (~20 ms); a board it does not finish is searched


def build_tables(progress: Callable[[int], None] | None = None, seed: int = BUILD_SEED) -> BlockTables:
    """Solve what the tables need by playing one whole game on them (depth BUILD_DEPTH), solving every
    board the game asks about completely first; progress(states solved so far) between steps. Nearly
    all the states later games ask about are solved by then (session 15: a second and a third game
    added 0.1 % more)."""
    tables = BlockTables()
    agent = CornerAgent(tables, threads=1)
    game = Game(seed=seed)
    game.reset()
    try:
        while legal_moves(game.grid):
            while True:  # solve this board's states a step at a time, reporting in between
                before = tables.unfinished
                tables.suggest(game.grid, BUILD_STEP)
                if progress is not None:
                    progress(tables.solved)
                if tables.unfinished == before:
                    break
            game.step(agent.choose(game.grid, depth=BUILD_DEPTH).move)
    finally:
        agent.close()
    return tables


def load_or_build(path: Path | None = None, progress: Callable[[int], None] | None = None
                  ) -> tuple[BlockTables, float | None]:
    """The tables from `path` (default: the user cache dir), built and saved there when missing or
    unusable; (tables, seconds the build took, or None when loaded)."""
    path = default_table_path() if path is None else path
    if path.exists():
        try:
            return BlockTables.load(path), None
        except TableError:
            pass  # rebuilt below and saved over it
    start = time.perf_counter()
    tables = build_tables(progress)
    seconds = time.perf_counter() - start
    tables.save(path)
    return tables, seconds


def play_agent(tables: BlockTables, depth_cap: int | str | None = None, deepen_gap: float | None = None,
               deepen_ms: float | None = None) -> CornerAgent:
    """The corner agent as play uses it: a board the tables have not met costs at most PLAY_SOLVE_BUDGET."""
    return CornerAgent(tables, depth_cap, deepen_gap=deepen_gap, deepen_ms=deepen_ms, solve_budget=PLAY_SOLVE_BUDGET)
