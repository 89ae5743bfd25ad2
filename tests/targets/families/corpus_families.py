"""Small 2048 programs written here, one per family of look of programs we cannot run (README.md beside
this file): Tk windows and terminal games in xterm. Each is a
real game (engine.py: classic rules unless its Target says otherwise, seeded from $TARGET_SEED) that
reports its true board after every key through truthlog, like the harness's other targets.

    sys.path: tests/targets
    from families.corpus_families import TARGETS
    with VirtualDisplay() as xvfb, TARGETS["tk_wide"](xvfb.display, seed=3) as game:
        game.focus()
        game.press("left")

Does not import screenbot.
"""

from __future__ import annotations

import sys
from pathlib import Path

from target_base import Target
from target_processes import need

HERE = Path(__file__).resolve().parent


class FamilyTarget(Target):
    """A family program started with this Python (it needs the standard library only)."""

    program = ""  # <name>.py beside this file
    big_start = False  # True: the first board holds 2048 1024 4096 8192 on its top row (FAMILY_BIG_START)

    def __init__(self, display: str, seed: int | None = 1, workdir: str | Path | None = None,
                 big_start: bool | None = None, shape: tuple[int, int] = (4, 4)) -> None:
        super().__init__(display, seed, workdir)
        if big_start is not None:
            self.big_start = big_start
        self.shape = shape  # the board's rows and columns (engine.py's $FAMILY_SIZE)

    @property
    def env(self) -> dict[str, str]:
        env = super().env
        env.update(FAMILY_BIG_START="1" if self.big_start else "0", TARGET_CRASH_LOG=str(self.workdir / "crash.log"),
                   FAMILY_SIZE=f"{self.shape[0]}x{self.shape[1]}")
        return env

    def _command(self) -> list[str]:
        return [sys.executable, str(HERE / self.program)]


class TkTarget(FamilyTarget):
    """A Tk window at 0,0, titled by the target's name (Tk sets no _NET_WM_PID)."""

    def _launch(self) -> None:
        self._spawn(self._command(), "game.log")

    def _window_query(self) -> list[str]:
        return ["--name", f"^{self.name}$"]


class XtermFamilyTarget(FamilyTarget):
    """A terminal program in a real xterm at 0,0 (256 colours)."""

    columns, rows, font_size = 80, 24, 14
    fg, bg = "grey90", "black"
    options: dict[str, str] = {}  # the program's own settings ($FAMILY_... variables)

    @property
    def env(self) -> dict[str, str]:
        env = super().env
        env.update(LC_ALL="C.UTF-8")  # xterm and curses in UTF-8 (the `‖` of ascii_double)
        env.update(self.options)
        return env

    def _launch(self) -> None:
        xterm = need("xterm", "xterm")
        # a bigger board than 4x4 in a terminal grown by its share of the 4x4 board's part
        columns = self.columns * max(4, self.shape[1]) // 4
        rows = self.rows * max(4, self.shape[0]) // 4
        self._spawn([xterm, "-tn", "xterm-256color", "-fa", "DejaVu Sans Mono", "-fs", str(self.font_size),
                     "-fg", self.fg, "-bg", self.bg, "-geometry", f"{columns}x{rows}+0+0",
                     "-title", self.name, "-e", *self._command()], "xterm.log")


class TkWide(TkTarget):
    """Tk: spawns 2 ... 512; numbers from 1024 up wider than their cell. Starts with big tiles."""

    name = "tk_wide"
    program = "tk_wide.py"
    big_start = True
    rule_variant = {"spawn_values": (2, 4, 8, 16, 32, 64, 128, 256, 512)}


class TkWideSmall(TkWide):
    """tk_wide from a first board of two small tiles: its 1024s come from merges, with a profile learned
    on a board that held none."""

    name = "tk_wide_small"
    big_start = False

    def _window_query(self) -> list[str]:
        return ["--name", "^tk_wide$"]


class TkOverhang(TkTarget):
    """Tk: a framed board whose right column of tiles overhangs the frame by 25 px; help text over the
    bottom row."""

    name = "tk_overhang"
    program = "tk_overhang.py"


class CursesBoxes(XtermFamilyTarget):
    """curses: white box lines, black empty cells, tiles as coloured blocks with a black margin, black digits."""

    name = "curses_boxes"
    program = "curses_boxes.py"
    columns, rows = 44, 28


