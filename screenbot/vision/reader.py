"""Reads a 4x4 grid from a frame with a calibration profile: colours first, digits (OCR) only when needed.

The fast path samples a few hundred pixels per frame at places fixed by the profile and
labels each through a lookup table built once from the palette, so a settled board is
read in well under a millisecond. Anything that does not add up — a cell showing two
colours, an empty cell with something in its middle, a sharp edge on a gap line (a tile
between cells), colours the palette does not know — sends the frame down the slow path,
which names overlays, reads unknown tiles' digits, or answers "unsettled". It never guesses.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from screenbot.board_state import BoardState
from screenbot.control.screen import Frame, OutsideFrameError
from screenbot.imaging import EDGE_PX, MIN_GLYPH_PX, glyph_mask, words_of
from screenbot.profile import Profile
from screenbot.vision.blocks import read_block_board
from screenbot.vision.empty_ring import drawn_on_empty
from screenbot.vision.glyphs import value_from_digits, value_of_tile
from screenbot.vision.overflow import ink_on_lines, runs_over, wide_number
from screenbot.vision.overlay import overlay_seen
from screenbot.vision.reading import Reading, UnreadableTileError  # noqa: F401 - read_board's answer and error
from screenbot.vision.sampling import (
    EDGE_TOL,
    EMPTY,
    FIRST_TILE,
    GAP,
    RIM_GAP_SHARE,
    TOL,
    Sampler,
    grid_from_labels,
    labels_of,
    rim_lines_in_gap,
    sampler_for,
)
from screenbot.vision.stipple import evened, stippled
from screenbot.vision.text import read_text_board
from screenbot.vision.tile_colour import mode_colour as _mode_colour
from screenbot.vision.tile_colour import rim_colour

JUMP = 36  # a colour step this sharp on a gap line is the edge of a tile that is not in its cell


@dataclass
class _Cells:
    """Per-cell verdicts from the strips and centre samples."""

    label: np.ndarray  # (16,) label of each cell, or -1 when unclear
    split: np.ndarray  # (16,) bool: two different cell colours in one cell (a tile half in)
    centre_bad: np.ndarray  # (16,) bool: the centre contradicts the strips (a tile growing / popping)


def _judge_cells(strip_labels: np.ndarray, centre_labels: np.ndarray, n_labels: int,
                 digit_like: np.ndarray | None = None) -> _Cells:
    cells = strip_labels.shape[0]
    n = strip_labels.shape[1]
    m = centre_labels.shape[1]
    offs = (np.arange(cells) * n_labels)[:, None]
    counts = np.bincount((strip_labels.astype(np.intp) + offs).ravel(), minlength=cells * n_labels).reshape(cells, n_labels)
    ccounts = np.bincount((centre_labels.astype(np.intp) + offs).ravel(), minlength=cells * n_labels).reshape(cells, n_labels)
    cell_counts = counts[:, EMPTY:]
    best = cell_counts.argmax(axis=1)
    best_n = cell_counts[np.arange(cells), best]
    label = np.where(best_n >= 0.45 * n, best + EMPTY, -1)
    # a second cell colour in the strips: a tile half in, half out (digit colours excepted: long
    # numbers reach the side strips, and a theme may write digits in a tile colour)
    others = cell_counts.copy()
    others[np.arange(cells), best] = 0
    if digit_like is not None and digit_like.any():
        others[:, FIRST_TILE - EMPTY :][:, digit_like] = 0
    second = others.max(axis=1) if others.shape[1] else np.zeros(cells)
    split = (best_n >= 0.2 * n) & (second >= 0.1 * n)
    # no one colour, yet the empty colour along part of the strips: a tile smaller than its cell
    # (growing in, or shrinking in a merge) in a colour that is no still tile's
    split |= (label == -1) & (counts[:, EMPTY] >= 0.1 * n)
    centre_same = ccounts[np.arange(cells), np.maximum(label, 0)]
    # The biggest patch of another tile colour in the centre. Antialiased digits blend through
    # several palette colours a few pixels each; a tile popping or growing there is one solid colour.
    other_tiles = ccounts[:, FIRST_TILE:].copy()
    own = label - FIRST_TILE
    has_own = own >= 0
    other_tiles[np.nonzero(has_own)[0], own[has_own]] = 0
    if digit_like is not None and digit_like.any():
        other_tiles[:, digit_like] = 0  # the digits themselves wear that colour
    biggest_other = other_tiles.max(axis=1) if other_tiles.shape[1] else np.zeros(cells)
    is_empty = label == EMPTY
    # An empty cell is empty all the way through; a tile's centre shows no other tile colour.
    centre_bad = np.where(is_empty, centre_same < 0.9 * m, (label >= FIRST_TILE) & (biggest_other > 0.3 * m))
    return _Cells(label, split, centre_bad)


def _edges_off(s: Sampler, region: np.ndarray, strip_px: np.ndarray) -> np.ndarray:
    """Per cell of a thin-line board: half or more of one edge shows a colour other than the cell's
    just inside it (a tile off its cell: the empty colour along one side of it, its own colour over
    the next cell's side). The cell's colour is that of its top and bottom strips, which digits do
    not reach (a colour not learned yet counts too); points under marks are left out."""
    ref = np.median(strip_px[:, : s.top_bottom].astype(np.int16), axis=1)  # (16, 3)
    edge = region[s.edge_y, s.edge_x].astype(np.int16)  # (16, 4, k, 3)
    foreign = np.abs(edge - ref[:, None, None, :]).max(axis=3) > EDGE_TOL
    if s.edge_marked is not None:
        foreign &= ~s.edge_marked
    return (foreign.sum(axis=2) >= 0.5 * edge.shape[2]).any(axis=1)


def _gap_jumps(line_px: np.ndarray, marked: np.ndarray | None = None, gap: np.ndarray | None = None) -> np.ndarray:
    """Largest sharp colour step along each gap line (lines x k x 3), leaving out steps at marks and
    steps between two of the gap's own shades (`gap`: True where a point shows one)."""
    p = line_px.astype(np.int16)
    d = np.abs(p[:, 2:] - p[:, :-2])
    step = np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])
    if marked is not None:
        step[marked[:, 2:] | marked[:, :-2]] = 0
    if gap is not None:
        step[gap[:, 2:] & gap[:, :-2]] = 0
    return step.max(axis=1)


