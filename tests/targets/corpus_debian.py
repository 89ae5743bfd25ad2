"""Debian's three 2048 programs as targets, started unmodified on an X display: `2048` (mevdschee's
2048.c, a terminal game, in a real xterm), `2048-qt` (Qt Quick) and `gnome-2048` (GTK 3 + Clutter).

They are C, C++/QML and Vala programs: no object holds a board the harness could read, so each is a
target_screen.ScreenTarget (`has_truth = False`; `press()` returns once the window stands still).
gnome-2048 alone writes its board to a file, when it quits: `Gnome2048.quit_and_read_saved()`.
Their tiles come from their own random generators (seeded from the clock or not at all): `seed` is
kept for the harness's interface and changes nothing.

    with VirtualDisplay() as xvfb, Gnome2048(xvfb.display, rows=3, cols=3) as game:
        game.focus()
        game.press("left")             # {"kind": "screen", "move": "left", "changed": True, "settle_s": ...}
        saved = game.quit_and_read_saved()   # SavedGame(rows=3, cols=3, board=[[...]], score=...)
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from target_base import Target
from target_processes import TargetError, family_pids, need
from target_screen import ScreenTarget

GAMES_DIR = Path("/usr/games")  # Debian installs games here, often outside root's PATH


def game_path(program: str, package: str) -> str:
    """The installed Debian game `program`, or TargetError naming its package."""
    for candidate in (GAMES_DIR / program, shutil.which(program)):
        if candidate and os.access(candidate, os.X_OK):
            return str(candidate)
    raise TargetError(f"{program} is not installed (Debian: apt-get install {package})")


def private_dirs(workdir: Path) -> dict[str, str]:
    """HOME, the XDG folders and a runtime folder inside `workdir`: nothing the game keeps (best
    score, settings, saved game) reaches the user's own files."""
    dirs = {"HOME": workdir / "home", "XDG_CONFIG_HOME": workdir / "config", "XDG_DATA_HOME": workdir / "data",
            "XDG_CACHE_HOME": workdir / "cache", "XDG_RUNTIME_DIR": workdir / "runtime"}
    for path in dirs.values():
        path.mkdir(parents=True, exist_ok=True)
    dirs["XDG_RUNTIME_DIR"].chmod(0o700)  # GLib and Qt refuse a runtime folder others can read
    return {key: str(path) for key, path in dirs.items()}


class Debian2048(ScreenTarget):
    """Debian `2048` (mevdschee's 2048.c) in a real xterm: coloured 7x3-character blocks, no animation."""

    name = "debian2048"
    # After a move it draws the slid board, sleeps 150 ms (usleep(150000)), then draws it again with
    # the new tile: a still that short is not the end of the move.
    still_s = 0.25

    def __init__(self, display: str, seed: int | None = 1, workdir: str | Path | None = None,
                 font: str = "DejaVu Sans Mono", font_size: int = 16, fg: str = "black", bg: str = "white",
                 position: tuple[int, int] = (0, 0), scheme: str | None = None) -> None:
        super().__init__(display, seed, workdir)
        self.font, self.font_size, self.fg, self.bg, self.position = font, font_size, fg, bg, position
        self.scheme = scheme  # None: its own colours; "blackwhite" or "bluered": its other two schemes

    def _launch(self) -> None:
        xterm = need("xterm", "xterm")
        game = game_path("2048", "2048")
        env = self.env
        env.update(private_dirs(self.workdir), TERM="xterm-256color")
        x, y = self.position
        # 28 columns hold the "2048.c  N pts" line and the four 7-column cells; 17 rows hold the title,
        # the 12 board rows, the key help (overwritten by GAME OVER) and the line after it, so
        # nothing scrolls. -hold keeps the last screen after the game exits at game over.
        self._spawn([xterm, "-hold", "-fa", self.font, "-fs", str(self.font_size), "-fg", self.fg, "-bg", self.bg,
                     "-geometry", f"28x17+{x}+{y}", "-title", "2048", "-e", game, *([self.scheme] if self.scheme else [])],
                    "xterm.log", env=env)


class Qt2048(ScreenTarget):
    """Debian `2048-qt` (Qt Quick, the web game's look), drawn by Qt Quick's software renderer."""

    name = "qt2048"
    # where the board lies in its 550x740 window (x, y, w, h): after a merge the "+N" above the score
    # floats on for 0.35 s more than the tiles move, and the game-over dialog, a window of its own
    # centred on the screen, may overlap the window's right edge; set `watch` to this to see the board only
    board_area = (25, 216, 500, 500)

    def _launch(self) -> None:
        game = game_path("2048-qt", "2048-qt")
        env = self.env
        # its best score and settings go to $HOME/.config/2048-qt/2048-Qt.conf
        env.update(private_dirs(self.workdir), QT_QUICK_BACKEND="software", QT_QPA_PLATFORM="xcb",
                   QT_ACCESSIBILITY="0", NO_AT_BRIDGE="1")
        self._spawn([game], "game.log", env=env)


@dataclass(frozen=True)
class SavedGame:
    """gnome-2048's saved file: the grid size, the board (rows top to bottom, 0 = empty) and the score."""

    rows: int
    cols: int
    board: list[list[int]]
    score: int


