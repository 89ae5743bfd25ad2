"""The endgame tables for a command: loaded from the user cache dir, or built there first with a progress bar."""

from __future__ import annotations

import sys

from screenbot.commands.build_progress import build_progress
from screenbot.errors import UsageError

TABLES_HELP = "built once, about 1.5 minutes and 280 MB, into the user cache dir"


def ensure_tables():
    """The EndgameTables, built with a progress bar on stderr when not cached yet."""
    from screenbot.agent.endgame import EndgameTables, default_table_path

    path = default_table_path()
    if not path.exists():
        print(f"building the endgame tables into {path} (once)", file=sys.stderr, flush=True)
    try:
        with build_progress("endgame tables") as progress:
            tables, seconds = EndgameTables.load_or_build(path, progress=progress)
    except OSError as exc:
        raise UsageError(f"cannot keep the endgame tables at {path}: {exc.strerror or exc}") from None
    if seconds is not None:
        print(f"endgame tables built in {seconds:.0f} s: {path}", file=sys.stderr, flush=True)
    return tables
