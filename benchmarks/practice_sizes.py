"""The practice board at other sizes, live: calibrated with no options, played by the size's own player.

For each --sizes entry (default 3x3, 5x5, 8x8), on the rig (Xvfb, Chromium, the practice page at that
size, --seed): the page's own timing first (benchmarks/live.py's page_timing: key to the board standing
still, over --keys keys; 1000 / its median is the page's limit), then a fresh game, `calibrate` with no
options (the size found on the screen) and play with the default player, which is the size's own, real
XTEST keys, the keys learned from the first move as `screenbot play` does, until --moves moves or game
over. Misreads: boards play believed that differ from the page's own record of the game.

Results: a header line and one JSON line per size appended to --out; a Markdown table beside it (.md).

    .venv/bin/python -m benchmarks.practice_sizes [--sizes 3x3,5x5,8x8] [--moves 300] [--seed 7] [--out FILE]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from benchmarks.targets import ROOT, one_line, run_rows

DEFAULT_OUT = ROOT / "benchmarks" / "results" / "practice_sizes.jsonl"
COLUMNS = ("size", "calibrated as", "player", "moves", "stop", "moves/s", "page's limit, moves/s (key to still)",
           "misreads against the page", "max tile")


def measure(size: str, moves: int, seed: int, keys: int) -> dict:
    from benchmarks.live import page_timing
    from screenbot.agent.players import DEFAULT_PLAYER
    from screenbot.board_source import calibrate_live
    from screenbot.control.keyboard import XTestKeyboard
    from screenbot.control.screen import MssScreen
    from screenbot.game.sizes import parse_size
    from screenbot.play.demo import misreads_against_page
    from screenbot.play.live_parts import open_live
    from screenbot.play.loop import PlaySettings, Player
    from screenbot.play.record import Recording
    from screenbot.practice.rig import Rig

    shape = parse_size(size)
    row: dict = {"kind": "size", "size": size}
    try:
        with Rig(seed=seed, shape=shape, export_env=True) as rig, tempfile.TemporaryDirectory() as tmp:
            with MssScreen() as screen:
                board = rig.board_rect()
                keyboard = XTestKeyboard(board)
                timing = page_timing(rig, screen, keyboard, board, keys)
                keyboard.close()
                row["page"] = timing
                rig.load(seed=seed)
                rig.wait_still()
                profile = calibrate_live(screen, Path(tmp) / "profile.json")
            row["calibrated"] = f"{profile.shape[0]}x{profile.shape[1]} {profile.kind}"
            parts = open_live(profile=profile, keys="auto")
            try:
                player = Player(parts.eyes, parts.keyboard, PlaySettings(max_moves=moves, player=DEFAULT_PLAYER),
                                focus_watch=parts.focus_watch, record=Recording(stop_dir=Path(tmp) / "stop"),
                                learn_keys=True)
                summary = player.play()
            finally:
                parts.close()
            state = rig.state()
            row.update(player=type(player.agent).__name__, moves=summary.moves, reason=summary.reason,
                       ok=summary.ok, moves_per_s=summary.moves_per_s, max_tile=summary.max_tile,
                       score=summary.score, misreads=misreads_against_page(player.tracker.history, state),
                       believed=len(player.tracker.history), rereads=summary.misreads,
                       per_move_ms={"read": summary.read_ms_median, "think": summary.think_ms_median,
                                    "wait": summary.wait_ms_median, "key_to_key": summary.move_ms_median})
    except Exception as exc:  # noqa: BLE001 - a size that fails leaves a row saying why
        row["error"] = one_line(exc)
    return row


def limit(row: dict) -> str:
    still = (row.get("page") or {}).get("still_ms")
    return f"{1000 / still:.1f} ({still:.0f} ms)" if still else "–"


def cells(row: dict) -> list[str]:
    if "moves" not in row:
        return [row["size"], row.get("calibrated", "no"), "–", "–", row.get("error", ""), "–", limit(row), "–", "–"]
    return [row["size"], row["calibrated"], row["player"], str(row["moves"]), row["reason"],
            f"{row['moves_per_s']:.2f}", limit(row), str(row["misreads"]), str(row["max_tile"])]


def page(rows: list[dict], date: str, command: str, commit: str) -> str:
    lines = ["# The practice board at other sizes, live", "",
             f"{date}, `{command}` (commit {commit}): benchmarks/practice_sizes.py says how.", "",
             "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(cells(row)) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.practice_sizes", description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="3x3,5x5,8x8", help="sizes to play, RxC, comma-separated")
    parser.add_argument("--moves", type=int, default=300, help="moves per size (default 300)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keys", type=int, default=20, help="keys timing the page first (default 20)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    sizes = args.sizes.split(",")
    return run_rows("practice_sizes", argv, args.out, {"moves": args.moves, "seed": args.seed}, sizes, lambda s: s,
                    lambda s: measure(s, args.moves, args.seed, args.keys), cells, page)


if __name__ == "__main__":
    raise SystemExit(main())
