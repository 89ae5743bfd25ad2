"""What screenbot does on each family program: its recorded frames read without a display, then the
program live on a fresh Xvfb with the commands a user types (`screenbot calibrate`, `read --json`,
`play --max-moves N --player plain --log`), each checked against the program's own boards.

    PYTHONPATH=. .venv/bin/python tests/targets/families/measure_families.py [NAME ...] [--moves 50]

A NAME of the form any_look_<seed> is a random terminal look (any_look.py; its frames in
tests/fixtures/any_looks), any_window_<seed> a random window look (any_window.py; tests/fixtures/any_windows).

Prints one JSON line per program, then a Markdown table (README.md beside this file).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

TARGETS_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TARGETS_DIR))
from families.corpus_families import TARGETS, any_look_target, any_window_target  # noqa: E402
from families.family_frames import FIXTURES  # noqa: E402

LOOKS = FIXTURES.parent / "any_looks"  # the random looks' frames (any_look_<seed>)
WINDOWS = FIXTURES.parent / "any_windows"  # (any_window_<seed>)


def target_of(name: str):
    """The Target class of a family program, or of a random look named any_look_<seed> or any_window_<seed>."""
    if name in TARGETS:
        return TARGETS[name]
    seed = int(name.rsplit("_", 1)[1])
    return any_window_target(seed) if name.startswith("any_window_") else any_look_target(seed)
from target_processes import VirtualDisplay  # noqa: E402


def frame_tally(name: str) -> dict:
    """The recorded frames of `name` as test_family_frames.py reads them: how many of each outcome, and
    what was seen on each frame not read exactly."""
    from families.family_frames import read_family_frames

    frames = read_family_frames(name, FIXTURES if name in TARGETS else WINDOWS if name.startswith("any_window_") else LOOKS)
    tally = {"total": len(frames)}
    for outcome in ("exact", "unsettled", "error", "wrong"):
        tally[outcome] = sum(f.outcome == outcome for f in frames)
    tally["misses"] = [f"{f.name} ({f.kind}) {f.outcome}: {f.seen}" for f in frames if f.outcome != "exact"]
    return tally


def _screenbot(args: list[str], env: dict, timeout: float) -> tuple[int, str]:
    exe = Path(sys.executable).with_name("screenbot")
    try:
        done = subprocess.run([str(exe), *args], env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        return -1, f"timed out after {timeout:g} s: {(exc.stderr or b'')[-300:]!r}"
    return done.returncode, (done.stdout + done.stderr).strip()


def live(name: str, moves: int, seed: int = 7, **options) -> dict:
    """`name` on a fresh Xvfb: calibrate, read, play; each against the program's own boards."""
    out: dict = {}
    home = Path(tempfile.mkdtemp(prefix=f"family-{name}-"))
    with VirtualDisplay((1280, 800)) as xvfb, target_of(name)(xvfb.display, seed=seed, **options) as game:
        game.focus()
        env = dict(os.environ, DISPLAY=xvfb.display, XDG_CONFIG_HOME=str(home / "config"),
                   XDG_CACHE_HOME=str(home / "cache"))
        rc, text = _screenbot(["calibrate"], env, 120)
        out["calibrate"] = {"rc": rc, "said": text.splitlines()[-1] if text else ""}
        profile = home / "config" / "screenbot" / "profile.json"
        if rc == 0 and profile.exists():
            data = json.loads(profile.read_text())
            cells = data["cells"]  # x, y, w, h; row by row
            out["profile"] = {"kind": data["kind"], "board": data["board_rect"], "first_cell": cells[0],
                              "step": [cells[1][0] - cells[0][0], cells[4][1] - cells[0][1]]}
        rc, text = _screenbot(["read", "--json"], env, 60)
        try:
            reading = json.loads(text.splitlines()[-1])
            out["read"] = {"state": reading.get("state"), "exact": reading.get("board") == game.board()}
            if not out["read"]["exact"]:
                out["read"].update(seen=reading.get("board"), truth=game.board())
        except (ValueError, IndexError):
            out["read"] = {"rc": rc, "said": text.splitlines()[-1] if text else ""}
        log = home / "play.jsonl"
        rc, text = _screenbot(["play", "--max-moves", str(moves), "--player", "plain", "--log", str(log)], env, 300)
        entries = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
        believed = [e["board"] for e in entries if "board" in e]
        summary = next((e["summary"] for e in entries if "summary" in e), {})
        truth = [r["board"] for r in game.history()]
        changed = [b for i, b in enumerate(truth) if i == 0 or b != truth[i - 1]]
        misreads = sum(a != b for a, b in zip(believed, changed))
        first = next((i for i, (a, b) in enumerate(zip(believed, changed)) if a != b), None)
        out["play"] = {"rc": rc, "moves": len(believed), "misreads": misreads,
                       **({"first_misread": {"i": first, "believed": believed[first], "shown": changed[first],
                                             "shown_before": changed[first - 1] if first else None}}
                          if first is not None else {}),
                       "reason": summary.get("reason") or (text.splitlines()[-1] if text else ""),
                       "moves_per_s": summary.get("moves_per_s")}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", default=list(TARGETS))
    ap.add_argument("--moves", type=int, default=50)
    ap.add_argument("--no-live", action="store_true", help="the recorded frames only")
    ap.add_argument("--small-start", action="store_true", help="live: a first board of two small tiles (no big_start)")
    args = ap.parse_args()
    for name in args.names:
        row = {"program": name, "moves_asked": args.moves, "frames": frame_tally(name)}
        if not args.no_live:
            row.update(live(name, args.moves, **({"big_start": False} if args.small_start else {})))
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
