"""Does a target's board history follow the 2048 rules (screenbot.game.rules) from board to board?"""

from __future__ import annotations

from typing import Any, Sequence

from screenbot.game.rules import Move, apply_move, to_grid


def history_errors(history: Sequence[dict[str, Any]], spawns_on_first_2048: bool = True) -> list[str]:
    """What is wrong in `history` (records as harness.Target.history() gives them); [] if nothing.

    Each record after the first must be the previous board after its move plus exactly one new
    2 or 4 in a cell the move left empty, with the score raised by the merges, or the previous
    board unchanged (and `changed` false) when the move changed nothing. With
    `spawns_on_first_2048` false the move that first makes a 2048 may add no tile (a game that
    stops to say "you won" there).
    """
    errors = []
    if not history:
        return ["no board at all"]
    if history[0]["move"] is not None:
        errors.append(f"the first record is a move ({history[0]['move']}), not a new game")
    first = to_grid(history[0]["board"])
    tiles = [v for row in first for v in row if v]
    if len(tiles) != 2 or any(v not in (2, 4) for v in tiles):
        errors.append(f"the first board does not hold two 2s/4s: {history[0]['board']}")
    for i in range(1, len(history)):
        errors += [f"record {i} ({history[i]['move']}): {e}"
                   for e in step_errors(history[i - 1], history[i], spawns_on_first_2048)]
    return errors


def step_errors(prev: dict[str, Any], rec: dict[str, Any], spawns_on_first_2048: bool = True) -> list[str]:
    """What is wrong in the step from record `prev` to record `rec` (see history_errors)."""
    if rec["move"] is None:
        return ["a second new game inside one game"]
    errors = []
    before, after = to_grid(prev["board"]), to_grid(rec["board"])
    slid, gain = apply_move(before, Move.parse(rec["move"]))
    if slid == before:
        if after != before or rec["changed"]:
            errors.append(f"an illegal move changed the board {prev['board']} -> {rec['board']}")
        if rec["score"] != prev["score"]:
            errors.append(f"an illegal move changed the score {prev['score']} -> {rec['score']}")
        return errors
    if not rec["changed"]:
        errors.append("the move slides tiles but the record says nothing changed")
    if rec["score"] != prev["score"] + gain:
        errors.append(f"score {rec['score']}, the rules say {prev['score']} + {gain}")
    new = [(r, c) for r in range(4) for c in range(4) if after[r][c] != slid[r][c]]
    first_2048 = any(2048 in row for row in slid) and not any(2048 in row for row in before)
    if not new and first_2048 and not spawns_on_first_2048:
        return errors
    if len(new) != 1:
        errors.append(f"{prev['board']} slid to {[list(r) for r in slid]}, but the record {rec['board']} "
                      f"differs in {len(new)} cells, not one new tile")
        return errors
    r, c = new[0]
    if slid[r][c] != 0 or after[r][c] not in (2, 4):
        errors.append(f"cell {r},{c} became {after[r][c]} where the slide left {slid[r][c]}")
    return errors
