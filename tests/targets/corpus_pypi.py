"""Six 2048 programs from PyPI as harness targets (CORPUS.md rows 4-9): five terminal games, each in a real
xterm, and one Tk window. Each runs unmodified under a launcher (launch_<name>.py) in a venv of their
own (corpus_venv.py) and reports its true board after every key, read from its own objects.

Their rules differ from the classic game in places; `rule_variant` says how (truth_check.Rules), and
tests/targets/README.md lists each program's look, keys and quirks. Does not import screenbot.

    with VirtualDisplay() as xvfb, TARGETS["tui2048"](xvfb.display, seed=3) as game:
        game.focus()
        game.press("left")
"""

from __future__ import annotations

from pathlib import Path

from corpus_venv import game_env, venv_python
from target_base import Target
from target_processes import need

HERE = Path(__file__).resolve().parent


class CorpusTarget(Target):
    """A PyPI program started by its launcher with the corpus venv's Python."""

    launcher = ""  # launch_<name>.py

    def _game_command(self, env: dict[str, str]) -> list[str]:
        home = self.workdir / "home"  # anything a game keeps in ~ goes here
        home.mkdir(exist_ok=True)
        env.update(game_env(env), HOME=str(home), TARGET_DATA_DIR=str(self.workdir / "data"),
                   TARGET_CRASH_LOG=str(self.workdir / "crash.log"))
        return [str(venv_python()), str(HERE / self.launcher)]


class XtermTarget(CorpusTarget):
    """A terminal game in a real xterm (no -hold: if the game ends, the window goes)."""

    columns, rows, font_size = 80, 24, 14
    fg, bg = "black", "white"

    def __init__(self, display: str, seed: int | None = 1, workdir: str | Path | None = None,
                 font: str = "DejaVu Sans Mono", position: tuple[int, int] = (0, 0)) -> None:
        super().__init__(display, seed, workdir)
        self.font, self.position = font, position

    def _launch(self) -> None:
        xterm = need("xterm", "xterm")
        env = self.env
        command = self._game_command(env)
        x, y = self.position
        # xterm sets TERM for its child itself: -tn gives the games their 256 colours
        self._spawn([xterm, "-tn", "xterm-256color", "-fa", self.font, "-fs", str(self.font_size), "-fg", self.fg, "-bg", self.bg,
                     "-geometry", f"{self.columns}x{self.rows}+{x}+{y}", "-title", self.name, "-e", *command],
                    "xterm.log", env=env)


class Tui2048(XtermTarget):
    """PyPI `tui-2048` 1.0.0 (curses, 256 colours): classic palette in thin-line boxes, SCORE/BEST above."""

    name = "tui2048"
    launcher = "launch_tui2048.py"
    columns, rows, font_size = 44, 28, 14
    fg, bg = "black", "white"


class Curses2048(XtermTarget):
    """PyPI `curses-2048` 1.4 (curses, 256 colours): big block digits on a framed lattice."""

    name = "curses2048"
    launcher = "launch_curses2048.py"
    columns, rows, font_size = 80, 33, 13  # it needs 80x24; 33 rows give 7-row tiles and the whole frame
    fg, bg = "grey90", "black"
    spawns_on_first_2048 = False  # check_win returns "You won!" before it adds the tile
    rule_variant = {"merges": "touching_pairs_first", "score": "tile_sum"}

    def _begin(self, timeout_s: float) -> None:
        # its first screen is a "HOW TO PLAY ... Press any key to start" box over the board
        self.focus()
        self._xdotool("key", "--clearmodifiers", "Return")
        self.wait_for("the intro box took no key", lambda: self.ready_count() >= 2)


class Py2048Cli(XtermTarget):
    """PyPI `py2048-cli-game` 0.1.0 (print and input()): an ASCII grid; a move is a letter, then Return."""

    name = "py2048cli"
    launcher = "launch_py2048cli.py"
    columns, rows, font_size = 40, 33, 12  # 29 lines a screen, 32 once it says "You reached 2048"
    fg, bg = "#586e75", "#fdf6e3"  # a light theme, not pure white
    keys = {"up": "w Return", "down": "s Return", "left": "a Return", "right": "d Return"}

    def _xdotool(self, *args: str, check: bool = True) -> str:
        if args and args[0] == "key":  # a move is two keys (keys: "w Return"): split into xdotool's arguments
            args = tuple(part for arg in args for part in arg.split(" "))
        return super()._xdotool(*args, check=check)


class PyCui2048(XtermTarget):
    """PyPI `py-cui-2048` 0.0.1 on py-cui 0.0.3: one ASCII box per cell, `0` in empty ones, a menu."""

    name = "pycui2048"
    launcher = "launch_pycui2048.py"
    columns, rows, font_size = 90, 26, 14
    fg, bg = "white", "black"
    keys = {"up": "w", "down": "s", "left": "a", "right": "d"}  # arrows move in its menu
    # a 4 half the time; a first board of two tiles that may land on one cell; a merged tile merges on;
    # a move that slides nothing still adds a tile when a line along it is empty
    rule_variant = {"merges": "merged_tile_goes_on", "first_tiles": (1, 2), "noop_spawn": "empty_line"}

    def _begin(self, timeout_s: float) -> None:
        # Return on the menu's "New Game" (selected at start): a new game, as a user begins
        self.focus()
        self._xdotool("key", "--clearmodifiers", "Return")
        self.wait_for("Return on New Game made no new game", lambda: self.history()[0]["game"] >= 2)


class Tuinty2048(XtermTarget):
    """PyPI `tuinty-forpy-eight` 1.3.3 (Textual): big purple-tinted cells with thin line-art digits."""

    name = "tuinty2048"
    launcher = "launch_tuinty2048.py"
    columns, rows, font_size = 80, 30, 14
    fg, bg = "grey85", "grey10"
    # a game starts with one 2; merges repeat while two neighbours are equal
    rule_variant = {"merges": "until_none_equal", "first_tiles": (1,)}


class Vis2048(CorpusTarget):
    """PyPI `vis2048` 1.0.3 (Tk): one of its GameVis boards in a window of its own (launch_vis2048.py)."""

    name = "vis2048"
    launcher = "launch_vis2048.py"
    # only 2s, and a key that moves nothing still adds one (the demo's key handler)
    rule_variant = {"spawn_values": (2,), "noop_spawn": "always"}

    def _launch(self) -> None:
        env = self.env
        self._spawn(self._game_command(env), "game.log", env=env)

    def _window_query(self) -> list[str]:
        return ["--name", "^vis2048$"]  # Tk sets no _NET_WM_PID: find the window by its title


TARGETS: dict[str, type[Target]] = {t.name: t for t in (Tui2048, Curses2048, Py2048Cli, PyCui2048, Tuinty2048,
                                                        Vis2048)}
PROGRAMS: dict[str, str] = {
    "tui2048": "PyPI tui-2048 1.0.0 (curses) in xterm",
    "curses2048": "PyPI curses-2048 1.4 (curses) in xterm",
    "py2048cli": "PyPI py2048-cli-game 0.1.0 (print/input) in xterm",
    "pycui2048": "PyPI py-cui-2048 0.0.1 (py-cui 0.0.3) in xterm",
    "tuinty2048": "PyPI tuinty-forpy-eight 1.3.3 (Textual 8.2.8) in xterm",
    "vis2048": "PyPI vis2048 1.0.3 (Tk)",
}

