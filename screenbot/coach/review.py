"""`review(source)`: frames -> calibration -> believed boards -> the moves between them -> each move judged.

Presses nothing and needs no screen: it only reads pictures.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from screenbot.coach.errors import NoBoardInSourceError
from screenbot.coach.evaluate import BANDS, CLASSIC_BANDS, Bands, Judge, Judged, percent
from screenbot.coach.frames import Source, open_source, same_picture, thumbnail
from screenbot.coach.rebuild import Believer, Game, rebuild
from screenbot.game.sizes import CLASSIC, Size, size_of
from screenbot.geometry import Rect

# Calibration is tried on at most this many distinct frames before the source is said to show no board.
MAX_CALIBRATION_TRIES = 200


@dataclass
class FrameStats:
    frames: int = 0  # frames in the source
    read: int = 0  # frames read by vision
    unchanged: int = 0  # frames skipped as the same picture as the last still one
    not_still: int = 0  # read as unsettled, under an overlay, or with no board
    glimpsed: int = 0  # still boards seen on fewer frames in a row than a belief needs
    logged: int = 0  # a recording's boards taken from its log
    log_agrees: int = 0  # ... of which the frame's still reading agrees
    log_growing: int = 0  # ... or agrees but for the new tile, grabbed while it was too small to see
    log_disagrees: list[str] = field(default_factory=list)  # frames whose still reading differs from the log
    logged_moves: dict = field(default_factory=dict)  # a recording's board -> the key its log says was pressed
    calibration_tries: int = 0
    calibrated_on: str = ""
    board_rect: list[int] | None = None


@dataclass
class Review:
    source: dict
    game: Game
    moves: list[Judged]
    stats: FrameStats
    search: dict = field(default_factory=dict)
    log_moves_disagree: list[int] = field(default_factory=list)  # rebuilt moves the recording's log names otherwise
    thresholds: Bands = CLASSIC_BANDS  # the judging player's bands

    @property
    def accuracy(self) -> float | None:
        """The share of moves that were the agent's move (None when no move was rebuilt)."""
        if not self.moves:
            return None
        return sum(1 for j in self.moves if j.move == j.best) / len(self.moves)

    @property
    def bands(self) -> dict[str, int]:
        counts = Counter(j.band for j in self.moves)
        return {band: counts.get(band, 0) for band in BANDS}

    def worst(self, n: int = 10) -> list[Judged]:
        """The n moves with the largest loss (ties: the earlier first); moves with no loss left out."""
        return sorted((j for j in self.moves if j.loss > 0), key=lambda j: (-j.loss, j.i))[:n]

    def summary_lines(self, worst: int = 5) -> list[str]:
        """The count in each band, then the worst moves, one line each (indented)."""
        lines = ["  " + ", ".join(f"{band} {n}" for band, n in self.bands.items())]
        for j in self.worst(worst):
            best = j.best.key if j.best is not None else "-"
            lines.append(f"  move {j.i + 1}: {j.move.key}, best {best}: loss {percent(j.loss)} ({j.band})")
        return lines

    def as_json(self) -> dict:
        source = dict(self.source)
        source.update({
            "read": self.stats.read, "unchanged": self.stats.unchanged, "not_still": self.stats.not_still,
            "calibrated_on": self.stats.calibrated_on, "board_rect": self.stats.board_rect,
            "logged_boards": self.stats.logged, "log_agrees": self.stats.log_agrees,
            "log_growing": self.stats.log_growing,
            "log_disagrees": self.stats.log_disagrees, "log_moves_disagree": self.log_moves_disagree,
            "believed_boards": self.game.boards, "glimpsed_boards": self.stats.glimpsed,
            "dropped_boards": [s.at for s in self.game.dropped], "two_move_jumps": self.game.two_move_jumps,
            "bridged_jumps": self.game.bridged,
        })
        return {
            "source": source,
            "moves": [j.as_json() for j in self.moves],
            "gaps": len(self.game.gaps),
            "gap_list": [g.as_json() for g in self.game.gaps],
            "accuracy": None if self.accuracy is None else round(self.accuracy, 6),
            "bands": self.bands,
            "thresholds": self.thresholds.as_json(),
            "search": self.search,
        }


def _profile_for(profile, frame, moved: dict):
    """The profile to read this frame with: the profile itself when its board is inside the frame; for a
    recording's board crop grabbed elsewhere (the window had moved), the profile moved there."""
    rect = profile.board_rect
    if frame.rect.contains(rect):
        return profile
    if (frame.width, frame.height) == (rect.w, rect.h):
        at = (frame.left, frame.top)
        if at not in moved:
            moved[at] = profile.moved_to(frame.rect)
        return moved[at]
    return profile  # read_board says no-board


