"""What a game leaves behind: the JSON-lines move log, the recorded board frames, the frames of a stop, and an animated GIF."""

from __future__ import annotations

import json
import queue
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from screenbot.control.screen import Frame
from screenbot.errors import ScreenbotError
from screenbot.game.rules import Grid, Move, format_board

LOG_NAME = "log.jsonl"
FRAMES_DIR = "frames"
PROFILE_NAME = "profile.json"


class RecordError(ScreenbotError):
    """A log or recording that cannot be written or read."""


class MoveLog:
    """One JSON object per line, flushed as it goes, so a crash leaves a valid log."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("w", encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot write the log {self.path}: {exc.strerror}") from exc

    def write(self, entry: dict[str, Any]) -> None:
        self._file.write(json.dumps(entry, separators=(",", ":")) + "\n")
        self._file.flush()

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()


def read_log(path: str | Path) -> tuple[list[dict], dict | None]:
    """The move entries and the summary (None if the game did not end cleanly) of a log."""
    path = Path(path)
    if not path.is_file():
        raise RecordError(f"no log at {path}")
    moves, summary = [], None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path}:{number} is not JSON ({exc.msg})") from None
        if "summary" in entry:
            summary = entry["summary"]
        else:
            moves.append(entry)
    return moves, summary


class FrameRecorder:
    """Writes board frames as PNGs from a background thread, so recording does not slow play."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.frames = self.folder / FRAMES_DIR
        try:
            self.frames.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RecordError(f"cannot write the recording to {self.folder}: {exc.strerror}") from exc
        self._queue: queue.Queue = queue.Queue(maxsize=256)
        self._error: Exception | None = None
        self._thread = threading.Thread(target=self._work, name="frame-recorder", daemon=True)
        self._thread.start()

    def _work(self) -> None:
        import cv2

        from screenbot.imaging import write_image

        while True:
            item = self._queue.get()
            if item is None:
                return
            path, pixels = item
            try:
                write_image(path, pixels, (cv2.IMWRITE_PNG_COMPRESSION, 1))
            except Exception as exc:  # reported by close()
                self._error = exc

    def save(self, name: str, frame: Frame) -> str:
        """Queue the frame as frames/<name>.png; returns the path relative to the folder."""
        relative = f"{FRAMES_DIR}/{name}.png"
        self._queue.put((self.folder / relative, frame.pixels))
        return relative

    def close(self) -> None:
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()
        if self._error is not None:
            raise RecordError(f"recording failed: {self._error}")


def write_gif(frames: Iterable[np.ndarray], path: str | Path, fps: float = 12, width: int = 200) -> Path | None:
    """An animated GIF from BGR frames, each scaled to `width` px wide. None when there are no frames."""
    import cv2
    from PIL import Image

    images = []
    for pixels in frames:
        h, w = pixels.shape[:2]
        scale = width / w
        small = cv2.resize(pixels, (width, max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
        images.append(Image.fromarray(cv2.cvtColor(small, cv2.COLOR_BGR2RGB)).convert("P", palette=Image.ADAPTIVE))
    if not images:
        return None
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    images[0].save(
        path, save_all=True, append_images=images[1:], duration=round(1000 / fps), loop=0, optimize=True
    )
    return path


@dataclass
class Recording:
    """Where one game is written down: the move log (optional), its frames (optional, with the log),
    and the folder for the frames that explain a stop (default: a new temporary folder)."""

    log: MoveLog | None = None
    frames: FrameRecorder | None = None
    stop_dir: Path | None = None

    def move(self, i: int, board: Grid, move: Move, t: float, read_ms: float, think_ms: float,
             frame: Frame | None, fallback: bool = False) -> None:
        """One log line for a key: the board it was pressed on, and (recording) that board's frame;
        `fallback`: the move was the quick player's, before the agent was ready."""
        if self.log is None:
            return
        entry = {
            "i": i,
            "board": [list(row) for row in board],
            "move": move.key,
            "t": round(t, 4),
            "read_ms": round(read_ms, 2),
            "think_ms": round(think_ms, 2),
        }
        if fallback:
            entry["fallback"] = True
        if self.frames is not None and frame is not None:
            entry["frame"] = self.frames.save(f"{i:06d}", frame)
            entry["origin"] = [frame.left, frame.top]
        self.log.write(entry)

    def summary(self, summary: dict) -> None:
        if self.log is not None:
            self.log.write({"summary": summary})

    def save_stop(self, what: str, move: Move, before: Grid, expected: Grid, frame: Frame, state: str,
                  seen: object) -> Path:
        """The frame and boards that explain why play stopped (seen.png, diagnostic.txt); returns the folder."""
        folder = Path(self.stop_dir) if self.stop_dir else Path(tempfile.mkdtemp(prefix="screenbot-stop-"))
        folder.mkdir(parents=True, exist_ok=True)
        frame.save(folder / "seen.png")
        lines = [
            what,
            f"move: {move.key}",
            "board before the move:",
            format_board(before),
            "expected (before the new tile):",
            format_board(expected),
            f"seen (state {state}):",
            format_board(seen) if seen is not None else "(nothing read)",
        ]
        (folder / "diagnostic.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        return folder
