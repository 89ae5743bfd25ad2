"""The rules the family programs share: a game of 2048 seeded from $TARGET_SEED, reporting its true
board through truthlog after every key; 4x4, or $FAMILY_SIZE (rows x columns, e.g. 5x5 or 4x6).

Classic slides and merges (one merge per tile per move), one new tile after a move that changed the board.
`spawns` gives the values a new tile may take with their weights (the classic game: 2 at 9, 4 at 1);
$FAMILY_BIG_START=1 starts the board with a few big tiles (so wide numbers show at once). Every move also
says where each tile went (`paths`), for programs that draw the slide. Does not import screenbot.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/targets: truthlog
import truthlog  # noqa: E402

ROWS, COLS = (int(v) for v in os.environ.get("FAMILY_SIZE", "4x4").split("x"))
CLASSIC_SPAWNS = {2: 9, 4: 1}
MOVES = ("up", "down", "left", "right")
BIG_START = (2048, 1024, 4096, 8192)  # the first board's big tiles with FAMILY_BIG_START=1, row 0 (no two alike)


def _line_cells(move: str, index: int) -> list[tuple[int, int]]:
    """The cells of line `index` for `move`, from the wall the tiles slide toward."""
    if move == "left":
        return [(index, c) for c in range(COLS)]
    if move == "right":
        return [(index, c) for c in reversed(range(COLS))]
    if move == "up":
        return [(r, index) for r in range(ROWS)]
    return [(r, index) for r in reversed(range(ROWS))]


TilePath = tuple[tuple[int, int], tuple[int, int], int]  # a tile's move: from cell, to cell, the value it had


def slide(board: list[list[int]], move: str) -> tuple[list[list[int]], int, list[TilePath]]:
    """The board after `move` (no new tile), the points it scores, and each tile's path:
    (from cell, to cell, value it had)."""
    out = [[0] * COLS for _ in range(ROWS)]
    gain = 0
    paths = []
    for index in range(ROWS if move in ("left", "right") else COLS):
        cells = _line_cells(move, index)
        tiles = [(cell, board[cell[0]][cell[1]]) for cell in cells if board[cell[0]][cell[1]]]
        slot, merged_here = -1, True
        for cell, value in tiles:
            if not merged_here and out[cells[slot][0]][cells[slot][1]] == value:
                target = cells[slot]
                out[target[0]][target[1]] = value * 2
                gain += value * 2
                merged_here = True
            else:
                slot += 1
                target = cells[slot]
                out[target[0]][target[1]] = value
                merged_here = False
            paths.append((cell, target, value))
    return out, gain, paths


def can_move(board: list[list[int]]) -> bool:
    return any(slide(board, move)[0] != board for move in MOVES)


class Game:
    """One game: its board, score and random generator; `press(move)` plays a key and reports it."""

    def __init__(self, spawns: dict[int, int] | None = None) -> None:
        seed = os.environ.get("TARGET_SEED", "")
        self.rng = random.Random(int(seed)) if seed else random.Random()
        self.spawns = spawns or CLASSIC_SPAWNS
        self.big_start = os.environ.get("FAMILY_BIG_START", "") == "1"
        self.new_game()

    def new_game(self) -> None:
        self.board = [[0] * COLS for _ in range(ROWS)]
        self.score = 0
        if self.big_start:
            for c, value in enumerate(BIG_START[:COLS]):
                self.board[0][c] = value
        self.spawn()
        self.spawn()
        self.last_paths: list = []
        self.new_cell: tuple[int, int] | None = None
        truthlog.new_game(self.board, self.score)

    def spawn(self) -> tuple[int, int]:
        empty = [(r, c) for r in range(ROWS) for c in range(COLS) if not self.board[r][c]]
        r, c = self.rng.choice(empty)
        values = sorted(self.spawns)
        self.board[r][c] = self.rng.choices(values, weights=[self.spawns[v] for v in values])[0]
        return r, c

    def press(self, move: str) -> bool:
        """Play `move`; True when it changed the board (then one new tile came). Reports the board."""
        slid, gain, paths = slide(self.board, move)
        changed = slid != self.board
        self.last_paths, self.new_cell = [], None
        if changed:
            self.board, self.score = slid, self.score + gain
            self.last_paths = paths
            self.new_cell = self.spawn()
        truthlog.move(move, changed, self.board, self.score)
        return changed

    def over(self) -> bool:
        return not can_move(self.board)
