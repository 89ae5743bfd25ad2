"""Replays a recording: reads its frames again and re-tracks the game, listing where it disagrees with the log."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from screenbot.board_state import BoardState
from screenbot.control.screen import Frame
from screenbot.game.rules import Move, to_grid
from screenbot.play.record import LOG_NAME, PROFILE_NAME, RecordError, read_log
from screenbot.play.rulebook import RuleBook
from screenbot.play.tracker import compare, fill_from, cell_agrees


@dataclass
class Disagreement:
    i: int
    what: str


@dataclass
class ReplayReport:
    moves: int = 0
    frames_read: int = 0
    early_frames: int = 0  # frames read through the growing new tile (vision calls them unsettled)
    disagreements: list[Disagreement] = field(default_factory=list)
    summary: dict | None = None

    @property
    def ok(self) -> bool:
        return not self.disagreements


def _agrees(seen, logged) -> bool:
    return len(seen) == len(logged) and all(len(a) == len(b) and all(cell_agrees(x, y) for x, y in zip(a, b))
                                            for a, b in zip(seen, logged))


def replay(folder: str | Path, read: Callable | None = None, profile=None) -> ReplayReport:
    """Read every recorded frame again (vision + the recorded profile) and check it against the logged
    board, and check each logged board follows from the one before by the rules (one move, one spawn)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise RecordError(f"no recording at {folder}: pass the folder given to `screenbot play --record`")
    moves, summary = read_log(folder / LOG_NAME)
    if profile is None:
        from screenbot.calibration import Profile

        profile = Profile.load(folder / PROFILE_NAME)
    if read is None:
        from screenbot.vision import read_board as read
    from screenbot.play.spawn import SpawnReader

    recorded = profile
    readers = {(profile.board_rect.x, profile.board_rect.y): (profile, SpawnReader.for_profile(profile))}
    report = ReplayReport(moves=len(moves), summary=summary)
    previous = None
    rules = RuleBook()
    for entry in moves:
        i = entry.get("i")
        board = to_grid(entry["board"])
        prediction = None
        if previous is not None:
            before, move = previous
            prediction = rules.predict(before, move)
            check, explained = rules.follows(board, prediction)
            if explained is not None:  # a rule variant play learned from the game
                rules.adopt(explained)
                prediction = explained.prediction
            elif not check.matched:
                report.disagreements.append(Disagreement(i, f"the logged board does not follow from move {i - 1} ({move.key}): {check.verdict}"))
            rules.saw_move(prediction)
        frame_name = entry.get("frame")
        if frame_name:
            origin = entry.get("origin") or [0, 0]
            frame = Frame.load(folder / frame_name, int(origin[0]), int(origin[1]))
            if (frame.width, frame.height) == (recorded.board_rect.w, recorded.board_rect.h):
                # a board frame grabbed elsewhere: play found the board again after its window moved
                at = (frame.left, frame.top)
                if at not in readers:
                    moved = recorded.moved_to(frame.rect)
                    readers[at] = (moved, SpawnReader.for_profile(moved))
                profile, spawn_reader = readers[at]
            else:
                profile, spawn_reader = readers[(recorded.board_rect.x, recorded.board_rect.y)]
            reading = read(frame, profile)
            report.frames_read += 1
            still = reading.grid is not None and reading.state == BoardState.PLAYING
            growing = (
                prediction is not None and (not still or compare(reading.grid, prediction).verdict == "no-spawn")
            )
            if growing:
                # a board believed while its new tile grew in (vision sees it unsettled, or not yet):
                # read it the way play did
                seen = spawn_reader.read_one(frame, prediction) if spawn_reader.ready_for(prediction) else None
                if seen is None:
                    report.disagreements.append(Disagreement(i, f"vision now says {reading.state!r} (logged a board)"))
                elif prediction.with_spawn(*seen) != board:
                    r, c, v = seen
                    report.disagreements.append(
                        Disagreement(i, f"the growing new tile now reads as {v} at row {r + 1} col {c + 1}"))
                else:
                    report.early_frames += 1
            elif not still:
                report.disagreements.append(Disagreement(i, f"vision now says {reading.state!r} (logged a board)"))
            elif not _agrees(reading.grid, board):
                seen = fill_from(reading.grid, board)
                cells = [
                    f"row {r + 1} col {c + 1}: read {seen[r][c]}, logged {board[r][c]}"
                    for r, row in enumerate(board) for c in range(len(row)) if not cell_agrees(reading.grid[r][c], row[c])
                ]
                report.disagreements.append(Disagreement(i, "vision now reads " + "; ".join(cells)))
            else:
                spawn_reader.learn(frame, board)
        previous = (board, Move.parse(entry["move"]))
    return report
