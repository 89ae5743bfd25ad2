"""How a 2048 program draws a move: in one piece, or over several grabs (a frame caught mid-redraw).

For each program (every name in tests/targets/corpus.TARGETS, or --only), on a fresh Xvfb: --keys keys
are sent as benchmarks/target_limits.py sends them, the window grabbed with mss as fast as it can be
(no pause between grabs). Per key: the redraw span, from the first grab that changed to the last one
that did; the keys whose redraw showed on more than one grab ("caught mid-redraw"); the grab's own
time. Play believes a board only when two looks in a row agree (play.pace.FirstSight), so a redraw
seen on one grab only can never be believed half drawn.

Results: a header line (date, command, commit) and one JSON line per program appended to --out; a
Markdown table beside it (.md).

    .venv/bin/python -m benchmarks.redraw_spans [--only NAME[,NAME]] [--keys 60] [--out FILE]
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from benchmarks.targets import ROOT, SCREEN, SEED, harness, one_line, run_rows

DEFAULT_OUT = ROOT / "benchmarks" / "results" / "redraw_spans.jsonl"
COLUMNS = ("program", "keys", "grab ms (median)", "redraw span ms: median, max", "keys caught mid-redraw",
           "most grabs in one redraw")


def spans(limit) -> dict:
    """The figures of one program's keys (target_limits.Limit)."""
    per_key, grabs_ms, changed_grabs = [], [], []
    for key in limit.keys:
        changes = [t for t, box in key.frames if box is not None]
        if not changes:
            continue
        per_key.append((changes[-1] - changes[0]) * 1000)
        changed_grabs.append(len(changes))
        times = [t for t, _ in key.frames]
        grabs_ms.extend((b - a) * 1000 for a, b in zip(times, times[1:]))
    if not per_key:
        return {"keys": 0}
    return {"keys": len(per_key), "grab_ms_median": round(statistics.median(grabs_ms), 2),
            "span_ms_median": round(statistics.median(per_key), 1), "span_ms_max": round(max(per_key), 1),
            "caught_mid_redraw": sum(n > 1 for n in changed_grabs), "most_changed_grabs": max(changed_grabs)}


def measure(name: str, keys: int) -> dict:
    import benchmarks.target_limits as target_limits

    corpus, _, processes, plays = harness()
    row: dict = {"kind": "program", "program": name}
    display = processes.VirtualDisplay(SCREEN).start()
    target = corpus.TARGETS[name](display.display, seed=SEED)
    try:
        with plays.screen_on(display.display):
            target.start()
            target.focus()
            row.update(spans(target_limits.measure_limit(target, keys=keys, every_s=0.0)))
    except Exception as exc:  # noqa: BLE001 - one program that fails leaves a row saying why
        row["error"] = one_line(exc)
    finally:
        target.stop()
        display.stop()
    return row


def cells(row: dict) -> list[str]:
    if "error" in row or not row.get("keys"):
        return [row["program"], "–", "–", "–", row.get("error", "no key changed the window"), "–"]
    return [row["program"], str(row["keys"]), f"{row['grab_ms_median']:.1f}",
            f"{row['span_ms_median']:.1f}, {row['span_ms_max']:.1f}",
            f"{row['caught_mid_redraw']} ({100 * row['caught_mid_redraw'] / row['keys']:.0f} %)",
            str(row["most_changed_grabs"])]


def page(rows: list[dict], date: str, command: str, commit: str) -> str:
    lines = [f"# How the corpus's programs draw a move", "",
             f"{date}, `{command}` (commit {commit}): the window grabbed with no pause between grabs after each key "
             "(benchmarks/redraw_spans.py says how).", "",
             "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(cells(row)) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.redraw_spans", description=__doc__.split("\n")[0])
    parser.add_argument("--only", default=None, metavar="NAME[,NAME]", help="these programs only")
    parser.add_argument("--keys", type=int, default=60, help="keys per program (default 60)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    corpus = harness()[0]
    names = args.only.split(",") if args.only else sorted(corpus.TARGETS)
    return run_rows("redraw_spans", argv, args.out, {"keys": args.keys}, names, lambda n: n,
                    lambda n: measure(n, args.keys), cells, page)


if __name__ == "__main__":
    raise SystemExit(main())
