"""Every real 2048 program of the harness (tests/targets/corpus.py): calibration, recorded frames read right, live moves/s against the game's own limit, misreads.

One row per program (every name in corpus.TARGETS, or --only):
- recorded frames: tests/fixtures/corpus/<name>/, else tests/fixtures/targets/<name>/, read as
  target_frames.read_target_frames reads them: right / total ("–": none recorded);
- live, on a fresh Xvfb (1280x800, seed 7 where the program takes one): the game's own limit first
  (benchmarks/target_limits.py: 20 keys sent with the harness, the window grabbed with mss every ~5 ms,
  1000 / the median ms from a key to the window standing still again; from the same grabs, once
  calibration has found the board, the board's own: to the last change that touched it), then
  calibrated with no options and played --moves moves by --player (plain, as
  tests/targets/test_play_targets.py plays), its keys learned from the first move as `play` does by
  default (the row's `keys`: the key set the program takes, from its harness);
- misreads: boards play believed that differ from the game's own record from the board play began on
  (believed_against_truth; in a run that stopped, the boards of keys pressed after the last board
  believed are left out: play never believed them). A program with no record (has_truth False) has rule breaks instead: play
  stops at a board that does not follow from the last by the rules, so a run that ended ok had none
  and one stopped by such a board had one.
A program that cannot start, be calibrated or played gets a row saying why, and the run goes on.

Results: a header line (date, command) and one JSON line per program appended to --out; the Markdown
table printed at the end and written beside --out as .md (overwritten), under the date and the command.

    .venv/bin/python -m benchmarks.targets [--moves 500] [--only NAME[,NAME]] [--player plain] [--out FILE]
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HARNESS = ROOT / "tests" / "targets"
FRAME_ROOTS = (ROOT / "tests" / "fixtures" / "corpus", ROOT / "tests" / "fixtures" / "targets")
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "targets.jsonl"
SCREEN = (1280, 800)
SEED = 7  # as tests/targets/test_play_targets.py
# what play's stop reason says when the board on screen did not follow from the last by the rules
# (play/watch.py's desync, play/tracker.py's TrackingError)
RULE_BREAK_WORDS = ("does not follow from the last move", "no new tile appeared", "cannot accept a board")
COLUMNS = ("program", "calibrated", "recorded frames read right", "live moves", "moves/s",
           "game's limit, moves/s (key to still): window; board", "misreads / rule breaks", "stop")


def harness():
    """The corpus registry and the harness's helpers (test code under tests/targets, not the package)."""
    if str(HARNESS) not in sys.path:
        sys.path.insert(0, str(HARNESS))
    import corpus
    import target_frames
    import target_processes
    import test_play_targets

    return corpus, target_frames, target_processes, test_play_targets


def one_line(exc: BaseException, limit: int = 200) -> str:
    """An error as one line: its type and the first line of its message, cut at `limit` characters."""
    text = str(exc).strip().splitlines()
    line = f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__
    return line if len(line) <= limit else line[:limit - 1] + "…"


def key_set(target_keys: dict[str, str]) -> str:
    """The name of screenbot's key set (arrows, wasd, hjkl, wasd+enter) a target takes, from its move -> X
    key map (a letter then Return: "w Return"); arrows when it takes none of them."""
    from screenbot.control.keyboard import ENTER_AFTER, KEY_SETS

    for name, keys in KEY_SETS.items():
        tail = " return" if name in ENTER_AFTER else ""
        if all(target_keys.get(move.key, "").lower() == key.lower() + tail for move, key in keys.items()):
            return name
    return "arrows"


def rule_breaks(ok: bool, reason: str) -> int:
    """Rule breaks in a run with no record of the game: play stops at the first, so 0 or 1."""
    return 0 if ok else int(any(words in reason for words in RULE_BREAK_WORDS))


def truth_as_far_as(truth: list, believed: int) -> tuple[list, int]:
    """The game's record cut before its (`believed` + 1)-th distinct board, and how many distinct
    boards it shows after the cut (keys play pressed and stopped before believing what they did)."""
    starts = [i for i, board in enumerate(truth) if i == 0 or board != truth[i - 1]]
    if len(starts) <= believed:
        return truth, 0
    return truth[:starts[believed]], len(starts) - believed


def recorded_frames(name: str, read_target_frames) -> dict | None:
    """{"right", "total", "folder"} for a program's recorded frames, {"error"} when they cannot be read,
    None when none are recorded."""
    for root in FRAME_ROOTS:
        if any((root / name).glob("*.png")):
            try:
                results = read_target_frames(name, root)
            except Exception as exc:  # noqa: BLE001 - e.g. labels whose boards are not written yet
                return {"error": one_line(exc), "folder": str((root / name).relative_to(ROOT))}
            return {"right": sum(r.ok for r in results), "total": len(results),
                    "wrong": sum(r.wrong for r in results), "folder": str((root / name).relative_to(ROOT))}
    return None


