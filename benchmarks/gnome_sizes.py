"""GNOME 2048 (Debian gnome-2048) at board sizes other than 4x4, played live by the screenbot commands: calibration, moves/s against the game's own limit, rule breaks, the end against the game's saved board.

One row per size (--sizes, rows x cols), each on a fresh Xvfb (1280x800):
- the game's own limit first, on a game of its own at that size (benchmarks/target_limits.py: --limit-keys
  keys sent with the harness, 1000 / the median ms from a key to the window standing still; the board's
  figure counts the changes inside the game view alone);
- then a fresh game at that size, `screenbot calibrate` and `screenbot play --max-moves --moves --log FILE`
  run as a user runs them, with no option about the board (tests/targets/gnome_sizes_play.py);
- rule breaks: boards in play's log that do not follow from the one before by the move and one new
  2 or 4 (truth_check), the score the merges' sum; misreads: the board and score play ended on against
  the ones gnome-2048 saved as it quit (0 or 1: the game keeps no record of the boards between).
A size that cannot start, be calibrated or played gets a row saying why, and the run goes on.

Results: a header line (date, command, commit) and one JSON line per size appended to --out; the
Markdown table written beside --out as .md (overwritten) under the date and the command.

    nice -n 10 .venv/bin/python -m benchmarks.gnome_sizes [--sizes 3x3,5x5,4x6] [--moves 300] [--out FILE]
"""

from __future__ import annotations

import argparse
import datetime
import tempfile
import time
import traceback
from pathlib import Path

from benchmarks.targets import ROOT, SCREEN, harness, limit_text, one_line, run_rows

DEFAULT_OUT = ROOT / "benchmarks" / "results" / "gnome_sizes.jsonl"
COLUMNS = ("size", "calibrated", "moves", "stop", "score, max tile", "moves/s",
           "game's limit, moves/s (key to still): window; board", "rule breaks", "end = game's saved board",
           "calibrate s")


def parse_size(text: str) -> tuple[int, int]:
    try:
        rows, cols = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size RxC: {text!r}") from None
    return rows, cols


def game_limit(display: str, shape: tuple[int, int], keys: int, tmp: Path) -> dict:
    """The game's own limit at `shape`, on a game of its own: the window's and the game view's figures."""
    from benchmarks.target_limits import measure_limit
    from corpus_debian import Gnome2048

    game = Gnome2048(display, rows=shape[0], cols=shape[1], workdir=tmp / "limit")
    try:
        game.start()
        game.focus()
        limit = measure_limit(game, keys=keys)
        x, y, _, _ = game.window_rect()
        bx, by, bw, bh = game.board_area
        return {**limit.figures((x + bx, y + by, bw, bh)), "keys_asked": keys}
    finally:
        game.cleanup()


def size_row(shape: tuple[int, int], args: argparse.Namespace) -> dict:
    _, _, processes, _ = harness()
    from gnome_sizes_play import play_by_command

    row: dict = {"kind": "size", "size": f"{shape[0]}x{shape[1]}", "date": datetime.date.today().isoformat(),
                 "moves_asked": args.moves}
    stage, started = "start", time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"bench-gnome-{shape[0]}x{shape[1]}-") as tmp:
        try:
            with processes.VirtualDisplay(SCREEN) as xvfb:
                try:
                    row["limit"] = game_limit(xvfb.display, shape, args.limit_keys, Path(tmp))
                except Exception as exc:  # noqa: BLE001 - a limit not measured still leaves play to measure
                    row["limit_error"] = one_line(exc)
                stage = "play"
                run = play_by_command(xvfb.display, shape, args.moves, Path(tmp) / "play")
            s = run.summary
            row.update(profile_shape=list(run.profile_shape) if run.profile_shape else None,
                       profile_kind=run.profile_kind, calibrate_s=round(run.calibrate_s, 2),
                       play_s=round(run.play_s, 1))
            if not s:
                row["error"] = {"stage": "calibrate" if run.profile_shape is None else "play",
                                "text": run.output.strip().splitlines()[-1][:200] if run.output.strip() else ""}
            else:
                row.update({k: s.get(k) for k in ("moves", "ok", "reason", "score", "max_tile", "moves_per_s",
                                                  "read_ms_median", "think_ms_median", "agent_ms_median",
                                                  "wait_ms_median", "move_ms_median", "rules", "depths")})
                row.update(rereads=s.get("misreads"), rule_breaks=len(run.rule_errors),
                           rule_errors=run.rule_errors[:5], ended_as_saved=run.ended_as_saved,
                           saved={"board": run.saved.board, "score": run.saved.score} if run.saved else None,
                           misreads=0 if run.ended_as_saved else 1)
        except Exception as exc:  # noqa: BLE001 - the row says what went wrong; the run goes on
            row["error"] = {"stage": stage, "text": one_line(exc), "trace": traceback.format_exc(limit=4)[-1500:]}
    row["seconds"] = round(time.monotonic() - started, 1)
    return row


def table_cells(row: dict) -> list[str]:
    error = row.get("error") or {}
    shape = row.get("profile_shape")
    calibrated = f"{shape[0]}x{shape[1]} ({row.get('profile_kind')})" if shape else f"no ({error.get('text', '')})"
    played = "moves" in row
    limit = limit_text(row.get("limit") or {}, row.get("limit_error"))
    if not played:
        return [row["size"], calibrated, "–", f"{error.get('stage', '')}: {error.get('text', '')}", "–", "–", limit,
                "–", "–", str(row.get("calibrate_s", "–"))]
    return [row["size"], calibrated, str(row["moves"]), row["reason"].split("; frames saved in ")[0],
            f"{row['score']}, {row['max_tile']}", f"{row['moves_per_s']:.2f}", limit, str(row["rule_breaks"]),
            "yes" if row["ended_as_saved"] else "NO", f"{row['calibrate_s']:.1f}"]


def markdown_page(rows: list[dict], date: str, command: str, commit: str) -> str:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in table_cells(row)) + " |" for row in rows]
    return (f"# GNOME 2048 at other board sizes: calibration, live speed, rule breaks\n\n{date}, `{command}` "
            f"(commit {commit}): each size on a fresh Xvfb, the game's own limit measured on a game of its own "
            f"first, then a fresh game calibrated and played by `screenbot calibrate` and `screenbot play "
            f"--max-moves N --log FILE` (benchmarks/gnome_sizes.py says how).\n\n" + "\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="3x3,5x5,4x6", help="rows x cols, comma-separated (default 3x3,5x5,4x6)")
    parser.add_argument("--moves", type=int, default=300, help="play's --max-moves at each size (default 300)")
    parser.add_argument("--limit-keys", type=int, default=20, help="keys timed for the game's own limit (default 20)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="JSON lines appended here (default benchmarks/results/gnome_sizes.jsonl); the table beside it as .md")
    args = parser.parse_args(argv)
    try:
        shapes = [parse_size(text) for text in args.sizes.split(",") if text.strip()]
    except argparse.ArgumentTypeError as exc:
        parser.error(str(exc))
    return run_rows("gnome_sizes", argv, args.out, {"sizes": args.sizes}, shapes, lambda shape: f"{shape[0]}x{shape[1]}",
                    lambda shape: size_row(shape, args), table_cells, markdown_page)


if __name__ == "__main__":
    raise SystemExit(main())
