"""The endgame tables for a command: loaded from the user cache dir, or built there first with a progress bar."""

from __future__ import annotations

import sys

from screenbot.errors import UsageError

TABLES_HELP = "built once, about 1.5 minutes and 280 MB, into the user cache dir"


def ensure_tables():
    """The EndgameTables, built with a progress bar on stderr when not cached yet."""
    from screenbot.agent.endgame import EndgameTables, default_table_path

    path = default_table_path()
    bar = None
    try:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        console = Console(stderr=True)
        if console.is_terminal:
            bar = Progress(TextColumn("endgame tables"), BarColumn(), TextColumn("{task.percentage:>3.0f}%"),
                           TimeElapsedColumn(), console=console)
    except ImportError:  # rich comes with the optional `progress` extra
        pass
    last = [-1]

    def progress(done: int, total: int) -> None:
        if bar is not None:
            if not bar.tasks:
                bar.add_task("tables", total=total)
            bar.update(bar.tasks[0].id, completed=done)
        elif 10 * done // total > last[0]:
            last[0] = 10 * done // total
            print(f"endgame tables: {100 * done // total}% built", file=sys.stderr, flush=True)

    if not path.exists():
        print(f"building the endgame tables into {path} (once)", file=sys.stderr, flush=True)
    try:
        if bar is not None:
            bar.start()
        tables, seconds = EndgameTables.load_or_build(path, progress=progress)
    except OSError as exc:
        raise UsageError(f"cannot keep the endgame tables at {path}: {exc.strerror or exc}") from None
    finally:
        if bar is not None:
            bar.stop()
    if seconds is not None:
        print(f"endgame tables built in {seconds:.0f} s: {path}", file=sys.stderr, flush=True)
    return tables
