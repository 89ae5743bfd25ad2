"""Board sizes: the supported range (3 to 8 cells each way, rectangles too), written rows first ("4x6")."""

from __future__ import annotations

import re

from screenbot.errors import UsageError

Size = tuple[int, int]  # (rows, columns)

MIN_SIDE = 3
MAX_SIDE = 8
CLASSIC: Size = (4, 4)
SUPPORTED = f"boards are {MIN_SIDE}x{MIN_SIDE} to {MAX_SIDE}x{MAX_SIDE} (rows x columns; rectangles too, e.g. 4x6)"

_SIZE_TEXT = re.compile(r"\s*(\d+)\s*[x×]\s*(\d+)\s*", re.IGNORECASE)


def is_supported(size: Size) -> bool:
    """True when both the rows and the columns are 3 to 8."""
    rows, cols = size
    return MIN_SIDE <= rows <= MAX_SIDE and MIN_SIDE <= cols <= MAX_SIDE


def check_size(size: Size) -> Size:
    """`size` as a (rows, columns) tuple; UsageError (one line saying which sizes are supported) when
    it is not supported."""
    rows, cols = size
    if not is_supported((rows, cols)):
        raise UsageError(f"a {format_size((rows, cols))} board is not supported: {SUPPORTED}")
    return rows, cols


def format_size(size: Size) -> str:
    """"5x5", "4x6": rows first."""
    return f"{size[0]}x{size[1]}"


def parse_size(text: str) -> Size:
    """A size written "RxC" ("5x5", "4x6", "4×6") as (rows, columns): rows come first.

    Raises UsageError (one line saying which sizes are supported) for text that is not a size
    ("abc") or for a size outside 3x3 to 8x8 ("2x9", "1x4", "9x9").
    """
    found = _SIZE_TEXT.fullmatch(text)
    if found is None:
        raise UsageError(f"{text!r} is not a board size: {SUPPORTED}")
    return check_size((int(found[1]), int(found[2])))


def size_of(grid: tuple[tuple[int, ...], ...]) -> Size:
    """The (rows, columns) of a grid (not checked: see `screenbot.game.rules.to_grid`)."""
    return len(grid), (len(grid[0]) if grid else 0)


def empty_board(size: Size) -> tuple[tuple[int, ...], ...]:
    """A board of `size` with every cell empty (0). Raises UsageError for an unsupported size."""
    rows, cols = check_size(size)
    return ((0,) * cols,) * rows


def tile_limit(size: Size) -> int:
    """The largest tile a board of `size` can hold: 2**(cells + 1) (131072 on 4x4, 1024 on 3x3).

    The merge that makes 2**(n + 1) needs 2**n, 2**(n - 1), ..., 8, 4 and a new 4 on the board at
    once: n cells.
    """
    rows, cols = size
    return 1 << (rows * cols + 1)
