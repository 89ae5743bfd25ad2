"""Safety before every key: the board is still where the profile says, looks like a board, and its window has the focus."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from screenbot.control.desktop import black_capture_problem
from screenbot.control.screen import Frame, OutsideFrameError
from screenbot.geometry import Point, Rect

# A gap sample counts as "board" within this distance (max over B, G, R) of the board's colour.
# The glow of tiles from 128 up tints the gaps by up to ~30 levels (gabrielecirulli/2048 style/main.scss: a 30 px box-shadow of alpha 0.24-0.56).
GAP_TOLERANCE = 48
# This share of the gap samples must look like the board.
GAP_SHARE = 0.7
MARGIN_PX = 3  # a board's margin this wide or more round its outer cells is sampled too (as the reader's gap lines)


def cells_shape(cells: Sequence[Rect]) -> tuple[int, int]:
    """(rows, cols) of a board's cell rectangles, row-major: the cells level with the first make a row."""
    cols = sum(1 for c in cells if c.y == cells[0].y)
    if cols == 0 or len(cells) % cols:
        raise ValueError("cells not in whole rows")
    return len(cells) // cols, cols


def gap_points(board_rect: Rect, cells: Sequence[Rect], min_gap: int = 0) -> list[tuple[Point, tuple[tuple[int, int], ...]]]:
    """Points in the middle of the gaps (between neighbouring cells, and between the edge cells and
    the frame), each with the cells beside it; `min_gap`: only between cells at least this far apart.

    `cells` are the cell rectangles, row-major. These pixels show the board's own colour whatever
    the tiles are (a resting tile never covers a gap), so they tell a board from whatever covers it.
    """
    rows, cols = cells_shape(cells)
    grid = [list(cells[r * cols:(r + 1) * cols]) for r in range(rows)]
    points: list[tuple[Point, tuple[tuple[int, int], ...]]] = []
    for r in range(rows):
        for c in range(cols):
            cell = grid[r][c]
            cy, cx = cell.y + cell.h // 2, cell.x + cell.w // 2
            last_c, last_r = c == cols - 1, r == rows - 1
            # round the board only where it has a margin (cells flush with its edge have none to sample)
            right_end = board_rect.right if last_c else grid[r][c + 1].x
            if right_end - cell.right >= (MARGIN_PX if last_c else min_gap):
                points.append((Point((cell.right + right_end) // 2, cy), ((r, c),) if last_c else ((r, c), (r, c + 1))))
            below_end = board_rect.bottom if last_r else grid[r + 1][c].y
            if below_end - cell.bottom >= (MARGIN_PX if last_r else min_gap):
                points.append((Point(cx, (cell.bottom + below_end) // 2), ((r, c),) if last_r else ((r, c), (r + 1, c))))
            if c == 0 and cell.x - board_rect.x >= MARGIN_PX:
                points.append((Point((board_rect.x + cell.x) // 2, cy), ((r, c),)))
            if r == 0 and cell.y - board_rect.y >= MARGIN_PX:
                points.append((Point(cx, (board_rect.y + cell.y) // 2), ((r, c),)))
    return points


def sample(frame: Frame, points: Sequence[Point]) -> np.ndarray:
    """BGR colours (N x 3, int) of the frame at absolute points; raises OutsideFrameError if one is outside."""
    xs = np.array([p.x - frame.left for p in points])
    ys = np.array([p.y - frame.top for p in points])
    if xs.min() < 0 or ys.min() < 0 or xs.max() >= frame.width or ys.max() >= frame.height:
        raise OutsideFrameError("the board's gaps are not inside the captured area")
    return frame.pixels[ys, xs].astype(np.int16)


@dataclass(frozen=True)
class BoardLook:
    """The board's gap colour as seen at the start, and where its gaps are."""

    board_rect: Rect
    points: tuple[Point, ...]
    neighbours: tuple[tuple[tuple[int, int], ...], ...]
    colour: tuple[int, int, int]  # BGR
    # each point's own colour at the start: gaps drawn in several shades (a box line's edge and core)
    # may have a median that is none of them
    own: tuple[tuple[int, int, int], ...] = ()

    @classmethod
    def learn(cls, frame: Frame, board_rect: Rect, cells: Sequence[Rect], min_gap: int = 0) -> "BoardLook":
        found = gap_points(board_rect, cells, min_gap)
        points = tuple(p for p, _ in found)
        colours = sample(frame, points)
        colour = tuple(int(v) for v in np.median(colours, axis=0))
        own = tuple(tuple(int(v) for v in c) for c in colours)
        return cls(board_rect, points, tuple(n for _, n in found), colour, own)  # type: ignore[arg-type]

    def share_like_board(self, frame: Frame, skip: Iterable[tuple[int, int]] = ()) -> float:
        """Share of the gap samples whose colour is the board's (0..1).

        `skip`: cells whose gaps may be covered for a moment (a merged tile 'pops' to 1.2x its size).
        """
        skip = set(skip)
        keep = [i for i, cells in enumerate(self.neighbours) if not skip.intersection(cells)]
        keep = keep or list(range(len(self.points)))
        try:
            colours = sample(frame, [self.points[i] for i in keep])
        except OutsideFrameError:
            return 0.0
        distance = np.abs(colours - np.array(self.colour, dtype=np.int16)).max(axis=1)
        if self.own:  # a point that shows the colour it had at the start is the board's too
            own = np.array([self.own[i] for i in keep], dtype=np.int16)
            distance = np.minimum(distance, np.abs(colours - own).max(axis=1))
        return float((distance <= GAP_TOLERANCE).mean())

    def problem(self, frame: Frame, skip: Iterable[tuple[int, int]] = ()) -> str | None:
        """None when the frame shows the board where it was; else what is wrong, in words."""
        share = self.share_like_board(frame, skip)
        if share >= GAP_SHARE:
            return None
        black = black_capture_problem(frame.pixels)
        if black is not None:
            return black
        return (
            f"the board is not where it was ({share:.0%} of its gaps look like the board): "
            "covered, moved or scrolled"
        )


TEXT_GAP_PX = 3  # a text board's cells closer than this touch: a tile drawn as a block a whole step long covers the gap


def learn_look(frame: Frame, board_rect: Rect, cells: Sequence[Rect], blocks: bool = False,
               text: bool = False) -> "BoardLook | BlocksLook":
    """How the board looks now, for the check before every key: its gaps' colour, or for a board of
    blocks (`blocks`: each cell read as one flat colour; blocks that touch, or touch one way) or of
    touching cells its cells' rings. On a text board (`text`) only the gaps between cells apart are
    looked at, and the paper round the board."""
    min_gap = TEXT_GAP_PX if text else 0
    if blocks or touching(cells) or not gap_points(board_rect, cells, min_gap):  # no gap to sample: the cells' rings
        return BlocksLook.learn(board_rect, cells)
    return BoardLook.learn(frame, board_rect, cells, min_gap)


def touching(cells: Sequence[Rect]) -> bool:
    """Cells with no gap between them (a board of blocks: no gap colour to check)."""
    rows, cols = cells_shape(cells)
    return all(abs(cells[r * cols + c + 1].x - cells[r * cols + c].right) <= 1 for r in range(rows) for c in range(cols - 1)) \
        and all(abs(cells[(r + 1) * cols + c].y - cells[r * cols + c].bottom) <= 1 for r in range(rows - 1) for c in range(cols))


RING_POINTS = 24  # points per cell on a ring just inside its sides
RING_SAME = 10  # colour levels: a ring point this near the ring's median colour is the cell's colour


@dataclass(frozen=True)
class BlocksLook:
    """A board of touching blocks has no gaps: it is there while its cells are blocks, each one flat
    colour all round a ring just inside its sides (its number written well inside)."""

    board_rect: Rect
    rings: tuple[tuple[Point, ...], ...]
    cols: int = 4  # cells are numbered row by row

    @classmethod
    def learn(cls, board_rect: Rect, cells: Sequence[Rect]) -> "BlocksLook":
        rings = []
        for cell in cells:
            x0, x1 = cell.x + 0.06 * cell.w, cell.right - 1 - 0.06 * cell.w
            y0, y1 = cell.y + 0.06 * cell.h, cell.bottom - 1 - 0.06 * cell.h
            t = np.linspace(0.0, 1.0, RING_POINTS // 4, endpoint=False)
            pts = ([(x0 + f * (x1 - x0), y0) for f in t] + [(x1, y0 + f * (y1 - y0)) for f in t]
                   + [(x1 - f * (x1 - x0), y1) for f in t] + [(x0, y1 - f * (y1 - y0)) for f in t])
            rings.append(tuple(Point(int(round(x)), int(round(y))) for x, y in pts))
        return cls(board_rect, tuple(rings), cells_shape(cells)[1])

    def _rings(self, frame: Frame, skip: Iterable[tuple[int, int]]) -> np.ndarray | None:
        """The ring colours of the cells not in `skip` (cells x points x 3), None when outside the frame."""
        skip = set(skip)
        every = range(len(self.rings))
        keep = [i for i in every if divmod(i, self.cols) not in skip] or list(every)
        try:
            return sample(frame, [p for i in keep for p in self.rings[i]]).reshape(len(keep), -1, 3)
        except OutsideFrameError:
            return None

    def share_like_board(self, frame: Frame, skip: Iterable[tuple[int, int]] = ()) -> float:
        """Share of the cells (those not in `skip`) whose ring is one colour (0..1)."""
        return _flat_share(self._rings(frame, skip))

    def problem(self, frame: Frame, skip: Iterable[tuple[int, int]] = ()) -> str | None:
        colours = self._rings(frame, skip)
        # an all-black picture is flat everywhere; rings that are all black are not (a terminal's black
        # cells on a black screen): the whole picture tells
        black = black_capture_problem(frame.pixels)
        if black is not None:
            return black
        share = _flat_share(colours)
        if share >= GAP_SHARE:
            return None
        return f"the board is not where it was ({share:.0%} of its cells look like blocks): covered, moved or scrolled"


def _flat_share(colours: np.ndarray | None) -> float:
    """Share of the cells whose ring points (cells x points x 3) are one colour; 0 without them."""
    if colours is None:
        return 0.0
    median = np.median(colours, axis=1, keepdims=True)
    same = (np.abs(colours - median).max(axis=2) <= RING_SAME).mean(axis=1)
    return float((same >= 0.9).mean())


class Safety:
    """Everything checked before a key is pressed: the board's pixels, and the focus watch's focus and
    stacking (control/focus.py: X11, Windows, macOS)."""

    def __init__(self, look: "BoardLook | BlocksLook", focus_watch=None) -> None:
        self.look = look
        self.focus_watch = focus_watch

    def remember_focus(self) -> None:
        if self.focus_watch is not None:
            self.focus_watch.remember()

    def problem(self, frame: Frame, skip: Iterable[tuple[int, int]] = ()) -> str | None:
        return self.look.problem(frame, skip) or self.focus_problem()

    def focus_problem(self) -> str | None:
        """The window side alone (focus and stacking; on X11 a few round trips to the X server)."""
        if self.focus_watch is not None:
            return self.focus_watch.problem()
        return None

    def close(self) -> None:
        if self.focus_watch is not None:
            self.focus_watch.close()
