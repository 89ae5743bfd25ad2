"""The practice page's options as the rig takes them: the looks, key sets and board shapes it knows, checked before anything starts."""

from __future__ import annotations

from typing import Any, Sequence

from screenbot.errors import UsageError
from screenbot.game.sizes import CLASSIC, SUPPORTED, Size, format_size, is_supported, parse_size
from screenbot.practice.errors import RigError

# The page's looks (theme -> family; style.css, game.js GEOMETRY).
THEMES = {"classic": "classic", "dark": "classic", "lines": "lines", "lines-light": "lines", "terminal": "terminal"}
KEY_SETS = ("arrows", "wasd", "hjkl")
DISMISS_STYLES = ("click", "key")  # how the page's win message is dismissed (game.js `dismiss`)
# The colour running along the board's outer padding from edge to edge (style.css --board-bg; the
# lines looks: their line colour). The terminal has none: its frame is box-drawing characters.
BOARD_BGR = {"classic": (0xA0, 0xAD, 0xBB), "dark": (0x3D, 0x33, 0x2F),
             "lines": (0xC8, 0xC8, 0xC8), "lines-light": (0x33, 0x33, 0x33)}


def parse_shape(shape: str | Sequence[int] | None) -> Size:
    """A board shape as (rows, columns) from "4x6" or (4, 6); None is the classic 4x4.

    Raises RigError (one line saying which shapes are supported) for anything else."""
    if shape is None:
        return CLASSIC
    try:
        if isinstance(shape, str):
            return parse_size(shape)
        rows, cols = (int(v) for v in shape)
    except UsageError as exc:
        raise RigError(str(exc)) from None
    except (TypeError, ValueError):
        raise RigError(f"{shape!r} is not a board size: {SUPPORTED}") from None
    if not is_supported((rows, cols)):
        raise RigError(f"a {format_size((rows, cols))} board is not supported: {SUPPORTED}")
    return rows, cols


def shape_option(shape: str | Sequence[int] | None) -> str | None:
    """The page's `shape=` URL option ("4x6"); None (left out of the URL) for the classic 4x4."""
    rows, cols = parse_shape(shape)
    return None if (rows, cols) == CLASSIC else format_size((rows, cols))


def board_shape(board: Sequence[Sequence[int]]) -> Size:
    """The (rows, columns) of a start board given as rows; RigError when its rows differ in length."""
    rows = [list(row) for row in board]
    if not rows or any(len(row) != len(rows[0]) for row in rows):
        raise RigError("the start board's rows differ in length")
    return len(rows), len(rows[0])


def check_page_options(options: dict[str, Any]) -> None:
    """RigError for a page option the page would not understand (a look, a key set, a win tile, a
    dismiss style, a shape, or a start board of another shape than the page's)."""
    theme, keys, win, dismiss = (options.get(name) for name in ("theme", "keys", "win", "dismiss"))
    if theme not in THEMES:
        raise RigError(f"unknown theme {theme!r} (choose from {', '.join(THEMES)})")
    if dismiss is not None and dismiss not in DISMISS_STYLES:
        raise RigError(f"unknown dismiss {dismiss!r} (choose from {', '.join(DISMISS_STYLES)})")
    if win is not None and (win < 4 or win & (win - 1)):
        raise RigError(f"win must be a tile (a power of two from 4), not {win!r}")
    if keys is not None and keys not in KEY_SETS:
        raise RigError(f"unknown key set {keys!r} (choose from {', '.join(KEY_SETS)})")
    shape = parse_shape(options.get("shape"))
    board = options.get("board")
    if board is None:
        return
    page = format_size(shape)
    if all(isinstance(v, int) for v in board):  # row-major values
        if len(board) != shape[0] * shape[1]:
            raise RigError(f"the start board has {len(board)} values but the page is {page} (give shape=)")
    elif board_shape(board) != shape:
        raise RigError(f"the start board is {format_size(board_shape(board))} but the page is {page} (give shape=)")
