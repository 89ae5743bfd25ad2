"""The corner block tables for a command: loaded from the user cache dir, or built there first with a progress bar."""

from __future__ import annotations

import sys

from screenbot.commands.build_progress import build_progress
from screenbot.errors import UsageError

CORNER_HELP = ("a corner evaluation and two block tables, after macroxue/2048-ai, the strongest player here: the "
               "tables are built once into the user cache dir (a few minutes, 1.7 GB) and take about 6.6 GB of memory")


def ensure_corner_tables():
    """The BlockTables, built with a progress bar on stderr when not cached yet."""
    from screenbot.agent.corner import BUILD_STATES, default_table_path, load_or_build

    path = default_table_path()
    if not path.exists():
        print(f"building the corner tables into {path} (once, a few minutes)", file=sys.stderr, flush=True)
    else:
        print(f"loading the corner tables from {path}", file=sys.stderr, flush=True)
    try:
        with build_progress("corner tables") as progress:
            # the number of states a build solves is known only roughly: held below 100 % until done
            tables, seconds = load_or_build(path, progress=lambda solved: progress(
                min(solved, int(BUILD_STATES * 0.99)), BUILD_STATES))
    except OSError as exc:
        raise UsageError(f"cannot keep the corner tables at {path}: {exc.strerror or exc}") from None
    except MemoryError:
        raise UsageError("not enough memory for the corner tables (they need about 6.6 GB)") from None
    if seconds is not None:
        print(f"corner tables built in {seconds:.0f} s: {path}", file=sys.stderr, flush=True)
    return tables
