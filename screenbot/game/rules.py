"""The classic 2048 rules on a plain grid of tile values (0 = empty), any size from 3x3 to 8x8, pure and seeded.

This module is the single home of the game's rules. A grid is a tuple of R rows of C ints, rows
top to bottom; its size is (R, C) (`screenbot.game.sizes`). The classic board is 4x4, and what
takes no size works on it by default. The agent's fast 4x4 bitboard (`screenbot.game.bitboard`),
the live tracker, the practice page's checks and the bench all agree with it (property tests hold
them to it).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from screenbot.game.sizes import (CLASSIC, MAX_SIDE, MIN_SIDE, SUPPORTED, Size, check_size, empty_board, format_size,
                                  is_supported, size_of, tile_limit)

SIZE = CLASSIC[0]  # the classic board's side
FOUR_SHARE = 0.1  # the chance that a new tile is a 4 (else a 2)
MAX_TILE = tile_limit(CLASSIC)  # 2**17: the largest tile a 4x4 game can hold
Grid = tuple[tuple[int, ...], ...]


class Move(enum.IntEnum):
    """A move, numbered as the bitboard search numbers them."""

    UP = 0
    DOWN = 1
    LEFT = 2
    RIGHT = 3

    @property
    def key(self) -> str:
        """The arrow key's name (pyautogui / xdotool style, lower case)."""
        return self.name.lower()

    @property
    def letter(self) -> str:
        return self.name[0]

    @classmethod
    def parse(cls, text: str) -> "Move":
        t = text.strip().lower()
        for m in cls:
            if t in (m.key, m.letter.lower(), str(int(m))):
                return m
        raise ValueError(f"not a move: {text!r} (use up/down/left/right)")


def is_tile(value: int, size: Size = CLASSIC) -> bool:
    """True for 0 (empty) or a power of two from 2 to the largest tile a board of `size` can hold
    (131072 on the classic 4x4)."""
    return value == 0 or (2 <= value <= tile_limit(size) and value & (value - 1) == 0)


def _check_shape(lengths: list[int], size: Size | None) -> Size:
    """The size of a board whose rows have these lengths, checked: one ValueError line otherwise."""
    if not lengths:
        raise ValueError(f"a board has no rows: {SUPPORTED}")
    if len(set(lengths)) > 1:
        raise ValueError(f"a board's rows all have the same number of cells, got {', '.join(map(str, lengths))}")
    shape = (len(lengths), lengths[0])
    if size is not None and shape != tuple(size):
        raise ValueError(f"a board here has {size[0]} rows of {size[1]} cells, got {format_size(shape)}")
    if not is_supported(shape):
        raise ValueError(f"a {format_size(shape)} board is not supported: {SUPPORTED}")
    return shape


def to_grid(rows: Iterable[Iterable[int]], size: Size | None = None) -> Grid:
    """Validate and freeze a grid (rows top to bottom) of any supported size, or of `size` (rows,
    columns) when one is given. Raises ValueError naming the problem."""
    grid = tuple(tuple(int(v) for v in row) for row in rows)
    shape = _check_shape([len(r) for r in grid], size)
    for row in grid:
        for v in row:
            if not is_tile(v, shape):
                raise ValueError(f"{v} is not a tile value (0 or a power of two from 2 to {tile_limit(shape)})")
    return grid


EMPTY: Grid = ((0,) * SIZE,) * SIZE


def _slide(row: Sequence[int]) -> tuple[tuple[int, ...], int, list[int]]:
    """Slide one row toward index 0: the new row, the score gained, and where merged tiles landed."""
    tiles = [v for v in row if v]
    out: list[int] = []
    merged_at: list[int] = []
    gain = 0
    i = 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            merged_at.append(len(out))
            out.append(tiles[i] * 2)
            gain += tiles[i] * 2
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    out.extend([0] * (len(row) - len(out)))
    return tuple(out), gain, merged_at


def slide_row_left(row: Sequence[int]) -> tuple[tuple[int, ...], int]:
    """Slide one row toward index 0; each tile merges at most once, pairs resolved from the wall.

    Returns the new row and the score gained (the sum of the merged tiles).
    """
    new, gain, _ = _slide(row)
    return new, gain