def _rim_jump(region: np.ndarray, s: Sampler, profile: Profile) -> int:
    """The largest sharp step along the rim lines that run through the gap; JUMP when a rim line is
    mostly covered by cell colours (a whole row of tiles sliding in, each still a few pixels short)."""
    rim_px = region[s.rim_y, s.rim_x]
    labels = labels_of(s.lut, rim_px)
    rim_gap = labels == GAP
    if s.rim_marked is not None:
        rim_gap |= s.rim_marked
    rim_gap |= ink_on_lines(~rim_gap, s.rim_y, s.rim_x, profile)  # a number's ink running over its cell
    read = rim_lines_in_gap(~rim_gap)
    covered = ~read & ((labels >= EMPTY).mean(axis=1) >= RIM_GAP_SHARE)
    if covered.any():
        return JUMP
    if not read.any():
        return 0
    marked = rim_gap[read] & (labels[read] != GAP)  # marks and ink: no step of a tile there
    return int(_gap_jumps(rim_px[read], marked, rim_gap[read] if profile.gap_shades else None).max())


# Steps of this many colour levels between neighbouring pixels in the centre of a cell read as empty
# are a tile appearing there (faint and small: its edges, its digits); a still empty cell is flat,
# and the glow of a big tile beside it changes by under a level from one pixel to the next.
FAINT_STEP = 3


def _faint_tiles(region: np.ndarray, s: Sampler, label: np.ndarray) -> np.ndarray:
    """Per cell: read as empty, yet its centre patch steps by FAINT_STEP or more between neighbours."""
    empty = np.nonzero(label == EMPTY)[0]
    out = np.zeros(label.shape, bool)
    if not len(empty) or s.centre_all_y is None or min(s.centre_all_y.shape[1:]) < 2:
        return out
    p = region[s.centre_all_y[empty], s.centre_all_x[empty]].astype(np.int16)  # (cells, h, w, 3)
    across = np.abs(p[:, :, 1:] - p[:, :, :-1]).max(axis=(1, 2, 3))
    down = np.abs(p[:, 1:] - p[:, :-1]).max(axis=(1, 2, 3))
    out[empty] = np.maximum(across, down) >= FAINT_STEP
    return out


