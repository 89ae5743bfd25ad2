"""The live rig: Xvfb + a real Chromium window showing the practice board, driven with real X key events."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from screenbot.game.rules import Grid, Move, to_grid
from screenbot.game.sizes import CLASSIC, Size
from screenbot.geometry import Rect
from screenbot.practice import page_geometry
from screenbot.practice.errors import PageLoadError, RigError, ToolMissingError  # noqa: F401 - the rig's errors
from screenbot.practice.browser import find_browser
from screenbot.practice.launch import (
    browser_args,
    log_tail,
    need,
    start_browser,
    start_xvfb,
    write_profile,
)
from screenbot.practice.measure import Box, drawn, gap_middles, measure_edges
from screenbot.practice.page_options import BOARD_BGR, THEMES, check_page_options, parse_shape, shape_option
from screenbot.practice.processes import end_session, session_pids
from screenbot.practice.server import PracticeServer

KEY_NAMES = {"up": "Up", "down": "Down", "left": "Left", "right": "Right"}


def _set_env(name: str, value: str | None) -> None:
    """Set a variable of this process's environment; None: unset it."""
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


class Rig:
    """Xvfb + Chromium showing the practice board; every process it starts is ended by PID in stop().

    Geometry is given in screen pixels (the rig converts to Chromium's DIPs): `screen` (w, h),
    `window_pos` (x, y), `window_size` (w, h; default: the whole screen from window_pos),
    `zoom` (page zoom factor, set as the fresh profile's default zoom), `scale` (device scale
    factor). Page options: `theme` (classic, dark, lines, lines-light, terminal), `size` (board px
    at the classic look; the scale of every look), `shape` (rows and columns: (4, 6) or "4x6",
    3 to 8 each; default 4x4), `seed`, `board` (start grid, of the page's shape), `score`,
    `keep` (no win overlay), `anim` (duration multiplier, 0 = none), `scroll` (css px, or "board" to
    centre the board), `marks` (help text and a logo over the board), `overhang` (tiles 3 px larger
    than their cells), `keys` ("arrows", "wasd" or "hjkl": only that key set moves; default all),
    `win` (the tile that brings the win message, default 2048), `dismiss` ("click": the "Keep going"
    button; "key": no buttons, the message says "Press Enter to keep going").
    `app=True` shows the page without browser chrome (--app). `export_env=True` also points
    this process's DISPLAY/XAUTHORITY at the rig's display (for pyautogui/mss users).
    """

    def __init__(
        self,
        *,
        screen: tuple[int, int] = (1600, 1000),
        window_pos: tuple[int, int] = (0, 0),
        window_size: tuple[int, int] | None = None,
        zoom: float = 1.0,
        scale: float = 1.0,
        theme: str = "classic",
        size: int | None = None,
        shape: tuple[int, int] | str | None = None,
        seed: int | None = None,
        board: Grid | Sequence[Sequence[int]] | None = None,
        score: int | None = None,
        keep: bool = False,
        anim: float | None = None,
        scroll: int | str | None = None,
        marks: bool = False,
        overhang: bool = False,
        keys: str | None = None,
        win: int | None = None,
        dismiss: str | None = None,
        app: bool = False,
        port: int = 0,
        timeout: float = 30.0,
        export_env: bool = False,
    ) -> None:
        self.screen_size = (int(screen[0]), int(screen[1]))
        self.window_pos = (int(window_pos[0]), int(window_pos[1]))
        self.window_size = window_size or (
            self.screen_size[0] - self.window_pos[0], self.screen_size[1] - self.window_pos[1])
        self.zoom = float(zoom)
        self.scale = float(scale)
        self.page_options: dict[str, Any] = dict(
            theme=theme, size=size, shape=shape_option(shape), seed=seed, board=board, score=score,
            keep=keep or None, anim=anim, scroll=scroll, marks=marks or None, overhang=overhang or None,
            keys=keys, win=win, dismiss=dismiss)
        self.app = app
        self.port = port
        self.timeout = timeout
        self.export_env = export_env
        self.display: str | None = None
        self.server: PracticeServer | None = None
        self.url: str | None = None
        self._xvfb: subprocess.Popen | None = None
        self._browser: subprocess.Popen | None = None
        self._tmp: Path | None = None
        self._env: dict[str, str] = {}
        self._saved_env: dict[str, str | None] = {}
        self._sct = None
        if self.zoom <= 0 or self.scale <= 0:
            raise RigError("zoom and scale must be positive")
        check_page_options(self.page_options)

    # ---- life cycle -------------------------------------------------------------------------
    def __enter__(self) -> "Rig":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> "Rig":
        xvfb = need("Xvfb", "xvfb")
        need("xdotool", "xdotool")
        browser = find_browser()
        atexit.register(self.stop)  # a rig left running when Python exits is still cleaned up
        try:
            self.server = PracticeServer(self.port).start()
            self._tmp = Path(tempfile.mkdtemp(prefix="screenbot-rig-"))
            self._start_xvfb(xvfb)
            self.url = self.server.url(**self.page_options)
            self._start_browser(browser)
            self._wait_for_page()
            self.wait_still()
            self.focus_page()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """End Chromium (its whole session), the server and Xvfb; remove the temp profile."""
        atexit.unregister(self.stop)
        if self._sct is not None:
            try:
                self._sct.close()
            except Exception:  # noqa: BLE001 - the display may already be gone
                pass
            self._sct = None
        end_session(self._browser)
        self._browser = None
        if self.server is not None:
            self.server.stop()
            self.server = None
        end_session(self._xvfb)
        self._xvfb = None
        for name, value in self._saved_env.items():
            _set_env(name, value)
        self._saved_env = {}
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    @property
    def pids(self) -> list[int]:
        """PIDs of every process the rig has running now (Xvfb, Chromium and its children)."""
        out: list[int] = []
        for proc in (self._xvfb, self._browser):
            if proc is not None:
                out.extend(session_pids(proc.pid))
        return out

    @property
    def env(self) -> dict[str, str]:
        """DISPLAY and XAUTHORITY for programs that should talk to the rig's display."""
        return dict(self._env)

    def _start_xvfb(self, xvfb: str) -> None:
        assert self._tmp is not None
        xauth = self._tmp / "Xauthority"
        xauth.touch()  # python-xlib needs the file to exist; Xvfb runs without access control
        self._xvfb, self.display = start_xvfb(xvfb, self.screen_size, self._tmp)
        self._env = {"DISPLAY": self.display, "XAUTHORITY": str(xauth)}
        if self.export_env:
            # the rig's display is X alone: a Wayland session's variables would say otherwise
            for name, value in {**self._env, "WAYLAND_DISPLAY": None, "XDG_SESSION_TYPE": "x11"}.items():
                self._saved_env[name] = os.environ.get(name)
                _set_env(name, value)

    def _start_browser(self, browser: str) -> None:
        assert self._tmp is not None and self.url is not None
        profile = self._tmp / "profile"
        write_profile(profile, self.zoom)
        args = browser_args(browser, profile, self.url, self.window_pos, self.window_size, self.scale, self.app)
        env = {**os.environ, **self._env}
        env.pop("WAYLAND_DISPLAY", None)  # else Chromium may open on the Wayland desktop, not the rig's display
        self._browser = start_browser(args, env, self._tmp / "browser.log")

    def _wait_for_page(self) -> None:
        assert self.server is not None
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if self.server.state.wait_for(lambda s: s["ready"] and s["layout"] is not None, 0.1) is not None:
                return
            if self._browser is not None and self._browser.poll() is not None:
                raise PageLoadError(f"the browser exited at start (code {self._browser.returncode}): "
                                    f"{self._log_tail('browser.log')}")
        raise PageLoadError(f"the practice page at {self.url} did not report within {self.timeout:g} s; "
                            f"browser says: {self._log_tail('browser.log')}")

    def _log_tail(self, name: str) -> str:
        return "no log" if self._tmp is None else log_tail(self._tmp / name)

    # ---- the page's state ----------------------------------------------------------------------
    def state(self, history: bool = True) -> dict[str, Any]:
        """The page's last reported state (the server's `GET /state` answer); `history=False`
        leaves out the per-move lists (cheaper in long games)."""
        assert self.server is not None, "the rig is not running"
        return self.server.state.snapshot(history)

    @property
    def shape(self) -> Size:
        """The board's (rows, columns) the page is asked to show."""
        return parse_shape(self.page_options.get("shape"))

    def grid(self) -> Grid:
        """The page's true board now (rows top to bottom, of the page's shape)."""
        return to_grid(self.state(history=False)["board"], self.shape)

    def wait_for(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 5.0,
                 what: str = "the page") -> dict[str, Any]:
        assert self.server is not None, "the rig is not running"
        snap = self.server.state.wait_for(predicate, timeout)
        if snap is None:
            raise RigError(f"timed out after {timeout:g} s waiting for {what}")
        return snap

    def wait_for_moves(self, n: int, timeout: float = 5.0) -> dict[str, Any]:
        """Wait until the current game has `n` moves (by the page's count)."""
        return self.wait_for(lambda s: s["ready"] and s["moves"] >= n, timeout, f"{n} moves")

    def wait_for_keys(self, n: int, timeout: float = 5.0) -> dict[str, Any]:
        """Wait until the page has received `n` move keys since it loaded (moves, no-ops, ignored)."""
        return self.wait_for(lambda s: s["ready"] and s["keys"] >= n, timeout, f"{n} keys")

    def load(self, timeout: float | None = None, **page_options: Any) -> dict[str, Any]:
        """Reload the page with new page options (same browser window); wait for its first report.

        Options not given stay as they were, but `shape` given without `board` starts from the
        page's own opening (a start board of another shape cannot be put on it)."""
        assert self.server is not None, "the rig is not running"
        if "shape" in page_options:
            page_options["shape"] = shape_option(page_options["shape"])
            page_options.setdefault("board", None)
        check_page_options({**self.page_options, **page_options})
        self.page_options.update(page_options)
        old_page = self.state(history=False)["page"]
        self.url = self.server.url(**self.page_options)
        query = self.url.split("?", 1)[1] if "?" in self.url else ""
        self.server.state.command({"navigate": "?" + query})
        snap = self.wait_for(lambda s: s["ready"] and s["page"] != old_page and s["layout"] is not None,
                             timeout or self.timeout, "the reloaded page")
        return snap

    # ---- input -----------------------------------------------------------------------------------
    def _xdotool(self, *args: str) -> None:
        try:
            result = subprocess.run(["xdotool", *args], env={**os.environ, **self._env},
                                    capture_output=True, text=True, timeout=10)
        except subprocess.TimeoutExpired:
            raise RigError(f"xdotool {' '.join(args)} did not finish within 10 s") from None
        if result.returncode != 0:
            raise RigError(f"xdotool {' '.join(args)} failed: {result.stderr.strip() or result.returncode}")

    def press(self, key: Move | str) -> float:
        """Press and release one key with a real X event (xdotool) to the focused window.

        `key` is a Move, a move name ("left") or any xdotool key name. Returns time.time() just
        before the key was sent.
        """
        if isinstance(key, Move):
            name = KEY_NAMES[key.key]
        else:
            name = KEY_NAMES.get(key.lower(), key)
        t = time.time()
        self._xdotool("key", "--clearmodifiers", name)
        return t

    def press_many(self, keys: Iterable[Move | str], delay_ms: int = 0) -> float:
        """Press several keys in one xdotool call (`delay_ms` between them)."""
        names = [KEY_NAMES[k.key] if isinstance(k, Move) else KEY_NAMES.get(k.lower(), k) for k in keys]
        t = time.time()
        self._xdotool("key", "--delay", str(delay_ms), *names)
        return t

    def click(self, x: float, y: float) -> None:
        """Move the pointer to screen pixel (x, y) and click the left button there."""
        # (no --sync: it waits forever when the pointer is already there)
        self._xdotool("mousemove", str(round(x)), str(round(y)), "click", "1")

    def focus_page(self) -> None:
        """Click the page's empty background (top-left of the viewport) so keys reach the game."""
        ox, oy = self.viewport_origin()
        self.click(ox + 6 * self.scale, oy + 6 * self.scale)

    def button_box(self, which: str) -> Box | None:
        """A button's rectangle on screen ("keep-going", "try-again", "new-game"), None while hidden."""
        rect = (self.layout().get("buttons") or {}).get(which)
        if not rect or rect[2] <= 0 or rect[3] <= 0:
            return None
        return self._to_screen(rect)

    def click_button(self, which: str, timeout: float = 5.0) -> None:
        """Click a button of the page with the real pointer, once the page shows it."""
        if which not in ("keep-going", "try-again", "new-game"):
            raise RigError(f"unknown button {which!r} (keep-going, try-again, new-game)")
        deadline = time.monotonic() + timeout
        while (box := self.button_box(which)) is None:
            if time.monotonic() > deadline:
                raise RigError(f"the page shows no {which} button")
            time.sleep(0.02)
        self.click(box.x + box.w / 2, box.y + box.h / 2)

    # ---- geometry (screen pixels) ------------------------------------------------------------------
    def layout(self) -> dict[str, Any]:
        """The page's last reported layout (CSS px rects and window metrics)."""
        assert self.server is not None, "the rig is not running"
        layout = self.server.state.layout()
        if layout is None:
            raise RigError("the page has not reported its layout yet")
        return layout

    def css_to_screen(self) -> float:
        """Screen pixels per CSS pixel (device scale x page zoom)."""
        return float(self.layout()["device_pixel_ratio"])

    def viewport_origin(self) -> tuple[float, float]:
        """The screen pixel where the page's viewport (CSS 0,0) sits."""
        return page_geometry.viewport_origin(self.layout(), self.scale)

    def _to_screen(self, css_rect: Sequence[float]) -> Box:
        return page_geometry.to_screen(self.layout(), self.scale, css_rect)

    def viewport_box(self) -> Box:
        """The page's visible viewport on screen (excluding a scrollbar)."""
        return page_geometry.viewport_box(self.layout(), self.scale)

    def visible_box(self) -> Box:
        """The part of the viewport that is on the screen."""
        return page_geometry.on_screen(self.viewport_box(), self.screen_size)

    def board_fully_visible(self) -> bool:
        return page_geometry.inside(self.board_box(), self.visible_box())

    def measure_board_edges(self, pixels: np.ndarray) -> list[float | None]:
        """The board's left, top, right, bottom edges as seen in a screenshot (whole screen, BGR).

        Found along a row through the board's top padding and a column through its left
        padding, which show the board colour from edge to edge; a border pixel's share of the
        board colour gives the sub-pixel edge. An edge outside the visible viewport is None.
        Works on a board without glowing tiles under it (e.g. an empty board), in the classic,
        dark and lines looks (the terminal's frame is characters: measure its tiles with measure_fill).
        """
        theme = self.page_options.get("theme") or "classic"
        if theme not in BOARD_BGR:
            raise RigError(f"the {theme} look has no board colour to measure; measure its tiles (measure_fill)")
        gaps = None if self.shape == CLASSIC else gap_middles(self.board_box(), self.cell_boxes(), self.shape)
        return measure_edges(pixels, self.board_box(), self.visible_box(), BOARD_BGR[theme], THEMES[theme], gaps)

    def board_box(self) -> Box:
        """The board's true rectangle on screen (fractional screen pixels)."""
        return self._to_screen(self.layout()["board"])

    def board_rect(self) -> Rect:
        """The board's rectangle on screen, in whole pixels."""
        return self.board_box().rect()

    def cell_boxes(self) -> list[Box]:
        """The cells' rectangles on screen (rows x columns of them), row-major."""
        return [self._to_screen(c) for c in self.layout()["cells"]]

    def score_box(self) -> Box:
        return self._to_screen(self.layout()["score_box"])

    def window_rect(self) -> Rect:
        """The browser window's rectangle on screen (from the page's report)."""
        return page_geometry.window_rect(self.layout(), self.scale)

    # ---- pictures ----------------------------------------------------------------------------------
    def screenshot(self, path: str | Path | None = None) -> np.ndarray:
        """The whole screen now, as BGR pixels (H x W x 3, uint8); also written as a PNG to `path`."""
        if self._sct is None:
            import mss

            factory = getattr(mss, "MSS", None) or mss.mss
            self._sct = factory(display=self.display)
        shot = self._sct.grab(self._sct.monitors[0])
        bgra = np.frombuffer(shot.raw, dtype=np.uint8).reshape(shot.height, shot.width, 4)
        pixels = np.ascontiguousarray(bgra[:, :, :3])
        if path is not None:
            import cv2

            from screenbot.imaging import ImageFileError, write_image

            try:
                write_image(path, pixels, (cv2.IMWRITE_PNG_COMPRESSION, 9))
            except ImageFileError as exc:
                raise RigError(str(exc)) from None
        return pixels

    def wait_still(self, still_ms: float = 200.0, timeout: float = 10.0) -> float:
        """Wait until the board (with a margin for glows) has drawn and looks the same for `still_ms`.

        Returns the seconds waited. Raises RigError when it keeps changing or never draws.
        """
        start = time.monotonic()
        # The lines and terminal boards are mostly the page's colour: their thin lines, and the
        # tiles, are all there is to see.
        share = 0.2 if THEMES.get(self.page_options.get("theme") or "classic") == "classic" else 0.01
        screen = Rect(0, 0, *self.screen_size)
        last = None
        last_change = start
        while True:
            now = time.monotonic()
            region = self.board_box().rect().inset(-8).intersection(screen)
            if region is None:
                raise RigError("the board is not on the screen")
            pixels = self.grab(region)
            if last is None or last.shape != pixels.shape or not np.array_equal(last, pixels):
                last = pixels
                last_change = now
            elif (now - last_change) * 1000 >= still_ms and drawn(pixels, share):
                return now - start
            if now - start > timeout:
                raise RigError(f"the board did not settle within {timeout:g} s")
            time.sleep(0.01)

    def grab(self, box: Rect) -> np.ndarray:
        """One region of the screen as BGR pixels."""
        if self._sct is None:
            self.screenshot()
        shot = self._sct.grab({"left": box.x, "top": box.y, "width": box.w, "height": box.h})
        bgra = np.frombuffer(shot.raw, dtype=np.uint8).reshape(shot.height, shot.width, 4)
        return np.ascontiguousarray(bgra[:, :, :3])
