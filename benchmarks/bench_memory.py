"""Memory of `screenbot bench` with play's player: the run's processes' own (anonymous) memory, summed.

    .venv/bin/python -m benchmarks.bench_memory [--workers 1 2] [--games 2] [--stop-at 4096] [--json FILE]

Runs `screenbot bench --player corner-v4 --games G --workers W --stop-at T` once per W and samples,
every 0.2 s, every process of the run (psutil; Linux's /proc/PID/status): the peak of the sum of
RssAnon (what the OS cannot drop; the mapped tables are not in it) and of RssFile (file pages: the
tables' file, shared by every worker that maps it). The tables file must be made already (bench
makes it otherwise, which is not what is measured).
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import time

import psutil


def _status(pid: int) -> dict:
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                name, _, value = line.partition(":")
                if name in ("RssAnon", "RssFile"):
                    out[name] = int(value.split()[0]) // 1024
    except OSError:
        pass
    return out


def measure(workers: int, games: int, stop_at: int) -> dict:
    command = [sys.executable, "-m", "screenbot", "bench", "--player", "corner-v4", "--games", str(games),
               "--workers", str(workers), "--stop-at", str(stop_at)]
    start = time.monotonic()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    root = psutil.Process(proc.pid)
    peak_anon = peak_file = 0
    most = 0
    while proc.poll() is None:
        try:
            tree = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            break
        figures = [_status(p.pid) for p in tree]
        peak_anon = max(peak_anon, sum(f.get("RssAnon", 0) for f in figures))
        peak_file = max(peak_file, max((f.get("RssFile", 0) for f in figures), default=0))
        most = max(most, len(tree))
        time.sleep(0.2)
    return {"workers": workers, "games": games, "stop_at": stop_at, "exit": proc.returncode,
            "processes_at_most": most, "rss_anon_mb_peak_sum": peak_anon, "rss_file_mb_peak_one": peak_file,
            "seconds": round(time.monotonic() - start, 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--stop-at", type=int, default=4096)
    parser.add_argument("--json", metavar="FILE", help="append the figures as one JSON line")
    args = parser.parse_args(argv)
    rows = [measure(w, args.games, args.stop_at) for w in args.workers]
    for row in rows:
        print(f"workers {row['workers']}: RssAnon peak (all processes) {row['rss_anon_mb_peak_sum']} MB, "
              f"RssFile peak (one process) {row['rss_file_mb_peak_one']} MB, {row['processes_at_most']} processes, "
              f"{row['seconds']} s, exit {row['exit']}")
    if args.json:
        with open(args.json, "a") as f:
            f.write(json.dumps({"date": datetime.date.today().isoformat(),
                                "command": "python -m benchmarks.bench_memory " + " ".join(argv or sys.argv[1:]),
                                "runs": rows}) + "\n")
    return 0 if all(r["exit"] == 0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
