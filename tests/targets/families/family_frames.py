"""The family programs' recorded frames (tests/fixtures/families/<name>/X.png + X.json, record_families.py)
read the way `calibrate` and `read` read a screen: calibrated once on the sparsest still board, then each
frame sorted into what screenbot made of it.

    exact      the board the game showed (a still: its board; mid-move: the board before or after the key);
               on the game-over frame, `over`, or `playing` with the board under the message
    unsettled  screenbot said it cannot tell yet (a frame mid-move, a cell it does not trust)
    error      an error instead of a reading (a tile it cannot name), or no calibration at all
    wrong      a board the game did not show, reported as if it were the board
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "families"


@dataclass(frozen=True)
class FamilyFrame:
    name: str
    kind: str  # static | mid-animation | overlay-over
    outcome: str  # exact | unsettled | error | wrong
    seen: str  # the state and grid read, or the error's message


def read_family_frames(name: str, root: Path = FIXTURES, screen: tuple[int, int] | None = None) -> list[FamilyFrame]:
    """Every recorded frame of program `name` as screenbot reads it (no display needed). `screen`: (width,
    height) of a black screen each frame (a window) is shown on, at its top left, as a live capture of the
    whole screen shows it."""
    import cv2
    import numpy as np

    def picture(png: Path):
        img = cv2.imread(str(png))
        if screen is None:
            return img
        out = np.zeros((max(screen[1], img.shape[0]), max(screen[0], img.shape[1]), 3), np.uint8)
        out[:img.shape[0], :img.shape[1]] = img
        return out

    from screenbot.board_source import ended_by_rules
    from screenbot.calibration import calibrate
    from screenbot.control.screen import Frame
    from screenbot.errors import ScreenbotError
    from screenbot.game.rules import is_over, to_grid
    from screenbot.vision.marks import learn_marks
    from screenbot.vision.reader import read_board

    labels = {png: json.loads(png.with_suffix(".json").read_text()) for png in sorted((root / name).glob("*.png"))}
    still = [png for png, lab in labels.items() if lab["kind"] == "static"]
    first = min(still, key=lambda png: sum(v != 0 for row in labels[png]["board"] for v in row))
    frame = Frame(picture(first), 0, 0)
    try:
        profile = calibrate(frame)
        learn_marks(frame, profile)
    except ScreenbotError as exc:
        return [FamilyFrame(png.name, lab["kind"], "error", f"calibration: {exc}") for png, lab in labels.items()]
    out = []
    for png, lab in labels.items():
        shown = [to_grid(lab["board"])] + ([to_grid(lab["board_before"])] if "board_before" in lab else [])
        try:
            frame = Frame(picture(png), 0, 0)
            reading = ended_by_rules(read_board(frame, profile), frame)  # as `read` says
        except ScreenbotError as exc:
            out.append(FamilyFrame(png.name, lab["kind"], "error", str(exc)))
            continue
        state, grid = str(reading.state), reading.grid
        seen = f"{state} {[list(r) for r in grid]}" if grid is not None else f"{state}: {reading.detail}"
        if grid is not None and grid not in shown:
            outcome = "wrong"
        elif lab["kind"] == "overlay-over":
            # the game's end named (with the board under it, or none): by its message, or by a board with
            # no move left
            outcome = "exact" if state == "over" else "unsettled" if state == "unsettled" else "error"
        elif state == ("over" if is_over(shown[0]) else "playing") and grid is not None:
            outcome = "exact"
        elif state == "unsettled":
            outcome = "unsettled"
        else:
            outcome = "error"  # a state other than the one shown (playing on the game-over frame, no-board)
        out.append(FamilyFrame(png.name, lab["kind"], outcome, seen))
    return out