class AsciiDouble(XtermFamilyTarget):
    """curses: a grid of `‖` and `=`, numbers coloured by value from 16 colours."""

    name = "ascii_double"
    program = "ascii_double.py"
    columns, rows = 40, 20


class PlainBoxes(XtermFamilyTarget):
    """print and ANSI clear: a line box around each cell, no colour."""

    name = "plain_boxes"
    program = "plain_boxes.py"
    columns, rows = 40, 25
    fg, bg = "black", "white"


class TkNoFrame(TkTarget):
    """Tk: no frame (the window is the board's colour), cells 84 px apart across and 80 down, picture tiles
    with a small number in a corner."""

    name = "tk_noframe"
    program = "tk_noframe.py"


class TkPainted(TkTarget):
    """Tk: the board one painted rectangle, no empty cells drawn, tiles in the classic colours on it."""

    name = "tk_painted"
    program = "tk_painted.py"


class Printed(XtermFamilyTarget):
    """print and ANSI clear: a bare matrix of numbers, `0` for an empty cell, right-aligned, arrow keys."""

    name = "printed_zeros"
    program = "printed.py"
    columns, rows = 40, 16
    fg, bg = "black", "white"
    options = {"FAMILY_EMPTY": "0", "FAMILY_ALIGN": "right", "FAMILY_KEYS": "arrows"}


class PrintedWasd(Printed):
    """The bare matrix with `.` for an empty cell, centred, moved by w a s d only (letters in cbreak mode)."""

    name = "printed_wasd"
    fg, bg = "grey85", "black"
    options = {"FAMILY_EMPTY": ".", "FAMILY_ALIGN": "center", "FAMILY_KEYS": "wasd"}
    keys = {"up": "w", "down": "s", "left": "a", "right": "d"}


class PrintedReturn(Printed):
    """The bare matrix with `0` for an empty cell, left-aligned, moved by a letter then Return (`input()`)."""

    name = "printed_return"
    options = {"FAMILY_EMPTY": "0", "FAMILY_ALIGN": "left", "FAMILY_KEYS": "wasd_return"}
    keys = {"up": "w Return", "down": "s Return", "left": "a Return", "right": "d Return"}

    def _xdotool(self, *args: str, check: bool = True) -> str:
        if args and args[0] == "key":  # a move is two keys ("w Return"): split into xdotool's arguments
            args = tuple(part for arg in args for part in arg.split(" "))
        return super()._xdotool(*args, check=check)


class PrintedScroll(PrintedReturn):
    """The bare matrix, a letter then Return, and no clear: each board printed under the last, so the board
    moves down the terminal until it fills, then the terminal scrolls it into one place."""

    name = "printed_scroll"
    rows = 24
    options = {"FAMILY_EMPTY": "0", "FAMILY_ALIGN": "left", "FAMILY_KEYS": "wasd_return", "FAMILY_CLEAR": "0"}


class Blocks24(XtermFamilyTarget):
    """print and ANSI clear: cells filled edge to edge in 24-bit colour, nothing on an empty cell."""

    name = "blocks24"
    program = "blocks24.py"
    columns, rows = 40, 20


class Blocks24Small(Blocks24):
    """blocks24 with cells of 6 columns by 2 lines (the number on the lower line) in a 12 px font."""

    name = "blocks24_small"
    font_size = 12
    options = {"FAMILY_CELL": "6x2"}


class FramedBlocks(XtermFamilyTarget):
    """curses: a frame around the board and nothing else; tiles as coloured blocks, empty cells the terminal's
    background."""

    name = "framed_blocks"
    program = "framed_tiles.py"
    columns, rows = 40, 22
    options = {"FAMILY_TILE": "blocks"}


class FramedBoxes(FramedBlocks):
    """framed_blocks with each tile a box of line-drawing characters in its value's colour, no fill."""

    name = "framed_boxes"
    options = {"FAMILY_TILE": "boxes"}


class PaintedBlocks(FramedBlocks):
    """framed_blocks with no frame lines: the board's rectangle painted one grey, empty cells and all."""

    name = "painted_blocks"
    options = {"FAMILY_TILE": "painted"}


