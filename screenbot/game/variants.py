"""Rule variants that real 2048 programs play by, as pure functions.

The classic rules (`screenbot.game.rules`) slide a line toward the wall and merge each equal pair
once, resolved from the wall. Other programs differ in how a line merges; play learns which from
the boards it sees (`screenbot.play.rulebook`). Each line rule takes one line of any length, listed
from the wall the tiles move toward, and returns the new line and the score it gains (the sum of the
merged tiles); `slide_with` plays one on a board of any size.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise

from screenbot.game.rules import Grid, Move, move_lines, slide_row_left
from screenbot.game.sizes import size_of

Line = tuple[int, ...]
LineRule = Callable[[Sequence[int]], "tuple[Line, int]"]


def merged_tile_goes_on(row: Sequence[int]) -> tuple[Line, int]:
    """A tile made by a merge goes on merging with the next equal tile: 2 2 4 8 -> 16."""
    out: list[int] = []
    gain = 0
    for value in (v for v in row if v):
        if out and out[-1] == value:
            out[-1] *= 2
            gain += out[-1]
        else:
            out.append(value)
    return tuple(out + [0] * (len(row) - len(out))), gain


def merge_until_none_equal(row: Sequence[int]) -> tuple[Line, int]:
    """Passes of pair merges (from the wall; a cell that took a merge is not compared again in that
    pass) repeat while two neighbours are equal: 2 2 2 2 -> 8, 4 2 2 -> 8."""
    tiles = [v for v in row if v]
    gain = 0
    while any(a == b for a, b in pairwise(tiles)):
        i = 1
        while i < len(tiles):
            if tiles[i] == tiles[i - 1]:
                tiles[i - 1] *= 2
                gain += tiles[i - 1]
                del tiles[i]
            i += 1
    return tuple(tiles + [0] * (len(row) - len(tiles))), gain


def _step_toward_wall(line: list[int]) -> bool:
    """One sweep from the back to the wall: a tile with an empty cell in front of it steps into it
    (and, met again by the sweep, on into the next one)."""
    moved = False
    for i in range(len(line) - 1, 0, -1):
        if line[i] and not line[i - 1]:
            line[i - 1], line[i] = line[i], 0
            moved = True
    return moved


def touching_pairs_first(row: Sequence[int]) -> tuple[Line, int]:
    """Tiles step toward the wall; touching equal pairs (from the wall) merge between the steps, and
    the move ends two steps after the first merge: 2 _ 2 2 -> 2 4, not 4 2."""
    line = list(row)
    gain = 0
    while True:
        merged = False
        i = 0
        while i < len(line) - 1:
            if line[i] and line[i] == line[i + 1]:
                line[i], line[i + 1] = line[i] * 2, 0
                gain += line[i]
                merged = True
                i += 1
            i += 1
        moved = _step_toward_wall(line)
        if merged:
            _step_toward_wall(line)
            return tuple(line), gain
        if not moved:
            return tuple(line), gain


# name -> (line rule, how the summary describes it)
LINE_RULES: dict[str, tuple[LineRule, str]] = {
    "classic": (slide_row_left, "each tile merges at most once per move"),
    "merged-tile-goes-on": (merged_tile_goes_on, "a merged tile merges again in the same move"),
    "until-none-equal": (merge_until_none_equal, "merges repeat until no two neighbours are equal"),
    "touching-pairs-first": (touching_pairs_first, "touching pairs merge before tiles slide"),
}


def slide_with(grid: Grid, move: Move, rule: LineRule) -> tuple[Grid, int]:
    """The board after `move` by one line rule (before any spawn), and the score it gains."""
    out = [list(row) for row in grid]
    gain = 0
    for cells in move_lines(Move(move), size_of(grid)):
        new, got = rule([grid[r][c] for r, c in cells])
        gain += got
        for (r, c), v in zip(cells, new):
            out[r][c] = v
    return tuple(tuple(row) for row in out), gain
