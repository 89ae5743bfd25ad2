"""The live rig as a pytest fixture factory: real Xvfb + Chromium, every process ended after the test."""

from __future__ import annotations

import pytest

from screenbot.practice.rig import Rig
from screenbot.practice.processes import process_alive


@pytest.fixture
def make_rig():
    """`make_rig(**Rig options)` starts a rig (a missing Xvfb/Chromium/xdotool FAILS the test with
    a message naming the package); after the test every rig is stopped and must leave no process."""
    rigs: list[Rig] = []

    def make(**options) -> Rig:
        rig = Rig(**options)
        rigs.append(rig)
        return rig.start()

    yield make
    leftovers = []
    for rig in rigs:
        pids = rig.pids
        rig.stop()
        leftovers += [pid for pid in pids if process_alive(pid)]
    assert not leftovers, f"processes left running after the rig stopped: {leftovers}"


@pytest.fixture
def rig(make_rig):
    """A default rig: 1600x1000 screen, a 1000x950 Chromium window at 0,0, zoom 1, scale 1."""
    return make_rig(screen=(1600, 1000), window_size=(1000, 950))

