"""The real 2048 programs' recorded screens (tests/fixtures/targets): still boards read exactly, frames
caught mid-move unsettled or one of the move's two boards, overlays named."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "targets"))
from target_frames import FIXTURES, read_target_frames  # noqa: E402

TARGETS = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())


def test_every_target_has_recorded_frames_of_each_kind_it_shows():
    assert TARGETS == ["quantum2048", "term2048", "webcomponent2048"]
    kinds = {t: {r.kind for r in read_target_frames(t)} for t in ("quantum2048", "webcomponent2048")}
    assert kinds["quantum2048"] == {"static", "mid-animation", "overlay-over"}
    assert kinds["webcomponent2048"] == {"static", "mid-animation"}  # it draws no overlay


@pytest.mark.parametrize("target", TARGETS)
def test_every_recorded_frame_of_a_target_is_read_right(target):
    results = read_target_frames(target)
    assert len(results) >= 7
    wrong = [(r.name, r.kind, r.seen) for r in results if not r.ok]
    assert not wrong
