"""Where a reviewed game's frames come from: a video file, a folder of screenshots, or a `play --record` folder.

Every source yields `SourceFrame`s in order (a Frame whose pixel [0, 0] sits where it sat on the
screen when that is known, else at 0, 0, and a label naming it for the report). `thumbnail` and
`same_picture` tell an unchanged frame cheaply (a small area-averaged copy compared with the last
one's), so a still board filmed for seconds is read once.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np

from screenbot.coach.errors import SourceError
from screenbot.control.screen import Frame, ImageLoadError
from screenbot.geometry import Rect

VIDEO_EXTS = (".mp4", ".m4v", ".webm", ".avi", ".mkv", ".mov")
IMAGE_EXTS = (".png", ".jpg", ".jpeg", ".bmp")
# A recording made with `screenbot play --record DIR` (screenbot/play/record.py's names)
RECORDING_FRAMES, RECORDING_LOG, RECORDING_PROFILE = "frames", "log.jsonl", "profile.json"

THUMB_PX = 32  # the side of the small copy two frames are compared by
# Largest colour difference (0-255) between two thumbnails of "the same picture": a video's
# compression noise averages out in a thumbnail cell, while a tile growing from 95 % to 100 % of
# its cell still moves a cell on the edge by ~6 levels (docs/coach.md).
SAME_TOL = 3


@dataclass(frozen=True)
class SourceFrame:
    frame: Frame | None  # None: a board known from a recording's log only (its final board)
    label: str  # the file's name, or "frame N (T s)" in a video
    index: int  # 0-based position in the source
    logged: tuple | None = None  # a recording's logged board for this frame (the live tracker's belief)
    logged_move: str | None = None


def natural_key(name: str) -> list:
    """Sort key that puts shot2.png before shot10.png."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", name)]


def thumbnail(pixels: np.ndarray, rect: Rect | None = None, size: int = THUMB_PX) -> np.ndarray:
    """An area-averaged size x size copy (of `rect` inside the pixels when given), as int16."""
    import cv2

    if rect is not None:
        h, w = pixels.shape[:2]
        x0, y0 = max(0, rect.x), max(0, rect.y)
        x1, y1 = min(w, rect.x + rect.w), min(h, rect.y + rect.h)
        if x1 > x0 and y1 > y0:
            pixels = pixels[y0:y1, x0:x1]
    return cv2.resize(pixels, (size, size), interpolation=cv2.INTER_AREA).astype(np.int16)


def same_picture(a: np.ndarray | None, b: np.ndarray | None, tol: int = SAME_TOL) -> bool:
    return a is not None and b is not None and a.shape == b.shape and int(np.abs(a - b).max()) <= tol


class Source:
    """A sequence of frames. `kind`: video | screenshots | recording; `still_frames`: how many
    frames in a row must show one board before it is believed (docs/coach.md)."""

    kind = ""
    still_frames = 1

    def __init__(self, path: Path) -> None:
        self.path = path
        self.profile = None  # a recording's own profile (screen coordinates)
        self.frames_seen = 0

    def frames(self) -> Iterator[SourceFrame]:
        raise NotImplementedError

    def describe(self) -> dict:
        return {"path": str(self.path), "kind": self.kind, "frames": self.frames_seen}


def _load_picture(path: Path, left: int = 0, top: int = 0) -> Frame:
    """Frame.load, its error said as a source error."""
    try:
        return Frame.load(path, left, top)
    except ImageLoadError as exc:
        raise SourceError(f"{exc} (corrupt?)") from None


def _pictures_in(folder: Path) -> list[Path]:
    files = [p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_EXTS]
    return sorted(files, key=lambda p: natural_key(p.name))


class VideoSource(Source):
    """A screen video (MP4, WebM, AVI, ... whatever OpenCV's FFmpeg opens), frame by frame."""

    kind = "video"
    still_frames = 2  # a board is believed once two frames in a row show it (not a frame caught mid-move)

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.fps = 0.0

    def frames(self) -> Iterator[SourceFrame]:
        import cv2

        # FFmpeg writes its own complaints about a broken file to stderr; the error below says it in one
        # line. (Read when FFmpeg is first used in the process; a user's own setting is kept.)
        os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")
        capture = cv2.VideoCapture(str(self.path))
        try:
            if not capture.isOpened():
                raise SourceError(f"cannot open the video {self.path}: not a video OpenCV can read (corrupt, or an "
                                  "unsupported format: use MP4, WebM or AVI)")
            self.fps = float(capture.get(cv2.CAP_PROP_FPS) or 0.0)
            index = 0
            while True:
                ok, pixels = capture.read()
                if not ok or pixels is None:
                    break
                t = index / self.fps if self.fps > 0 else None
                label = f"frame {index}" + (f" ({t:.2f} s)" if t is not None else "")
                self.frames_seen += 1
                yield SourceFrame(Frame(pixels), label, index)
                index += 1
            if index == 0:
                raise SourceError(f"the video {self.path} holds no frame OpenCV can decode (corrupt or empty)")
        finally:
            capture.release()

    def describe(self) -> dict:
        return {**super().describe(), "fps": round(self.fps, 3)}


