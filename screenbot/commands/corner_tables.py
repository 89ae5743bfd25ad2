"""The corner block tables for a command: loaded from the user cache dir, or built there first with a progress bar."""

from __future__ import annotations

import sys

from screenbot.errors import UsageError

CORNER_HELP = ("a corner evaluation and two block tables, after macroxue/2048-ai, the strongest player here: the "
               "tables are built once into the user cache dir (a few minutes, 1.7 GB) and take about 6.6 GB of memory")


def ensure_corner_tables():
    """The BlockTables, built with a progress bar on stderr when not cached yet."""
    from screenbot.agent.corner import BUILD_STATES, default_table_path, load_or_build

    path = default_table_path()
    bar = None
    try:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        console = Console(stderr=True)
        if console.is_terminal:
            bar = Progress(TextColumn("corner tables"), BarColumn(), TextColumn("{task.percentage:>3.0f}%"),
                           TimeElapsedColumn(), console=console)
    except ImportError:  # rich comes with the optional `progress` extra
        pass
    last = [-1]

    def progress(solved: int) -> None:
        done = min(solved, int(BUILD_STATES * 0.99))
        if bar is not None:
            if not bar.tasks:
                bar.add_task("tables", total=BUILD_STATES)
            bar.update(bar.tasks[0].id, completed=done)
        elif 10 * done // BUILD_STATES > last[0]:
            last[0] = 10 * done // BUILD_STATES
            print(f"corner tables: {100 * done // BUILD_STATES}% built", file=sys.stderr, flush=True)

    if not path.exists():
        print(f"building the corner tables into {path} (once, a few minutes)", file=sys.stderr, flush=True)
    else:
        print(f"loading the corner tables from {path}", file=sys.stderr, flush=True)
    try:
        if bar is not None:
            bar.start()
        tables, seconds = load_or_build(path, progress=progress)
    except OSError as exc:
        raise UsageError(f"cannot keep the corner tables at {path}: {exc.strerror or exc}") from None
    except MemoryError:
        raise UsageError("not enough memory for the corner tables (they need about 6.6 GB)") from None
    finally:
        if bar is not None:
            bar.stop()
    if seconds is not None:
        print(f"corner tables built in {seconds:.0f} s: {path}", file=sys.stderr, flush=True)
    return tables