def read_board(frame: Frame, profile: Profile, ocr_allowed: bool = True) -> Reading:
    """Read the board the profile points at in this frame (the frame may be the whole screen or the board).

    Raises UnreadableTileError for a still tile that neither colour nor OCR can name.
    """
    if profile.kind == "text":
        return read_text_board(frame, profile, ocr_allowed)
    if profile.kind == "blocks":
        return read_block_board(frame, profile, ocr_allowed)
    start = time.perf_counter()
    try:
        region = frame.crop(profile.board_rect).pixels
    except OutsideFrameError:
        return Reading(None, BoardState.NO_BOARD, profile.board_rect, "the board is not inside the captured area",
                       (time.perf_counter() - start) * 1000)
    s = sampler_for(profile)
    strip_px = region[s.strip_y, s.strip_x]
    centre_px = region[s.centre_y, s.centre_x]
    line_px = region[s.line_y, s.line_x]
    n_labels = FIRST_TILE + len(s.entries)
    strip_labels = labels_of(s.cell_lut, strip_px)
    if s.theme is None:
        # a learned look: its digits may be as wide as the tile (a lines board's 16384 is) and cover
        # the side strips in a colour not known to be the digits'; judge by the top and bottom
        # strips, which digits do not reach and a tile between cells still crosses
        strip_labels = strip_labels[:, : s.top_bottom]
    cells = _judge_cells(strip_labels, labels_of(s.cell_lut, centre_px), n_labels, s.digit_like)
    line_labels = labels_of(s.lut, line_px)
    gap_share = float((line_labels == GAP).mean())
    shaded = line_labels == GAP if profile.gap_shades else None
    # A tile between cells shows as a sharp step along a gap line. Where the gaps are a drawn line
    # (1-3 px) the sample line cannot stay off the tiles' edges: there a tile between cells shows as
    # two colours in one cell instead (`split`).
    jump = 0
    if s.edge_y is None:
        marked = ink_on_lines(line_labels != GAP if s.line_marked is None else (line_labels != GAP) & ~s.line_marked,
                              s.line_y, s.line_x, profile)  # a number's ink running over its cell is no tile
        if s.line_marked is not None:
            marked |= s.line_marked
        jump = int(_gap_jumps(line_px, marked, shaded).max())
    if s.rim_y is not None and jump < JUMP:  # a tile sliding in still overlaps the gap beside its cell
        jump = max(jump, _rim_jump(region, s, profile))
    settled = jump < JUMP and not cells.split.any() and not cells.centre_bad.any()
    if settled and not profile.compressed:  # compression noise steps by a few levels in a flat cell
        cells.centre_bad |= _faint_tiles(region, s, cells.label)
        settled = not cells.centre_bad.any()
    if settled and s.edge_y is not None:  # a drawn-line board: a tile off its cell shows at the cells' edges
        off = _edges_off(s, region, strip_px)
        if off.any():
            cells.split[:] = cells.split | off
            settled = False
    # A learned look's colour names a value only as far as the tiles seen so far go (one game's 4096
    # and up may share a colour first seen on an 8192): its tiles are always checked by their digit
    # shapes too (a lookup; OCR only for a new shape). A built-in theme's palette is known.
    needs_digits = [i for i in range(len(profile.cells)) if cells.label[i] >= FIRST_TILE
                    and (s.theme is None or s.entries[cells.label[i] - FIRST_TILE].value is None)]
    # a cell empty in its middle, drawn on along its edges (a hollow tile, a number in a corner): its number
    drawn = drawn_on_empty(region, profile, cells.label == EMPTY, s.extra.get("ring")) if settled else None
    if drawn is not None and drawn.any():
        needs_digits = sorted(needs_digits + np.nonzero(drawn)[0].tolist())
    if settled and gap_share >= 0.5 and (cells.label >= 0).all():
        values: dict[int, int] = {}
        calls = 0
        for i in needs_digits:  # tiles that share a colour (classic 4096 and up): digit shapes, OCR once each
            if cells.label[i] == EMPTY:
                colour = profile.empty_colour or profile.gap_colour
            else:
                colour = s.entries[cells.label[i] - FIRST_TILE].colour
            value, called = _value(region, profile, i, colour, ocr_allowed)
            calls += called
            if value is None:
                if cells.label[i] == EMPTY:  # something drawn on an empty cell that names no tile
                    cells.centre_bad[i] = True
                    settled = False
                break
            values[i] = value
        else:
            grid = grid_from_labels(cells.label, s.entries, values, profile.cols)
            return Reading(grid, BoardState.PLAYING, profile.board_rect, "read digits" if calls else "",
                           (time.perf_counter() - start) * 1000, calls, calls > 0)
    return _slow_read(region, profile, s, cells, strip_px, line_px, gap_share, jump, settled, start, ocr_allowed)