def play_live(target_cls, moves: int, player_name: str, limit_keys: int, tmp: Path) -> dict:
    """Start the program on its own Xvfb, measure its limit, calibrate, play; the row's live fields.
    Whatever fails is recorded with the stage it failed at ("start", "calibrate", "play")."""
    from benchmarks.target_limits import measure_limit
    from screenbot.board_source import calibrate_live
    from screenbot.control.screen import MssScreen

    _, _, processes, plays = harness()
    row: dict = {"has_truth": bool(target_cls.has_truth), "keys": key_set(target_cls.keys)}
    stage = "start"
    display = processes.VirtualDisplay(SCREEN).start()
    target = target_cls(display.display, seed=SEED)
    with plays.screen_on(display.display):
        try:
            target.start()
            target.focus()
            limit = None
            try:
                limit = measure_limit(target, keys=limit_keys)
                row["limit"] = {**limit.figures(), "keys_asked": limit_keys}
            except Exception as exc:  # noqa: BLE001 - a limit not measured still leaves play to measure
                row["limit_error"] = one_line(exc)
            target.focus()
            time.sleep(0.3)  # the last key's record (a web page reports over HTTP) lands before it is counted
            stage = "calibrate"
            with MssScreen() as screen:
                profile = calibrate_live(screen, tmp / "profile.json")
            row.update(calibrated=True, profile_kind=profile.kind)
            if limit is not None:  # the same keys' grabs, the changes that touched the board alone
                board = profile.board_rect
                row["limit"] = {**limit.figures((board.x, board.y, board.w, board.h)), "keys_asked": limit_keys}
            stage = "play"
            first = max(len(target.history()) - 1, 0)  # the record's board play begins on
            summary, player = plays.play_calibrated(profile, moves, tmp / "stop", player_name)  # keys learned, as play does
            moves_per_s = summary.moves_per_s or (summary.moves / summary.duration_s if summary.duration_s else 0.0)
            row.update(moves=summary.moves, moves_per_s=round(moves_per_s, 2), ok=summary.ok, reason=summary.reason,
                       score=summary.score, max_tile=summary.max_tile, rereads=summary.misreads,
                       per_move_ms={"read": summary.read_ms_median, "think": summary.think_ms_median,
                                    "wait": summary.wait_ms_median, "key_to_key": summary.move_ms_median},
                       read_still=summary.read_still)
            if target_cls.has_truth:
                truth = [r["board"] for r in target.history()[first:]]
                if not summary.ok:  # a stopped run: the boards of keys play pressed but never believed are not misreads
                    truth, row["unbelieved"] = truth_as_far_as(truth, len(player.tracker.history))
                row["misreads"] = plays.believed_against_truth(player, truth)
                if row["misreads"]:  # where the two first part, and how long each is (a record lost shifts the rest)
                    believed, changed = plays.believed_and_shown(player, truth)
                    row["misread_detail"] = {
                        "believed": len(believed), "game_boards": len(changed),
                        "first_differing": next((i for i, (a, b) in enumerate(zip(believed, changed)) if a != b), None)}
            else:
                row["rule_breaks"] = rule_breaks(summary.ok, summary.reason)
        except Exception as exc:  # noqa: BLE001 - the row says what went wrong; the run goes on
            row["error"] = {"stage": stage, "text": one_line(exc), "trace": traceback.format_exc(limit=4)[-1500:]}
            if stage != "play":
                row["calibrated"] = False
        finally:
            try:
                target.cleanup()
            finally:
                display.stop()
    return row


def program_row(name: str, args: argparse.Namespace) -> dict:
    corpus, frames, _, _ = harness()
    row: dict = {"kind": "program", "program": name, "what": corpus.PROGRAMS.get(name, ""),
                 "date": datetime.date.today().isoformat(), "player": args.player, "moves_asked": args.moves}
    row["frames"] = recorded_frames(name, frames.read_target_frames)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"bench-target-{name}-") as tmp:
        try:
            row.update(play_live(corpus.TARGETS[name], args.moves, args.player, args.limit_keys, Path(tmp)))
        except Exception as exc:  # noqa: BLE001 - e.g. no Xvfb: still a row
            row.update(calibrated=False, error={"stage": "start", "text": one_line(exc)})
    row["seconds"] = round(time.monotonic() - started, 1)
    return row


