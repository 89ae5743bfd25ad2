"""What a correct reader may answer for a labelled screenshot (../shared/screens and tests/fixtures/screens)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from screenbot.board_state import BoardState
from screenbot.game.rules import Move

ROOT = Path(__file__).resolve().parents[2]
SHARED_SCREENS = ROOT / ".." / "shared" / "screens" / "classic"
FIXTURE_SCREENS = ROOT / "tests" / "fixtures" / "screens"


def load_label(json_path: Path) -> dict:
    return json.loads(json_path.read_text())


def grid_of(rows) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(v) for v in row) for row in rows)


def expected_state(label: dict) -> str | None:
    """playing / won / over for a still picture; None for a frame taken mid-move."""
    kind = label["kind"]
    if kind == "mid-animation":
        return None
    if kind in ("static", "keep-going"):
        return BoardState.PLAYING
    if kind == "overlay-win":
        return BoardState.WON
    if kind == "overlay-over":
        return BoardState.OVER
    if kind == "overlay-fading-in":
        return BoardState.WON if label.get("won") and not label.get("over") else BoardState.OVER
    raise ValueError(f"unknown kind {kind}")


def _lines(move: Move) -> list[list[tuple[int, int]]]:
    """Cell coordinates of each line, in the order tiles slide towards (the wall first)."""
    out = []
    for k in range(4):
        if move == Move.LEFT:
            out.append([(k, c) for c in range(4)])
        elif move == Move.RIGHT:
            out.append([(k, c) for c in reversed(range(4))])
        elif move == Move.UP:
            out.append([(r, k) for r in range(4)])
        else:
            out.append([(r, k) for r in reversed(range(4))])
    return out


def slide_with_merges(grid, move: Move):
    """The board after the slide (no new tile) and the cells where two tiles merged."""
    after = [[0] * 4 for _ in range(4)]
    merged = set()
    for line in _lines(move):
        tiles = [grid[r][c] for r, c in line if grid[r][c]]
        i = pos = 0
        while i < len(tiles):
            r, c = line[pos]
            if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
                after[r][c] = tiles[i] * 2
                merged.add((r, c))
                i += 2
            else:
                after[r][c] = tiles[i]
                i += 1
            pos += 1
    return after, merged


def shown_boards(label: dict) -> set:
    """Every board a frame in motion may show once its tiles sit in cells: the board before the
    key; the slid board with each merge drawn either as the tile that slid in (before the
    merged tile pops up) or as the merged tile, with the new tile not yet drawn or drawn;
    and the board after the move."""
    before = grid_of(label["grid_before"])
    final = grid_of(label["grid"])
    boards = {before, final}
    if "move" not in label:
        return boards
    after, merged = slide_with_merges(before, Move.parse(label["move"]))
    spawn = [(r, c) for r in range(4) for c in range(4) if final[r][c] != after[r][c]]
    options = []
    for r in range(4):
        for c in range(4):
            choices = {after[r][c]}
            if (r, c) in merged:
                choices.add(after[r][c] // 2)
            if (r, c) in spawn:
                choices |= {0, final[r][c]}
            options.append(sorted(choices))
    for combo in itertools.product(*options):
        boards.add(tuple(tuple(combo[r * 4 : r * 4 + 4]) for r in range(4)))
    return boards
