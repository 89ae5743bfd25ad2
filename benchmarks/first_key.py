"""How long `screenbot play` takes to press its first key: fresh install, numba cached, everything cached.

    .venv/bin/python -m benchmarks.first_key [--runs N] [--cases a,b,c] [--json PATH | --no-json]

Starts Xvfb + Chromium with the practice board (screenbot.practice.rig), then runs
`python -m screenbot play --max-moves 1 --log FILE` N times per case, each on a new game, and times
it from starting the process to the moment the page received the key (the page's own time stamp of
the key event, `key_times` in its record of the game: the key's arrival, not play's log). The cases:

- a, fresh install: an empty numba cache (NUMBA_CACHE_DIR), empty XDG_CACHE_HOME and XDG_CONFIG_HOME
  for every run: no profile (play calibrates first) and no tables (play starts the job that makes
  them; it is ended after the run: its pid is in the tables' lock file);
- b, numba cached: numba's cache written by one unmeasured run first; no profile, no tables;
- c, everything cached: numba's cache, the profile saved by that run, and the tables file (the one in
  ~/.cache/screenbot, linked into the run's cache dir: play maps it and checks it in a thread).

Prints the median and the longest of each case side by side, then where play's time went in the
median run: the seconds from the process's start to each stderr line (calibrated, tables), play's
own start phases (the summary's `start_s`, from play's start), the first board's read and decision,
and the slowest imports of one run under `python -X importtime`. Writes all of it, dated and with
the command, to benchmarks/results/first_key.json.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from screenbot.agent.block_tables import default_table_path
from screenbot.agent.table_build import LOCK_SUFFIX, side_file

CASES = {
    "a": "fresh install (no numba cache, no profile, no tables)",
    "b": "numba cached, no profile, no tables",
    "c": "everything cached (numba, profile, tables)",
}
RESULTS = Path(__file__).parent / "results" / "first_key.json"
RUN_TIMEOUT_S = 180.0  # one play of one move, a fresh install's compile included
NEUTRAL_DIR = tempfile.gettempdir()  # `python -m` runs from here: the installed screenbot is measured


def end_job(cache: Path) -> int | None:
    """End the tables' job a run of play started in `cache` (its pid from the lock file, checked against
    the process's start time); its pid, or None when there was none."""
    import psutil

    lock = side_file(cache / "screenbot" / default_table_path().name, LOCK_SUFFIX)
    try:
        owner = json.loads(lock.read_text())
        job = psutil.Process(int(owner["pid"]))
        if abs(job.create_time() - float(owner["started"])) >= 1.0:
            return None
    except (OSError, ValueError, KeyError, psutil.Error):
        return None
    family = job.children(recursive=True) + [job]
    for process in family:
        try:
            process.terminate()
        except psutil.NoSuchProcess:
            pass
    _, alive = psutil.wait_procs(family, timeout=10)
    for process in alive:
        process.kill()
    return job.pid