def believe_frames(source: Source, still_frames: int | None = None, read: Callable | None = None) -> tuple[Believer, FrameStats, object]:
    """Calibrate on the frames (or take the recording's profile) and believe the boards they show."""
    from screenbot.board_state import BoardState
    from screenbot.calibration import calibrate
    from screenbot.errors import ScreenbotError
    from screenbot.play.tracker import cell_agrees
    from screenbot.vision.marks import learn_marks

    if read is None:
        from screenbot.vision import read_board as read
    from screenbot.vision import UnreadableTileError

    stats = FrameStats()
    believer = Believer(still_frames or source.still_frames)
    profile = source.profile
    if profile is not None:
        stats.calibrated_on = "profile.json"
    calibration_error: Exception | None = None
    calibration_thumb = None
    last_thumb, last_still = None, False
    moved: dict = {}
    for item in source.frames():
        frame = item.frame
        if frame is None:  # a board from a recording's log only
            stats.logged += 1
            believer.see(item.logged, item.label)
            continue
        stats.frames += 1
        seen = None  # the still board vision reads on this frame, if any
        if profile is None:
            if stats.calibration_tries >= MAX_CALIBRATION_TRIES:
                frame = None
            else:
                thumb = thumbnail(frame.pixels)
                if same_picture(thumb, calibration_thumb):
                    frame = None
                else:
                    calibration_thumb = thumb
                    stats.calibration_tries += 1
                    try:
                        profile = calibrate(frame, source=str(source.path))
                        profile.compressed = source.kind == "video"
                        learn_marks(frame, profile)  # text or icons over the board: part of its look
                        stats.calibrated_on = item.label
                    except ScreenbotError as exc:  # no board here (yet), several boards, a board moving
                        calibration_error = exc
                        frame = None
        if frame is not None:
            reader_profile = _profile_for(profile, frame, moved)
            board = reader_profile.board_rect
            thumb = thumbnail(frame.pixels, Rect(board.x - frame.left, board.y - frame.top, board.w, board.h))
            if item.logged is None and last_still and same_picture(thumb, last_thumb):
                stats.unchanged += 1
                believer.again()
                continue
            last_thumb = thumb
            stats.read += 1
            try:
                reading = read(frame, reader_profile)
            except UnreadableTileError:
                reading = None
            last_still = reading is not None and reading.state == BoardState.PLAYING and reading.grid is not None
            if not last_still:
                stats.not_still += 1
            seen = reading.grid if last_still else None
        if item.logged is not None:
            # a recording's frame: the logged board (checked against the rules as play went) is the
            # observation; the frame's still reading, where there is one, must agree with it
            stats.logged += 1
            if seen is not None:
                off = [(seen[r][c], row[c]) for r, row in enumerate(item.logged) for c in range(len(row))
                       if not cell_agrees(seen[r][c], row[c])]
                if not off:
                    stats.log_agrees += 1
                elif len(off) == 1 and off[0][0] == 0 and off[0][1] in (2, 4):
                    stats.log_growing += 1  # grabbed while the new tile grew in: too small to see yet
                else:
                    stats.log_disagrees.append(item.label)
            if item.logged_move:
                stats.logged_moves[item.logged] = item.logged_move
            believer.see(item.logged, item.label)
        elif frame is not None:
            believer.see(seen, item.label)
    if profile is None and not stats.logged:
        if stats.frames == 0:
            raise NoBoardInSourceError(f"{source.path} has no frames")
        from screenbot.calibration import ManyBoardsError

        if isinstance(calibration_error, ManyBoardsError):
            raise NoBoardInSourceError(f"several 2048 boards in the frames of {source.path}: "
                                       "crop the pictures to one board")
        tried = f"the first {MAX_CALIBRATION_TRIES} distinct frames" if stats.calibration_tries >= MAX_CALIBRATION_TRIES \
            else f"any of the {stats.frames} frames"
        raise NoBoardInSourceError(f"no 2048 board found in {tried} of {source.path}: the whole board must be in "
                                   "the picture, still, with no menu or window over it")
    stats.board_rect = profile.board_rect.as_list() if profile is not None else None
    stats.glimpsed = believer.glimpsed
    return believer, stats, profile


def review(path: str | Path, judge: Judge | Callable[[Size], Judge] | None = None, still_frames: int | None = None,
           read: Callable | None = None, use_log: bool = True) -> Review:
    """Review the game in a video, a folder of screenshots or a `play --record` folder (`use_log`: with
    the boards its log holds; False: from its frames alone). `judge`: a Judge, or what makes one for
    the game's board size (None: the Judge of the player play plays on that size)."""
    source = open_source(path, use_log)
    believer, stats, profile = believe_frames(source, still_frames, read)
    game = rebuild(believer.boards, stats.logged_moves)
    if not isinstance(judge, Judge):
        shape = size_of(game.steps[0].board) if game.steps else profile.shape if profile is not None else CLASSIC
        judge = Judge(shape=shape) if judge is None else judge(shape)
    moves = [judge.judge(i, step.board, step.move, step.at) for i, step in enumerate(game.steps)]
    disagree = [i for i, step in enumerate(game.steps)
                if step.board in stats.logged_moves and stats.logged_moves[step.board] != step.move.key]
    return Review(source.describe(), game, moves, stats, judge.described, disagree, judge.bands)
