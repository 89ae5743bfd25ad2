"""What the corpus launchers (launch_*.py of corpus_pypi.py) share beyond truthlog: a seeded start, and a
crash's traceback kept in $TARGET_CRASH_LOG (the game's terminal closes with it)."""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable

import truthlog


def run(main: Callable[[], object]) -> None:
    """Seed `random` from $TARGET_SEED and run the game; on a crash, write its traceback, then re-raise."""
    truthlog.seed_random()
    try:
        main()
    except (SystemExit, KeyboardInterrupt):
        raise
    except BaseException:
        path = os.environ.get("TARGET_CRASH_LOG")
        if path:
            with open(path, "a") as f:
                f.write(traceback.format_exc())
        raise
