"""A build's progress on stderr: a rich bar on a terminal, else a line every 10 % (logs, or rich not installed)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def build_progress(name: str) -> Iterator[Callable[[int, int], None]]:
    """progress(done, total) for the block; the bar (when there is one) is shown while it runs."""
    bar = None
    try:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        console = Console(stderr=True)
        if console.is_terminal:
            bar = Progress(TextColumn(name), BarColumn(), TextColumn("{task.percentage:>3.0f}%"),
                           TimeElapsedColumn(), console=console)
    except ImportError:  # rich comes with the optional `progress` extra
        pass
    last = [-1]

    def progress(done: int, total: int) -> None:
        if bar is not None:
            if not bar.tasks:
                bar.add_task(name, total=total)
            bar.update(bar.tasks[0].id, completed=done)
        elif 10 * done // total > last[0]:
            last[0] = 10 * done // total
            print(f"{name}: {100 * done // total}% built", file=sys.stderr, flush=True)

    if bar is not None:
        bar.start()
    try:
        yield progress
    finally:
        if bar is not None:
            bar.stop()