def parse_saved(text: str) -> SavedGame:
    """Read gnome-2048's `saved` file: "rows cols", one line of numbers per row, then the score."""
    lines = [line.split() for line in text.splitlines() if line.strip()]
    try:
        rows, cols = (int(v) for v in lines[0])
        board = [[int(v) for v in line] for line in lines[1:1 + rows]]
        score = int(lines[1 + rows][0])
    except (ValueError, IndexError) as exc:
        raise TargetError(f"not a gnome-2048 saved game ({exc}): {text[:200]!r}") from None
    if len(board) != rows or any(len(row) != cols for row in board):
        raise TargetError(f"gnome-2048 saved a board that is not {rows}x{cols}: {board}")
    return SavedGame(rows, cols, board, score)


class Gnome2048(ScreenTarget):
    """Debian `gnome-2048` 3.38 (GTK 3 + Clutter) in a D-Bus session of its own, drawn by cairo.

    `rows` and `cols` (1-9) go to its GSettings (org.gnome.TwentyFortyEight) through GLib's keyfile
    backend in a private config folder, so neither dconf nor the user's settings are touched."""

    name = "gnome2048"
    # A move slides for 130 ms (its animations-speed setting), then the new tile grows and shrinks.
    still_s = 0.06
    # the game view under the header bar in its 610x656 window (its default 600x600 size, any rows and
    # cols); the best-scores dialog it opens at game over is a window of its own
    board_area = (5, 51, 600, 600)

    def __init__(self, display: str, seed: int | None = 1, workdir: str | Path | None = None,
                 rows: int = 4, cols: int = 4) -> None:
        if not (1 <= rows <= 9 and 1 <= cols <= 9):  # its schema's range
            raise ValueError(f"gnome-2048 takes 1 to 9 rows and columns, not {rows}x{cols}")
        super().__init__(display, seed, workdir)
        self.rows, self.cols = rows, cols

    @property
    def saved_path(self) -> Path:
        """Where it writes the game when it quits ($XDG_DATA_HOME/gnome-2048/saved)."""
        return self.workdir / "data" / "gnome-2048" / "saved"

    def _launch(self) -> None:
        game = game_path("gnome-2048", "gnome-2048")
        dbus = need("dbus-run-session", "dbus")
        env = self.env
        env.update(private_dirs(self.workdir), GSETTINGS_BACKEND="keyfile", GSK_RENDERER="cairo",
                   GDK_BACKEND="x11", NO_AT_BRIDGE="1")
        settings = Path(env["XDG_CONFIG_HOME"]) / "glib-2.0" / "settings" / "keyfile"
        settings.parent.mkdir(parents=True, exist_ok=True)
        # the schema's path is /org/gnome/2048/; a fresh data folder holds no saved game to resume
        settings.write_text(f"[org/gnome/2048]\nrows={self.rows}\ncols={self.cols}\n")
        self._spawn([dbus, "--", game], "game.log", env=env)

    def _window_pid(self) -> int:
        # the first process is dbus-run-session: the window belongs to the game under it
        for pid in family_pids(self.procs[-1]):
            try:
                if Path(f"/proc/{pid}/comm").read_text().strip() == "gnome-2048":
                    return pid
            except OSError:
                continue
        return self.procs[-1].pid

    def close_dialogs(self, timeout_s: float = 5.0) -> None:
        """Close its other windows with Escape. At game over it opens a modal "Congratulations!" dialog
        (the score's rank, a name to type), and when that closes, a "High Scores" one: while either is
        up the game window takes no key, not even Ctrl+Q."""
        deadline = time.monotonic() + timeout_s
        seen_none = False
        while time.monotonic() < deadline:
            dialogs = [w for w in self._visible_windows() if w != self.window_id()]
            if dialogs:
                seen_none = False
            elif seen_none:  # none twice in a row, 0.5 s apart: no next dialog on its way
                return
            else:
                seen_none = True
            for wid in dialogs:
                self._xdotool("windowfocus", "--sync", str(wid), check=False)  # it may close meanwhile
                self._xdotool("key", "--clearmodifiers", "Escape")
            time.sleep(0.5)  # the next dialog opens as the first closes
        raise TargetError(f"{self.name}: its dialogs did not close within {timeout_s:g} s")

    def quit_and_read_saved(self, timeout_s: float = 10.0) -> SavedGame:
        """Quit it (Ctrl+Q; it saves the game as it closes), wait until it has exited, and read the file."""
        self.saved_path.unlink(missing_ok=True)
        self.close_dialogs()
        self._xdotool("windowfocus", "--sync", str(self.window_id()))
        self._xdotool("key", "--clearmodifiers", "ctrl+q")
        deadline = time.monotonic() + timeout_s
        while any(proc.poll() is None for proc in self.procs):
            if time.monotonic() > deadline:
                raise TargetError(f"{self.name} did not quit within {timeout_s:g} s of Ctrl+Q{self._logs()}")
            time.sleep(0.05)
        self.stop()
        if not self.saved_path.exists():
            raise TargetError(f"{self.name} quit without writing {self.saved_path}{self._logs()}")
        return parse_saved(self.saved_path.read_text())


TARGETS: dict[str, type[Target]] = {t.name: t for t in (Debian2048, Qt2048, Gnome2048)}
PROGRAMS: dict[str, str] = {
    "debian2048": "Debian 2048 0.20220905.1556-1 (C, mevdschee's 2048.c) in xterm",
    "qt2048": "Debian 2048-qt 0.1.6-2+b2 (Qt Quick, software renderer)",
    "gnome2048": "Debian gnome-2048 3.38.2-3 (GTK 3 + Clutter, cairo)",
}
