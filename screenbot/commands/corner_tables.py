"""The corner block tables for a command that waits for them (bench): mapped from the user cache dir,
or made there first with a progress bar. Play does not wait: screenbot/agent/table_supply.py."""

from __future__ import annotations

import sys
from pathlib import Path

from screenbot.agent.table_supply import build_shortfall
from screenbot.commands.build_progress import build_progress
from screenbot.errors import UsageError


def memory_shortfall(path: Path) -> str | None:
    """Why the tables at `path` cannot be had now for lack of memory or disk (a phrase), or None. A made
    file is mapped (it needs no memory of its own); numpy's zip file beside it is converted; else built."""
    return None if path.exists() else build_shortfall(path)


def ensure_corner_tables(load: bool = True):
    """The BlockTables, made first with a progress bar on stderr when not made yet (`load=False`: None
    when they are made, only made when not)."""
    from screenbot.agent.corner import build_states, default_table_path, earlier_table_path, load_or_build

    path = default_table_path()
    short = memory_shortfall(path)
    if short is not None:
        raise UsageError(short)
    total = build_states(path)
    if not path.exists() and not path.with_suffix(".npz").exists():
        if earlier_table_path(path).exists():  # the two tables of the file before are kept: the pair table only
            what = "the pair table beside the two of a version-2 file, about 4 minutes"
        else:
            what = "about 11 minutes"
        print(f"building the corner tables into {path} (once, {what}; --player plain plays without them)",
              file=sys.stderr, flush=True)
    elif not load and path.exists():
        return None
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
    return tables if load else None
