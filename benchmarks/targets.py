"""Real 2048 programs (tests/targets): one row per target with calibration, recorded frames read right, live moves/s and misreads.

For each target: its recorded frames (tests/fixtures/targets/<name>/, else its screenshot in
tests/targets/screens/) are read with a profile calibrated on the first of them; then the program
is started on a fresh Xvfb, calibrated on the live screen, and played for --moves moves with the
real agent and X keys; every board play believed is checked against the game's own record.

    .venv/bin/python -m benchmarks.targets [--moves 300] [--only term2048] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "targets"))  # the harnesses (test code, not the package)

from harness import TARGETS  # noqa: E402
from target_frames import read_target_frames  # noqa: E402
from test_play_targets import believed_against_truth, play_target  # noqa: E402


def recorded_frames(name: str) -> tuple[int, int]:
    """(frames read right, frames) for a target's recorded screens (target_frames.py says what is right
    for each kind: still, mid-move, overlay)."""
    results = read_target_frames(name)
    return sum(r.ok for r in results), len(results)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300, help="live moves per target (default 300)")
    parser.add_argument("--only", choices=sorted(TARGETS), help="one target")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of the rows")
    args = parser.parse_args()
    rows = []
    for name in [args.only] if args.only else sorted(TARGETS):
        right, total = recorded_frames(name)
        with tempfile.TemporaryDirectory() as tmp:
            try:
                summary, player, profile, truth = play_target(TARGETS[name], args.moves, Path(tmp))
                calibrated = True
            except Exception as exc:  # noqa: BLE001 - a row says what went wrong
                rows.append({"target": name, "calibrated": False, "frames_right": right, "frames": total,
                             "error": f"{type(exc).__name__}: {exc}"})
                continue
        gaps = [b - a for a, b in zip(player.stats.key_times, player.stats.key_times[1:])]
        rows.append({
            "target": name, "calibrated": calibrated, "kind": profile.kind, "frames_right": right, "frames": total,
            "moves": summary.moves, "moves_per_s": summary.moves_per_s,
            "key_to_key_ms": round(1000 * statistics.median(gaps), 1) if gaps else None,
            "misreads": believed_against_truth(player, truth), "ok": summary.ok, "reason": summary.reason,
        })
    print(f"{'target':<18} {'calibrated':<10} {'frames read right':<18} {'moves':>6} {'moves/s':>8} {'key to key ms':>14} {'misreads':>9}")
    for r in rows:
        frames = f"{r['frames_right']} / {r['frames']}"
        if not r["calibrated"]:
            print(f"{r['target']:<18} {'no':<10} {frames:<18}  {r['error']}")
            continue
        print(f"{r['target']:<18} {'yes (' + r['kind'] + ')':<10} {frames:<18} {r['moves']:>6} {r['moves_per_s']:>8.2f} "
              f"{r['key_to_key_ms']!s:>14} {r['misreads']:>9}" + ("" if r["ok"] else f"   stopped: {r['reason']}"))
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
