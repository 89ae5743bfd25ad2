"""Real 2048 programs from the package registries, started unmodified on an X display, that report
their true board after every move.

Each target is started through a small launcher (``launch_*.py`` beside this file) that imports
the installed game, wraps a few of its functions and appends one JSON line per event to the file
named by ``TARGET_TRUTH_LOG``::

    {"kind": "board", "game": 1, "seq": 0, "move": null, "changed": true, "board": [[...]], "score": 0}

``move`` is null for the first board of a game, else up/down/left/right; ``changed`` is false when
the key did nothing (an illegal move, or an overlay in the way). ``seq`` counts the board lines
of the program run. A few targets also write ``{"kind": "ready"}`` when they wait for a key.

This module and the two it builds on (target_base.py: what every target does; target_processes.py:
the display and the processes) do not import screenbot: they are the independent witness the bot
is checked against.

    with VirtualDisplay() as xvfb, Term2048(xvfb.display, seed=3) as game:
        game.press("left")
        print(game.board(), game.window_rect())
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

from target_base import MOVES, Target  # noqa: F401 - MOVES: the tests and scripts import it from here
from target_processes import TargetError, VirtualDisplay, need  # noqa: F401 - VirtualDisplay: likewise

HERE = Path(__file__).resolve().parent


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
    # --save-exact records each package in base/package.json: npm removes from node_modules what
    # that file does not list, so an install must not drop the packages installed before it
    result = subprocess.run([npm, "install", "--prefix", str(base), "--save-exact", "--no-audit", "--no-fund",
                             "--ignore-scripts", f"{name}@{version}"], capture_output=True, text=True, timeout=300)
    if result.returncode != 0 or not manifest.exists():
        raise TargetError(f"npm install {name}@{version} failed: {result.stderr.strip()[-800:]}")
    return pkg


BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


class WebComponent2048(Target):
    """npm `2048-webcomponent` (a Lit custom element) served on 127.0.0.1, shown in Chromium --app.

    A subclass names another npm web game: its package and the page server that shows it."""

    name = "webcomponent2048"
    package = NPM_PACKAGE  # npm name, version (pinned)
    server = "launch_webcomponent2048.py"  # beside this file: serves the page and takes its reports
    window_size = (700, 600)
    spawns_on_first_2048 = False  # Engine.move returns before spawning when 2048 first appears

    def __init__(self, display: str, seed: int | None = 1, workdir: str | Path | None = None,
                 window_pos: tuple[int, int] = (0, 0), window_size: tuple[int, int] | None = None,
                 zoom: float = 1.0) -> None:
        super().__init__(display, seed, workdir)
        self.window_pos, self.window_size, self.zoom = window_pos, window_size or self.window_size, zoom
        self.url = ""

    def _browser(self) -> str:
        for name in BROWSER_NAMES:
            path = shutil.which(name)
            if path:
                return path
        raise TargetError("Chromium is not installed (Debian: apt-get install chromium)")

    def _launch(self) -> None:
        pkg = npm_package_dir(*self.package)
        browser = self._browser()
        env = self.env
        env["TARGET_PKG_DIR"] = str(pkg)
        server = self._spawn([sys.executable, str(HERE / self.server)], "server.log", env=env, stdout=subprocess.PIPE)
        assert server.stdout is not None
        ready, _, _ = select.select([server.stdout], [], [], 10)
        line = server.stdout.readline().decode() if ready else ""
        if not line.startswith("PORT "):
            raise TargetError(f"the page server did not start{self._logs()}")
        seed = "" if self.seed is None else f"?seed={self.seed}"
        self.url = f"http://127.0.0.1:{int(line.split()[1])}/{seed}"
        # an --app window with a fresh profile (so no saved game)
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
