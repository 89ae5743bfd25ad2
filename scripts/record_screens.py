#!/usr/bin/env python3
"""Record whole-screen screenshots of the practice board on the live rig, each with a JSON of the truth."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from screen_conditions import LOOKS_DIR, ROOT, anchor_positions, conditions
from screen_recorder import Recorder

from screenbot.practice.rig import Rig

DEFAULT_OUT = ROOT / "tests" / "fixtures" / "screens"
PORT = 47048  # a fixed port keeps the address bar the same in every recording (0 = any free port)


def draw_check(img: np.ndarray, label: dict[str, Any]) -> np.ndarray:
    """The picture with the labelled board (red) and cells (green) drawn on it."""
    out = img.copy()
    ox, oy = label["image_origin"]
    x, y, w, h = label["board_rect"]
    x, y = x - ox, y - oy
    cv2.rectangle(out, (round(x), round(y)), (round(x + w) - 1, round(y + h) - 1), (0, 0, 255), 1)
    for cx, cy, cw, ch in label["cell_rects"]:
        cx, cy = cx - ox, cy - oy
        cv2.rectangle(out, (round(cx), round(cy)), (round(cx + cw) - 1, round(cy + ch) - 1), (0, 200, 0), 1)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--only", nargs="*", help="condition names (default: all)")
    parser.add_argument("--list", action="store_true", help="list the conditions and exit")
    parser.add_argument("--port", type=int, default=PORT, help=f"server port (default {PORT}; 0 = any)")
    parser.add_argument("--check", type=Path, help="write a copy of each picture with its rects drawn here")
    args = parser.parse_args(argv)
    conds = conditions(anchor_positions())
    if args.list:
        for c in conds:
            print(c.name, len(c.shots))
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    for cond in conds:
        if args.only and cond.name not in args.only:
            continue
        out = args.out / cond.subdir
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob(f"{cond.name}__*"):
            old.unlink()
        print(cond.name, flush=True)
        with Rig(**cond.rig, port=args.port) as rig:
            rec = Recorder(out, cond, rig)
            rec.verify_rect()
            for shot in cond.shots:
                kind, *rest = shot
                if kind == "static":
                    rec.static(rest[0])
                elif kind == "win":
                    rec.win()
                elif kind == "win_fading":
                    rec.win(fading=True)
                elif kind == "keep_going":
                    rec.keep_going()
                elif kind == "over_by_move":
                    rec.over_by_move(rest[0])
                elif kind == "over_load":
                    rec.over_load(rest[0])
                elif kind == "mid":
                    rec.mid(rest[0], rest[1])
                else:
                    raise ValueError(kind)
        if args.check:
            args.check.mkdir(parents=True, exist_ok=True)
            for js in sorted(out.glob(f"{cond.name}__*.json")):
                label = json.loads(js.read_text())
                img = cv2.imread(str(out / label["image"]))
                cv2.imwrite(str(args.check / label["image"]), draw_check(img, label))
    for folder in (args.out, args.out / LOOKS_DIR):
        total = sum(p.stat().st_size for p in folder.glob("*.png"))
        print(f"{len(list(folder.glob('*.png')))} pictures, {total / 1e6:.1f} MB in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