def line_cells(move: Move, line: int, size: Size = CLASSIC) -> list[tuple[int, int]]:
    """The cells of row or column `line` of a board of `size`, from the wall the tiles move toward."""
    rows, cols = size
    if move == Move.LEFT:
        return [(line, i) for i in range(cols)]
    if move == Move.RIGHT:
        return [(line, cols - 1 - i) for i in range(cols)]
    if move == Move.UP:
        return [(i, line) for i in range(rows)]
    return [(rows - 1 - i, line) for i in range(rows)]


def move_lines(move: Move, size: Size = CLASSIC) -> list[list[tuple[int, int]]]:
    """Every line `move` slides on a board of `size` (its rows for left/right, its columns for
    up/down), each listed from the wall the tiles move toward."""
    count = size[0] if Move(move) in (Move.LEFT, Move.RIGHT) else size[1]
    return [line_cells(Move(move), line, size) for line in range(count)]


def merged_cells(grid: Grid, move: Move) -> list[tuple[int, int]]:
    """Where the tiles made by merges land when `move` is played on `grid`, row-major."""
    found = []
    for cells in move_lines(move, size_of(grid)):
        _, _, merged_at = _slide([grid[r][c] for r, c in cells])
        found += [cells[i] for i in merged_at]
    return sorted(found)


def _transpose(grid: Grid) -> Grid:
    return tuple(zip(*grid))


def apply_move(grid: Grid, move: Move) -> tuple[Grid, int]:
    """The board after sliding toward `move` (before any spawn), and the score gained."""
    move = Move(move)
    g = _transpose(grid) if move in (Move.UP, Move.DOWN) else grid
    reverse = move in (Move.RIGHT, Move.DOWN)
    rows = []
    gain = 0
    for row in g:
        r = row[::-1] if reverse else row
        new, got = slide_row_left(r)
        gain += got
        rows.append(new[::-1] if reverse else new)
    out = tuple(rows)
    if move in (Move.UP, Move.DOWN):
        out = _transpose(out)
    return out, gain


def legal_moves(grid: Grid) -> list[Move]:
    """The moves that change the board, in Move order."""
    return [m for m in Move if apply_move(grid, m)[0] != grid]


def is_over(grid: Grid) -> bool:
    """Game over: no move changes the board."""
    return not legal_moves(grid)


