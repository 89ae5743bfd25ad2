"""The profile calibration makes and vision reads by: where the board is, where to sample each cell, and learned colours (JSON)."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from screenbot.board_state import BoardState
from screenbot.errors import ScreenbotError
from screenbot.game.sizes import CLASSIC, MAX_SIDE, MIN_SIDE, Size
from screenbot.geometry import Rect
from screenbot.imaging import FG_DIFF

PROFILE_VERSION = 1


class ProfileError(ScreenbotError):
    """A profile file that is missing, unreadable or not a screenbot profile."""


# Where inside a cell to sample its colour, as fractions of the cell (x, y, w, h): four thin
# strips between the digits and the cell's edge (digits sit in the middle band; the glow of
# big neighbours fades within ~a fifth of a cell), and a small centre square that catches a
# tile growing in from nothing.
PATCH_FRACTIONS: tuple[tuple[float, float, float, float], ...] = (
    (0.28, 0.16, 0.44, 0.09),  # top strip
    (0.28, 0.75, 0.44, 0.09),  # bottom strip
    (0.16, 0.28, 0.09, 0.44),  # left strip
    (0.75, 0.28, 0.09, 0.44),  # right strip
    (0.42, 0.42, 0.16, 0.16),  # centre
)
PATCH_NAMES = ("top", "bottom", "left", "right", "centre")
STRIPS = 4  # the first four patches are strips; the last is the centre


def cell_patches(cell: Rect) -> tuple[Rect, ...]:
    """The sample patches of one cell, each at least 1 px wide and high, inside the cell."""
    out = []
    for fx, fy, fw, fh in PATCH_FRACTIONS:
        x = cell.x + int(round(fx * cell.w))
        y = cell.y + int(round(fy * cell.h))
        w = max(1, int(round(fw * cell.w)))
        h = max(1, int(round(fh * cell.h)))
        out.append(Rect(x, y, w, h))
    return tuple(out)


def _hex(colour) -> str | None:
    if colour is None:
        return None
    b, g, r = (int(v) for v in colour)
    return f"#{r:02x}{g:02x}{b:02x}"


def _bgr(text) -> tuple[int, int, int] | None:
    if text is None:
        return None
    t = str(text).lstrip("#")
    if len(t) != 6:
        raise ValueError(f"not a colour: {text!r}")
    return (int(t[4:6], 16), int(t[2:4], 16), int(t[0:2], 16))


@dataclass
class LearnedColour:
    """A tile colour learned by reading its digits: value None means several values share it."""

    colour: tuple[int, int, int]  # BGR
    value: int | None


@dataclass
class Profile:
    """Everything the reader and the keyboard need to know about one board on one screen."""

    board_rect: Rect  # the whole board, absolute screen pixels
    cells: tuple[Rect, ...]  # rows x cols cells, row by row
    patches: tuple[tuple[Rect, ...], ...]  # per cell: top, bottom, left, right strips and centre
    monitor: int = 0  # mss monitor index holding the board (0 = the picture as a whole)
    scale: float = 1.0  # captured pixels per mouse point (HiDPI factor)
    theme: str = "learned"  # a built-in theme name, or "learned"
    gap_colour: tuple[int, int, int] = (0, 0, 0)  # BGR
    # a learned look whose gaps are drawn in several shades (ruled lines in a margin, their crossings)
    gap_shades: list = field(default_factory=list)
    empty_colour: tuple[int, int, int] | None = None  # BGR
    learned: list[LearnedColour] = field(default_factory=list)
    glyphs: dict[str, int] = field(default_factory=dict)  # digit-shape key -> value, read once by OCR
    overlay_at_calibration: BoardState | None = None  # won or over
    source: str = ""
    # "tiles": coloured tiles with gaps between them; "text": numbers written on the background of a
    # character lattice (a terminal game), read glyph by glyph (see screenbot.vision.text)
    kind: str = "tiles"
    digit_h: int = 0  # text boards: the height of a digit in pixels (a dot or nothing is an empty cell)
    ink_diff: int = FG_DIFF  # text boards: a pixel this far from the paper's colour is writing
    # points under text or icons drawn over the board (part of the look; absolute x, y): on the gap
    # lines for a board of tiles, every pixel of the marks' writing for a text board
    marks: list = field(default_factory=list)
    # a tile drawn inset in its cell, a margin of the empty colour round it (left, top, right, bottom px,
    # the same on every tile): the patches lie in the tile, and a tile is read in its own rectangle
    tile_inset: tuple[int, int, int, int] = (0, 0, 0, 0)
    # a board of tiles: how its empty cells look along their top and bottom bands, per board row, [b, g, r]
    # or None per point (screenbot.vision.empty_ring); [] where not learned
    empty_ring: list = field(default_factory=list)
    # frames compressed with loss (a video): colours bleed a few pixels past a tile's edge, so the
    # lines just outside the cells tell nothing (not saved: a property of the frames, not the look)
    compressed: bool = field(default=False, compare=False)
    changed: bool = field(default=False, compare=False)  # learned something since load/save
    shape: Size = CLASSIC  # rows, columns

    def __post_init__(self) -> None:
        rows, cols = self.shape = (int(self.shape[0]), int(self.shape[1]))
        if not (MIN_SIDE <= rows <= MAX_SIDE and MIN_SIDE <= cols <= MAX_SIDE):
            raise ProfileError(f"a profile of a {rows}x{cols} board: boards are {MIN_SIDE}x{MIN_SIDE} to "
                               f"{MAX_SIDE}x{MAX_SIDE}; run `screenbot calibrate` again")
        if len(self.cells) != rows * cols or len(self.patches) != rows * cols:
            raise ProfileError(f"a profile of a {rows}x{cols} board needs {rows * cols} cells and patch sets: "
                               "run `screenbot calibrate` again")

    @property
    def rows(self) -> int:
        return self.shape[0]

    @property
    def cols(self) -> int:
        return self.shape[1]

    @classmethod
    def from_cells(cls, board_rect: Rect, cells: tuple[Rect, ...], **kw) -> "Profile":
        return cls(board_rect=board_rect, cells=tuple(cells), patches=tuple(cell_patches(c) for c in cells), **kw)

    def tile_rect(self, i: int) -> Rect:
        """Where a still tile of cell i lies (the cell itself, less the inset)."""
        left, top, right, bottom = self.tile_inset
        c = self.cells[i]
        return Rect(c.x + left, c.y + top, c.w - left - right, c.h - top - bottom)

    def shifted(self, dx: int, dy: int, monitor: int | None = None) -> "Profile":
        """A copy of this profile for the same board moved by (dx, dy) pixels (a dragged window, a
        scrolled page): board, cells and patches shifted, the learned colours and digit shapes kept
        (copied: the copy learns on its own)."""
        return replace(
            self,
            board_rect=self.board_rect.translated(dx, dy),
            cells=tuple(c.translated(dx, dy) for c in self.cells),
            patches=tuple(tuple(p.translated(dx, dy) for p in ps) for ps in self.patches),
            monitor=self.monitor if monitor is None else int(monitor),
            learned=[LearnedColour(e.colour, e.value) for e in self.learned],
            glyphs=dict(self.glyphs),
            marks=[[x + dx, y + dy] for x, y in self.marks],
            changed=False,
        )

    def moved_to(self, board_rect: Rect, monitor: int | None = None) -> "Profile":
        """A copy of this profile with the board's top-left corner at `board_rect`'s (see `shifted`)."""
        return self.shifted(board_rect.x - self.board_rect.x, board_rect.y - self.board_rect.y, monitor)

    def learn(self, colour, value: int | None) -> None:
        """Remember a tile colour (value None: a colour shared by several values)."""
        colour = tuple(int(v) for v in colour)
        for entry in self.learned:
            if max(abs(a - b) for a, b in zip(entry.colour, colour)) <= 6:
                if entry.value != value and entry.value is not None:
                    entry.value = None  # two values on one colour: digits decide from now on
                    self.changed = True
                return
        self.learned.append(LearnedColour(colour, value))  # type: ignore[arg-type]
        self.changed = True

    def remember_glyph(self, key: str, value: int) -> None:
        if self.glyphs.get(key) != value:
            self.glyphs[key] = value
            self.changed = True

    # JSON ---------------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "version": PROFILE_VERSION,
            "shape": list(self.shape),
            "board_rect": self.board_rect.as_list(),
            "cells": [c.as_list() for c in self.cells],
            "patches": [[p.as_list() for p in ps] for ps in self.patches],
            "patch_names": list(PATCH_NAMES),
            "monitor": self.monitor,
            "scale": self.scale,
            "theme": self.theme,
            "gap_colour": _hex(self.gap_colour),
            "gap_shades": [_hex(c) for c in self.gap_shades],
            "empty_colour": _hex(self.empty_colour),
            "learned_colours": [{"colour": _hex(e.colour), "value": e.value} for e in self.learned],
            "glyphs": dict(self.glyphs),
            "overlay_at_calibration": self.overlay_at_calibration,
            "source": self.source,
            "kind": self.kind,
            "digit_h": self.digit_h,
            "ink_diff": self.ink_diff,
            "marks": self.marks,
            "tile_inset": list(self.tile_inset),
            "empty_ring": [[None if v is None else _hex(v) for v in row] for row in self.empty_ring],
        }

    @classmethod
    def from_json(cls, data: dict) -> "Profile":
        if not isinstance(data, dict) or data.get("version") != PROFILE_VERSION:
            raise ValueError(f"not a version-{PROFILE_VERSION} screenbot profile")
        cells = tuple(Rect.from_list(c) for c in data["cells"])
        patches = tuple(tuple(Rect.from_list(p) for p in ps) for ps in data["patches"])
        if any(len(ps) != len(PATCH_FRACTIONS) for ps in patches):
            raise ValueError("each cell needs 5 sample patches")
        return cls(
            board_rect=Rect.from_list(data["board_rect"] if "board_rect" in data else data["board"]),  # "board": older files
            cells=cells,
            patches=patches,
            monitor=int(data.get("monitor", 0)),
            scale=float(data.get("scale", 1.0)),
            theme=str(data.get("theme", "learned")),
            gap_colour=_bgr(data["gap_colour"]),  # type: ignore[arg-type]
            gap_shades=[_bgr(c) for c in data.get("gap_shades", [])],
            empty_colour=_bgr(data.get("empty_colour")),
            learned=[LearnedColour(_bgr(e["colour"]), None if e["value"] is None else int(e["value"]))  # type: ignore[arg-type]
                     for e in data.get("learned_colours", [])],
            glyphs={str(k): int(v) for k, v in data.get("glyphs", {}).items()},
            overlay_at_calibration=BoardState(data["overlay_at_calibration"]) if data.get("overlay_at_calibration") else None,
            source=str(data.get("source", "")),
            kind=str(data.get("kind", "tiles")),
            digit_h=int(data.get("digit_h", 0)),
            ink_diff=int(data.get("ink_diff", FG_DIFF)),
            marks=[[int(x), int(y)] for x, y in data.get("marks", [])],
            tile_inset=tuple(int(v) for v in data.get("tile_inset", (0, 0, 0, 0))),  # type: ignore[arg-type]
            empty_ring=[[None if v is None else list(_bgr(v)) for v in row] for row in data.get("empty_ring", [])],
            shape=tuple(int(v) for v in data.get("shape", CLASSIC)),  # type: ignore[arg-type]
        )

    def save(self, path: str | Path) -> Path:
        """Write the profile as JSON (atomically) and return the path."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".profile-", suffix=".json", dir=path.parent)
            with os.fdopen(fd, "w") as fh:
                json.dump(self.to_json(), fh, indent=1)
                fh.write("\n")
            os.replace(tmp, path)
        except OSError as exc:
            raise ProfileError(f"cannot write the profile {path}: {exc.strerror or exc}; pass --profile PATH somewhere writable") from exc
        self.changed = False
        return path

    @classmethod
    def load(cls, path: str | Path) -> "Profile":
        """Read a profile; a missing or corrupt file raises ProfileError saying what to do."""
        path = Path(path)
        if not path.is_file():
            raise ProfileError(f"no profile at {path}: run `screenbot calibrate` first (or pass --profile PATH)")
        try:
            data = json.loads(path.read_text())
            profile = cls.from_json(data)
        except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
            raise ProfileError(
                f"the profile {path} is corrupt ({exc}): run `screenbot calibrate` again to rewrite it"
            ) from exc
        return profile
