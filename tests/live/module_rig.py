"""One rig for a whole test module (a module-scoped fixture yields from `module_rig`)."""

from __future__ import annotations

import time

from screenbot.practice.processes import process_alive
from screenbot.practice.rig import Rig


def module_rig(**options):
    """A rig for a whole module's tests (each reloads it with its own options), for a module-scoped
    fixture to `yield from`; every process ended afterwards."""
    rig = Rig(**options).start()
    try:
        yield rig
    finally:
        pids = rig.pids
        rig.stop()
        time.sleep(0.1)
        left = [p for p in pids if process_alive(p)]
        assert not left, f"processes left running after the rig stopped: {left}"