def run_play(env: dict, log: Path, extra: list[str] | None = None) -> dict:
    """One `screenbot play --max-moves 1` from its process's start: its stderr lines with the seconds
    they came at, its exit code and time (s), and t0 (time.time() at the start)."""
    command = [sys.executable, *(extra or []), "-m", "screenbot", "play", "--max-moves", "1", "--log", str(log)]
    lines: list[tuple[float, str]] = []
    t0 = time.time()
    process = subprocess.Popen(command, env=env, cwd=NEUTRAL_DIR, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)

    def read_stderr() -> None:
        for line in process.stderr:
            lines.append((round(time.time() - t0, 3), line.rstrip()))

    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    try:
        process.wait(timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    exit_s = round(time.time() - t0, 3)
    reader.join(timeout=5)
    return {"t0": t0, "exit_s": exit_s, "code": process.returncode, "stderr": lines}


def first_key_s(rig, t0: float) -> float | None:
    """Seconds from t0 to the page's time stamp of the first key of the game now shown, or None."""
    times = rig.state().get("key_times") or []
    return None if not times or times[0] is None else round(times[0] / 1000.0 - t0, 3)


def play_summary(log: Path) -> tuple[dict | None, dict | None]:
    """The first move's log line and the summary of a play log (None where missing)."""
    from screenbot.play.record import RecordError, read_log

    try:
        moves, summary = read_log(log)
    except RecordError:
        return None, None
    return (moves[0] if moves else None), summary


def phases(run: dict, key_s: float | None) -> dict:
    """Where one run's time went, in seconds from the process's start."""
    out: dict = {}
    for at, line in run["stderr"]:
        if "calibrated on the live screen" in line:
            out["calibrated"] = at
        elif "corner tables" in line and "tables_note" not in out:
            out["tables_note"] = at
        elif "import time:" not in line and "note" not in line:
            out.setdefault("other_lines", []).append([at, line[:120]])
    first, summary = play_summary(run["log"])
    if first is not None and key_s is not None:
        started = key_s - first["t"]  # play's own start (Player.play), from the key's log time
        out["play_loop_start"] = round(started, 3)
        out["first_read_ms"] = first.get("read_ms")
        out["first_think_ms"] = first.get("think_ms")
        start = dict((summary or {}).get("start_s") or {})
        if "warm_up" in start:
            out["warm_up_took"] = start.pop("warm_up")  # how long the warm-up took (s), not a moment
        out.update({name: round(started + s, 3) for name, s in start.items() if name != "first_key"})
        if summary is not None and summary.get("fallback_moves") is not None:
            out["fallback_moves"] = summary["fallback_moves"]
    out["first_key"] = key_s
    out["exit"] = run["exit_s"]
    return out


def slowest_imports(lines: list[tuple[float, str]], top: int = 8) -> list[list]:
    """(module, cumulative ms) of the `top` slowest imports in `python -X importtime` lines."""
    slowest: dict[str, float] = {}
    for _, line in lines:
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, cumulative, name = line[len("import time:"):].split("|")
        slowest[name.strip()] = max(slowest.get(name.strip(), 0.0), int(cumulative) / 1000.0)
    return [[name, round(ms, 1)] for name, ms in sorted(slowest.items(), key=lambda r: r[1], reverse=True)[:top]]


class Bench:
    """The rig, a scratch folder, and the environment of each case's runs."""

    def __init__(self, rig, root: Path) -> None:
        self.rig = rig
        self.root = root
        self.seed = 1000
        self.numba = root / "numba-cached"
        self.config = root / "config-cached"
        self.cache = root / "cache-cached"

    def env(self, case: str, i: int) -> tuple[dict, Path]:
        """The environment of run i of `case`, and its cache dir."""
        fresh = self.root / f"{case}{i}"
        env = {**os.environ, **self.rig.env, "XDG_CACHE_HOME": str(fresh / "cache"),
               "XDG_CONFIG_HOME": str(fresh / "config"), "NUMBA_CACHE_DIR": str(self.numba)}
        if case == "a":
            env["NUMBA_CACHE_DIR"] = str(fresh / "numba")
        if case == "c":
            env["XDG_CONFIG_HOME"], env["XDG_CACHE_HOME"] = str(self.config), str(self.cache)
        return env, Path(env["XDG_CACHE_HOME"])

    def new_game(self) -> None:
        self.seed += 1
        self.rig.load(seed=self.seed)
        self.rig.wait_still()

    def once(self, env: dict, cache: Path, name: str, extra: list[str] | None = None) -> tuple[dict, float | None]:
        self.new_game()
        log = self.root / f"{name}.jsonl"
        run = run_play(env, log, extra)
        run["log"] = log
        key = first_key_s(self.rig, run["t0"])
        run["job"] = end_job(cache)
        run["phases"] = phases(run, key)
        if run["code"] != 0:
            tail = "\n".join(line for _, line in run["stderr"][-5:])
            print(f"  {name}: play ended with code {run['code']}: {tail}", file=sys.stderr)
        return run, key

    def prepare(self) -> None:
        """numba's cache and a saved profile, by one unmeasured run (b's), and c's tables linked."""
        env, cache = self.env("b", "-prepare")
        env["XDG_CONFIG_HOME"] = str(self.config)
        self.once(env, cache, "prepare")
        tables = default_table_path()  # this user's own
        link = self.cache / "screenbot" / tables.name
        link.parent.mkdir(parents=True, exist_ok=True)
        if tables.exists():
            link.symlink_to(tables)
        else:
            print(f"  no tables at {tables}: case c runs without them", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, metavar="N", help="runs per case (default 5)")
    parser.add_argument("--cases", default="a,b,c", help="which cases, of a, b, c (default all)")
    parser.add_argument("--json", default=str(RESULTS), metavar="PATH", help=f"where to write (default {RESULTS})")
    parser.add_argument("--no-json", action="store_true", help="write nothing")
    args = parser.parse_args(argv)
    cases = [c.strip() for c in args.cases.split(",") if c.strip()]
    if args.runs < 1 or not cases or any(c not in CASES for c in cases):
        parser.error("--runs must be at least 1 and --cases a list of a, b, c")

    from screenbot.practice.rig import Rig

    root = Path(tempfile.mkdtemp(prefix="screenbot-first-key-"))
    results: dict = {}
    load_before = os.getloadavg()
    try:
        with Rig(seed=1000, screen=(1600, 1000), window_size=(1000, 950), export_env=True) as rig:
            bench = Bench(rig, root)
            bench.prepare()
            runs: dict[str, list] = {case: [] for case in cases}
            for i in range(args.runs):  # the cases in turn, so that a busy spell of the machine hits all alike
                for case in cases:
                    env, cache = bench.env(case, i)
                    run, key = bench.once(env, cache, f"{case}{i}")
                    runs[case].append((key, run))
                    print(f"  {case} run {i + 1}: first key {key} s (exit {run['exit_s']} s"
                          + (f", tables job {run['job']} ended)" if run["job"] else ")"), file=sys.stderr)
            env, cache = bench.env("b", "-importtime")
            env["XDG_CONFIG_HOME"] = str(bench.config)
            importtime, _ = bench.once(env, cache, "importtime", ["-X", "importtime"])
    finally:
        shutil.rmtree(root, ignore_errors=True)

    for case in cases:
        keys = [key for key, _ in runs[case] if key is not None]
        timed = sorted(((key, run) for key, run in runs[case] if key is not None), key=lambda pair: pair[0])
        median_run = timed[(len(timed) - 1) // 2] if timed else (None, None)
        results[case] = {
            "case": CASES[case],
            "first_key_s": keys,
            "median_s": round(statistics.median(keys), 2) if keys else None,
            "max_s": round(max(keys), 2) if keys else None,
            "failed_runs": len(runs[case]) - len(keys),
            "tables_job_started": sum(1 for _, run in runs[case] if run["job"]),
            "median_run_phases_s": median_run[1]["phases"] if median_run[1] is not None else None,
        }
    print(f"time from `screenbot play --max-moves 1` to the first key at the page, {args.runs} runs per case:")
    print(f"  {'case':<58} {'median':>8} {'max':>8}")
    for case in cases:
        r = results[case]
        print(f"  {case}: {r['case']:<55} {r['median_s']!s:>7}s {r['max_s']!s:>7}s")
    for case in cases:
        print(f"  {case}, where the median run's time went (s from the process's start): "
              f"{json.dumps(results[case]['median_run_phases_s'])}")
    imports = slowest_imports(importtime["stderr"])
    print("slowest imports of one run (b's, cumulative ms): " + ", ".join(f"{n} {ms}" for n, ms in imports))
    if not args.no_json:
        out = {
            "date": datetime.date.today().isoformat(),
            "command": "python -m benchmarks.first_key " + " ".join(argv if argv is not None else sys.argv[1:]),
            "code": subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True, text=True,
                                   cwd=Path(__file__).parent).stdout.strip(),
            "measured": "from starting `python -m screenbot play --max-moves 1` to the page's time stamp of the key",
            "machine": f"{os.cpu_count()} cores, load average before {[round(x, 2) for x in load_before]}, "
                       f"after {[round(x, 2) for x in os.getloadavg()]}",
            "cases": results,
            "slowest_imports_ms": imports,
        }
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n")
        print(f"written: {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