# ------------------------------------------------------------------- the table (pure)
def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table_cells(row: dict) -> list[str]:
    """One program's row of the table, as text cells in COLUMNS' order."""
    error = row.get("error") or {}
    if row.get("calibrated"):
        calibrated = f"yes ({row.get('profile_kind')})"
    elif error:
        calibrated = f"no: {error['text']}" if error["stage"] == "calibrate" else f"– ({error['stage']} failed)"
    else:
        calibrated = "no"
    frames = row.get("frames")
    if frames is None:
        frames_cell = "–"
    elif "error" in frames:
        frames_cell = f"unread: {frames['error']}"
    else:
        frames_cell = f"{frames['right']} / {frames['total']}"
    played = "moves" in row
    limit_cell = limit_text(row.get("limit") or {}, row.get("limit_error"))
    if "misreads" in row:
        wrong = f"{row['misreads']} misreads"
    elif "rule_breaks" in row:
        wrong = f"{row['rule_breaks']} rule breaks (no record)"
    else:
        wrong = "–"
    if played:
        stop = row["reason"].split("; frames saved in ")[0]
    elif error:
        stop = f"{error['stage']}: {error['text']}" if error["stage"] != "calibrate" else "not played"
    else:
        stop = "not played"
    return [row["program"], calibrated, frames_cell, str(row["moves"]) if played else "–",
            f"{row['moves_per_s']:.2f}" if played else "–", limit_cell, wrong, stop]


def limit_text(limit: dict, error: str | None = None) -> str:
    """The game's limit as a cell: the window's moves/s (median ms), then the board's alone when known;
    the number of keys when fewer than asked were timed."""
    if limit.get("moves_per_s") is None:
        return f"– ({error})" if error else "–"
    text = f"{limit['moves_per_s']:.1f} ({limit['settle_ms_median']:.0f} ms)"
    if limit.get("board_moves_per_s") is not None:
        text += f"; board {limit['board_moves_per_s']:.1f} ({limit['board_settle_ms_median']:.0f} ms)"
    keys = len(limit["settle_ms"])
    return text + (f" [{keys} keys]" if keys < limit.get("keys_asked", keys) else "")


def markdown_table(rows: list[dict]) -> str:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(_cell(c) for c in table_cells(row)) + " |" for row in rows]
    return "\n".join(lines)


def markdown_page(rows: list[dict], date: str, command: str, args: argparse.Namespace, commit: str = "") -> str:
    at = f" (commit {commit})" if commit else ""
    return (f"# Real 2048 programs: calibration, reading, live speed\n\n{date}, `{command}`{at}: each program on a "
            f"fresh Xvfb, its own limit measured over {args.limit_keys} keys first, then calibrated and played "
            f"{args.moves} moves by the `{args.player}` player (benchmarks/targets.py says how).\n\n"
            f"{markdown_table(rows)}\n")


def main(argv: list[str] | None = None) -> int:
    from screenbot.agent.players import PLAYERS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=500, help="live moves per program (default 500)")
    parser.add_argument("--only", default=None, metavar="NAME[,NAME]", help="these programs only")
    parser.add_argument("--player", default="plain", choices=tuple(PLAYERS), metavar="NAME",
                        help="the player that plays (default plain, as the live tests)")
    parser.add_argument("--limit-keys", type=int, default=20, help="keys timed for the game's own limit (default 20)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="JSON lines appended here (default benchmarks/results/targets.jsonl); the table beside it as .md")
    args = parser.parse_args(argv)
    corpus, _, _, _ = harness()
    names = sorted(corpus.TARGETS) if args.only is None else [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = [n for n in names if n not in corpus.TARGETS]
    if unknown:
        parser.error(f"unknown program(s) {', '.join(unknown)}; known: {', '.join(sorted(corpus.TARGETS))}")
    return run_rows("targets", argv, args.out, {"programs": names}, names, lambda name: name,
                    lambda name: program_row(name, args), table_cells,
                    lambda rows, date, command, commit: markdown_page(rows, date, command, args, commit))


def run_rows(module: str, argv: list[str] | None, out: Path, header: dict, items, label, make_row, cells, page) -> int:
    """A live benchmark's rows, one per item: a header line (date, command, commit, whether screenbot/ had
    uncommitted changes, and `header`) appended to `out`, then each row appended as it is made
    (`make_row(item)`; its table `cells(row)` printed), then the page `page(rows, date, command, commit)`
    written beside `out` as .md and printed."""
    date = datetime.date.today().isoformat()
    commit = subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%h"], capture_output=True, text=True).stdout.strip()
    changed = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "screenbot"], capture_output=True,
                             text=True).stdout.strip()
    command = (f"python -m benchmarks.{module} " + " ".join(sys.argv[1:] if argv is None else argv)).strip()
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "a") as f:
        f.write(json.dumps({"kind": "header", "date": date, "command": command, **header,
                            "commit": commit, "screenbot_uncommitted": bool(changed)}) + "\n")
    rows = []
    for item in items:
        print(f"{label(item)} …", file=sys.stderr, flush=True)
        row = make_row(item)
        rows.append(row)
        with open(out, "a") as f:
            f.write(json.dumps(row) + "\n")
        print("  " + " | ".join(cells(row)), file=sys.stderr, flush=True)
    text = page(rows, date, command, commit + (" + uncommitted changes in screenbot/" if changed else ""))
    out.with_suffix(".md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
