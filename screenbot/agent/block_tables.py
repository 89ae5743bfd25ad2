"""The corner block tables, after macroxue/2048-ai (tuple.h: its "Tuple10" and "Tuple11"), written anew.

A block of big tiles in the top-left corner (BLOCKS), the other cells free, each capped (CAPS). A
board is "regular" for a table when the block's neighbours differ and fall as `anchor` says, and the
free cells stay below the anchor (a tile of the block) by each cell's margin (LIMITS). The goal
(`is_goal`) is a chain lined up in the free cells, one merge sequence from a new anchor-sized tile. A
table holds, for every arrangement of the free cells, the best chance of reaching the goal with the
block never moving, and the move that gets it. As macroxue does, one table serves every block: it is
solved with the block prefilled (PREFILLS: the largest anchor), so a board with a smaller anchor is
scored by its chance of building up to that goal without moving the block. States are solved on
demand, depth first from the board asked about, and kept: densely while many are being solved (the
build), compactly after (table_store.py); 2 bytes per solved state, and one
whole game asks for 654 M of them (the key spaces are 2.1 G and 1.2 G states).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np
from numba import njit

from screenbot.agent import table_file, table_store
from screenbot.agent.orientations import SYMMETRIES, orientations  # noqa: F401 (re-exported)
from screenbot.agent.table_store import SolvedStates, TableError, get_entry, put_entry
from screenbot.game.bitboard import execute_move
from screenbot.game.rules import Grid, Move
from screenbot.paths import cache_dir

# Cells are numbered 4 * row + column. Two tables (macroxue's "Tuple11" and "Tuple10"):
#  - BIG (kind 0): the 3 x 2 block of rows 0-1, columns 0-2; ten free cells; anchors up to 1024.
#  - SMALL (kind 1): row 0's first three cells and row 1's first two; eleven free cells, (1, 2) among
#    them, the cell being built; anchors up to 128. Played only where it is at least SMALL_SURE.
#  - SMALL_256 (kind 2, not one of play's: research/ builds it): SMALL with anchors up to 256, every
#    cap one higher (5.7 G keys; macroxue's big runs take this table up to 512). Its kind number is
#    part of the file format, so it is defined here.
#  - PAIR (kind 3): the big table's block with its cell (1, 2) holding g = 512 (the small
#    shape's cell once built); goal: the small table's pairs of g/2 beside it or the big table's chain
#    g/2, g/4, g/8, g/8, whichever comes first; free cells up to 256 (row 3: 128). 2.2 G keys. Tried before
#    BIG wherever it knows the board: the last step before 32768 need not line up BIG's chain into a
#    3 x 3 block of big tiles with seven free cells.
# The default tables, play's, are BIG, SMALL and PAIR (DEFAULT_KINDS); a version-2 file holds BIG and SMALL.

BIG, SMALL, SMALL_256, PAIR = 0, 1, 2, 3
DEFAULT_KINDS = (BIG, SMALL, PAIR)
EARLIER_KINDS = (BIG, SMALL)  # what a version-2 file holds: a build takes them from it and solves PAIR only
SMALL_KINDS = (SMALL, SMALL_256)  # the tables of the small shape, tried before BIG
_BIG_RULES = dict(block=(0, 1, 2, 4, 5, 6), free=(3, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                  caps=(10, 9, 10, 9, 8, 8, 8, 8, 8, 8), limits=(1, 2, 1, 2, 3, 3, 3, 3, 3, 3),
                  max_anchor=10, prefill=(15, 14, 13, 12, 11, 10))
_SMALL_RULES = dict(block=(0, 1, 2, 4, 5), free=(3, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                    caps=(7, 8, 7, 7, 7, 7, 7, 6, 6, 6, 6), limits=(1, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2),
                    max_anchor=7, prefill=(15, 14, 13, 12, 11))
_SMALL_256_RULES = dict(_SMALL_RULES, caps=tuple(c + 1 for c in _SMALL_RULES["caps"]), max_anchor=8)
_PAIR_RULES = dict(block=_BIG_RULES["block"], free=_BIG_RULES["free"], caps=(9, 9, 9, 9, 9, 9, 8, 8, 8, 8),
                   limits=(1, 1, 1, 1, 1, 1, 2, 2, 2, 2), max_anchor=9, prefill=(15, 14, 13, 12, 11, 9))
_RULES = (_BIG_RULES, _SMALL_RULES, _SMALL_256_RULES, _PAIR_RULES)  # by kind
BLOCKS = tuple(r["block"] for r in _RULES)
FREES = tuple(r["free"] for r in _RULES)  # key digits, most significant first
CAPS = tuple(r["caps"] for r in _RULES)  # ranks a free cell holds: 0 .. cap - 1
# a free cell holds at most anchor - limit (0: no such bound; the small table's built cell is bounded in `anchor`)
LIMITS = tuple(r["limits"] for r in _RULES)
MAX_ANCHORS = tuple(r["max_anchor"] for r in _RULES)  # 1024, 128, 256, 512
PREFILLS = tuple(r["prefill"] for r in _RULES)  # the block each table is solved with
SMALL_SURE = 0.9
HOLD_LOOK_S = 0.5  # a held build thread looks this often whether it may go on (solve_shared)
PAIR_MIN = 0.0  # PAIR's move is played from this chance (when it is above 0)
STATES = tuple(int(np.prod(c, dtype=np.int64)) for c in CAPS)

_FREE = np.full((len(_RULES), 11), -1, np.int64)
_CAPS = np.ones((len(_RULES), 11), np.int64)
_LIMITS = np.zeros((len(_RULES), 11), np.int64)
for _k in range(len(_RULES)):
    _n = len(FREES[_k])
    _FREE[_k, :_n], _CAPS[_k, :_n], _LIMITS[_k, :_n] = FREES[_k], CAPS[_k], LIMITS[_k]
del _k, _n
_NFREE = np.array([len(f) for f in FREES], np.int64)
BLOCK_MASK = np.array([sum(0xF << (4 * c) for c in b) for b in BLOCKS], np.uint64)
PREFILL_BITS = np.array([sum(r << (4 * c) for r, c in zip(p, b)) for p, b in zip(PREFILLS, BLOCKS)], np.uint64)
_M4 = np.uint64(0xF)
Q = 16382  # chances are kept in 1/Q steps


@njit(cache=True, inline="always")
def _at(b, cell):
    return np.int64((b >> np.uint64(4 * cell)) & _M4)


@njit(cache=True)
def anchor(b, kind):
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
    elif kind == PAIR:
        # row 1 falls from the left into the built cell, which holds the solved goal's rank (512) exactly
        if t10 <= t11 or t11 <= t12 or t02 <= t12 or t12 != MAX_ANCHORS[PAIR]:
            return -1
        a = t12
    else:
        # row 1 falls from the left into the cell being built, which stays below the tile above it
        if t10 <= t11 or t11 <= t12 or t02 <= t12 or t11 == t02 or t12 > MAX_ANCHORS[kind]:
            return -1
        a = min(MAX_ANCHORS[kind], t11, t02)
    for i in range(_NFREE[kind]):
        if _LIMITS[kind, i] and _at(b, _FREE[kind, i]) > a - _LIMITS[kind, i]:
            return -1
    return a


@njit(cache=True)
def is_goal(b, a, kind):
    """BIG: a chain a-1, a-2, a-3, a-3 lined up in the free cells, one merge sequence from a new
    anchor-sized tile: along row 2 from the left (the last a-3 beside the first), or down column 3.
    PAIR: either BIG's chain for the anchor a (the built cell's rank) or SMALL's pattern for g = a.
    SMALL: the cell (1, 2) holds g = min(MAX, smaller of its two big neighbours - 1) with a g-1 beside
    it and another beside that, or a g-1, g-2, g-2 down column 3."""
    if kind == BIG or kind == PAIR:
        if _at(b, 8) == a - 1 and _at(b, 9) == a - 2:
            if _at(b, 10) == a - 3 and (_at(b, 14) == a - 3 or _at(b, 11) == a - 3):
                return True
            if _at(b, 13) == a - 3 and (_at(b, 12) == a - 3 or _at(b, 14) == a - 3):
                return True
        if (_at(b, 3) == a - 1 and _at(b, 7) == a - 2 and _at(b, 11) == a - 3
                and (_at(b, 10) == a - 3 or _at(b, 15) == a - 3)):
            return True
        if kind == BIG:
            return False
        g = a
    else:
        g = min(MAX_ANCHORS[kind], min(_at(b, 5), _at(b, 2)) - 1)
    if _at(b, 6) != g:
        return False
    if _at(b, 7) == g - 1 and (_at(b, 3) == g - 1 or _at(b, 11) == g - 1):
        return True
    if _at(b, 3) == g - 1 and _at(b, 7) == g - 2 and _at(b, 11) == g - 2:
        return True
    return _at(b, 10) == g - 1 and (_at(b, 9) == g - 1 or _at(b, 14) == g - 1 or _at(b, 11) == g - 1)


@njit(cache=True)
def state_key(b, kind):
    k = np.int64(0)
    for i in range(_NFREE[kind]):
        k = k * _CAPS[kind, i] + _at(b, _FREE[kind, i])
    return k


@njit(cache=True, inline="always")
def _block_move(b, m, kind):
    """(board after move m, its anchor) when the move changes the board, leaves the block in place and
    keeps it regular; else (b, -1)."""
    nb, _ = execute_move(b, m)
    if nb == b or (nb & BLOCK_MASK[kind]) != (b & BLOCK_MASK[kind]):
        return b, np.int64(-1)
    return nb, anchor(nb, kind)


W_SOLVED = 0  # work[]: states solved so far ...
W_LIMIT = 1  # ... and how many a call may solve before it gives up (the states it finished are kept)


@njit(cache=True, nogil=True)
def solve_state(b, kind, dense, bits, ranks, entries, okeys, ovals, work):
    """The best chance from board b (after its new tile; block prefilled and regular), stored with its
    move; -1.0 when work[W_LIMIT] states were solved first (only finished states are ever stored, so
    a later call goes on from there)."""
    k = state_key(b, kind)
    e = get_entry(k, dense, bits, ranks, entries, okeys, ovals)
    if e != 0:
        return ((np.int64(e) - 1) >> 2) / Q
    if work[W_SOLVED] >= work[W_LIMIT]:
        return -1.0
    best = 0.0
    best_move = 0
    for m in range(4):
        nb, a = _block_move(b, m, kind)
        if a < 0:
            continue
        if is_goal(nb, a, kind):
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
                    p2 = solve_state(nb | (np.uint64(1) << shift), kind, dense, bits, ranks, entries, okeys, ovals, work)
                    if p2 < 0.0:
                        return -1.0
                    p4 = solve_state(nb | (np.uint64(2) << shift), kind, dense, bits, ranks, entries, okeys, ovals, work)
                    if p4 < 0.0:
                        return -1.0
                    twos += p2
                    fours += p4
            p = (0.9 * twos + 0.1 * fours) / empty
        if p > best:
            best = p
            best_move = m
    q = np.int64(best * Q + 0.5)
    put_entry(k, np.uint16(1 + best_move + 4 * q), dense, okeys, ovals)
    work[W_SOLVED] += 1.0
    return q / Q


@njit(cache=True)
def _lookup(b, kind, dense, bits, ranks, entries, okeys, ovals, work):
    """(chance, move) for an oriented board whose block is regular and not at its goal, solved first
    if need be; (-1.0, 0) when the solve ran out of work[W_LIMIT]."""
    k = state_key(b, kind)
    e = get_entry(k, dense, bits, ranks, entries, okeys, ovals)
    if e == 0:
        if solve_state((b & ~BLOCK_MASK[kind]) | PREFILL_BITS[kind], kind, dense, bits, ranks, entries, okeys, ovals,
                  work) < 0.0:
            return -1.0, np.int64(0)
        e = get_entry(k, dense, bits, ranks, entries, okeys, ovals)
    e = np.int64(e) - 1
    return (e >> 2) / Q, e & 3


@njit(cache=True)
def _root_children(root, kind):
    """The boards one move and one new tile away from a prefilled root (its subproblems)."""
    out = np.zeros(4 * 2 * 11, np.uint64)
    n = 0
    for m in range(4):
        nb, a = _block_move(root, m, kind)
        if a < 0 or is_goal(nb, a, kind):
            continue
        for i in range(_NFREE[kind]):
            cell = _FREE[kind, i]
            if _at(nb, cell) == 0:
                shift = np.uint64(4 * cell)
                out[n] = nb | (np.uint64(1) << shift)
                out[n + 1] = nb | (np.uint64(2) << shift)
                n += 2
    return out[:n]


# The file format's version: 2 holds BIG and SMALL; 3 a variant of macroxue's model (research, never play's);
# 4 BIG, SMALL and PAIR (play's)
TABLE_VERSION = 4
EARLIER_VERSION = 2
TABLE_KEYS = tuple(-(-n // table_store.CHUNK) * table_store.CHUNK for n in STATES)
OVERLAY_STEP = 1 << 20  # the overlay grows to hold at least this many more states (or the call's budget)


def _header(kinds: tuple[int, ...] = DEFAULT_KINDS, version: int = TABLE_VERSION) -> bytes:
    parts = [f"{BLOCKS[k]}:{FREES[k]}:{CAPS[k]}:{LIMITS[k]}:{MAX_ANCHORS[k]}:{PREFILLS[k]}" for k in sorted(kinds)]
    return f"screenbot corner block tables v{version} q{Q} ".encode() + ";".join(parts).encode()


def default_table_path(version: int = TABLE_VERSION) -> Path:
    """Where play keeps its tables: the file it maps (table_file.py) in the user cache dir."""
    return cache_dir() / f"corner_tables_v{version}.tables"


class BlockTables:
    """The block tables of `kinds` in memory (play's: BIG, SMALL and PAIR), solved as boards ask for them
    and kept in a file between runs. Made empty and dense (for solving many states); `compact()` and
    `load()` give the compact layout. `suggest` plays a table's move from these chances on (macroxue's
    rule; a subclass may set others):"""

    small_sure = SMALL_SURE  # the small tables' move from this chance
    pair_min = PAIR_MIN  # the pair table's move above this chance
    big_min = 0.0  # the big table's move above this chance

    def __init__(self, kinds: tuple[int, ...] = DEFAULT_KINDS) -> None:
        self.tables = {kind: SolvedStates(kind, TABLE_KEYS[kind]) for kind in kinds}
        self.work = np.zeros(2, np.float64)
        self._solved = {kind: 0 for kind in range(len(_RULES))}  # states solved since made or loaded
        self._unfinished = {kind: 0 for kind in range(len(_RULES))}  # lookups that ran out of their budget

    @property
    def solved(self) -> int:
        """States solved since the tables were made or loaded."""
        return sum(self._solved.values())

    @property
    def unfinished(self) -> int:
        """Lookups that ran out of their budget."""
        return sum(self._unfinished.values())

    def unfinished_by_kind(self) -> dict[int, int]:
        return dict(self._unfinished)

    @classmethod
    def empty_compact(cls, kinds: tuple[int, ...] = DEFAULT_KINDS) -> BlockTables:
        """Tables with nothing solved, in the compact layout (what solves go to: the overlay)."""
        tables = cls(kinds=())
        tables.tables = {kind: SolvedStates.empty_compact(kind, TABLE_KEYS[kind]) for kind in kinds}
        return tables

    def compact(self) -> BlockTables:
        """Switch every table to the compact layout (a table at a time: the dense one is freed before the next)."""
        for kind in sorted(self.tables):
            self.tables[kind] = self.tables[kind].compacted()
        return self

    def lookup(self, b: np.uint64, kind: int, budget: list[float]) -> tuple[float, int]:
        """The module's lookup on one table within what is left of the call's budget (budget[0], counted down)."""
        table, work = self.tables[kind], self.work
        while True:
            if table.room() < min(budget[0], OVERLAY_STEP):
                table.grow(min(budget[0], OVERLAY_STEP))
            limit = min(budget[0], table.room())
            work[W_SOLVED] = 0.0
            work[W_LIMIT] = limit
            p, m = _lookup(b, kind, *table.layout(), work)
            solved = int(work[W_SOLVED])
            self._solved[kind] += solved
            budget[0] -= solved
            if not table.is_dense:
                table.overlaid += solved
            if p >= 0.0 or limit >= budget[0] + solved:  # answered, or out of the call's budget
                return p, int(m)
            # else out of room in the overlay: it grows, and the solve goes on from the states it finished

    def answer(self, oriented: list, kind: int, left: list[float]) -> tuple[float, Move | None, bool]:
        """One table's best chance and move over the orientations whose block is regular and not at
        its goal, and whether every one of them was answered within the budget (the big table stops
        at the first that was not)."""
        best, best_move, complete = 0.0, None, True
        for b, moves in oriented:
            a = anchor(b, kind)
            if a < 0 or is_goal(b, a, kind):
                continue
            p, m = self.lookup(b, kind, left)
            if p < 0.0:
                self._unfinished[kind] += 1
                complete = False
                if kind == BIG:
                    break
            elif p > best:
                best, best_move = p, moves[Move(m)]
        return best, best_move, complete

    def suggest(self, grid: Grid, budget: float = np.inf) -> tuple[float, Move | None, int]:
        """macroxue's order: the small table's move where it is at least `small_sure`, else the pair
        table's where it is above `pair_min` (0), else the big table's where it is above `big_min` (0):
        (chance, move, kind); (0.0, None, -1) when none applies. Each table takes the best chance over
        the board's 8 orientations whose block is regular and not at its goal. States not solved yet are
        solved first, at most `budget` of them per call: a board whose solve does not finish in it counts
        as unknown this time (the solve goes on from where it stopped next time; the big table's word
        counts only when every orientation is known)."""
        oriented = orientations(grid)
        left = [float(budget)]
        for kind in (*SMALL_KINDS, PAIR, BIG):
            if kind not in self.tables:
                continue
            best, best_move, complete = self.answer(oriented, kind, left)
            if kind == BIG and not complete:
                return 0.0, None, -1
            least = self.small_sure if kind in SMALL_KINDS else self.pair_min if kind == PAIR else self.big_min
            if best_move is not None and best >= least and best > 0:
                return best, best_move, kind
        return 0.0, None, -1

    def solve_shared(self, grid: Grid, kind: int, threads: int = 2, report: Callable[[int], None] | None = None,
                     hold: Callable[[], bool] | None = None) -> None:
        """For a build (dense tables only, nothing else using them meanwhile): solve every state one
        table's lookups of this board need, the subproblems one move and one tile below each unsolved
        root shared out among `threads` threads (the numba solve runs without the GIL; two threads
        writing one state write the same entry). `report(states solved so far)` about once a second.
        While `hold()` is true, only the first thread takes new subproblems (the others wait)."""
        jobs = []
        if kind in self.tables:
            table = self.tables[kind]
            if not table.is_dense:
                raise ValueError("solve_shared needs the dense layout")
            for b, _ in orientations(grid):
                a = anchor(b, kind)
                if a < 0 or is_goal(b, a, kind):
                    continue
                root = (b & ~BLOCK_MASK[kind]) | PREFILL_BITS[kind]
                if table.dense[state_key(root, kind)] == 0:
                    jobs += list(_root_children(root, kind))
        if not jobs:
            return
        works = [np.array([0.0, np.inf]) for _ in range(threads)]
        pending = iter(jobs)
        lock = threading.Lock()
        layout = self.tables[kind].layout()

        taken = threading.Event()  # every subproblem handed out

        def worker(work: np.ndarray, first: bool) -> None:
            while True:
                while not first and hold is not None and not taken.is_set() and hold():
                    taken.wait(HOLD_LOOK_S)
                with lock:
                    child = next(pending, None)
                if child is None:
                    taken.set()
                    return
                solve_state(child, kind, *layout, work)

        pool = [threading.Thread(target=worker, args=(w, i == 0), daemon=True) for i, w in enumerate(works)]
        for t in pool:
            t.start()
        base = self.solved
        for t in pool:
            while t.is_alive():
                t.join(1.0)
                if report is not None:
                    report(base + int(sum(w[W_SOLVED] for w in works)))
        self._solved[kind] += int(sum(w[W_SOLVED] for w in works))

    def save(self, path: Path) -> int:
        """Write the solved states to `path` (whole or not at all; a `.npz` path: numpy's zip file, else
        the file play maps, table_file.py); returns the file's size in bytes."""
        if path.suffix == ".npz":
            return table_store.save(path, _header(tuple(self.tables)), self.tables)
        return table_file.save(path, _header(tuple(self.tables)), self.tables)

    @classmethod
    def load(cls, path: Path, kinds: tuple[int, ...] = DEFAULT_KINDS, version: int = TABLE_VERSION,
             verify: bool = True) -> BlockTables:
        """The tables of these kinds in `path` (a file of this version), compact: read whole from a
        `.npz` file, else mapped read-only (its checksum checked first when `verify`)."""
        tables = cls(kinds=())
        header, keys = _header(kinds, version), {kind: TABLE_KEYS[kind] for kind in kinds}
        if path.suffix == ".npz":
            tables.tables = table_store.load(path, header, keys)
        else:
            tables.tables = table_file.load(path, header, keys, verify=verify)
        return tables

    def states_solved(self) -> int:
        return sum(t.solved() for t in self.tables.values())
