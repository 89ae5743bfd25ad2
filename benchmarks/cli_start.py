#!/usr/bin/env python3
"""How long the command line takes to start: `python -m screenbot --help` and `--version`, wall time.

    .venv/bin/python -m benchmarks.cli_start [--runs N] [--python PATH]

Each command runs N times in a fresh process (after one unmeasured run that warms the file
cache); prints the median and the 90th percentile in ms. Then runs `--help` once more under
`python -X importtime` and lists the five imports that took longest (cumulative, children
included), which is where start-up time goes.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time

# `python -m` puts the working directory first on sys.path: run from a neutral one, so the
# screenbot measured is the one the interpreter has installed (or PYTHONPATH names).
NEUTRAL_DIR = tempfile.gettempdir()


def time_command(python: str, args: list[str], runs: int) -> list[float]:
    """Wall ms of each of `runs` runs of `python -m screenbot ARGS` (output discarded)."""
    command = [python, "-m", "screenbot", *args]
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=NEUTRAL_DIR, check=True)
    subprocess.run(command, **quiet)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, **quiet)
        times.append((time.perf_counter() - start) * 1000.0)
    return times


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of `values` lie (nearest rank)."""
    ordered = sorted(values)
    rank = max(1, round(share * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def slowest_imports(python: str, args: list[str], top: int) -> list[tuple[str, float]]:
    """(module, cumulative ms) of the `top` slowest imports, from `python -X importtime`."""
    done = subprocess.run([python, "-X", "importtime", "-m", "screenbot", *args],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=NEUTRAL_DIR, check=True)
    slowest: dict[str, float] = {}
    for line in done.stderr.splitlines():
        # "import time:  self [us] | cumulative | imported package"
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, cumulative, name = line[len("import time:"):].split("|")
        name = name.strip()  # a package's submodule can be listed twice (from the package, then by name)
        slowest[name] = max(slowest.get(name, 0.0), int(cumulative) / 1000.0)
    return sorted(slowest.items(), key=lambda row: row[1], reverse=True)[:top]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, metavar="N", help="runs per command (default 20)")
    parser.add_argument("--python", default=sys.executable, metavar="PATH",
                        help="the interpreter that has screenbot installed (default: this one)")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    for flags in (["--help"], ["--version"]):
        times = time_command(args.python, flags, args.runs)
        print(f"screenbot {flags[0]:<9}  median {statistics.median(times):6.1f} ms   "
              f"p90 {percentile(times, 0.9):6.1f} ms   ({args.runs} runs)")
    print("slowest imports of --help (cumulative):")
    for name, ms in slowest_imports(args.python, ["--help"], 5):
        print(f"  {ms:7.1f} ms  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
