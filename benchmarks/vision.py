#!/usr/bin/env python3
"""Vision speed: grab+read of a settled board (no OCR), calibration on a 4K screen, OCR calls per 1,000 frames.

    .venv/bin/python -m benchmarks.vision            # recorded frames (tests/fixtures/screens)
    .venv/bin/python -m benchmarks.vision --rig      # also the live screen: Xvfb + Chromium via mss

Prints medians. Targets (issue 4): read <= 5 ms, 4K calibration <= 1 s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import numpy as np

from screenbot.calibration import calibrate
from screenbot.control.screen import Frame, ImageScreen, MssScreen
from screenbot.game.rules import Grid, Move, Rng, apply_move, legal_moves, spawn, to_grid
from screenbot.geometry import Rect
from screenbot.vision import read_board

ROOT = Path(__file__).resolve().parents[1]  # the repository: its test fixtures and ../shared
FIXTURES = ROOT / "tests" / "fixtures" / "screens"
ANCHORS = ROOT.parent / "shared" / "anchors" / "positions.json"


def labels(condition: str | None = None, kind: str | None = None) -> list[dict]:
    out = []
    for path in sorted(FIXTURES.glob("*.json")):
        label = json.loads(path.read_text())
        if condition and label["condition"]["name"] != condition:
            continue
        if kind and label["kind"] != kind:
            continue
        out.append(label)
    return out


def frame(label: dict) -> Frame:
    return Frame.load(FIXTURES / label["image"])


def median_ms(fn, n: int) -> tuple[float, float]:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def bench_recorded_read(condition: str, n: int) -> None:
    still = labels(condition, "static")[0]
    screen = ImageScreen(FIXTURES / still["image"], advance=False)
    profile = calibrate(screen.grab())
    first = read_board(screen.grab(profile.board_rect), profile)  # builds the lookup table once; OCR if needed
    assert first.grid == to_grid(still["grid"]), "the recorded frame was misread"

    def once():
        reading = read_board(screen.grab(profile.board_rect), profile)
        assert reading.ocr_calls == 0

    med, p95 = median_ms(once, n)
    print(f"grab+read, recorded frame ({condition}, board {profile.board_rect.w} px, Screen interface): "
          f"median {med:.2f} ms, p95 {p95:.2f} ms over {n}")


def bench_calibration_4k(n: int) -> None:
    for label in labels():
        if label["screen_size"] == [3840, 2160] and label["board_fully_on_screen"] and label["kind"] == "static":
            pic = frame(label)
            med, p95 = median_ms(lambda: calibrate(pic), n)
            print(f"calibration, 4K screenshot 3840x2160 ({label['image']}): median {med:.0f} ms, p95 {p95:.0f} ms over {n}")
            return
    print("calibration, 4K: no 4K fixture found")


class TileAtlas:
    """Frames of any board, composed from real recorded cell pictures of one condition."""

    def __init__(self, condition: str) -> None:
        stills = labels(condition, "static")
        self.background = frame(stills[0]).pixels.copy()
        self.cells = [Rect.from_list(r) for r in stills[0]["cell_rects"]]
        self.tiles: dict[int, np.ndarray] = {}
        for label in stills:
            pic = frame(label).pixels
            for k, rect in enumerate(Rect.from_list(r) for r in label["cell_rects"]):
                value = label["grid"][k // 4][k % 4]
                if value not in self.tiles:
                    self.tiles[value] = pic[rect.y : rect.bottom, rect.x : rect.right].copy()

    def render(self, grid: Grid) -> np.ndarray:
        pic = self.background.copy()
        for k, rect in enumerate(self.cells):
            tile = self.tiles[grid[k // 4][k % 4]]
            h, w = min(rect.h, tile.shape[0]), min(rect.w, tile.shape[1])
            pic[rect.y : rect.y + h, rect.x : rect.x + w] = tile[:h, :w]
        return pic


def replay_game(atlas: TileAtlas, start: Grid, moves: int, seed: int = 1) -> list[Grid]:
    """A game from `start`: the first legal move in a fixed preference order, seeded spawns."""
    rng = Rng(seed)
    grid, boards = start, [start]
    for _ in range(moves):
        legal = legal_moves(grid)
        if not legal:
            break
        move = next(m for m in (Move.UP, Move.LEFT, Move.RIGHT, Move.DOWN) if m in legal)
        grid, _ = apply_move(grid, move)
        grid, _ = spawn(grid, rng)
        if any(v and v not in atlas.tiles for row in grid for v in row):
            break
        boards.append(grid)
    return boards


def bench_ocr_per_1000(condition: str, frames: int) -> None:
    atlas = TileAtlas(condition)
    start = to_grid([[64, 256, 8192, 16384], [16, 64, 2048, 4096], [2, 8, 4, 2], [0, 4, 2, 2]])
    if ANCHORS.is_file():
        start = to_grid(json.loads(ANCHORS.read_text())["positions"][-1]["grid"])
    boards: list[Grid] = []
    seed = 1
    while len(boards) < frames:
        boards += replay_game(atlas, start, frames - len(boards), seed)
        seed += 1
    boards = boards[:frames]
    screen = ImageScreen([atlas.render(b) for b in boards[:1]], advance=False)
    profile = calibrate(screen.grab())
    calls = misreads = 0
    read_ms = []
    for board in boards:
        pic = Frame(atlas.render(board))
        t = time.perf_counter()
        reading = read_board(pic, profile)
        read_ms.append((time.perf_counter() - t) * 1000)
        calls += reading.ocr_calls
        misreads += reading.grid != board
    big = sorted({v for b in boards for row in b for v in row if v >= 4096})
    print(f"OCR calls per 1,000 frames ({condition}, {len(boards)} frames of a replayed game with tiles {big}): "
          f"{calls * 1000 / len(boards):.1f} ({calls} calls in all; {misreads} misreads; "
          f"median read {statistics.median(read_ms):.2f} ms)")


def bench_live(n: int, use_rig: bool) -> None:
    if use_rig:
        from screenbot.practice.rig import Rig

        start = to_grid([[2, 4, 8, 16], [0, 32, 64, 0], [128, 256, 512, 1024], [0, 2048, 0, 4096]])
        with Rig(board=start, keep=True, export_env=True) as rig:
            rig.wait_still()
            _live(n, f"live mss on the rig's Xvfb {rig.display}")
    elif os.environ.get("DISPLAY"):
        _live(n, f"live mss on DISPLAY={os.environ['DISPLAY']}")
    else:
        print("live: no $DISPLAY (use --rig to start Xvfb + Chromium)")


def _live(n: int, what: str) -> None:
    screen = MssScreen()
    try:
        profile = calibrate(screen.grab(), monitors=screen.monitors())
        read_board(screen.grab(profile.board_rect), profile)
        grab_med, _ = median_ms(lambda: screen.grab(profile.board_rect), n)
        states = []

        def once():
            states.append(read_board(screen.grab(profile.board_rect), profile).state)

        med, p95 = median_ms(once, n)
        print(f"grab+read, {what} (board {profile.board_rect.w} px): median {med:.2f} ms, p95 {p95:.2f} ms "
              f"(grab alone {grab_med:.2f} ms); states {sorted(set(states))}")
    except Exception as exc:  # a display without a board: say so
        print(f"live: {exc}")
    finally:
        screen.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reads", type=int, default=500, help="timed reads per figure")
    ap.add_argument("--frames", type=int, default=1000, help="frames in the replayed game")
    ap.add_argument("--rig", action="store_true", help="start Xvfb + Chromium for the live figure")
    args = ap.parse_args()
    if not FIXTURES.is_dir():
        print(f"no recorded screens in {FIXTURES}")
        return 1
    bench_recorded_read("classic_z100_s1_p0", args.reads)
    bench_recorded_read("dark_z100_s1_p2", args.reads)
    bench_live(args.reads, args.rig)
    bench_calibration_4k(5)
    bench_ocr_per_1000("dark_z100_s1_p2", args.frames)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
