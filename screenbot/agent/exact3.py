"""The exact 3x3 solution: built once into the user cache dir, mapped read-only, played by `Exact3Agent`.

The file holds the value (expected score still to come under optimal play) of every afterstate
reachable from the classic start, one per symmetry class (exact3_build.py solves them). Its layout:
a HEAD_BYTES block of JSON (what it holds, its counts, the expected score from the classic start,
each array's type, place and length, and a SHA-256 over the head and every array), then three
arrays, each at a multiple of ALIGN: `offsets` (int64, one per bucket and one more), `keys`
(uint32) and `values` (float64). A canonical afterstate's bucket is (tile sum / 2) * 16 + the
exponent in cell 8; its key, the low 32 bits of the packed board, sorted within the bucket.

It is written whole or not at all (a temporary file renamed over it). `load` maps it and checks its
head, its length and its checksum (once per file: a stamp beside it keeps the size and time at
which it held); anything wrong is a SolutionFileError, one line, never a crash.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from screenbot.agent.base import Agent, Decision, SearchCancelled
from screenbot.agent.exact3_build import (
    BUCKETS_PER_SUM,
    EMPTY_TABLE,
    MAX_SUM,
    Cancelled,
    Layers,
    Progress,
    TooLarge,
    afterstate_value,
    canonical,
    lookup,
    move,
    solve,
    state_value,
)
from screenbot.agent.table_file import stamp, was_checked
from screenbot.errors import ScreenbotError, TableError
from screenbot.game.rules import FOUR_SHARE, Grid, Move

VERSION = 1
MAGIC = "screenbot exact 3x3 solution"
HEAD_BYTES = 1 << 12
ALIGN = 1 << 12
BUCKETS = (MAX_SUM // 2 + 1) * BUCKETS_PER_SUM
LARGEST_INPUT = 2048  # the largest tile a board given to the agent may hold (a 3x3 game makes 1024)
ON_DEMAND_LIMIT = 3_000_000  # states and afterstates one solve of a board outside the file may hold
_DTYPES = {"offsets": np.int64, "keys": np.uint32, "values": np.float64}
_HASH_STEP = 1 << 26
STAMP_AGE_S = 2.0


class SolutionFileError(TableError):
    """The 3x3 solution file cannot be used (damaged, cut short, another version): build it again."""


class UnsolvableBoard(ScreenbotError):
    """A 3x3 board no classic game reaches, whose own game is too large to solve on demand."""


def default_path() -> Path:
    """Where the solution lives: the user cache dir (screenbot.paths.cache_dir)."""
    from screenbot.paths import cache_dir

    return cache_dir() / f"exact3-v{VERSION}.bin"


def pack(grid: Grid) -> int:
    """A 3x3 grid of tile values as the packed board (4 bits a cell: the tile's exponent)."""
    if len(grid) != 3 or any(len(row) != 3 for row in grid):
        raise ValueError("a 3x3 board has 3 rows of 3 cells")
    packed = 0
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            v = int(v)
            if v and not (2 <= v <= LARGEST_INPUT and v & (v - 1) == 0):
                raise ValueError(f"{v} is not a tile value (0 or a power of two from 2 to {LARGEST_INPUT})")
            packed |= (v.bit_length() - 1 if v else 0) << (4 * (3 * r + c))
    return packed


def unpack(packed: int) -> Grid:
    def value(i: int) -> int:
        e = (packed >> (4 * i)) & 0xF
        return 1 << e if e else 0

    return tuple(tuple(value(3 * r + c) for c in range(3)) for r in range(3))


def classic_starts() -> list[tuple[int, float]]:
    """Every classic start (two tiles in distinct cells, each a 2 w.p. 0.9 or a 4) with its chance."""
    starts = []
    for first in range(9):
        for second in range(9):
            if first != second:
                for e1, p1 in ((1, 1 - FOUR_SHARE), (2, FOUR_SHARE)):
                    for e2, p2 in ((1, 1 - FOUR_SHARE), (2, FOUR_SHARE)):
                        starts.append(((e1 << (4 * first)) | (e2 << (4 * second)), p1 * p2 / 72))
    return starts


@dataclass(frozen=True)
class Solution:
    """A solution file, mapped: the value of each canonical afterstate it holds."""

    path: Path
    head: dict
    offsets: np.ndarray
    keys: np.ndarray
    values: np.ndarray

    @property
    def table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.offsets, self.keys, self.values

    def afterstate_value(self, packed: int) -> float:
        """The value of the afterstate `packed` (any of its 8 images), NaN when the file lacks it."""
        return float(lookup(self.offsets, self.keys, self.values, canonical(packed)))

    def state_value(self, packed: int) -> float:
        """The expected score still to come from state `packed` (NaN when an afterstate is missing)."""
        values = [gain + self.afterstate_value(after) for after, gain in (move(packed, m) for m in range(4))
                  if after != packed]
        if not values:
            return 0.0  # no legal move
        return np.nan if np.isnan(values).any() else float(max(values))

    @property
    def expected_score(self) -> float | None:
        """The optimal expected final score from the classic start (None for a file of other starts)."""
        return self.head["expected_score"]


def _hash(digest, array: np.ndarray) -> None:
    view = memoryview(np.ascontiguousarray(array)).cast("B")
    for start in range(0, len(view), _HASH_STEP):
        digest.update(view[start:start + _HASH_STEP])


def _head_digest(head: dict):
    body = {k: v for k, v in head.items() if k != "sha256"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode())


def _offsets(layers: Layers) -> np.ndarray:
    """Where each bucket starts among the file's keys (and ends: one more entry)."""
    counts = np.zeros(BUCKETS, np.int64)
    for s, afters in layers.afters.items():
        if len(afters):
            if s > MAX_SUM or int(afters[-1]) >> 36:
                raise ValueError(f"afterstates of tile sum {s} do not fit the file's buckets")
            base = (s // 2) * BUCKETS_PER_SUM
            counts[base:base + BUCKETS_PER_SUM] += np.bincount(afters >> 32, minlength=BUCKETS_PER_SUM)
    return np.concatenate([np.zeros(1, np.int64), np.cumsum(counts)])


def build(path: Path | None = None, progress: Progress | None = None,
          starts: Iterable[Grid] | None = None) -> Path:
    """Solve 3x3 from the classic start (or from `starts`: small solves, for tests) and write the
    solution to `path` (the default path when None); returns the path. `progress(done, total)` is
    called as the solve goes (commands.build_progress shows it as a bar)."""
    path = Path(path) if path is not None else default_path()
    classic = starts is None
    packed = [b for b, _ in classic_starts()] if classic else [pack(g) for g in starts]
    started = time.perf_counter()
    layers = solve(np.array(packed, np.int64), FOUR_SHARE, progress=progress)
    two_twos = [b for b, _ in classic_starts() if max(max(row) for row in unpack(b)) == 2]
    head = dict(
        magic=MAGIC, version=VERSION, four_share=FOUR_SHARE,
        holds="the expected score still to come under optimal play of every afterstate reachable from the "
              + ("classic start" if classic else "given starts") + ", one per symmetry class (the least "
              "packing of its 8 images); packing: 4 bits a cell, the exponent, cell (r, c) at bits 4*(3r+c)",
        index="bucket (tile sum/2)*16 + exponent in cell 8: offsets[bucket]..offsets[bucket+1] of keys "
              "(low 32 bits of the packing, sorted) and values",
        expected_score=sum(p * state_value(b, layers) for b, p in classic_starts()) if classic else None,
        expected_score_two_twos=float(np.mean([state_value(b, layers) for b in two_twos])) if classic else None,
        states=layers.states, states_raw=layers.states_raw, afterstates=layers.afterstates,
        afterstates_raw=layers.afterstates_raw, largest_tile=layers.largest_tile,
        largest_layer=layers.largest_layer, largest_sum=layers.largest_sum,
        solve_seconds=round(time.perf_counter() - started, 1),
    )
    offsets = _offsets(layers)
    sums = sorted(s for s in layers.afters if len(layers.afters[s]))
    count = int(offsets[-1])
    offset, places = HEAD_BYTES, []
    for name, n in (("offsets", len(offsets)), ("keys", count), ("values", count)):
        places.append(dict(name=name, dtype=np.dtype(_DTYPES[name]).str, offset=offset, count=n))
        offset = -(-(offset + n * np.dtype(_DTYPES[name]).itemsize) // ALIGN) * ALIGN
    head.update(arrays=places, bytes=offset)
    digest = _head_digest(head)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.truncate(offset)
            parts = {"offsets": [offsets], "keys": ((layers.afters[s] & 0xFFFFFFFF).astype(np.uint32) for s in sums),
                     "values": (layers.values[s] for s in sums)}
            for place in places:  # the arrays layer by layer, hashed in the order `load` reads them
                f.seek(place["offset"])
                for array in parts[place["name"]]:
                    _hash(digest, array)
                    f.write(memoryview(np.ascontiguousarray(array)).cast("B"))
            head["sha256"] = digest.hexdigest()
            raw = json.dumps(head).encode()
            assert len(raw) < HEAD_BYTES, "the head outgrew its block"
            f.seek(0)
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)  # whole or not at all, also with two builds at once
    finally:
        tmp.unlink(missing_ok=True)
    stamp(path, head["sha256"], STAMP_AGE_S)
    return path


def load(path: Path | None = None, verify: bool = True) -> Solution:
    """The solution in `path` (the default path when None), mapped read-only. SolutionFileError when it is
    missing, not such a file, another version, cut short or (when `verify`) damaged."""
    path = Path(path) if path is not None else default_path()
    try:
        with open(path, "rb") as f:
            raw = f.read(HEAD_BYTES)
            size = os.fstat(f.fileno()).st_size
            head = json.loads(raw.rstrip(b"\0").decode())
            if not isinstance(head, dict) or head.get("magic") != MAGIC:
                raise ValueError("not a solution file")
            mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if size else None
    except FileNotFoundError:
        raise SolutionFileError(f"{path} does not exist: build the 3x3 solution first") from None
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise SolutionFileError(f"{path} is not a readable 3x3 solution ({type(exc).__name__}): "
                                "build it again") from None
    if head.get("version") != VERSION:
        raise SolutionFileError(f"{path} is version {head.get('version')} of the 3x3 solution, not {VERSION}: "
                                "build it again")
    if size != head.get("bytes"):
        raise SolutionFileError(f"{path} is cut short ({size} of {head.get('bytes')} bytes): build it again")
    arrays = {}
    try:
        for place in head["arrays"]:
            dtype = np.dtype(_DTYPES[place["name"]])
            if np.dtype(place["dtype"]) != dtype:
                raise ValueError(place["name"])
            arrays[place["name"]] = np.frombuffer(mapped, dtype, place["count"], place["offset"])
        if set(arrays) != set(_DTYPES) or len(arrays["offsets"]) != BUCKETS + 1 \
                or len(arrays["keys"]) != len(arrays["values"]):
            raise ValueError("arrays")
    except (KeyError, ValueError, TypeError) as exc:
        raise SolutionFileError(f"{path} has arrays of the wrong shape ({type(exc).__name__}): "
                                "build it again") from None
    if verify and not was_checked(path, head.get("sha256")):
        digest = _head_digest(head)
        for name in _DTYPES:
            _hash(digest, arrays[name])
        if digest.hexdigest() != head.get("sha256"):
            raise SolutionFileError(f"{path} is damaged (its checksum does not match): build it again")
        stamp(path, head["sha256"], STAMP_AGE_S)
    return Solution(path, head, arrays["offsets"], arrays["keys"], arrays["values"])


def ensure(path: Path | None = None, progress: Progress | None = None) -> Solution:
    """The solution in `path`, built there first when it is missing or cannot be used (minutes)."""
    try:
        return load(path)
    except SolutionFileError:
        build(path, progress)
        return load(path)


class Exact3Agent(Agent):
    """Plays 3x3 optimally for the expected score: each legal move's value is its gain plus its
    afterstate's value, read from the solution (a board no classic game reaches is solved on demand,
    its own game enumerated down to the afterstates the file holds, up to ON_DEMAND_LIMIT states:
    past that an UnsolvableBoard). The values assume the classic 10 % chance of a 4."""

    def __init__(self, solution: Solution | None = None, path: Path | None = None,
                 progress: Progress | None = None, on_demand_limit: int = ON_DEMAND_LIMIT) -> None:
        self._solution = solution
        self._path = path
        self._progress = progress
        self._limit = on_demand_limit
        self._stop = threading.Event()
        self._solved: list[Layers] = []  # the latest solves of boards outside the file, newest last

    @property
    def solution(self) -> Solution:
        if self._solution is None:
            self._solution = ensure(self._path, self._progress)
        return self._solution

    def warm_up(self) -> None:
        """Map the solution (built first when missing: about a minute) and load the compiled lookups."""
        self.solution.state_value(pack(((2, 0, 0), (0, 0, 0), (0, 0, 2))))

    def cancel(self) -> None:
        self._stop.set()

    def allow(self) -> None:
        self._stop.clear()

    def move_values(self, grid: Grid) -> tuple[dict[Move, float], int]:
        """Each legal move's expected score still to come, and how many states were solved on demand."""
        if self._stop.is_set():
            raise SearchCancelled
        packed = pack(grid)
        afters = {}
        for m in Move:
            after, gain = move(packed, int(m))
            if after != packed:
                afters[m] = (canonical(after), gain)
        known = self.solution.table
        values = {m: gain + self._value(c, known) for m, (c, gain) in afters.items()}
        if not any(np.isnan(v) for v in values.values()):
            return values, 0
        try:
            layers = solve(np.array([packed], np.int64), FOUR_SHARE, known=known, should_stop=self._stop.is_set,
                           limit=self._limit, count=False)
        except Cancelled:
            raise SearchCancelled from None
        except TooLarge:
            raise UnsolvableBoard(f"no 3x3 game reaches this board, and its own game has more than {self._limit} "
                                  "states: too many to solve exactly here") from None
        self._solved = self._solved[-3:] + [layers]
        values = {m: gain + afterstate_value(c, layers, known) for m, (c, gain) in afters.items()}
        return values, sum(len(a) for a in layers.afters.values())

    def _value(self, c: int, known: tuple[np.ndarray, np.ndarray, np.ndarray]) -> float:
        """Canonical afterstate c's value from the file, else from a recent solve; NaN from neither."""
        value = float(lookup(*known, c))
        for layers in reversed(self._solved):
            if np.isnan(value):
                value = afterstate_value(c, layers, EMPTY_TABLE)
        return value

    def choose(self, board: Grid, budget_ms: float | None = None) -> Decision:
        """The optimal move (the first in Move order among equals); `budget_ms` is not needed."""
        started = time.perf_counter()
        values, solved = self.move_values(board)
        best = max(values, key=lambda m: (values[m], -int(m))) if values else None
        return Decision(best, values, ms=(time.perf_counter() - started) * 1000, nodes=solved)
