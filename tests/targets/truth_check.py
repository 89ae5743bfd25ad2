"""Does a target's board history follow the 2048 rules (screenbot.game.rules) from board to board?

A program whose rules differ from the classic game says how with a `Rules` (see rules_of).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from screenbot.game.rules import Grid, Move, move_lines, slide_row_left, to_grid
from screenbot.game.sizes import size_of
from screenbot.game.variants import merge_until_none_equal, slide_with, merged_tile_goes_on, touching_pairs_first


def history_errors(history: Sequence[dict[str, Any]], spawns_on_first_2048: bool = True,
                   rules: Rules | None = None) -> list[str]:
    """What is wrong in `history` (records as harness.Target.history() gives them); [] if nothing.

    Each record after the first must be the previous board after its move plus exactly one new
    2 or 4 in a cell the move left empty, with the score raised by the merges, or the previous
    board unchanged (and `changed` false) when the move changed nothing. With
    `spawns_on_first_2048` false the move that first makes a 2048 may add no tile (a game that
    stops to say "you won" there). `rules` (default: the classic game) names a program's variant.
    """
    rules = rules or CLASSIC
    errors = []
    if not history:
        return ["no board at all"]
    if history[0]["move"] is not None:
        errors.append(f"the first record is a move ({history[0]['move']}), not a new game")
    first = to_grid(history[0]["board"])
    tiles = [v for row in first for v in row if v]
    if len(tiles) not in rules.first_tiles or any(v not in rules.spawn_values for v in tiles):
        errors.append(f"the first board does not hold {' or '.join(map(str, rules.first_tiles))} tiles of "
                      f"{'/'.join(map(str, rules.spawn_values))}: {history[0]['board']}")
    if rules.score == "tile_sum" and history[0]["score"] != sum(tiles):
        errors.append(f"the first score {history[0]['score']} is not the sum of the tiles {sum(tiles)}")
    for i in range(1, len(history)):
        errors += [f"record {i} ({history[i]['move']}): {e}"
                   for e in step_errors(history[i - 1], history[i], spawns_on_first_2048, rules)]
    return errors


def step_errors(prev: dict[str, Any], rec: dict[str, Any], spawns_on_first_2048: bool = True,
                rules: Rules | None = None) -> list[str]:
    """What is wrong in the step from record `prev` to record `rec` (see history_errors)."""
    rules = rules or CLASSIC
    if rec["move"] is None:
        return ["a second new game inside one game"]
    errors = []
    before, after = to_grid(prev["board"]), to_grid(rec["board"])
    move = Move.parse(rec["move"])
    slid, gain = slide_board(before, move, SLIDES[rules.merges])
    want_score = sum(map(sum, after)) if rules.score == "tile_sum" else prev["score"] + gain
    if slid == before and not _spawns_after_noop(rules, before, move):
        if after != before or rec["changed"]:
            errors.append(f"an illegal move changed the board {prev['board']} -> {rec['board']}")
        if rec["score"] != want_score:
            errors.append(f"an illegal move changed the score {prev['score']} -> {rec['score']}")
        return errors
    if not rec["changed"]:
        errors.append("the move slides tiles but the record says nothing changed")
    if rec["score"] != want_score:
        what = "the sum of the tiles" if rules.score == "tile_sum" else f"{prev['score']} + {gain}"
        errors.append(f"score {rec['score']}, the rules say {what}")
    new = [(r, c) for r in range(len(after)) for c in range(len(after[0])) if after[r][c] != slid[r][c]]
    first_2048 = any(2048 in row for row in slid) and not any(2048 in row for row in before)
    if not new and first_2048 and not spawns_on_first_2048:
        return errors
    if len(new) != 1:
        errors.append(f"{prev['board']} slid to {[list(r) for r in slid]}, but the record {rec['board']} "
                      f"differs in {len(new)} cells, not one new tile")
        return errors
    r, c = new[0]
    if slid[r][c] != 0 or after[r][c] not in rules.spawn_values:
        errors.append(f"cell {r},{c} became {after[r][c]} where the slide left {slid[r][c]}")
    return errors


# -- rule variants of real programs (the defaults are the classic game)

Slide = Callable[[Sequence[int]], "tuple[tuple[int, ...], int]"]


SLIDES: dict[str, Slide] = {
    "classic": slide_row_left,
    "merged_tile_goes_on": merged_tile_goes_on,  # py-cui-2048
    "until_none_equal": merge_until_none_equal,  # tuinty-forpy-eight
    "touching_pairs_first": touching_pairs_first,  # curses-2048
}


@dataclass(frozen=True)
class Rules:
    """How a program's rules differ from the classic game (each default is the classic rule)."""

    merges: str = "classic"  # how one line slides: a key of SLIDES
    spawn_values: tuple[int, ...] = (2, 4)  # the values a new tile (and a first board's tile) may have
    first_tiles: tuple[int, ...] = (2,)  # how many tiles a first board may hold
    # a key that moves nothing: "never" adds a tile, "always" adds one (if a cell is empty),
    # "empty_line" adds one when a row or column along the move is empty
    noop_spawn: str = "never"
    score: str = "merges"  # "merges": the score grows by the merged tiles; "tile_sum": it is the sum of the tiles


CLASSIC = Rules()


def rules_of(target: Any) -> Rules:
    """The rules of a harness target: its `rule_variant` (keyword values of Rules), else the classic ones."""
    return Rules(**getattr(target, "rule_variant", {}))


def slide_board(grid: Grid, move: Move, slide: Slide = slide_row_left) -> tuple[Grid, int]:
    """The board after `move` with one line rule (before any spawn), and the score it gains."""
    return slide_with(grid, move, slide)


def _spawns_after_noop(rules: Rules, grid: Grid, move: Move) -> bool:
    if not any(0 in row for row in grid):
        return False
    if rules.noop_spawn == "always":
        return True
    if rules.noop_spawn == "empty_line":
        return any(not any(grid[r][c] for r, c in cells) for cells in move_lines(move, size_of(grid)))
    return False
