"""The classic 2048 rules on a plain 4x4 grid of tile values (0 = empty), pure and seeded.

This module is the single home of the game's rules. The agent's fast bitboard
(`screenbot.game.bitboard`), the live tracker, the practice page's checks and the bench
all agree with it (property tests hold them to it).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Iterable, Sequence

SIZE = 4
FOUR_SHARE = 0.1  # the chance that a new tile is a 4 (else a 2)
MAX_TILE = 131072  # 2**17: the largest tile a 4x4 game can hold
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


def is_tile(value: int) -> bool:
    """True for 0 (empty) or a power of two from 2 to 131072."""
    return value == 0 or (2 <= value <= MAX_TILE and value & (value - 1) == 0)


def to_grid(rows: Iterable[Iterable[int]]) -> Grid:
    """Validate and freeze a 4x4 grid (rows top to bottom)."""
    grid = tuple(tuple(int(v) for v in row) for row in rows)
    if len(grid) != SIZE or any(len(r) != SIZE for r in grid):
        raise ValueError("a board has 4 rows of 4 cells")
    for row in grid:
        for v in row:
            if not is_tile(v):
                raise ValueError(f"{v} is not a tile value (0 or a power of two from 2 to {MAX_TILE})")
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


def line_cells(move: Move, line: int) -> list[tuple[int, int]]:
    """The cells of row or column `line`, from the wall the tiles move toward."""
    if move == Move.LEFT:
        return [(line, i) for i in range(SIZE)]
    if move == Move.RIGHT:
        return [(line, SIZE - 1 - i) for i in range(SIZE)]
    if move == Move.UP:
        return [(i, line) for i in range(SIZE)]
    return [(SIZE - 1 - i, line) for i in range(SIZE)]


def merged_cells(grid: Grid, move: Move) -> list[tuple[int, int]]:
    """Where the tiles made by merges land when `move` is played on `grid`, row-major."""
    found = []
    for line in range(SIZE):
        cells = line_cells(Move(move), line)
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
    return [(r, c) for r in range(SIZE) for c in range(SIZE) if grid[r][c] == 0]


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
    """A seeded game: `reset()` puts two tiles down, `step(move)` slides and spawns.

    Deterministic: the same seed and moves give the same boards.
    """

    seed: int = 0
    grid: Grid = EMPTY
    score: int = 0
    moves: int = 0
    rng: Rng = field(init=False)

    def __post_init__(self) -> None:
        self.rng = Rng(self.seed)

    def reset(self, seed: int | None = None, start: Grid | None = None) -> Grid:
        if seed is not None:
            self.seed = seed
        self.rng = Rng(self.seed)
        self.score = 0
        self.moves = 0
        if start is not None:
            self.grid = to_grid(start)
        else:
            self.grid = EMPTY
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


def parse_board(text: str) -> Grid:
    """Parse a typed-in board: 16 numbers, rows split by '/' or ';' or newlines (optional).

    '.', '-' and '_' mean an empty cell. Raises ValueError naming the problem.
    """
    cleaned = text.replace("/", " ").replace(";", " ").replace(",", " ")
    tokens = cleaned.split()
    if len(tokens) != SIZE * SIZE:
        raise ValueError(f"a board needs 16 cells, got {len(tokens)}")
    values = []
    for tok in tokens:
        if tok in (".", "-", "_"):
            values.append(0)
            continue
        try:
            v = int(tok)
        except ValueError:
            raise ValueError(f"{tok!r} is not a number") from None
        if v < 0:
            raise ValueError(f"{v} is negative; tiles are 0 (empty) or powers of two")
        if not is_tile(v):
            raise ValueError(f"{v} is not a power of two (tiles are 2, 4, 8, ... {MAX_TILE}; 0 is empty)")
        values.append(v)
    return tuple(tuple(values[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE))


def format_board(grid: Grid) -> str:
    """A 4-line text picture of the board ('.' for empty)."""
    width = max(4, max(len(str(v)) for row in grid for v in row))
    return "\n".join(" ".join((str(v) if v else ".").rjust(width) for v in row) for row in grid)
