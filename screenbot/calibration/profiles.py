"""Profiles made from a board found: its rectangle and cells on the screen, the monitor it is on, the one
board chosen among several, and the profiles of boards written as text and of touching blocks."""

from __future__ import annotations

from typing import Sequence

from screenbot.calibration.errors import ManyBoardsError, NoBoardError
from screenbot.calibration.lattice import Lattice, Search
from screenbot.calibration.text_lattice import TextBoard
from screenbot.control.screen import Frame
from screenbot.geometry import Rect
from screenbot.imaging import LINE_THICK_PX, glyph_mask
from screenbot.profile import Profile


def board_rect(lattice: Lattice, frame: Frame) -> Rect:
    x, y, w, h = lattice.board_rect
    return Rect(int(round(x)) + frame.left, int(round(y)) + frame.top, int(round(w)), int(round(h)))


def board_in_picture(lattice: Lattice, frame: Frame) -> Rect:
    """The board's rectangle, kept to the picture: a frame that runs off it (a window's edge, a board
    drawn to the edge of its window) is the part that is there (every cell is inside, or the lattice
    was rejected as cut off)."""
    whole = board_rect(lattice, frame)
    return whole.intersection(frame.rect) or whole


def cell_rects(lattice: Lattice, frame: Frame) -> tuple[Rect, ...]:
    out = []
    for r in range(lattice.rows):
        for c in range(lattice.cols):
            x, y, w, h = lattice.cell(r, c)
            out.append(Rect(int(round(x)) + frame.left, int(round(y)) + frame.top, int(round(w)), int(round(h))))
    return tuple(out)


def monitor_of(board_rect: Rect, monitors: Sequence[Rect] | None) -> int:
    """The index of the monitor holding the board's centre (0 when unknown or spanning)."""
    if not monitors:
        return 0
    centre = board_rect.center
    for i, m in enumerate(monitors):
        if i > 0 and m.contains(centre):
            return i
    return 0


def describe(search: Search, frame: Frame) -> str:
    """What the search saw, for messages: candidates and look-alikes."""
    parts = []
    for i, lat in enumerate(search.boards, 1):
        parts.append(f"#{i} at {board_rect(lat, frame).as_list()}")
    return ", ".join(parts)


def inside_frame(lattice: Lattice, frame: Frame) -> bool:
    """Whether the whole board of a lattice (its frame too) lies in the picture."""
    x, y, w, h = lattice.board_rect
    return x >= 0 and y >= 0 and x + w <= frame.width and y + h <= frame.height


def overlap(a: Rect, b: Rect) -> bool:
    """Two board rectangles that share most of the smaller one."""
    inter = a.intersection(b)
    return inter is not None and inter.w * inter.h >= 0.5 * min(a.w * a.h, b.w * b.h)


def chosen(items: list, lattices: list[Lattice], pick: int | None, frame: Frame, many: str):
    """The one board of `items` (or number `pick`, 1-based). ManyBoardsError (`many` says what was
    found) when there are several and no pick; NoBoardError when the pick is not one of them."""
    if len(items) > 1 and pick is None:
        raise ManyBoardsError(f"{many}: pick one with --pick N (numbered in the preview)",
                              candidates=[board_rect(lat, frame) for lat in lattices])
    if pick is not None and not 1 <= pick <= len(items):
        raise NoBoardError(f"--pick {pick}: there are only {len(items)} boards (numbered in the preview)")
    return items[(pick or 1) - 1]


def blocks_profile(frame: Frame, boards: list[Lattice], pick: int | None, monitors: Sequence[Rect] | None,
                    scale: float, source: str) -> Profile:
    """The profile of a board of touching blocks: the empty cells' colour and the digits' height
    measured on the calibration frame."""
    from screenbot.vision.blocks import measure

    lattice = chosen(boards, boards, pick, frame, f"{len(boards)} boards found")
    board = board_in_picture(lattice, frame)
    cells = cell_rects(lattice, frame)
    empty, digit_h = measure(frame.pixels, [(c.x - frame.left, c.y - frame.top, c.w, c.h) for c in cells])
    return Profile.from_cells(
        board, cells, monitor=monitor_of(board, monitors), scale=float(scale), theme="learned",
        gap_colour=empty or (0, 0, 0), empty_colour=empty, source=source, kind="blocks", digit_h=digit_h,
        shape=lattice.shape,
    )


def text_profile(frame: Frame, boards: list[TextBoard], pick: int | None, monitors: Sequence[Rect] | None,
                  scale: float, source: str, gap: tuple[int, int, int] | None = None) -> Profile:
    """The profile of a board written as text (a terminal game): cells sized to hold a number."""
    found = chosen(boards, [b.lattice for b in boards], pick, frame, f"{len(boards)} boards written as text found")
    board = with_room(frame, board_in_picture(found.lattice, frame), found)
    # a column's cell reaches half a step beyond its numbers: where the board is written at the
    # picture's edge (left-aligned from the terminal's first column), the cell is the part inside
    # (with a little of the paper left round them: the gaps' samples lie there)
    inner = board.inset(min(PAPER_PX, board.w // 4), 0)
    cells = tuple(c.intersection(inner) or c for c in cell_rects(found.lattice, frame))
    return Profile.from_cells(
        board,
        cells,
        monitor=monitor_of(board, monitors),
        scale=float(scale),
        theme="learned",
        gap_colour=found.background if gap is None else gap,
        empty_colour=found.background,
        source=source,
        kind="text",
        digit_h=found.digit_h,
        ink_diff=found.ink_diff,
        shape=found.lattice.shape,
    )


PAPER_PX = 3  # the paper kept between a text board's outer cells and its rectangle's edge


def with_room(frame: Frame, board: Rect, found: TextBoard) -> Rect:
    """The text board's rectangle kept to its paper, and reaching on each side into the blank paper beside
    it (up to half a column). A column's band may run past the paper's edge (a terminal window's, where
    the desktop begins: no place for a number); and a number longer than any seen so far grows out of
    its column's band where it is aligned to one side (a 256 right-aligned where only 2s stood), and must
    still be in the picture read."""
    lat = found.lattice
    y0, y1 = max(board.y - frame.top, 0), min(board.bottom - frame.top, frame.height)
    ink = glyph_mask(frame.pixels[y0:y1], found.background, found.ink_diff)
    written, off_paper = ink.any(axis=0), ink.all(axis=0)  # off the paper: not one pixel of it down the board
    first = int(lat.x0 + lat.cell_w / 2)  # the middles of the outer columns
    last = int(lat.x0 + (lat.cols - 1) * lat.pitch_x + lat.cell_w / 2)
    x0, x1 = max(board.x - frame.left, 0), min(board.right - frame.left, frame.width)
    x0 = max([x + 1 for x in range(x0, max(first, x0)) if off_paper[x]], default=x0)
    x1 = min([x for x in range(min(last, x1), x1) if off_paper[x]], default=x1)
    reach = int(lat.pitch_x / 2)
    left = 0
    while left < reach and x0 - left - 1 >= 0 and not written[x0 - left - 1]:
        left += 1
    right = 0
    while right < reach and x1 + right < len(written) and not written[x1 + right]:
        right += 1
    # a little short of the first writing beside it (a label there stays outside)
    left, right = max(0, left - LINE_THICK_PX), max(0, right - LINE_THICK_PX)
    return Rect(x0 - left + frame.left, board.y, x1 - x0 + left + right, board.h)