class ScreenshotSource(Source):
    """A folder of screenshots (PNG/JPEG), taken in name order (numbers in names sort as numbers)."""

    kind = "screenshots"

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.files = _pictures_in(path)
        if not self.files:
            raise SourceError(f"no screenshots (PNG/JPEG) in the folder {path}")

    def frames(self) -> Iterator[SourceFrame]:
        for index, file in enumerate(self.files):
            self.frames_seen += 1
            yield SourceFrame(_load_picture(file), file.name, index)


class RecordingSource(Source):
    """A `screenbot play --record DIR` folder: frames/*.png (board crops), placed where log.jsonl says
    they were grabbed, read with the recording's profile.json when there is one.

    Play grabs most frames while the new tile is still growing in (it reads early), where vision's
    still-board reading sees no board or one without the new tile. So each frame also carries the board
    its log line holds (what the live tracker believed, each one checked against the rules as it
    played), and the log's summary gives the board after the last key. `use_log=False`: frames only.
    """

    kind = "recording"

    def __init__(self, path: Path, use_log: bool = True) -> None:
        super().__init__(path)
        self.files = _pictures_in(path / RECORDING_FRAMES)
        if not self.files:
            raise SourceError(f"the recording {path} has no frames in {path / RECORDING_FRAMES}")
        if (path / RECORDING_PROFILE).is_file():
            from screenbot.calibration import Profile

            self.profile = Profile.load(path / RECORDING_PROFILE)
        self.use_log = use_log
        self.entries, self.final = self._read_log(path / RECORDING_LOG)

    @staticmethod
    def _read_log(log: Path) -> tuple[dict[str, dict], tuple | None]:
        """frame file name -> its log line; and the summary's final board (None without one)."""
        entries: dict[str, dict] = {}
        final = None
        if not log.is_file():
            return entries, final
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut by a crash: the frames still count
            if not isinstance(entry, dict):
                continue
            if isinstance(entry.get("summary"), dict):
                final = _grid_or_none(entry["summary"].get("board"))
            elif entry.get("frame"):
                entries[Path(entry["frame"]).name] = entry
        return entries, final

    def frames(self) -> Iterator[SourceFrame]:
        index = 0
        for index, file in enumerate(self.files):
            entry = self.entries.get(file.name, {})
            left, top = (entry.get("origin") or (0, 0))[:2]
            frame = _load_picture(file, int(left), int(top))
            if not entry.get("origin") and self.profile is not None:
                rect = self.profile.board_rect
                if (frame.width, frame.height) == (rect.w, rect.h):  # a board crop: it was grabbed there
                    frame = Frame(frame.pixels, rect.x, rect.y)
            self.frames_seen += 1
            logged = _grid_or_none(entry.get("board")) if self.use_log else None
            yield SourceFrame(frame, file.name, index, logged, entry.get("move") if self.use_log else None)
        if self.use_log and self.final is not None:
            yield SourceFrame(None, "the log's final board", index + 1, self.final)

    def describe(self) -> dict:
        return {**super().describe(), "log": self.use_log and bool(self.entries)}


def _grid_or_none(rows) -> tuple | None:
    from screenbot.game.rules import to_grid

    try:
        return to_grid(rows)
    except (TypeError, ValueError):
        return None


def open_source(path: str | Path, use_log: bool = True) -> Source:
    """The source at `path`: a recording folder (it has frames/), a folder of screenshots, or a video file.
    `use_log`: a recording's logged boards are used (see RecordingSource)."""
    path = Path(path)
    if not path.exists():
        raise SourceError(f"no such file or folder: {path}")
    if path.is_dir():
        if (path / RECORDING_FRAMES).is_dir():
            return RecordingSource(path, use_log)
        return ScreenshotSource(path)
    if path.suffix.lower() in IMAGE_EXTS:
        raise SourceError(f"{path} is one picture: put the game's screenshots in a folder and review the folder")
    if path.stat().st_size == 0:
        raise SourceError(f"the video {path} is empty (0 bytes)")
    return VideoSource(path)
