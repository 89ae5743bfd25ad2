"""Where frames come from: the live screen (mss) or saved images, behind one small interface."""

from __future__ import annotations

import abc
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from screenbot.errors import ScreenbotError
from screenbot.geometry import Rect


class ScreenError(ScreenbotError):
    """The screen could not be captured (no display, Wayland, missing permission, bad region)."""


class ImageLoadError(ScreenbotError):
    """A screenshot file that cannot be opened as an image."""


class OutsideFrameError(ScreenbotError):
    """A region asked of a frame is not wholly inside it."""


@dataclass(frozen=True, eq=False)
class Frame:
    """One captured picture: BGR pixels (H x W x 3, uint8) whose pixel [0, 0] sits at (left, top) on screen."""

    pixels: np.ndarray
    left: int = 0
    top: int = 0

    @property
    def width(self) -> int:
        return int(self.pixels.shape[1])

    @property
    def height(self) -> int:
        return int(self.pixels.shape[0])

    @property
    def rect(self) -> Rect:
        """The screen area this frame shows, in absolute pixels."""
        return Rect(self.left, self.top, self.width, self.height)

    def crop(self, rect: Rect) -> "Frame":
        """The part of this frame under an absolute rectangle (a view, no copy).

        Raises OutsideFrameError when the rectangle is not wholly inside the frame.
        """
        if not self.rect.contains(rect) or rect.w <= 0 or rect.h <= 0:
            raise OutsideFrameError(
                f"region {rect.as_list()} is not inside the captured area {self.rect.as_list()}"
            )
        x0, y0 = rect.x - self.left, rect.y - self.top
        return Frame(self.pixels[y0 : y0 + rect.h, x0 : x0 + rect.w], rect.x, rect.y)

    def save(self, path: str | Path) -> Path:
        """Write the pixels as a PNG (lossless) and return the path (any path: screenbot.imaging.write_image)."""
        from screenbot.imaging import write_image

        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        return write_image(path, self.pixels)

    @classmethod
    def load(cls, path: str | Path, left: int = 0, top: int = 0) -> "Frame":
        """Read a PNG/JPEG screenshot (any path); pixel [0, 0] is placed at (left, top)."""
        from screenbot.imaging import ImageFileError, read_image

        try:
            return cls(read_image(path), left, top)
        except ImageFileError as exc:
            raise ImageLoadError(str(exc)) from None


class Screen(abc.ABC):
    """A source of frames with absolute screen coordinates."""

    @abc.abstractmethod
    def grab(self, region: Rect | None = None) -> Frame:
        """Capture the region (absolute pixels; None = every monitor together)."""

    @abc.abstractmethod
    def monitors(self) -> list[Rect]:
        """Index 0 is all monitors together (the bounding box), 1.. each monitor."""

    @property
    def scale(self) -> float:
        """Captured pixels per mouse point (a saved picture: 1)."""
        return 1.0

    def close(self) -> None:
        """Release whatever the source holds."""

    def __enter__(self) -> "Screen":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _clip_region(region: Rect | None, whole: Rect) -> Rect:
    if region is None:
        return whole
    clipped = whole.intersection(region)
    if clipped is None:
        raise ScreenError(f"region {region.as_list()} is outside every monitor {whole.as_list()}")
    return clipped


