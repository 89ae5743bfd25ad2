"""VideoRecorder: films one region of an X display into an MP4 at a true frame rate (its own mss, its own thread)."""

from __future__ import annotations

import bisect
import math
import threading
import time
from pathlib import Path

import numpy as np

from screenbot.geometry import Rect


class VideoRecorder(threading.Thread):
    """Grabs `region` of the X display `display` into `path` (MP4, mp4v) at `fps` frames a second of
    wall-clock time, from start() until stop().

    Frame k of the video is the picture grabbed at tick k (start + k / fps, or just after it). When a
    grab and write fall behind the clock, the last picture is written again for every tick missed, so
    the video's time stays the wall clock's: `frames` counts the frames written, `repeated` those
    written again, `grabbed` the pictures really taken. An error is kept in `error` for the caller.

    A frame written again stands for time no picture was taken in, and a grab can come late on a busy
    machine: a caller that needs a picture on film (a board held still until the video shows it)
    waits for it with `wait_for_pictures`.
    """

    def __init__(self, display: str | None, region: Rect, path: str | Path, fps: float) -> None:
        super().__init__(name="video-recorder", daemon=True)
        self.display, self.region, self.path, self.fps = display, region, Path(path), float(fps)
        self.stop_event = threading.Event()
        self.frames = 0
        self.repeated = 0
        self.grabbed = 0
        self.seconds = 0.0  # wall time from the first grab to the stop
        self.error: BaseException | None = None
        self._began: list[float] = []  # when each grab written began (time.monotonic(), in order)
        self._written = threading.Condition()

    def wait_for_pictures(self, count: int, since: float, timeout: float = 10.0) -> bool:
        """Wait until `count` pictures grabbed from `since` (time.monotonic()) on are written. What the
        screen held still from `since` is then on `count` frames in a row (a frame written again between
        them repeats the one before). False when `timeout` s pass or the recorder stops first."""
        deadline = time.monotonic() + timeout
        with self._written:
            while len(self._began) - bisect.bisect_left(self._began, since) < count:
                left = deadline - time.monotonic()
                if left <= 0 or self.stop_event.is_set() or self.error is not None:
                    return False
                self._written.wait(min(left, 0.1))
        return True

    def stop(self, timeout: float = 10.0) -> None:
        self.stop_event.set()
        self.join(timeout)

    def run(self) -> None:
        import cv2
        import mss

        try:
            factory = getattr(mss, "MSS", None) or mss.mss
            with factory(display=self.display) as sct:
                r = self.region
                box = {"left": r.x, "top": r.y, "width": r.w, "height": r.h}
                writer = cv2.VideoWriter(str(self.path), cv2.VideoWriter_fourcc(*"mp4v"), self.fps, (r.w, r.h))
                if not writer.isOpened():
                    raise RuntimeError(f"OpenCV cannot write mp4v video to {self.path}")
                try:
                    self._film(sct, box, writer)
                finally:
                    writer.release()
        except BaseException as exc:  # noqa: BLE001 - reported by the caller
            self.error = exc

    def _film(self, sct, box: dict, writer) -> None:
        start = time.monotonic()
        last = None
        while not self.stop_event.is_set():
            began = time.monotonic()
            shot = sct.grab(box)
            now = time.monotonic()
            pixels = np.ascontiguousarray(np.frombuffer(shot.raw, np.uint8).reshape(shot.height, shot.width, 4)[:, :, :3])
            self.grabbed += 1
            tick = max(self.frames, math.floor((now - start) * self.fps))
            while last is not None and self.frames < tick:  # ticks missed: the last picture again
                writer.write(last)
                self.frames += 1
                self.repeated += 1
            writer.write(pixels)
            self.frames += 1
            last = pixels
            with self._written:
                self._began.append(began)
                self._written.notify_all()
            time.sleep(max(0.0, start + self.frames / self.fps - time.monotonic()))
        self.seconds = time.monotonic() - start