TARGETS: dict[str, type[Target]] = {t.name: t for t in (TkWide, TkWideSmall, TkOverhang, CursesBoxes, AsciiDouble,
                                                        PlainBoxes, TkNoFrame, Printed, PrintedWasd, PrintedReturn,
                                                        PrintedScroll, Blocks24, Blocks24Small, FramedBlocks, FramedBoxes,
                                                        PaintedBlocks, TkPainted)}
PROGRAMS: dict[str, str] = {
    "tk_wide": "families/tk_wide.py (Tk, written here)",
    "tk_wide_small": "families/tk_wide.py from a small first board (Tk, written here)",
    "tk_overhang": "families/tk_overhang.py (Tk, written here)",
    "curses_boxes": "families/curses_boxes.py (curses in xterm, written here)",
    "ascii_double": "families/ascii_double.py (curses in xterm, written here)",
    "plain_boxes": "families/plain_boxes.py (print in xterm, written here)",
    "tk_noframe": "families/tk_noframe.py (Tk, written here)",
    "printed_zeros": "families/printed.py, 0 for empty, arrows (print in xterm, written here)",
    "printed_wasd": "families/printed.py, . for empty, w a s d (print in xterm, written here)",
    "printed_return": "families/printed.py, 0 for empty, a letter then Return (input() in xterm, written here)",
    "printed_scroll": "families/printed.py, a letter then Return, no clear: the terminal scrolls (input() in xterm, written here)",
    "blocks24": "families/blocks24.py, 24-bit colour blocks 8x3 (print in xterm, written here)",
    "blocks24_small": "families/blocks24.py, 24-bit colour blocks 6x2 (print in xterm, written here)",
    "framed_blocks": "families/framed_tiles.py, coloured blocks in a bare frame (curses in xterm, written here)",
    "framed_boxes": "families/framed_tiles.py, coloured line boxes in a bare frame (curses in xterm, written here)",
    "painted_blocks": "families/framed_tiles.py, coloured blocks on a board painted grey (curses in xterm, written here)",
    "tk_painted": "families/tk_painted.py (Tk, written here)",
}


class AnyLook(XtermFamilyTarget):
    """any_look.py: a terminal look drawn at random from `look_seed` (any_look.look), the xterm sized and
    coloured to suit it."""

    program = "any_look.py"
    look_seed = 1

    def __init__(self, display: str, seed: int | None = 1, workdir: str | Path | None = None,
                 big_start: bool | None = None, shape: tuple[int, int] = (4, 4)) -> None:
        super().__init__(display, seed, workdir, big_start, shape)
        from families.any_look import layout, look

        spec = look(self.look_seed)
        _, _, height, width = layout(spec, *shape)
        self.options = {"FAMILY_LOOK": str(self.look_seed)}
        self.columns = spec["margin"][0] + max(width, 40) + 4
        self.rows = spec["margin"][1] + height + 8
        self.font_size = spec["font_size"]
        self.fg, self.bg = ("grey90", "black") if spec["dark"] else ("black", "white")

    def _launch(self) -> None:  # the xterm sized for this board already (not grown by its shape)
        xterm = need("xterm", "xterm")
        self._spawn([xterm, "-tn", "xterm-256color", "-fa", "DejaVu Sans Mono", "-fs", str(self.font_size),
                     "-fg", self.fg, "-bg", self.bg, "-geometry", f"{self.columns}x{self.rows}+0+0",
                     "-title", self.name, "-e", *self._command()], "xterm.log")


def any_look_target(look_seed: int) -> type[AnyLook]:
    """The Target class of look `look_seed`, named any_look_<seed>."""
    return type(f"AnyLook{look_seed}", (AnyLook,), {"name": f"any_look_{look_seed}", "look_seed": look_seed})


class AnyWindow(TkTarget):
    """any_window.py: a window look drawn at random from `look_seed` (any_window.look)."""

    program = "any_window.py"
    look_seed = 1

    @property
    def env(self) -> dict[str, str]:
        env = super().env
        env.update(FAMILY_LOOK=str(self.look_seed), FAMILY_TITLE=self.name)
        return env


def any_window_target(look_seed: int) -> type[AnyWindow]:
    """The Target class of window look `look_seed`, named any_window_<seed>."""
    return type(f"AnyWindow{look_seed}", (AnyWindow,), {"name": f"any_window_{look_seed}", "look_seed": look_seed})