class MssScreen(Screen):
    """The live screen through mss (one instance, reused); mss is imported on first use.

    Frames and regions are in captured pixels: the desktop's coordinates times the screen's scale
    (screenbot.control.monitors; 1 except on a screen grabbed at more pixels than points)."""

    def __init__(self) -> None:
        self._sct = None
        self._map = None

    def _mss(self):
        if self._sct is None:
            try:
                import mss
            except ImportError as exc:  # pragma: no cover - mss is a dependency
                raise ScreenError("mss is not installed: pip install mss") from exc
            factory = getattr(mss, "MSS", None) or mss.mss
            try:
                self._sct = factory()
            except Exception as exc:  # mss raises ScreenShotError / XError subclasses
                raise ScreenError(
                    f"cannot capture the screen ({exc}); on Linux an X11 session with $DISPLAY set is needed"
                ) from exc
        return self._sct

    @property
    def map(self):
        """The monitors, the primary and the scale (screenbot.control.monitors.ScreenMap), measured on first use."""
        if self._map is None:
            from screenbot.control.monitors import screen_map

            try:
                self._map = screen_map(self._mss())
            except Exception as exc:
                raise ScreenError(f"cannot capture the screen ({exc})") from exc
        return self._map

    @property
    def scale(self) -> float:
        return self.map.scale

    def monitors(self) -> list[Rect]:
        return self.map.captured()

    def grab(self, region: Rect | None = None) -> Frame:
        from screenbot.control.monitors import to_desktop

        sct = self._mss()
        scale = self.scale
        area = _clip_region(region, self.monitors()[0])
        asked = to_desktop(area, scale)
        try:
            shot = sct.grab({"left": asked.x, "top": asked.y, "width": asked.w, "height": asked.h})
        except Exception as exc:
            raise ScreenError(f"screen capture of {area.as_list()} failed: {exc}") from exc
        import cv2

        bgra = np.frombuffer(shot.raw, dtype=np.uint8).reshape(shot.height, shot.width, 4)
        # OpenCV's conversion: ~0.1 ms for a 500 px board where numpy's strided copy takes ~2 ms
        pixels = cv2.cvtColor(bgra, cv2.COLOR_BGRA2BGR)
        if scale == 1:
            return Frame(pixels, int(shot.left), int(shot.top))
        full = (round(asked.w * scale), round(asked.h * scale))
        if (shot.width, shot.height) != full:  # a monitor at another scale in the grab: one scale for the frame
            pixels = cv2.resize(pixels, full, interpolation=cv2.INTER_AREA)
        frame = Frame(pixels, round(asked.x * scale), round(asked.y * scale))
        return frame.crop(area.intersection(frame.rect) or frame.rect)

    def close(self) -> None:
        if self._sct is not None:
            close = getattr(self._sct, "close", None)
            if close:
                close()
            self._sct = None
            self._map = None


class ImageScreen(Screen):
    """Serves saved screenshots or frames, as if they were the screen (replay and tests).

    Each grab() returns the current picture and then moves on to the next one when
    `advance` is true; the last picture repeats once the list is used up.
    `origin` is the virtual screen position of each picture's pixel [0, 0] (it may be
    negative, as on a desktop with a monitor left of the primary one); `monitor_rects`
    optionally describes the monitors inside that composite picture.
    """

    def __init__(
        self,
        sources: str | Path | np.ndarray | Frame | Iterable[str | Path | np.ndarray | Frame],
        origin: tuple[int, int] = (0, 0),
        monitor_rects: Sequence[Rect] | None = None,
        advance: bool = True,
    ) -> None:
        if isinstance(sources, (str, Path, np.ndarray, Frame)):
            sources = [sources]
        self._sources = list(sources)
        if not self._sources:
            raise ValueError("ImageScreen needs at least one picture")
        self._origin = origin
        self._monitor_rects = list(monitor_rects) if monitor_rects else None
        self._advance = advance
        self._index = 0
        self._cache: dict[int, Frame] = {}

    def _frame(self, index: int) -> Frame:
        frame = self._cache.get(index)
        if frame is None:
            source = self._sources[index]
            if isinstance(source, Frame):
                frame = source
            elif isinstance(source, np.ndarray):
                frame = Frame(source, *self._origin)
            else:
                frame = Frame.load(source, *self._origin)
            self._cache = {index: frame}  # keep one decoded picture: replays can be long
        return frame

    @property
    def index(self) -> int:
        """Which picture the next grab() returns."""
        return self._index

    @property
    def exhausted(self) -> bool:
        """True once the last picture has been served."""
        return self._index >= len(self._sources)

    def __len__(self) -> int:
        return len(self._sources)

    def monitors(self) -> list[Rect]:
        whole = self._frame(min(self._index, len(self._sources) - 1)).rect
        if self._monitor_rects:
            return [whole, *self._monitor_rects]
        return [whole, whole]

    def grab(self, region: Rect | None = None) -> Frame:
        index = min(self._index, len(self._sources) - 1)
        frame = self._frame(index)
        if self._advance:
            self._index += 1
        if region is None:
            return frame
        return frame.crop(_clip_region(region, frame.rect))
