#!/usr/bin/env python3
"""One-shot reads of frames caught mid-move: each read as `screenbot read --image F` reads it (a calibrated
profile, no history) and judged against the practice page's own record of the board before and after the key.

    .venv/bin/python -m benchmarks.oneshot --keys 81 --seed 1 --keep /tmp/oneshot   # record, then read
    .venv/bin/python -m benchmarks.oneshot --reread /tmp/oneshot                    # read kept frames again

Starts the practice page (classic look, real animations) on Xvfb, presses seeded legal keys and grabs the
board (with a margin) at several delays after each key. A read is `exact` (the board before or after the
key), `unsettled`, `error` (the command would fail: no board, or a tile it cannot name), `drawn` (a board of
neither that the picture shows to within a pixel: see DRAWN_LEVELS) or `WRONG` (a board the game was never
in). Prints one line per delay and one JSON line (--jsonl appends it to a file).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from pathlib import Path

DELAYS_MS = (0, 30, 60, 90, 120, 160, 250)
MARGIN_PX = 40  # around the board in every grabbed frame
OUTCOMES = ("exact", "unsettled", "error", "drawn", "WRONG")
# A wrong board is `drawn` when every cell read wrong shows a still cell of the value read moved by less
# than a pixel (each pixel within DRAWN_LEVELS of the still one, plus how much the still picture
# changes one pixel away): the game drew that board at that instant (the slid tiles on their cells to
# a fraction of a pixel, the new tile not shown yet), so no reading of that one frame can know.
DRAWN_LEVELS = 4


def record(out: Path, keys: int, seed: int, delays: tuple[int, ...], anim: float) -> None:
    """Grab a still calibration frame (still.png) and, for each key, one frame per delay; the page's
    boards before and after each key go to labels.jsonl."""
    import cv2

    from screenbot.game.rules import apply_move, legal_moves, to_grid
    from screenbot.practice.rig import Rig

    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    with Rig(screen=(1000, 900), window_size=(1000, 900), seed=seed, anim=anim) as rig:
        box = rig.board_box().rect().inset(-MARGIN_PX)
        rig.wait_still()
        cv2.imwrite(str(out / "still.png"), rig.grab(box))
        with open(out / "labels.jsonl", "w") as labels:
            for k in range(keys):
                rig.wait_still(still_ms=150)
                state = rig.state(history=False)
                before = to_grid(state["board"])
                cv2.imwrite(str(out / f"k{k:03d}_still.png"), rig.grab(box))
                moves = legal_moves(before)
                if not moves:
                    break
                move = rng.choice(moves)
                t_send = rig.press(move)
                grabs = []
                for delay in delays:
                    time.sleep(max(0.0, t_send + delay / 1000 - time.time()))
                    grabs.append((delay, time.time(), rig.grab(box)))
                after_state = rig.wait_for_moves(state["moves"] + 1)
                after = to_grid(after_state["board"])
                slid = apply_move(before, move)[0]
                t_key = after_state["t_key"] / 1000.0 if after_state.get("t_key") else t_send
                for delay, t, pixels in grabs:
                    name = f"k{k:03d}_{delay:03d}ms.png"
                    cv2.imwrite(str(out / name), pixels)
                    labels.write(json.dumps({"image": name, "key": k, "delay_ms": delay, "move": move.key,
                                             "after_key_ms": round((t - t_key) * 1000, 1),
                                             "board_before": before, "board": after, "slid": slid}) + "\n")


def read_oneshot(png: Path, profile_path: Path):
    """(state, grid, detail) as `screenbot read --image png --profile profile_path` gets them; a
    ScreenbotError (the command fails) is state 'error'."""
    from screenbot.board_state import BoardState
    from screenbot.board_source import open_session
    from screenbot.errors import ScreenbotError
    from screenbot.profile import Profile

    try:
        with open_session(png, Profile.load(profile_path)) as session:  # a fresh copy: nothing learned kept
            reading = session.read()
    except ScreenbotError as exc:
        return "error", None, str(exc).split(" (the picture is kept")[0]
    if reading.state == BoardState.NO_BOARD:
        return "error", None, reading.detail
    return str(reading.state), reading.grid, reading.detail


def _inner(pixels, cell):
    """A cell's pixels, less a border of 8 % (rounded corners, the neighbours' glow)."""
    dx, dy = int(0.08 * cell.w), int(0.08 * cell.h)
    return pixels[cell.y + dy : cell.bottom - dy, cell.x + dx : cell.right - dx].astype(int)


def still_cells(out: Path, labels: list[dict], cells) -> dict[tuple[int, int], list]:
    """(cell, tile value) -> the inner pixels of that cell showing that value on the still frames before
    each key (per cell: a board's cells may sit at different fractions of a pixel)."""
    import cv2

    refs: dict[int, list] = {}
    for label in labels:
        if label["delay_ms"] != labels[0]["delay_ms"]:
            continue
        pixels = cv2.imread(str(out / f"k{label['key']:03d}_still.png"))
        for i, cell in enumerate(cells):
            refs.setdefault((i, label["board_before"][i // 4][i % 4]), []).append(_inner(pixels, cell))
    return refs


def _within_a_pixel(ref):
    """Per pixel and channel: how far the still picture `ref` may be off there once moved by under a pixel."""
    import numpy as np

    pad = np.pad(ref, ((1, 1), (1, 1), (0, 0)), mode="edge")
    h, w = ref.shape[:2]
    shifted = [pad[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w] for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
    return DRAWN_LEVELS + np.max([abs(s - ref) for s in shifted], axis=0)


def drawn(pixels, grid, truth, cells, refs: dict[tuple[int, int], list]) -> bool:
    """Every cell where `grid` differs from `truth` looks like a still cell of the value in `grid`."""
    for i, cell in enumerate(cells):
        value = grid[i // 4][i % 4]
        if value == truth[i // 4][i % 4]:
            continue
        inner = _inner(pixels, cell)
        if not any(ref.shape == inner.shape and (abs(inner - ref) <= _within_a_pixel(ref)).all()
                   for ref in refs.get((i, value), [])):
            return False
    return True


def judge(out: Path) -> list[dict]:
    """Read every frame in `out` (calibrated on still.png) and judge it against its label."""
    from screenbot.board_source import calibrate_live
    from screenbot.control.screen import ImageScreen
    from screenbot.game.rules import to_grid

    profile_path = out / "profile.json"
    import cv2

    from screenbot.profile import Profile

    calibrate_live(ImageScreen(out / "still.png"), profile_path)
    cells = Profile.load(profile_path).cells
    labels = [json.loads(line) for line in (out / "labels.jsonl").read_text().splitlines()]
    refs = still_cells(out, labels, cells)
    rows = []
    for label in labels:
        state, grid, detail = read_oneshot(out / label["image"], profile_path)
        shown = (to_grid(label["board_before"]), to_grid(label["board"]))
        if state == "error":
            outcome = "error"
        elif grid is None:
            outcome = "unsettled" if state == "unsettled" else "error"
        else:
            outcome = "exact" if grid in shown else "WRONG"
            if outcome == "WRONG" and drawn(cv2.imread(str(out / label["image"])), grid, shown[1], cells, refs):
                outcome = "drawn"
        rows.append({**label, "state": state, "read": grid, "detail": detail, "outcome": outcome})
    return rows


def summary(rows: list[dict]) -> dict[int, Counter]:
    by_delay: dict[int, Counter] = {}
    for r in rows:
        by_delay.setdefault(r["delay_ms"], Counter())[r["outcome"]] += 1
    return dict(sorted(by_delay.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keys", type=int, default=81, help="keys pressed (one frame per delay each)")
    parser.add_argument("--seed", type=int, default=1, help="the page's seed and the keys' seed")
    parser.add_argument("--delays", default=",".join(map(str, DELAYS_MS)), help="ms after each key, comma-separated")
    parser.add_argument("--anim", type=float, default=1.0, help="the page's animation multiplier")
    parser.add_argument("--keep", metavar="DIR", help="where the frames go (default: a temporary folder)")
    parser.add_argument("--reread", metavar="DIR", help="read the frames kept in DIR again; start nothing")
    parser.add_argument("--jsonl", metavar="PATH", help="append the summary (one JSON line) here")
    parser.add_argument("--details", action="store_true", help="print every frame that is not exact or unsettled")
    args = parser.parse_args(argv)
    if args.reread:
        out = Path(args.reread)
    else:
        import tempfile

        out = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="screenbot-oneshot-"))
        record(out, args.keys, args.seed, tuple(int(d) for d in args.delays.split(",")), args.anim)
    rows = judge(out)
    table = summary(rows)
    print(f"frames in {out}")
    print("delay_ms  " + "  ".join(f"{o:>9}" for o in OUTCOMES))
    for delay, counts in table.items():
        print(f"{delay:>8}  " + "  ".join(f"{counts.get(o, 0):>9}" for o in OUTCOMES))
    total = Counter()
    for counts in table.values():
        total.update(counts)
    print("   total  " + "  ".join(f"{total.get(o, 0):>9}" for o in OUTCOMES))
    if args.details:
        for r in rows:
            if r["outcome"] in ("error", "WRONG"):
                print(f"{r['image']} ({r['after_key_ms']} ms after the key): {r['outcome']} {r['state']} "
                      f"{r['read']} {r['detail']}")
    from benchmarks.jsonl import emit

    emit({"date": time.strftime("%Y-%m-%d"), "frames": str(out), "keys": len({r["key"] for r in rows}),
          "per_delay": {str(d): dict(c) for d, c in table.items()}, "total": dict(total)}, args.jsonl)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