def _slow_read(region, profile, s, cells, strip_px, line_px, gap_share, jump, settled, start, ocr_allowed) -> Reading:
    def done(grid, state, detail="", ocr_calls=0, learned=False):
        return Reading(grid, state, profile.board_rect, detail, (time.perf_counter() - start) * 1000, ocr_calls, learned)

    overlay = overlay_seen(profile, s, line_px, region, strip_px, ocr_allowed)
    if overlay is None and jump >= JUMP and stippled(line_px):  # a stippled wash: every other pixel steps
        even = evened(region)
        overlay = overlay_seen(profile, s, even[s.line_y, s.line_x], even, even[s.strip_y, s.strip_x], ocr_allowed)
    if overlay is not None:
        state, alpha, under = overlay
        return done(under, state, f"overlay (wash {alpha:.2f})")
    if gap_share < 0.25:
        return done(None, BoardState.NO_BOARD, "the board's gap colour is not where the profile says: run `screenbot calibrate` again")
    if not settled:
        why = "tile between cells" if jump >= JUMP else "a cell shows two colours or a tile growing"
        return done(None, BoardState.UNSETTLED, why)
    # Still, but some cells are unclear or their colour is shared: read the digits.
    values: dict[int, int] = {}
    ocr_calls = 0
    learned = False
    cols = profile.cols
    for i in range(len(profile.cells)):
        lab = int(cells.label[i])
        if lab == EMPTY:
            continue
        if lab >= FIRST_TILE and s.entries[lab - FIRST_TILE].value is not None and s.theme is not None:
            continue  # a built-in theme's colour names its value (a learned look's is checked, as above)
        cell_px = _cell_pixels(region, profile, i)
        colour, share = _mode_colour(strip_px[i])
        colour, share = rim_colour(cell_px, colour, share, [profile.gap_colour, profile.empty_colour])
        if share < 0.45:
            return done(None, BoardState.UNSETTLED, f"cell {i // cols},{i % cols} has no single colour")
        if lab == -1 and _is_flat(cell_px, colour):
            if profile.empty_colour is None:
                # a cell with nothing on it is an empty cell: learn its colour
                profile.empty_colour = tuple(int(round(v)) for v in colour)
                profile.changed = True
                values[i] = 0
                learned = True
                continue
            return done(None, BoardState.UNSETTLED, f"cell {i // cols},{i % cols} is blank in an unknown colour")
        number, wide = _number_picture(region, profile, i, colour)
        if number is None:
            return done(None, BoardState.UNSETTLED, f"cell {i // cols},{i % cols}: its number runs over the cell's "
                        "edge, joined to other ink (read in the cell it would lose digits)", ocr_calls)
        value, called = _read_number(profile, number, wide, colour, ocr_allowed)
        ocr_calls += called
        if value is None and wide:
            # a number over the cell's edges, its ink taken apart from a neighbour's: the digits as parted
            # name no tile (a cut through a digit): no board rather than a guess
            return done(None, BoardState.UNSETTLED, f"cell {i // cols},{i % cols}: its number runs over the cell's "
                        "edge into another's, and the digits parted from it name no tile", ocr_calls)
        if value is None:
            reading = done(None, BoardState.UNSETTLED, f"cell {i // cols},{i % cols}: no number could be read", ocr_calls)
            raise UnreadableTileError(
                f"cannot read the tile in row {i // cols + 1}, column {i % cols + 1} (colour "
                f"#{int(colour[2]):02x}{int(colour[1]):02x}{int(colour[0]):02x}): neither its colour nor its digits name it; "
                "make sure the game is not covered or zoomed mid-way and calibrate again",
                reading,
            )
        values[i] = value
        if lab == -1:
            profile.learn(colour, value)
            learned = True
        learned = learned or called > 0
    labels = cells.label.copy()
    grid = grid_from_labels(np.where(labels < 0, EMPTY, labels), s.entries, values, profile.cols)
    return done(grid, BoardState.PLAYING, "read digits" if ocr_calls else "", ocr_calls, learned)


