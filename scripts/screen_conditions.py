"""The screens to record: hand-made boards, and the looks (rig configurations) with the shots to take in each."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from screenbot.game.rules import Grid, to_grid

ROOT = Path(__file__).resolve().parents[1]
LOOKS_DIR = "looks"  # the other looks' screens: under --out / LOOKS_DIR (see its README)
POSITIONS = ROOT.parent / "shared" / "anchors" / "positions.json"
EMPTY_BOARD = ((0,) * 4,) * 4

# Hand-made boards: every tile from 2 to 65536 shows up, and 0 to 16 empty cells.
BOARDS: dict[str, Grid] = {
    "empty": EMPTY_BOARD,
    "ladder_full": to_grid([[2, 4, 8, 16], [256, 128, 64, 32], [512, 1024, 2048, 4096],
                            [65536, 32768, 16384, 16384]]),
    "small_tiles": to_grid([[2, 0, 0, 4], [0, 8, 0, 0], [0, 0, 16, 0], [32, 0, 0, 64]]),
    "one_tile": to_grid([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]]),
    "big_tiles": to_grid([[65536, 32768, 16384, 8192], [256, 512, 1024, 4096], [128, 64, 0, 2048],
                          [2, 0, 0, 4]]),
    "mid_game": to_grid([[2, 8, 32, 128], [4, 16, 64, 256], [0, 2, 8, 512], [0, 0, 4, 1024]]),
    "win_next": to_grid([[1024, 1024, 8, 2], [4, 16, 2, 0], [2, 0, 0, 0], [0, 0, 0, 4]]),
    "over_full": to_grid([[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 2048, 4096],
                          [8192, 16384, 32768, 65536]]),
    "over_small": to_grid([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 8]]),
    # Small tiles only: 2, 4 and 8 next to empty cells (they share the empty cell's black in the terminal).
    "low_tiles": to_grid([[2, 0, 4, 8], [0, 2, 0, 4], [8, 4, 2, 0], [0, 0, 8, 2]]),
    "all_16": to_grid([[16] * 4] * 4),
}


def anchor_positions() -> list[Grid]:
    """Real positions from one strong self-play game (../shared/anchors), if present."""
    if not POSITIONS.is_file():
        return []
    data = json.loads(POSITIONS.read_text())
    return [to_grid(p["grid"]) for p in data["positions"]]


def board_score(grid: Grid) -> int:
    """A plausible score for a board (each tile v >= 4 was made by merges worth v * (log2 v - 1))."""
    return int(sum(v * (int(math.log2(v)) - 1) for row in grid for v in row if v >= 4))


@dataclass
class Condition:
    """One look: a rig configuration and the shots to take in it."""

    name: str
    rig: dict[str, Any]
    shots: list[tuple] = field(default_factory=list)
    subdir: str = ""  # under --out: "" for the classic and dark set, LOOKS_DIR for the other looks


def conditions(anchors: list[Grid]) -> list[Condition]:
    a = anchors or [BOARDS["mid_game"]] * 60
    return [
        Condition("classic_z100_s1_p0", dict(screen=(1600, 1000), window_size=(1000, 950)), [
            ("static", BOARDS["empty"]), ("static", a[0]), ("static", a[5]), ("static", BOARDS["ladder_full"]),
            ("static", a[44]),
            ("win",), ("win_fading",), ("keep_going",), ("over_by_move", a[53]),
            ("mid", a[8], [15, 45, 80, 120, 170, 240]),
        ]),
        Condition("dark_z100_s1_p2", dict(screen=(1600, 1000), window_pos=(480, 30), window_size=(1080, 960),
                                          theme="dark"), [
            ("static", BOARDS["empty"]), ("static", BOARDS["small_tiles"]), ("static", BOARDS["big_tiles"]),
            ("static", a[20]), ("static", BOARDS["ladder_full"]),
            ("win",), ("over_load", BOARDS["over_full"]),
            ("mid", a[30], [30, 70, 110, 200]),
        ]),
        Condition("classic_z50_s1_p3", dict(screen=(1920, 1080), window_pos=(200, 120), window_size=(1100, 800),
                                            zoom=0.5), [
            ("static", BOARDS["empty"]), ("static", a[12]), ("static", BOARDS["big_tiles"]),
        ]),
        Condition("dark_z67_s1_p1", dict(screen=(1920, 1080), window_pos=(900, 0), window_size=(1020, 1080),
                                         zoom=2 / 3, theme="dark"), [
            ("static", BOARDS["empty"]), ("static", a[33]), ("over_load", BOARDS["over_small"]),
        ]),
        Condition("classic_z80_s1_p4", dict(screen=(1920, 1080), window_pos=(60, 200), window_size=(900, 860),
                                            zoom=0.8), [
            ("static", BOARDS["empty"]), ("static", a[16]), ("mid", a[17], [50, 120]),
        ]),
        Condition("classic_z125_s1_p0", dict(screen=(1920, 1080), zoom=1.25, scroll="board"), [
            ("static", BOARDS["empty"]), ("static", a[2]), ("static", BOARDS["mid_game"]),
            ("mid", a[3], [40, 100, 160]),
        ]),
        Condition("dark_z150_s1_p0", dict(screen=(1920, 1080), zoom=1.5, scroll="board", theme="dark"), [
            ("static", BOARDS["empty"]), ("static", a[40]), ("win",),
        ]),
        Condition("classic_z200_s1_board400", dict(screen=(1920, 1080), zoom=2.0, size=400, scroll="board"), [
            ("static", BOARDS["empty"]), ("static", a[50]), ("mid", a[51], [60, 140]),
        ]),
        Condition("classic_z200_s1_cut", dict(screen=(1920, 1080), zoom=2.0, scroll=60), [
            ("static", BOARDS["empty"]), ("static", a[26]),
        ]),
        Condition("classic_z100_s2_4k", dict(screen=(3840, 2160), scale=2.0), [
            ("static", BOARDS["empty"]), ("static", a[10]), ("static", BOARDS["big_tiles"]),
            ("win",), ("mid", a[11], [50, 130]),
        ]),
        Condition("dark_z125_s2_4k_p2", dict(screen=(3840, 2160), scale=2.0, zoom=1.25, window_pos=(1400, 300),
                                             window_size=(2200, 1800), theme="dark", scroll="board"), [
            ("static", BOARDS["empty"]), ("static", a[58]), ("over_load", BOARDS["over_small"]),
        ]),
        Condition("classic_z100_s2_board250", dict(screen=(1920, 1080), scale=2.0, size=250, window_pos=(400, 0),
                                                   window_size=(1300, 1080)), [
            ("static", BOARDS["empty"]), ("static", a[36]), ("static", BOARDS["ladder_full"]),
        ]),
        Condition("classic_z100_s1_board300_p5", dict(screen=(1600, 1000), window_pos=(700, 260),
                                                      window_size=(880, 720), size=300), [
            ("static", BOARDS["empty"]), ("static", BOARDS["one_tile"]), ("static", a[47]),
            ("mid", a[48], [30, 90]),
        ]),
        Condition("dark_z90_s1_board640", dict(screen=(1600, 1000), window_size=(1600, 1000), zoom=0.9,
                                               size=640, theme="dark"), [
            ("static", BOARDS["empty"]), ("static", a[55]), ("keep_going",),
        ]),
        *look_conditions(a),
    ]


def look_conditions(a: list[Grid]) -> list[Condition]:
    """The other looks (lines, lines-light, terminal; marks; overhang), in --out / LOOKS_DIR.

    Small screens with the browser window filling them (the page scrolled to centre the board
    where it would not fit), to keep the pictures small."""
    return [Condition(*c, subdir=LOOKS_DIR) for c in [
        ("lines_z100_s1", dict(screen=(900, 720), theme="lines", scroll="board"), [
            ("static", BOARDS["mid_game"]), ("static", a[5]), ("static", BOARDS["big_tiles"]),
            ("static", BOARDS["low_tiles"]),
            ("win",), ("over_load", BOARDS["over_small"]),
            ("mid", a[8], [30, 90, 180]),
        ]),
        ("lines-light_z100_s1_board400", dict(screen=(800, 600), theme="lines-light", size=400, scroll="board"), [
            ("static", BOARDS["small_tiles"]), ("static", a[16]), ("static", BOARDS["ladder_full"]),
            ("win",), ("over_load", BOARDS["over_full"]),
            ("mid", a[17], [40, 150]),
        ]),
        ("terminal_z100_s1", dict(screen=(720, 560), theme="terminal"), [
            ("static", BOARDS["low_tiles"]), ("static", BOARDS["mid_game"]), ("static", a[20]),
            ("static", BOARDS["ladder_full"]), ("static", BOARDS["empty"]),
            ("win",), ("over_load", BOARDS["over_small"]),
        ]),
        ("classic-marks_z100_s1", dict(screen=(900, 720), marks=True, scroll="board"), [
            ("static", BOARDS["mid_game"]), ("static", a[2]), ("static", BOARDS["big_tiles"]),
            ("win",),
            ("mid", a[3], [40, 150]),
        ]),
        ("dark-overhang_z100_s1", dict(screen=(900, 720), theme="dark", overhang=True, scroll="board"), [
            ("static", BOARDS["small_tiles"]), ("static", a[10]), ("static", BOARDS["ladder_full"]),
            ("over_load", BOARDS["over_small"]),
            ("mid", a[11], [40, 150]),
        ]),
        ("terminal-marks_z150_s1", dict(screen=(900, 720), zoom=1.5, theme="terminal", marks=True), [
            ("static", BOARDS["low_tiles"]), ("static", a[33]), ("static", BOARDS["big_tiles"]),
            ("win",), ("over_load", BOARDS["over_full"]),
        ]),
    ]]
