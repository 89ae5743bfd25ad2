"""A family program that draws its tiles alone, calibrated as a user does it: the mouse pointer on the
game's background beside its tiles, then `screenbot calibrate --probe` (arrow keys show where the cells
are), then played; every believed board checked against the game's own record.

    python families/probe_play.py SEED [SEED ...] [--game-seed G] [--moves N]   (from tests/targets)

prints one JSON line per window look (any_window.py) played: calibrated?, moves, moves/s, misreads.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/targets: harness, test_play_targets

from harness import VirtualDisplay  # noqa: E402
from screenbot.geometry import Point  # noqa: E402
from test_play_targets import play_calibrated, screen_on  # noqa: E402


def probe_then_play(target_cls, moves: int, tmp_path, game_seed: int = 7):
    """`target_cls` on a fresh Xvfb, the mouse pointer on its background beside its tiles (as a user points),
    `screenbot calibrate --probe` run as a user runs it, then `moves` moves played: the summary, the Player,
    the profile, the game's boards from the one play began on, and what calibrate said."""
    import subprocess
    import sys

    from screenbot.profile import Profile

    display = VirtualDisplay((1280, 800)).start()
    target = target_cls(display.display, seed=game_seed)
    with screen_on(display.display):
        try:
            target.start()
            target.focus()
            point_beside_tiles(display.display)
            env = dict(os.environ, DISPLAY=display.display)
            path = tmp_path / "profile.json"
            done = subprocess.run([sys.executable, "-m", "screenbot", "calibrate", "--probe", "--profile", str(path)],
                                  env=env, capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stderr
            profile = Profile.load(path)
            begun = len(target.history())  # the probe's keys moved the game: play begins on its last board
            summary, player = play_calibrated(profile, moves, tmp_path / "stop")
            truth = [r["board"] for r in target.history()][begun - 1:]
            return summary, player, profile, truth, done.stderr
        finally:
            target.cleanup()
            display.stop()


def point_beside_tiles(display: str) -> None:
    """The mouse pointer moved onto the background beside the tiles on `display`, as a user points."""
    import subprocess

    from screenbot.calibration.bare import find_tiles
    from screenbot.control.screen import MssScreen

    with screen_on(display):
        with MssScreen() as screen:
            frame = screen.grab(screen.monitors()[0])
    x, y = background_beside(frame, find_tiles(frame.pixels))
    subprocess.run(["xdotool", "mousemove", str(x), str(y)], env=dict(os.environ, DISPLAY=display), check=True)


def background_beside(frame, tiles) -> tuple[int, int]:
    """A point of the tiles' background one tile beside the first of them (left, right, above or below)."""
    first = tiles.rects[0]
    for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        x = first.x + first.w // 2 + dx * first.w
        y = first.y + first.h // 2 + dy * first.h
        if 0 <= y < frame.pixels.shape[0] and 0 <= x < frame.pixels.shape[1] and \
                max(abs(int(a) - b) for a, b in zip(frame.pixels[y, x], tiles.background)) <= 2 and \
                not any(t.contains(Point(x, y)) for t in tiles.rects):
            return x + frame.left, y + frame.top
    raise AssertionError("no background beside the first tile")


def main(argv=None) -> int:
    import argparse
    import json
    import tempfile
    import time

    from families.corpus_families import any_window_target
    from test_play_targets import believed_against_truth

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seeds", type=int, nargs="+", help="window looks (any_window.py seeds)")
    parser.add_argument("--game-seed", type=int, default=7)
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--keep", default=None, help="keep each run's profile and stop frames under this folder")
    args = parser.parse_args(argv)
    for seed in args.seeds:
        with tempfile.TemporaryDirectory() as scratch:
            tmp = scratch if args.keep is None else Path(args.keep) / f"any_window_{seed}_game{args.game_seed}"
            Path(tmp).mkdir(parents=True, exist_ok=True)
            row = {"date": time.strftime("%Y-%m-%d"), "look": f"any_window_{seed}", "game_seed": args.game_seed,
                   "command": f"python families/probe_play.py {seed} --game-seed {args.game_seed} --moves {args.moves}"}
            try:
                summary, player, profile, truth, said = probe_then_play(any_window_target(seed), args.moves, Path(tmp),
                                                                        args.game_seed)
            except AssertionError as exc:
                row.update(calibrated=False, why=str(exc).splitlines()[-1][:300])
            else:
                believed = [[list(r) for r in b] for b in player.tracker.history]
                shown = [b for i, b in enumerate(truth) if i == 0 or b != truth[i - 1]]
                row.update(calibrated=True, shape=list(profile.shape), kind=profile.kind, moves=summary.moves,
                           reason=summary.reason, moves_per_s=round(summary.moves_per_s, 2),
                           wrong_boards=sum(a != b for a, b in zip(believed, shown)),
                           against_record=believed_against_truth(player, truth))
            print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.exit(main())