def _value(region: np.ndarray, profile: Profile, i: int, colour, ocr_allowed: bool) -> tuple[int | None, int]:
    """(value, OCR calls) of the tile on cell i: its whole number where it runs over the cell's edges
    (None when that ink is joined to other ink), else what is written in the cell."""
    return _read_number(profile, *_number_picture(region, profile, i, colour), colour, ocr_allowed)


def _number_picture(region: np.ndarray, profile: Profile, i: int, colour) -> tuple[np.ndarray | None, bool]:
    """(picture, wide): where the number on cell i runs over the cell's edges, the whole number alone on
    the tile's colour (None when that ink is joined to other ink) and True; else the cell and False."""
    if _runs_over(region, profile, i, colour):
        return wide_number(region, profile, i, colour, _plain(profile)), True
    return _cell_pixels(region, profile, i), False


def _read_number(profile: Profile, picture: np.ndarray | None, wide: bool, colour,
                 ocr_allowed: bool) -> tuple[int | None, int]:
    """(value, OCR calls) of a picture from _number_picture: a wide number's digits, or the tile on a cell."""
    if picture is None:
        return None, 0
    return (value_from_digits if wide else value_of_tile)(profile, picture, colour, ocr_allowed)


def _plain(profile: Profile) -> list:
    """Colours that are no number's ink beside a tile: the gap's, and an inset tile's margin."""
    return [profile.gap_colour] + ([profile.empty_colour] if any(profile.tile_inset) and profile.empty_colour else [])


def _runs_over(region: np.ndarray, profile: Profile, i: int, colour) -> bool:
    """The number on cell i runs on past its left or right edge (into the gap beside it)."""
    origin = profile.board_rect
    r = profile.tile_rect(i).translated(-origin.x, -origin.y)
    cols = profile.cols
    row = [profile.tile_rect(k) for k in range(i - i % cols, i - i % cols + cols)]
    gap = min(row[k].x - row[k - 1].right for k in range(1, cols))  # beside the outer columns: as far into the frame
    return runs_over(region, r, (max(0, r.x - gap), min(origin.w, r.right + gap)), colour, _plain(profile))


def _cell_pixels(region: np.ndarray, profile: Profile, i: int) -> np.ndarray:
    r = profile.tile_rect(i).translated(-profile.board_rect.x, -profile.board_rect.y)
    return region[r.y : r.bottom, r.x : r.right]


def _is_flat(cell_px: np.ndarray, colour) -> bool:
    """Nothing written on the cell: its middle all one colour, and no mark in it as tall as a digit
    (a terminal's thin small digits cover under 2 % of a big cell), the middle's or one written near the
    tile's top or bottom edge (a number on a tall block's first text line) that keeps off its sides."""
    h, w = cell_px.shape[:2]
    inner = cell_px[int(0.15 * h) : int(0.85 * h), int(0.15 * w) : int(0.85 * w)]
    if float((np.abs(inner.astype(np.int16) - np.asarray(colour)).max(axis=2) <= TOL).mean()) < 0.98:
        return False
    if max((wd.tall for wd in words_of(glyph_mask(inner, colour))), default=0) >= MIN_GLYPH_PX:
        return False
    e = EDGE_PX
    whole = words_of(glyph_mask(cell_px[e:h - e, e:w - e], colour))
    return not any(wd.tall >= MIN_GLYPH_PX and wd.x0 > 0 and wd.x1 < w - 2 * e and wd.tall < 0.8 * h for wd in whole)
