"""The job that makes play's block tables file: `python -m screenbot.agent.table_build PATH`.

Started by TableSupply (table_supply.py) as a low-priority process of its own, so that play never
waits for it; it outlives the command that started it and leaves the file for every later one.
It holds PATH's lock file while it runs, and writes its progress (JSON) beside PATH: the stage, the
states solved of about how many, or the one-line reason it failed.

The job is two processes: this one, which holds the lock, and the worker it starts (`--work PATH`),
which makes the file. While a game is being played (a command playing one writes the game's largest tile
into PATH's `.playing` file at every decision, at most once a second), the worker may run only a share of
each second and be suspended for the rest: the build's random access over gigabytes of memory slows the
game's own drawing and play's reading even at the idle priority (on the classic page 5.85 moves/s beside
a build running whole, 6.09-6.12 beside one running 15 % of the time, 6.27 with none: docs/strength.md).
The share follows the game (run_share): EARLY_RUN_SHARE while its largest tile is below HURRY_TILE
(6.32 moves/s beside it, median of three), whole from then on. The tables first matter for a game
thousands of moves later (docs/strength.md#tables-that-come-late), so the opening is played at full
speed and the build still ends long before a corner needs it. Its stages:
 - converting: play's tables in numpy's zip file (PATH's `.npz` twin) are read and written as the
   file play maps, in seconds;
 - building: the tables are solved from nothing (BIG and SMALL taken from a version-2 file when there
   is one), about 11 minutes on two idle cores and 8 GB of memory at the peak. While a game is on the
   solve goes on with one thread instead of two (block_tables.solve_shared's `hold`): the second thread's
   memory traffic slowed play more than it sped the build (docs/strength.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

LOCK_SUFFIX = ".lock"
PROGRESS_SUFFIX = ".progress"
LOG_SUFFIX = ".log"
PLAYING_SUFFIX = ".playing"  # touched by a command while it plays a game
PLAYING_FRESH_S = 3.0  # a touch this recent means a game is being played
YIELD_CYCLE_S = 1.0  # while a game is played, the worker runs a share of each cycle (run_share)
EARLY_RUN_SHARE = 0.05  # the share while the game's largest tile is below HURRY_TILE (measured at 0.05, 0.15 and 0.25)
HURRY_TILE = 2048  # from this tile on the build runs whole
WORK_FLAG = "--work"


def side_file(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def write_progress(path: Path, **fields) -> None:
    """The job's progress beside `path`, replaced whole (a reader never sees half of it)."""
    target = side_file(path, PROGRESS_SUFFIX)
    tmp = side_file(path, f"{PROGRESS_SUFFIX}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(dict(fields, pid=os.getpid(), at=time.time())))
    os.replace(tmp, target)


def read_progress(path: Path) -> dict:
    try:
        return json.loads(side_file(path, PROGRESS_SUFFIX).read_text())
    except (OSError, ValueError):
        return {}


def lower_priority() -> None:
    """This process gives way to every other (play's search and the game above all): Linux's idle
    scheduling class (it runs only on a core nothing else wants, and yields at once when something
    wakes) and idle disk priority; elsewhere the lowest priority the OS has (nice 19, or Windows'
    idle class)."""
    import psutil

    try:
        if sys.platform.startswith("linux"):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
            psutil.Process().ionice(psutil.IOPRIO_CLASS_IDLE)
        psutil.Process().nice(psutil.IDLE_PRIORITY_CLASS if sys.platform == "win32" else 19)
    except (psutil.Error, OSError, AttributeError):
        pass  # kept at a higher priority: slower play while the job runs, nothing worse


def game_on(path: Path, now: float | None = None) -> bool:
    """Whether a command has said it is playing a game (PATH's `.playing` file touched) in the last
    PLAYING_FRESH_S seconds."""
    try:
        touched = side_file(path, PLAYING_SUFFIX).stat().st_mtime
    except OSError:
        return False
    return (time.time() if now is None else now) - touched < PLAYING_FRESH_S


def say_playing(path: Path, largest: int | None) -> None:
    """Tell the job a game is on, with its largest tile (None: not known)."""
    side_file(path, PLAYING_SUFFIX).write_text("" if largest is None else str(int(largest)))


def run_share(path: Path, now: float | None = None) -> float:
    """The share of each cycle the worker may run: whole with no game on, or once the game's largest tile
    has reached HURRY_TILE (or is not known), else EARLY_RUN_SHARE."""
    if not game_on(path, now):
        return 1.0
    try:
        largest = int(side_file(path, PLAYING_SUFFIX).read_text() or HURRY_TILE)
    except (OSError, ValueError):
        largest = HURRY_TILE
    return EARLY_RUN_SHARE if largest < HURRY_TILE else 1.0


def give_way(worker, path: Path, cycle: float = YIELD_CYCLE_S, share: float | None = None) -> int:
    """Watch `worker` (a subprocess.Popen) until it ends; while a game is on, suspend it for all but
    `share` of every `cycle` seconds (by default the share the game asks for: run_share). Returns its exit
    code; it is never left suspended."""
    import psutil

    process = psutil.Process(worker.pid)
    try:
        while True:
            part = run_share(path) if share is None else (share if game_on(path) else 1.0)
            _resume(process)
            try:
                return worker.wait(timeout=cycle * part if part < 1 else cycle / 2)
            except subprocess.TimeoutExpired:
                pass
            if part < 1:
                try:
                    process.suspend()
                except psutil.Error:
                    continue  # ended meanwhile: wait() says so
                time.sleep(cycle * (1 - part))
    finally:
        _resume(process)


def _resume(process) -> None:
    import psutil

    try:
        process.resume()
    except psutil.Error:
        pass


def end_orphans(path: Path) -> None:
    """Workers for `path` whose own job is gone (one killed outright, maybe while its worker was
    suspended): ended, since the lock, now ours, says nobody else is making the file."""
    import psutil

    for process in psutil.process_iter(["cmdline"]):
        line = process.info.get("cmdline") or []
        if process.pid != os.getpid() and "screenbot.agent.table_build" in line and WORK_FLAG in line \
                and str(path) in line:
            try:
                process.kill()
            except psutil.Error:
                pass


def _die_with_parent() -> None:
    """In the worker, on Linux: killed when its job dies, even while suspended."""
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def run_worker(path: Path) -> int:
    """Start the worker for `path` and give way to games until it ends; its exit code. A worker that died
    without saying why (killed: the system short of memory?) is said in the progress file."""
    import signal

    options: dict = {}
    if sys.platform.startswith("linux"):
        options["preexec_fn"] = _die_with_parent
    worker = subprocess.Popen([sys.executable, "-m", "screenbot.agent.table_build", WORK_FLAG, str(path)],
                              stdin=subprocess.DEVNULL, **options)

    def ended(*_) -> None:
        raise SystemExit(1)

    signal.signal(signal.SIGTERM, ended)
    try:
        code = give_way(worker, path)
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
        side_file(path, PLAYING_SUFFIX).unlink(missing_ok=True)
    if code != 0 and read_progress(path).get("stage") not in ("failed", "done"):
        write_progress(path, stage="failed", error=f"the corner tables' build was stopped (exit code {code})")
    return code


def make_file(path: Path) -> str:
    """Make the tables file at `path` (load_or_build: converted from its `.npz` twin when that holds
    them, else built), its progress written beside it; returns what it did."""
    from screenbot.agent.corner import build_states, load_or_build

    total = build_states(path)
    write_progress(path, stage="converting" if path.with_suffix(".npz").exists() else "building", solved=0,
                   total=total)
    start = time.monotonic()
    _, seconds = load_or_build(path, lambda solved: write_progress(
        path, stage="building", solved=min(solved, int(total * 0.99)), total=total, seconds=time.monotonic() - start),
        hold=lambda: game_on(path))
    return "converted" if seconds is None else "built"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) == 2 and argv[0] == WORK_FLAG:
        lower_priority()
        return work(Path(argv[1]))
    if len(argv) != 1:
        print("usage: python -m screenbot.agent.table_build PATH", file=sys.stderr)
        return 2
    from screenbot.agent.table_supply import BuildLock

    path = Path(argv[0])
    lower_priority()
    lock = BuildLock(path)
    if not lock.take():
        print(f"another process is making {path}", file=sys.stderr)
        return 3
    try:
        end_orphans(path)
        return run_worker(path)
    finally:
        lock.release()


def work(path: Path) -> int:
    """The worker: make the file, its progress and any failure in one line written beside it."""
    try:
        start = time.monotonic()
        stage = make_file(path)
        write_progress(path, stage="done", done=stage, seconds=time.monotonic() - start)
        return 0
    except MemoryError:
        write_progress(path, stage="failed", error="not enough memory to build the corner tables (about 8 GB)")
        return 1
    except OSError as exc:
        write_progress(path, stage="failed", error=f"cannot write the corner tables at {path}: {exc.strerror or exc}")
        return 1
    except Exception as exc:  # noqa: BLE001 - whatever it was, the reader gets one line, and the log the rest
        import traceback

        traceback.print_exc()
        write_progress(path, stage="failed", error=f"the corner tables' build failed ({type(exc).__name__}: {exc})")
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