def empty_cells(grid: Grid) -> list[tuple[int, int]]:
    """Empty cells as (row, col), row-major: the order spawns index into."""
    return [(r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if v == 0]


def place(grid: Grid, r: int, c: int, value: int) -> Grid:
    rows = [list(row) for row in grid]
    rows[r][c] = value
    return tuple(tuple(row) for row in rows)


def max_tile(grid: Grid) -> int:
    return max(max(row) for row in grid)


def spawn_outcomes(grid: Grid) -> list[tuple[Grid, float]]:
    """Every board one spawn can make, with its probability (uniform cell; 2 at 0.9, 4 at 0.1)."""
    cells = empty_cells(grid)
    if not cells:
        return []
    p = 1.0 / len(cells)
    return [(place(grid, r, c, v), p * q) for r, c in cells for v, q in ((2, 1 - FOUR_SHARE), (4, FOUR_SHARE))]


class Rng:
    """mulberry32: a tiny 32-bit PRNG, so the practice page (JavaScript) makes the same games.

    `next_float()` is uniform in [0, 1) with 32-bit resolution.
    """

    def __init__(self, seed: int) -> None:
        self.state = seed & 0xFFFFFFFF

    def next_u32(self) -> int:
        self.state = (self.state + 0x6D2B79F5) & 0xFFFFFFFF
        t = self.state
        t = ((t ^ (t >> 15)) * (t | 1)) & 0xFFFFFFFF
        t ^= (t + (((t ^ (t >> 7)) * (t | 61)) & 0xFFFFFFFF)) & 0xFFFFFFFF
        return (t ^ (t >> 14)) & 0xFFFFFFFF

    def next_float(self) -> float:
        return self.next_u32() / 4294967296.0


def spawn(grid: Grid, rng: Rng) -> tuple[Grid, tuple[int, int, int] | None]:
    """Put a new tile on a uniformly random empty cell: 2 with probability 0.9, else 4.

    Draws two numbers: the cell index into `empty_cells` (row-major), then the value.
    Returns the new grid and (row, col, value), or None when the board is full.
    """
    cells = empty_cells(grid)
    if not cells:
        return grid, None
    r, c = cells[int(rng.next_float() * len(cells))]
    value = 2 if rng.next_float() < 1 - FOUR_SHARE else 4
    return place(grid, r, c, value), (r, c, value)


@dataclass
class Game:
    """A seeded game on a board of `size` (rows, columns; 4x4 unless told): `reset()` puts two
    tiles down, `step(move)` slides and spawns.

    Deterministic: the same seed and moves give the same boards.
    """

    seed: int = 0
    grid: Grid = EMPTY
    score: int = 0
    moves: int = 0
    size: Size = CLASSIC
    rng: Rng = field(init=False)

    def __post_init__(self) -> None:
        self.size = check_size(self.size)  # UsageError for an unsupported size
        self.grid = empty_board(self.size) if self.grid is EMPTY else to_grid(self.grid, self.size)
        self.rng = Rng(self.seed)

    def reset(self, seed: int | None = None, start: Grid | None = None) -> Grid:
        """A new game (of `seed` when given): two spawned tiles on an empty board, or `start`, a board
        of the game's size."""
        if seed is not None:
            self.seed = seed
        self.rng = Rng(self.seed)
        self.score = 0
        self.moves = 0
        if start is not None:
            self.grid = to_grid(start, self.size)
        else:
            self.grid = empty_board(self.size)
            self.grid, _ = spawn(self.grid, self.rng)
            self.grid, _ = spawn(self.grid, self.rng)
        return self.grid

    def step(self, move: Move) -> tuple[Grid, int, bool]:
        """Play `move`. Returns (new grid, score gained, changed). A move that changes
        nothing spawns nothing and counts for nothing."""
        after, gain = apply_move(self.grid, move)
        if after == self.grid:
            return self.grid, 0, False
        self.grid, _ = spawn(after, self.rng)
        self.score += gain
        self.moves += 1
        return self.grid, gain, True

    @property
    def over(self) -> bool:
        return is_over(self.grid)


def _cell_value(token: str) -> int:
    """One typed-in cell: a number, or '.', '-', '_' for an empty cell."""
    if token in (".", "-", "_"):
        return 0
    try:
        return int(token)
    except ValueError:
        raise ValueError(f"{token!r} is not a number") from None


def _typed_rows(text: str, size: Size | None) -> list[list[str]]:
    """The cells of a typed-in board row by row: rows split by '/', ';' or newlines, or one line
    holding a square board (16 cells for 4x4) or `size`'s cells."""
    rows = [line.replace(",", " ").split() for line in re.split(r"[/;\n]", text)]
    rows = [row for row in rows if row]
    if len(rows) != 1:
        return rows
    cells = rows[0]
    want = [size] if size is not None else [(side, side) for side in range(MIN_SIDE, MAX_SIDE + 1)]
    for r, c in want:
        if len(cells) == r * c:
            return [cells[k * c:(k + 1) * c] for k in range(r)]
    if size is not None:
        raise ValueError(f"a board needs {size[0] * size[1]} cells, got {len(cells)}")
    raise ValueError(f"a board needs 16 cells, got {len(cells)}; split the rows by '/' for another size: {SUPPORTED}")


def parse_board(text: str, size: Size | None = None) -> Grid:
    """Parse a typed-in board of any supported size, or of `size` (rows, columns) when one is given.

    Rows are split by '/' or ';' or newlines ("2 0 0 / 0 0 0 / 0 0 0" is 3x3); a square board may
    also come in one line (16 numbers: 4x4). '.', '-' and '_' mean an empty cell; ',' separates cells
    like a space. Raises ValueError naming the problem in one line (a ragged or unsupported shape,
    a cell that is not a tile).
    """
    rows = _typed_rows(text, size)
    shape = _check_shape([len(row) for row in rows], size)
    limit = tile_limit(shape)
    grid = []
    for row in rows:
        values = []
        for tok in row:
            v = _cell_value(tok)
            if v < 0:
                raise ValueError(f"{v} is negative; tiles are 0 (empty) or powers of two")
            if not is_tile(v, shape):
                raise ValueError(f"{v} is not a power of two (tiles are 2, 4, 8, ... {limit}; 0 is empty)"
                                 if v & (v - 1) or v == 1 else
                                 f"{v} is larger than a {format_size(shape)} board's largest tile, {limit}")
            values.append(v)
        grid.append(tuple(values))
    return tuple(grid)


def format_board(grid: Grid) -> str:
    """A text picture of the board, one line per row ('.' for empty)."""
    width = max(4, max(len(str(v)) for row in grid for v in row))
    return "\n".join(" ".join((str(v) if v else ".").rjust(width) for v in row) for row in grid)
