"""The 8 symmetries of the board (turns and mirrors), as the block tables look a board up in each.

A table knows its block in one corner and one orientation; a board is looked up in all eight, and the
move a table gives for an oriented board maps back to the original board's move.
"""

from __future__ import annotations

import numpy as np

from screenbot.game.bitboard import to_bitboard
from screenbot.game.rules import Grid, Move


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


def orientations(grid: Grid) -> list[tuple[np.uint64, dict[Move, Move]]]:
    """The board in each of the 8 orientations, with each oriented move's original move."""
    board = to_bitboard(grid)
    cells = [(board >> (4 * i)) & 0xF for i in range(16)]
    oriented = []
    for source, moves in SYMMETRIES:
        word = 0
        for i in range(16):
            word |= cells[source[i]] << (4 * i)
        oriented.append((np.uint64(word), moves))
    return oriented
