"""What every target does: start its program, find its window, send it real X keys, read its true board,
grab its window's pixels.

Each subclass (harness.py) says how to start its program and which keys it takes. A program whose board
cannot be read (`has_truth = False`: a C, C++ or Vala game) builds on target_screen.ScreenTarget, where the
window's pixels take the truth log's place. Does not import screenbot.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from target_processes import TargetError, end_process, family_pids, need

MOVES = ("up", "down", "left", "right")
ARROWS = {"up": "Up", "down": "Down", "left": "Left", "right": "Right"}


class Target:
    """One 2048 program on `display`. Subclasses say how to start it and which keys it takes."""

    name = "target"
    keys: dict[str, str] = ARROWS  # move -> xdotool key name
    spawns_on_first_2048 = True  # False: the move that first makes 2048 adds no new tile
    has_truth = True  # False: no board can be read (board() raises, history() is empty; target_screen.py)

    def __init__(self, display: str, seed: int | None = 1, workdir: str | Path | None = None) -> None:
        self.display = display
        self.seed = seed
        self._own_workdir = workdir is None
        self.workdir = Path(tempfile.mkdtemp(prefix=f"target-{self.name}-")) if workdir is None else Path(workdir)
        self.truth_log = self.workdir / "truth.jsonl"
        self.procs: list[subprocess.Popen] = []
        self._window: int | None = None
        self._screen: Any = None  # an mss grabber on the display, opened by the first grab

    # -- to be provided by each target
    def _launch(self) -> None:
        raise NotImplementedError

    def _window_pid(self) -> int:
        """The pid whose windows are the game's (xdotool search --pid)."""
        return self.procs[-1].pid

    # -- common
    @property
    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(DISPLAY=self.display, TARGET_TRUTH_LOG=str(self.truth_log),
                   TARGET_SEED="" if self.seed is None else str(self.seed))
        env.pop("WAYLAND_DISPLAY", None)
        return env

    def _spawn(self, args: list[str], log_name: str, **kw: Any) -> subprocess.Popen:
        log = open(self.workdir / log_name, "wb")
        try:
            proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=kw.pop("stdout", log), stderr=log,
                                    env=kw.pop("env", self.env), start_new_session=True, **kw)
        finally:
            log.close()
        self.procs.append(proc)
        return proc

    def start(self, timeout_s: float = 20.0) -> "Target":
        """Start the program; returns once its first board is reported (when it has truth) and its
        window is shown."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.truth_log.write_text("")
        try:
            self._launch()
            deadline = time.monotonic() + timeout_s
            if self.has_truth:
                self.wait_for("reported no board", lambda: bool(self.history()), timeout_s)
            self._window = self._find_window(deadline)
            self._begin(timeout_s)
        except BaseException:
            self.stop()
            raise
        return self

    def _begin(self, timeout_s: float) -> None:
        """What start() does once the window is shown, before the program takes moves (a key past an
        intro screen, a wait for the window to stand still); by default nothing."""

    def wait_for(self, what: str, test: Callable[[], bool], timeout_s: float = 5.0) -> None:
        """Wait until `test()` holds; TargetError saying `what` (with the logs) after `timeout_s`, or
        as soon as a process of the target has exited."""
        deadline = time.monotonic() + timeout_s
        while not test():
            self._check_alive()
            if time.monotonic() > deadline:
                raise TargetError(f"{self.name}: {what} within {timeout_s:g} s{self._logs()}")
            time.sleep(0.02)

    def _check_alive(self) -> None:
        for proc in self.procs:
            if proc.poll() is not None:
                raise TargetError(f"{self.name}: {proc.args[0]} exited with {proc.returncode}{self._logs()}")

    def _logs(self) -> str:
        parts = []
        for path in sorted(self.workdir.glob("*.log")):
            text = path.read_text(errors="replace").strip()
            if text:
                parts.append(f"\n--- {path.name}:\n{text[-1500:]}")
        return "".join(parts)

    def _xdotool(self, *args: str, check: bool = True) -> str:
        result = subprocess.run([need("xdotool", "xdotool"), *args], env=self.env, capture_output=True,
                                text=True, timeout=10)
        if check and result.returncode != 0:
            raise TargetError(f"xdotool {' '.join(args)} failed: {result.stderr.strip() or result.returncode}")
        return result.stdout

    def _window_query(self) -> list[str]:
        """What `xdotool search` is asked to find the game's windows by: by default its process."""
        return ["--pid", str(self._window_pid())]

    def _visible_windows(self) -> list[int]:
        out = self._xdotool("search", "--onlyvisible", *self._window_query(), check=False)
        return [int(w) for w in out.split()]

    def _find_window(self, deadline: float) -> int:
        while True:
            wids = self._visible_windows()
            if wids:
                # the largest visible window is the game (Chromium also maps small helper windows)
                return max(wids, key=lambda w: self._geometry(w)[2] * self._geometry(w)[3])
            self._check_alive()
            if time.monotonic() > deadline:
                raise TargetError(f"{self.name}: no visible window ({' '.join(self._window_query())}){self._logs()}")
            time.sleep(0.1)

    def _geometry(self, wid: int) -> tuple[int, int, int, int]:
        values = {}
        for line in self._xdotool("getwindowgeometry", "--shell", str(wid)).splitlines():
            key, _, value = line.partition("=")
            values[key] = int(value) if value.lstrip("-").isdigit() else value
        return values["X"], values["Y"], values["WIDTH"], values["HEIGHT"]

    def window_id(self) -> int:
        if self._window is None:
            raise TargetError(f"{self.name} is not started")
        return self._window

    def window_rect(self) -> tuple[int, int, int, int]:
        """The game window's client area on the screen: x, y, width, height."""
        return self._geometry(self.window_id())

    def screenshot(self) -> Any:
        """The whole window now as an RGB picture (PIL.Image), cropped to its client area."""
        from PIL import Image

        shot = self._grab(None)
        return Image.frombytes("RGB", shot.size, shot.rgb)

    def _grab(self, part: tuple[int, int, int, int] | None) -> Any:
        """An mss grab of the window, or of `part` of it (x, y, w, h inside the window)."""
        if self._screen is None:
            import mss

            self._screen = mss.MSS(display=self.display)
        x, y, w, h = self.window_rect()
        if part is not None:
            x, y, w, h = x + part[0], y + part[1], part[2], part[3]
        return self._screen.grab({"left": x, "top": y, "width": w, "height": h})

    def focus(self) -> None:
        """Give the game's window the keyboard focus (there is no window manager on Xvfb)."""
        self._xdotool("windowfocus", "--sync", str(self.window_id()))

    def read_log(self) -> list[dict[str, Any]]:
        """Every complete line the launcher has written, board lines in the order the program made
        them (by page load, then seq), then the other lines."""
        try:
            text = self.truth_log.read_text()
        except FileNotFoundError:
            return []
        lines = [json.loads(line) for line in text.splitlines(keepends=True) if line.endswith("\n")]
        boards = sorted((r for r in lines if r.get("kind") == "board"), key=lambda r: (r.get("page", 0), r["seq"]))
        # a report sent over HTTP may land after a later one: keep what has no gap before it
        complete: list[dict[str, Any]] = []
        for record in boards:
            if complete and record.get("page", 0) == complete[-1].get("page", 0) \
                    and record["seq"] != complete[-1]["seq"] + 1:
                break
            complete.append(record)
        return complete + [r for r in lines if r.get("kind") != "board"]

    def history(self) -> list[dict[str, Any]]:
        """The board records of the current game, first board first (one per key the game took)."""
        boards = [r for r in self.read_log() if r.get("kind") == "board"]
        if not boards:
            return []
        last = (boards[-1].get("page", 0), boards[-1]["game"])
        return [r for r in boards if (r.get("page", 0), r["game"]) == last]

    def boards(self) -> list[list[list[int]]]:
        return [r["board"] for r in self.history()]

    def board(self) -> list[list[int]]:
        """The true board now (rows top to bottom, 0 = empty)."""
        history = self.history()
        if not history:
            raise TargetError(f"{self.name} has reported no board yet")
        return history[-1]["board"]

    def ready_count(self) -> int:
        return sum(1 for r in self.read_log() if r.get("kind") == "ready")

    def wait_ready(self, timeout_s: float = 3.0) -> None:
        """Wait until the program can take a key (targets that drop early keys say when)."""

    def key_for(self, move: str) -> str:
        return self.keys[move]

    def press(self, move: str, timeout_s: float = 3.0) -> dict[str, Any] | None:
        """Press the key for `move` with a real X event (XTEST) and return the record it made,
        or None if the game took no key within `timeout_s`."""
        self.wait_ready()
        before = len([r for r in self.read_log() if r.get("kind") == "board"])
        self._xdotool("key", "--clearmodifiers", self.key_for(move))
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            boards = [r for r in self.read_log() if r.get("kind") == "board"]
            if len(boards) > before:
                return boards[before]
            time.sleep(0.01)
        return None

    def stop(self) -> None:
        if self._screen is not None:
            self._screen.close()
            self._screen = None
        for proc in reversed(self.procs):
            end_process(proc)
            if proc.stdout is not None:
                proc.stdout.close()
        self.procs = []
        self._window = None

    def cleanup(self) -> None:
        """Stop and remove the working directory (if this object made it)."""
        self.stop()
        if self._own_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    @property
    def pids(self) -> list[int]:
        return [pid for proc in self.procs for pid in family_pids(proc)]

    def __enter__(self) -> "Target":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.cleanup()
