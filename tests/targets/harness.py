"""Real 2048 programs from the package registries, started unmodified on an X display, that report
their true board after every move.

Each target is started through a small launcher (``launch_*.py`` beside this file) that imports
the installed game, wraps a few of its functions and appends one JSON line per event to the file
named by ``TARGET_TRUTH_LOG``::

    {"kind": "board", "game": 1, "seq": 0, "move": null, "changed": true, "board": [[...]], "score": 0}

``move`` is null for the first board of a game, else up/down/left/right; ``changed`` is false when
the key did nothing (an illegal move, or an overlay in the way). ``seq`` counts the board lines
of the program run. A few targets also write ``{"kind": "ready"}`` when they wait for a key.

This module does not import screenbot: it is the independent witness the bot is checked against.

    with VirtualDisplay() as xvfb, Term2048(xvfb.display, seed=3) as game:
        game.press("left")
        print(game.board(), game.window_rect())
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
MOVES = ("up", "down", "left", "right")
ARROWS = {"up": "Up", "down": "Down", "left": "Left", "right": "Right"}


class TargetError(RuntimeError):
    """A target (or the display under it) could not start, or stopped answering."""


def need(program: str, package: str) -> str:
    """The path of `program`, or TargetError naming the package that provides it."""
    path = shutil.which(program)
    if path is None:
        raise TargetError(f"{program} is not installed (Debian: apt-get install {package})")
    return path


# ---------------------------------------------------------------- processes


def _stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read().decode(errors="replace")
    except OSError:
        return None
    return text[text.rfind(")") + 2:].split()  # [0] state, [1] ppid, [2] pgrp, [3] session


def _family(root: int) -> list[int]:
    """Live processes in `root`'s session or descended from it (a terminal's child has its own
    session, so both are needed)."""
    table = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields and fields[0] != "Z":
                table[int(entry)] = (int(fields[1]), int(fields[3]))
    found = {pid for pid, (_, sid) in table.items() if sid == root}
    if root in table:
        found.add(root)
    grew = True
    while grew:
        grew = False
        for pid, (ppid, _) in table.items():
            if ppid in found and pid not in found:
                found.add(pid)
                grew = True
    return sorted(found)


def end_process(proc: subprocess.Popen | None, grace_s: float = 3.0) -> None:
    """End a process started with start_new_session=True, its session and all its descendants."""
    if proc is None:
        return
    for sig in (signal.SIGTERM, signal.SIGKILL):
        pids = _family(proc.pid)
        if not pids and proc.poll() is not None:
            break
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + grace_s
        while time.monotonic() < deadline:
            proc.poll()
            if not any(_stat(pid) and _stat(pid)[0] != "Z" for pid in pids):
                break
            time.sleep(0.02)
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL above
        pass


def family_pids(proc: subprocess.Popen | None) -> list[int]:
    return [] if proc is None else _family(proc.pid)


# ---------------------------------------------------------------- display


class VirtualDisplay:
    """An Xvfb server on a free display number (reported by Xvfb itself through -displayfd)."""

    def __init__(self, size: tuple[int, int] = (1280, 800)) -> None:
        self.size = size
        self.display = ""
        self.proc: subprocess.Popen | None = None

    def start(self, timeout_s: float = 10.0) -> "VirtualDisplay":
        xvfb = need("Xvfb", "xvfb")
        read_fd, write_fd = os.pipe()
        try:
            w, h = self.size
            self.proc = subprocess.Popen(
                [xvfb, "-displayfd", str(write_fd), "-screen", "0", f"{w}x{h}x24", "-nolisten", "tcp"],
                pass_fds=(write_fd,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, start_new_session=True)
        finally:
            os.close(write_fd)
        number = b""
        deadline = time.monotonic() + timeout_s
        try:
            while not number.endswith(b"\n"):
                ready, _, _ = select.select([read_fd], [], [], max(deadline - time.monotonic(), 0))
                chunk = os.read(read_fd, 16) if ready else b""
                if not chunk:
                    self.stop()
                    raise TargetError(f"Xvfb did not report a display number within {timeout_s:g} s")
                number += chunk
        finally:
            os.close(read_fd)
        self.display = f":{int(number)}"
        return self

    def stop(self) -> None:
        end_process(self.proc)
        self.proc = None

    @property
    def pids(self) -> list[int]:
        return family_pids(self.proc)

    def __enter__(self) -> "VirtualDisplay":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


# ---------------------------------------------------------------- targets


class Target:
    """One 2048 program on `display`. Subclasses say how to start it and which keys it takes."""

    name = "target"
    keys: dict[str, str] = ARROWS  # move -> xdotool key name
    spawns_on_first_2048 = True  # False: the move that first makes 2048 adds no new tile

    def __init__(self, display: str, seed: int | None = 1, workdir: str | Path | None = None) -> None:
        self.display = display
        self.seed = seed
        self._own_workdir = workdir is None
        self.workdir = Path(tempfile.mkdtemp(prefix=f"target-{self.name}-")) if workdir is None else Path(workdir)
        self.truth_log = self.workdir / "truth.jsonl"
        self.procs: list[subprocess.Popen] = []
        self._window: int | None = None

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
        """Start the program; returns once its first board is reported and its window is shown."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.truth_log.write_text("")
        try:
            self._launch()
            deadline = time.monotonic() + timeout_s
            while not self.history():
                self._check_alive()
                if time.monotonic() > deadline:
                    raise TargetError(f"{self.name} reported no board within {timeout_s:g} s{self._logs()}")
                time.sleep(0.05)
            self._window = self._find_window(deadline)
        except BaseException:
            self.stop()
            raise
        return self

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

    def _find_window(self, deadline: float) -> int:
        while True:
            out = self._xdotool("search", "--onlyvisible", "--pid", str(self._window_pid()), check=False)
            wids = [int(w) for w in out.split()]
            if wids:
                # the largest visible window is the game (Chromium also maps small helper windows)
                return max(wids, key=lambda w: self._geometry(w)[2] * self._geometry(w)[3])
            self._check_alive()
            if time.monotonic() > deadline:
                raise TargetError(f"{self.name}: no visible window for pid {self._window_pid()}{self._logs()}")
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


