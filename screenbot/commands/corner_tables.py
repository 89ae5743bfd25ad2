"""The corner block tables for a command: loaded from the user cache dir, or built there first with a progress bar."""

from __future__ import annotations

import os
import sys

from screenbot.commands.build_progress import build_progress
from screenbot.errors import UsageError

GIB = 2**30
BUILD_MEMORY = 8 * GIB  # a build's peak: BIG and SMALL dense (6.6 GB) until each is compacted in turn, then PAIR
LOAD_MEMORY = 4 * GIB  # the compact tables (2.8 GB; 3.5 GB at the peak of a load) and some room


def available_memory() -> int | None:
    """Bytes of memory the system can give without swapping (Linux: MemAvailable), or None when unknown."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def memory_shortfall(path) -> str | None:
    """Why the tables cannot be had now for lack of memory (a phrase), or None."""
    need = LOAD_MEMORY if path.exists() else BUILD_MEMORY
    free = available_memory()
    if free is None or free >= need:
        return None
    what = "loading" if path.exists() else "building"
    return f"{what} the corner tables needs about {need / GIB:.1f} GB of free memory and {free / GIB:.1f} GB is free"


def ensure_corner_tables(load: bool = True):
    """The BlockTables, built with a progress bar on stderr when not cached yet (`load=False`: None
    when they are cached, only built when not)."""
    from screenbot.agent.corner import BUILD_STATES, PAIR_STATES, default_table_path, earlier_table_path, load_or_build

    path = default_table_path()
    short = memory_shortfall(path)
    if short is not None:
        raise UsageError(short)
    total = BUILD_STATES
    if not path.exists():
        if earlier_table_path(path).exists():
            total = PAIR_STATES  # the two tables of the file before are kept: the pair table only
            what = "the pair table beside the two of a version-2 file, about 4 minutes"
        else:
            what = "about 11 minutes"
        print(f"building the corner tables into {path} (once, {what}; --player plain plays without them)",
              file=sys.stderr, flush=True)
    elif not load:
        return None
    else:
        print(f"loading the corner tables from {path}", file=sys.stderr, flush=True)
    try:
        with build_progress("corner tables") as progress:
            # the number of states a build solves is known only roughly: held below 100 % until done
            tables, seconds = load_or_build(path, progress=lambda solved: progress(
                min(solved, int(total * 0.99)), total))
    except OSError as exc:
        raise UsageError(f"cannot keep the corner tables at {path}: {exc.strerror or exc}") from None
    except MemoryError:
        raise UsageError("not enough memory for the corner tables (a build needs about 8 GB)") from None
    if seconds is not None:
        print(f"corner tables built in {seconds:.0f} s: {path}", file=sys.stderr, flush=True)
    return tables
