"""A target's recorded screens (tests/fixtures/targets/<name>/X.png + X.json) read the way `calibrate` and
`read` read a screen: calibrated once on the sparsest still board, then every frame judged by its kind.

Kinds (tests/targets/record_fixtures.py): static (read exactly), mid-animation (unsettled, or exactly
the board before or after the move, or the slid board the label says the game showed between them
(`shown`): never another board), overlay-over / overlay-won (the state named).
A label without a kind is a still board."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "targets"


@dataclass(frozen=True)
class FrameResult:
    name: str
    kind: str
    ok: bool
    seen: str  # what was read: the state, and the grid when one was read
    wrong: bool = False  # a board read that the game never showed at that moment (not merely unsettled)


def read_target_frames(name: str, root: Path = FIXTURES) -> list[FrameResult]:
    import cv2

    from screenbot.board_source import ended_by_rules
    from screenbot.calibration import calibrate
    from screenbot.control.screen import Frame
    from screenbot.game.rules import is_over, to_grid
    from screenbot.vision.marks import learn_marks
    from screenbot.vision.reader import UnreadableTileError, read_board

    folder = root / name
    labels = {png: json.loads(png.with_suffix(".json").read_text()) for png in sorted(folder.glob("*.png"))}
    if not labels:
        return []
    still = [png for png, lab in labels.items() if lab.get("kind", "static") == "static"]
    first = min(still, key=lambda png: sum(v != 0 for row in labels[png]["board"] for v in row))
    frame = Frame(cv2.imread(str(first)), 0, 0)
    profile = calibrate(frame)
    learn_marks(frame, profile)
    out = []
    for png, lab in labels.items():
        kind = lab.get("kind", "static")
        try:
            frame = Frame(cv2.imread(str(png)), 0, 0)
            reading = ended_by_rules(read_board(frame, profile), frame)  # as `read` says
            state, grid = str(reading.state), reading.grid
        except UnreadableTileError as exc:
            state, grid = f"unreadable ({exc})", None
        truth = to_grid(lab["board"])
        shown = (truth, to_grid(lab["board_before"])) if kind == "mid-animation" else (truth,)
        if "shown" in lab:  # a game that draws the slid board first, its new tile a moment later
            shown += (to_grid(lab["shown"]),)
        if kind == "static":
            # a board with no move left is the game's end, whatever the game writes beside it
            ok = state == ("over" if is_over(truth) else "playing") and grid == truth
        elif kind == "mid-animation":
            ok = state == "unsettled" or (state == "playing" and grid in shown)
        else:
            ok = state == kind.split("-", 1)[1]
        wrong = grid is not None and grid not in shown
        out.append(FrameResult(png.name, kind, ok, f"{state} {grid}" if grid is not None else state, wrong))
    return out