class Quantum2048(Target):
    """PyPI `2048` (quantum5): a pygame window, 480x600, the board filling its lower 480x480."""

    name = "quantum2048"

    def _launch(self) -> None:
        env = self.env
        env.update(TARGET_DATA_DIR=str(self.workdir / "data"), SDL_AUDIODRIVER="dummy",
                   PYGAME_HIDE_SUPPORT_PROMPT="1")
        self._spawn([sys.executable, str(HERE / "launch_quantum2048.py")], "game.log", env=env)

    def focus(self) -> None:
        super().focus()
        time.sleep(0.05)  # SDL takes the FocusIn event on its next event poll


class Term2048(Target):
    """PyPI `term2048` in a real xterm (arrow keys; it also takes h j k l)."""

    name = "term2048"

    def __init__(self, display: str, seed: int | None = 1, workdir: str | Path | None = None,
                 font: str = "DejaVu Sans Mono", font_size: int = 16, columns: int = 56, rows: int = 14,
                 fg: str = "grey90", bg: str = "black", position: tuple[int, int] = (0, 0)) -> None:
        super().__init__(display, seed, workdir)
        self.font, self.font_size, self.columns, self.rows = font, font_size, columns, rows
        self.fg, self.bg, self.position = fg, bg, position

    def _launch(self) -> None:
        xterm = need("xterm", "xterm")
        home = self.workdir / "home"  # the best-score and saved-game files go here, not to ~
        home.mkdir(exist_ok=True)
        env = self.env
        env.update(HOME=str(home), TERM="xterm")
        x, y = self.position
        # -hold keeps the last screen (won / game over) shown after term2048 exits
        self._spawn([xterm, "-hold", "-fa", self.font, "-fs", str(self.font_size), "-fg", self.fg, "-bg", self.bg,
                     "-geometry", f"{self.columns}x{self.rows}+{x}+{y}", "-title", "term2048",
                     "-e", sys.executable, str(HERE / "launch_term2048.py")], "xterm.log", env=env)

    def wait_ready(self, timeout_s: float = 3.0) -> None:
        # term2048 flushes the terminal's input each time it starts reading a key, so a key sent
        # before it is back in its read loop is lost: wait until it has asked for the next key.
        wanted = len([r for r in self.read_log() if r.get("kind") == "board"])
        deadline = time.monotonic() + timeout_s
        while self.ready_count() < wanted and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.03)  # from "ready" to the flush and the blocking read: a few system calls


