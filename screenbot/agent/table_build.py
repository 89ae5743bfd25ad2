"""The job that makes play's block tables file: `python -m screenbot.agent.table_build PATH`.

Started by TableSupply (table_supply.py) as a low-priority process of its own, so that play never
waits for it; it outlives the command that started it and leaves the file for every later one.
It holds PATH's lock file while it runs, and writes its progress (JSON) beside PATH: the stage, the
states solved of about how many, or the one-line reason it failed. Its stages:
 - converting: play's tables in numpy's zip file (PATH's `.npz` twin) are read and written as the
   file play maps, in seconds;
 - building: the tables are solved from nothing (BIG and SMALL taken from a version-2 file when there
   is one), about 11 minutes on two idle cores and 8 GB of memory at the peak.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

LOCK_SUFFIX = ".lock"
PROGRESS_SUFFIX = ".progress"
LOG_SUFFIX = ".log"


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


def make_file(path: Path) -> str:
    """Make the tables file at `path` (load_or_build: converted from its `.npz` twin when that holds
    them, else built), its progress written beside it; returns what it did."""
    from screenbot.agent.corner import build_states, load_or_build

    total = build_states(path)
    write_progress(path, stage="converting" if path.with_suffix(".npz").exists() else "building", solved=0,
                   total=total)
    start = time.monotonic()
    _, seconds = load_or_build(path, lambda solved: write_progress(
        path, stage="building", solved=min(solved, int(total * 0.99)), total=total, seconds=time.monotonic() - start))
    return "converted" if seconds is None else "built"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
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
    finally:
        lock.release()


if __name__ == "__main__":
    raise SystemExit(main())
