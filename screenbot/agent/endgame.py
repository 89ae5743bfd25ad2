"""Endgame tables: every move's chance of building the next tile of a block of big tiles with only the
free cells beside it, solved exactly, once, by expectimax to the end.

The late game of this agent (and of macroxue/2048-ai's "perimeter defense", whose README describes
the idea) keeps coming back to boards like

    16384  4096  1024 | .                 16384  8192  1024 | .
     8192  2048   512 | .                  4096  2048   256 | .
      256   128    64 | .                 ------------------+--
    ------------------+--                     .     .     . | .
        .     .     . | .                     .     .     . | .

where big tiles fill a block in a corner and the chain can only go on once a second copy of the
block's smallest tile T is built beside it, using the free cells while the block stays put. That
takes far more moves (30 and up) than the search's horizon (six). Here it is solved for good: for
every arrangement of the free cells (ranks up to T's) the probability of reaching the goal (T on a
free cell beside the block's T) with best play, when only moves that leave the block as it is are
allowed. `research.tables_agent.TablesAgent` plays their best move where one
knows the board; measured, that loses more games than the search alone (docs/strength.md), so play
does not use them; `hint --endgame-tables` prints each move's chance beside the search's advice.

The shapes and the solve are in `screenbot.agent.endgame_solve`; this module keeps the tables,
and looks boards up in them.

The tables depend on nothing but the rules: built in about 1.5 minutes on first use (139 M states,
277 MB as uint16) and kept in the user cache dir (platformdirs), checked by a header with their
version and shapes and a checksum.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from screenbot.agent.endgame_solve import SHAPES, VECTORS, Shape, move_chances, solve
from screenbot.errors import TableError
from screenbot.game.bitboard import rank_of
from screenbot.game.rules import Grid, Move
from screenbot.paths import cache_dir

__all__ = ["EndgameTables", "FRAMES", "PROB_SCALE", "SHAPES", "Shape", "Suggestion", "TableError", "solve"]

TABLE_VERSION = 3
PROB_SCALE = 65535  # probabilities are kept as uint16
MIN_BLOCK_TILE = 8192  # the tables are for the endgame: the block's largest tile at least this

def _header(shapes: tuple[Shape, ...]) -> bytes:
    parts = [f"{s.name}:{s.block}:{s.target}:{s.free}:{s.ranks}" for s in shapes]
    return f"screenbot endgame tables v{TABLE_VERSION} " .encode() + ";".join(parts).encode()


def default_table_path() -> Path:
    return cache_dir() / f"endgame_v{TABLE_VERSION}.npz"




@dataclass(frozen=True)
class Suggestion:
    move: Move  # the tables' best move (on a tie the first in Move order)
    probability: float  # of building the target beside the block's with the block kept, best play
    target: int  # the tile being built
    shape: str
    chances: dict[Move, float]  # every move the tables allow, with its probability


@dataclass
class EndgameTables:
    """Solved tables: prob[(shape name, rank)] = uint16 success probability (/ PROB_SCALE) per state."""

    shapes: tuple[Shape, ...]
    prob: dict[tuple[str, int], np.ndarray]

    @staticmethod
    def states(shapes: tuple[Shape, ...] | None = None) -> int:
        return sum(s.size(r) for s in (shapes or SHAPES) for r in s.ranks)

    @classmethod
    def build(cls, shapes: tuple[Shape, ...] | None = None,
              progress: Callable[[int, int], None] | None = None) -> EndgameTables:
        """Solve every shape (default: SHAPES) and rank; progress(states done so far, states in all)."""
        shapes = shapes or SHAPES
        total = cls.states(shapes)
        done = 0

        def step(n: int) -> None:
            nonlocal done
            done += n
            if progress is not None:
                progress(done, total)

        prob = {}
        for shape in shapes:
            for r in shape.ranks:
                prob[(shape.name, r)] = np.round(solve(shape, r, step) * PROB_SCALE).astype(np.uint16)
        return cls(shapes, prob)

    def checksum(self) -> str:
        h = hashlib.sha256(_header(self.shapes))
        for key in sorted(self.prob):
            h.update(self.prob[key].tobytes())
        return h.hexdigest()

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays = {f"{name}_{r}": a for (name, r), a in self.prob.items()}
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            np.savez(f, header=np.frombuffer(_header(self.shapes), np.uint8),
                     checksum=np.frombuffer(self.checksum().encode(), np.uint8), **arrays)
        os.replace(tmp, path)  # whole or not at all, also with two processes building at once

    @classmethod
    def load(cls, path: Path, shapes: tuple[Shape, ...] | None = None) -> EndgameTables:
        shapes = shapes or SHAPES
        try:
            with np.load(path, allow_pickle=False) as data:
                if bytes(data["header"]) != _header(shapes):
                    raise TableError(f"{path} holds other endgame tables (another version)")
                prob = {(s.name, r): data[f"{s.name}_{r}"] for s in shapes for r in s.ranks}
                stored = bytes(data["checksum"]).decode()
        except TableError:
            raise
        except Exception as exc:  # a truncated or foreign file: zipfile, KeyError, ValueError ...
            raise TableError(f"{path} is not a readable endgame table file ({type(exc).__name__})") from None
        for s in shapes:
            for r in s.ranks:
                if prob[(s.name, r)].shape != (s.size(r),) or prob[(s.name, r)].dtype != np.uint16:
                    raise TableError(f"{path} has a table of the wrong size")
        tables = cls(shapes, prob)
        if tables.checksum() != stored:
            raise TableError(f"{path} is corrupt (checksum mismatch)")
        return tables

    @classmethod
    def load_or_build(cls, path: Path | None = None, shapes: tuple[Shape, ...] | None = None,
                      progress: Callable[[int, int], None] | None = None) -> tuple[EndgameTables, float | None]:
        """The tables from `path` (default: the user cache dir), built and saved there when missing or
        unusable; (tables, seconds the build took, or None when loaded)."""
        path = default_table_path() if path is None else path
        if path.exists():
            try:
                return cls.load(path, shapes), None
            except TableError:
                pass  # rebuilt below and saved over it
        start = time.perf_counter()
        tables = cls.build(shapes, progress)
        seconds = time.perf_counter() - start
        tables.save(path)
        return tables, seconds

    def suggest(self, grid: Grid, min_block_tile: int = MIN_BLOCK_TILE, min_target: int = 0) -> Suggestion | None:
        """Where `grid` (tile values), in one of the 8 symmetries, has a shape's block full of different
        tiles (its largest at least `min_block_tile`, a chain of big tiles) with T smallest in the target
        cell, the free cells' tiles at most T and the goal not there yet: every move's chance of
        success (moves the tables do not allow left out), from the shape and symmetry with the best
        chance; None elsewhere, or where no move keeps the block. Targets below `min_target` are left out."""
        found = None
        for frame in FRAMES:
            g = [[grid[frame.at(i, j)[0]][frame.at(i, j)[1]] for j in range(4)] for i in range(4)]
            for shape in self.shapes:
                target = g[shape.target[0]][shape.target[1]]
                if target < min_target:
                    continue
                rank = rank_of(target)
                table = self.prob.get((shape.name, rank))
                if table is None:
                    continue
                block = [g[i][j] for i, j in shape.block]
                if min(block) != target or len(set(block)) != len(block) or max(block) < min_block_tile:
                    continue  # (a chain of big tiles: no tile twice)
                free = [rank_of(g[i][j]) for i, j in shape.free]
                if max(free) > rank or any(free[k] == rank for k in shape.goals):
                    continue
                values = move_chances(shape, rank, table, PROB_SCALE, free)
                chances = {frame.to_original(Move(m)): float(values[m]) / PROB_SCALE for m in range(4) if values[m] >= 0}
                if not chances:
                    continue
                best = max(chances.values())
                if found is None or best > found.probability:
                    move = min((m for m, p in chances.items() if p == best))
                    found = Suggestion(move, best, target, shape.name, chances)
        return found


@dataclass(frozen=True)
class Frame:
    """A symmetry of the board: frame cell (i, j) is original cell at(i, j)."""

    swap: bool
    flip_rows: bool
    flip_cols: bool

    def at(self, i: int, j: int) -> tuple[int, int]:
        a, b = (j, i) if self.swap else (i, j)
        return (3 - a if self.flip_rows else a, 3 - b if self.flip_cols else b)

    def to_original(self, move: Move) -> Move:
        di, dj = VECTORS[move]
        a, b = (dj, di) if self.swap else (di, dj)
        vector = (-a if self.flip_rows else a, -b if self.flip_cols else b)
        return next(m for m, v in VECTORS.items() if v == vector)


FRAMES = tuple(Frame(s, r, c) for s in (False, True) for r in (False, True) for c in (False, True))