NPM_PACKAGE = ("2048-webcomponent", "1.1.0")


def npm_package_dir(name: str = NPM_PACKAGE[0], version: str = NPM_PACKAGE[1]) -> Path:
    """The installed npm package (installed with npm into a cache directory on first use)."""
    root = os.environ.get("SCREENBOT_TARGETS_NPM")
    base = Path(root) if root else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "screenbot-targets" / "npm"
    pkg = base / "node_modules" / name
    manifest = pkg / "package.json"
    if manifest.exists() and json.loads(manifest.read_text()).get("version") == version:
        return pkg
    npm = need("npm", "npm")
    base.mkdir(parents=True, exist_ok=True)
    result = subprocess.run([npm, "install", "--prefix", str(base), "--no-save", "--no-audit", "--no-fund",
                             "--ignore-scripts", f"{name}@{version}"], capture_output=True, text=True, timeout=300)
    if result.returncode != 0 or not manifest.exists():
        raise TargetError(f"npm install {name}@{version} failed: {result.stderr.strip()[-800:]}")
    return pkg


BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


class WebComponent2048(Target):
    """npm `2048-webcomponent` (a Lit custom element) served on 127.0.0.1, shown in Chromium --app."""

    name = "webcomponent2048"
    spawns_on_first_2048 = False  # Engine.move returns before spawning when 2048 first appears

    def __init__(self, display: str, seed: int | None = 1, workdir: str | Path | None = None,
                 window_pos: tuple[int, int] = (0, 0), window_size: tuple[int, int] = (700, 600),
                 zoom: float = 1.0) -> None:
        super().__init__(display, seed, workdir)
        self.window_pos, self.window_size, self.zoom = window_pos, window_size, zoom
        self.url = ""

    def _browser(self) -> str:
        for name in BROWSER_NAMES:
            path = shutil.which(name)
            if path:
                return path
        raise TargetError("Chromium is not installed (Debian: apt-get install chromium)")

    def _launch(self) -> None:
        pkg = npm_package_dir()
        browser = self._browser()
        env = self.env
        env["TARGET_PKG_DIR"] = str(pkg)
        server = self._spawn([sys.executable, str(HERE / "launch_webcomponent2048.py")], "server.log",
                             env=env, stdout=subprocess.PIPE)
        assert server.stdout is not None
        ready, _, _ = select.select([server.stdout], [], [], 10)
        line = server.stdout.readline().decode() if ready else ""
        if not line.startswith("PORT "):
            raise TargetError(f"the page server did not start{self._logs()}")
        seed = "" if self.seed is None else f"?seed={self.seed}"
        self.url = f"http://127.0.0.1:{int(line.split()[1])}/{seed}"
        profile = self.workdir / "profile"
        args = [browser, f"--user-data-dir={profile}", f"--window-position={self.window_pos[0]},{self.window_pos[1]}",
                f"--window-size={self.window_size[0]},{self.window_size[1]}", "--no-first-run",
                "--no-default-browser-check", "--disable-gpu", "--disable-extensions", "--disable-sync",
                "--disable-background-networking", "--disable-component-update", "--disable-default-apps",
                "--disable-features=Translate,MediaRouter,OptimizationHints", "--password-store=basic",
                "--noerrdialogs", "--hide-crash-restore-bubble", f"--force-device-scale-factor={self.zoom:g}"]
        if os.geteuid() == 0:
            args += ["--no-sandbox", "--test-type"]
        args.append(f"--app={self.url}")
        self._spawn(args, "browser.log")

    def focus(self) -> None:
        super().focus()
        # Chromium takes keys once its page has been clicked; click the page's empty corner
        # (a press and move on the board itself would be a swipe)
        x, y, w, h = self.window_rect()
        self._xdotool("mousemove", str(x + w - 5), str(y + h - 5), "click", "1")
        time.sleep(0.05)


TARGETS: dict[str, type[Target]] = {t.name: t for t in (Quantum2048, Term2048, WebComponent2048)}
