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
from dataclasses import dataclass, field

import numpy as np

from screenbot.board_state import BoardState
from screenbot.calibration.palette import THEMES, Theme, blend
from screenbot.calibration.profile import STRIPS, Profile
from screenbot.control.screen import Frame, OutsideFrameError
from screenbot.errors import ScreenbotError
from screenbot.game.rules import SIZE, Grid
from screenbot.geometry import Rect
from screenbot.vision.glyphs import value_from_digits

TOL = 10  # colour tolerance (largest channel difference) of the palette lookup
JUMP = 36  # a colour step this sharp on a gap line is the edge of a tile that is not in its cell
THIN_GAP_PX = 4  # gaps narrower than this are drawn lines: no step test along them
LUT_BITS = 6  # lookup table resolution per channel

# labels in the lookup table
OTHER, GAP, EMPTY = 0, 1, 2
FIRST_TILE = 3


class UnreadableTileError(ScreenbotError):
    """A still tile that neither its colour nor its digits can name."""

    def __init__(self, message: str, reading: "Reading | None" = None) -> None:
        super().__init__(message)
        self.reading = reading


@dataclass(frozen=True)
class Reading:
    """What one frame shows: the grid (None unless certain), the state, and how it was read."""

    grid: Grid | None
    state: BoardState  # playing | won | over | unsettled | no-board
    board_rect: Rect | None = None
    detail: str = ""  # why a frame is unsettled / no-board
    ms: float = 0.0
    ocr_calls: int = 0
    learned: bool = False  # a new colour or digit shape was learned (save the profile)

    def as_json(self) -> dict:
        return {
            "board": [list(r) for r in self.grid] if self.grid else None,
            "state": self.state,
            "rect": self.board_rect.as_list() if self.board_rect else None,
        }


@dataclass
class _Entry:
    colour: tuple[int, int, int]
    value: int | None  # None: several values share the colour, read the digits


@dataclass
class _Sampler:
    """Sample positions (relative to the board's corner) and the label lookup table for one profile."""

    key: tuple
    strip_y: np.ndarray  # (16, n)
    strip_x: np.ndarray
    centre_y: np.ndarray  # (16, m)
    centre_x: np.ndarray
    line_y: np.ndarray  # (lines, k)
    line_x: np.ndarray
    lut: np.ndarray  # (64**3,) uint8 labels
    entries: list[_Entry]  # label FIRST_TILE + i
    theme: Theme | None
    digit_like: np.ndarray  # (entries,) bool: a tile colour that is also a digit colour
    extra: dict = field(default_factory=dict)
    top_bottom: int = 0  # the first this many strip points of every cell are its top and bottom strips
    line_marked: np.ndarray | None = None  # (lines, k) bool: gap-line points under marks drawn over the board


def _grid_points(rect: Rect, origin: Rect, nx: int, ny: int) -> tuple[np.ndarray, np.ndarray]:
    nx, ny = max(1, min(nx, rect.w)), max(1, min(ny, rect.h))
    xs = rect.x - origin.x + (np.arange(nx) + 0.5) * rect.w / nx
    ys = rect.y - origin.y + (np.arange(ny) + 0.5) * rect.h / ny
    gx, gy = np.meshgrid(xs.astype(np.intp), ys.astype(np.intp))
    return gy.ravel(), gx.ravel()


def _pad(rows: list[np.ndarray]) -> np.ndarray:
    """Stack index arrays of different lengths by repeating each one's values (keeps shares right)."""
    n = max(len(r) for r in rows)
    return np.stack([np.resize(r, n) for r in rows])


def _gap_lines(profile: Profile) -> tuple[np.ndarray, np.ndarray]:
    b = profile.board_rect
    cells = profile.cells
    xs = [(b.x + cells[0].x) / 2] + [(cells[k - 1].right + cells[k].x) / 2 for k in range(1, SIZE)]
    xs.append((cells[SIZE - 1].right + b.right) / 2)
    ys = [(b.y + cells[0].y) / 2] + [(cells[(k - 1) * SIZE].bottom + cells[k * SIZE].y) / 2 for k in range(1, SIZE)]
    ys.append((cells[(SIZE - 1) * SIZE].bottom + b.bottom) / 2)
    margin_ok = (cells[0].x - b.x) >= 3 and (cells[0].y - b.y) >= 3
    if not margin_ok:  # no frame around the cells: only the inner gap lines are sure to be gap
        xs, ys = xs[1:-1], ys[1:-1]
    y_a, y_b = ys[0], ys[-1]
    x_a, x_b = xs[0], xs[-1]
    n = int(max(y_b - y_a, x_b - x_a))
    line_y, line_x = [], []
    t = np.linspace(0.0, 1.0, n)
    for gx in xs:
        line_x.append(np.full(n, int(gx) - b.x))
        line_y.append((y_a + t * (y_b - y_a)).astype(np.intp) - b.y)
    for gy in ys:
        line_y.append(np.full(n, int(gy) - b.y))
        line_x.append((x_a + t * (x_b - x_a)).astype(np.intp) - b.x)
    return np.stack(line_y).astype(np.intp), np.stack(line_x).astype(np.intp)


def _palette(profile: Profile) -> tuple[list[tuple[tuple[int, int, int], int]], list[_Entry], Theme | None]:
    """(colour, label) pairs for the lookup table, and the tile entries behind the tile labels."""
    theme = THEMES.get(profile.theme)
    pairs: list[tuple[tuple[int, int, int], int]] = []
    entries: list[_Entry] = []
    gap = tuple(profile.gap_colour)
    pairs.append((gap, GAP))
    empty = tuple(profile.empty_colour) if profile.empty_colour is not None else None
    if empty is not None:
        pairs.append((empty, EMPTY))
    if theme is not None:
        if theme.glow is not None:  # big tiles tint the gaps and empty cells around them
            for a in np.arange(0.05, 0.65, 0.05):
                pairs.append((blend(gap, theme.glow, a), GAP))
                if empty is not None:
                    pairs.append((blend(empty, theme.glow, a), EMPTY))
        by_colour: dict[tuple[int, int, int], list[int]] = {}
        for value, colour in theme.tiles:
            by_colour.setdefault(colour, []).append(value)
        for colour, values in by_colour.items():
            entries.append(_Entry(colour, values[0] if len(values) == 1 else None))
    for learned in profile.learned:
        if not any(max(abs(a - b) for a, b in zip(e.colour, learned.colour)) <= 4 for e in entries):
            entries.append(_Entry(tuple(learned.colour), learned.value))
    for i, e in enumerate(entries):
        pairs.append((e.colour, FIRST_TILE + i))
    return pairs, entries, theme


def _build_lut(pairs: list[tuple[tuple[int, int, int], int]]) -> np.ndarray:
    """Label of every colour (6 bits per channel): the nearest palette colour within TOL, else OTHER."""
    n = 1 << LUT_BITS
    step = 256 // n
    labels = np.zeros((n, n, n), np.uint8)
    best = np.full((n, n, n), 1e9, np.float32)
    centres = np.arange(n) * step + (step - 1) / 2
    for colour, label in pairs:
        lo = [max(0, int((c - TOL - step) // step)) for c in colour]
        hi = [min(n, int((c + TOL + step) // step) + 1) for c in colour]
        cb = centres[lo[0] : hi[0]][:, None, None]
        cg = centres[lo[1] : hi[1]][None, :, None]
        cr = centres[lo[2] : hi[2]][None, None, :]
        d = np.maximum(np.maximum(np.abs(cb - colour[0]), np.abs(cg - colour[1])), np.abs(cr - colour[2]))
        sub_best = best[lo[0] : hi[0], lo[1] : hi[1], lo[2] : hi[2]]
        sub_lab = labels[lo[0] : hi[0], lo[1] : hi[1], lo[2] : hi[2]]
        win = (d <= TOL) & (d < sub_best)
        sub_best[win] = d[win]
        sub_lab[win] = label
    return labels.ravel()


def _sampler(profile: Profile) -> _Sampler:
    key = (profile.board_rect, profile.cells, profile.theme, profile.gap_colour, profile.empty_colour,
           tuple((e.colour, e.value) for e in profile.learned), len(profile.marks))
    cached = getattr(profile, "_sampler", None)
    if cached is not None and cached.key == key:
        return cached
    origin = profile.board_rect
    sy, sx, cy, cx = [], [], [], []
    top_bottom = []  # per cell: how many strip points the top and bottom strips hold (they come first)
    for patches in profile.patches:
        ys, xs = [], []
        for p in patches[:STRIPS]:
            nx, ny = (16, 4) if p.w >= p.h else (4, 16)
            y, x = _grid_points(p, origin, nx, ny)
            ys.append(y)
            xs.append(x)
        top_bottom.append(len(ys[0]) + len(ys[1]))
        sy.append(np.concatenate(ys))
        sx.append(np.concatenate(xs))
        y, x = _grid_points(patches[STRIPS], origin, 8, 8)
        cy.append(y)
        cx.append(x)
    ly, lx = _gap_lines(profile)
    pairs, entries, theme = _palette(profile)
    sampler = _Sampler(
        key=key,
        strip_y=_pad(sy), strip_x=_pad(sx), centre_y=_pad(cy), centre_x=_pad(cx),
        line_y=ly.clip(0, origin.h - 1), line_x=lx.clip(0, origin.w - 1),
        lut=_build_lut(pairs), entries=entries, theme=theme,
        top_bottom=min(top_bottom),
        digit_like=np.array([any(max(abs(a - b) for a, b in zip(e.colour, t)) <= TOL for t in (theme.text if theme else ()))
                             for e in entries], bool),
    )
    if profile.marks:
        marked = np.zeros(sampler.line_y.shape, bool)
        at = {(x - origin.x, y - origin.y) for x, y in profile.marks}
        for idx in np.ndindex(marked.shape):
            marked[idx] = (int(sampler.line_x[idx]), int(sampler.line_y[idx])) in at
        sampler.line_marked = marked
    profile._sampler = sampler  # type: ignore[attr-defined]
    return sampler


def learn_marks(frame: Frame, profile: Profile) -> int:
    """Remember the gap-line points that a still frame shows in no gap colour (text, an icon, a
    watermark drawn over the board): from now on they are part of the look, never a tile between
    cells. Returns how many points were marked. For the calibration frame, where the board is still."""
    try:
        region = frame.crop(profile.board_rect).pixels
    except OutsideFrameError:
        return 0
    s = _sampler(profile)
    labels = _labels(s.lut, region[s.line_y, s.line_x])
    odd = labels != GAP
    # a mark's rim blends into the gap: take two points either side too
    near = odd.copy()
    for shift in (1, 2):
        near[:, shift:] |= odd[:, :-shift]
        near[:, :-shift] |= odd[:, shift:]
    if odd.mean() > 0.2:  # not marks: a covered board, an overlay, or not a board at all
        return 0
    origin = profile.board_rect
    points = sorted({(int(s.line_x[i]) + origin.x, int(s.line_y[i]) + origin.y) for i in zip(*np.nonzero(near))})
    if points:
        profile.marks = [list(p) for p in points]
        profile.changed = True
    return len(points)


def _labels(lut: np.ndarray, px: np.ndarray) -> np.ndarray:
    q = (px >> (8 - LUT_BITS)).astype(np.intp)
    return lut[(q[..., 0] << (2 * LUT_BITS)) | (q[..., 1] << LUT_BITS) | q[..., 2]]


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


def _thinnest_gap(profile: Profile) -> int:
    cells = profile.cells
    gaps = [cells[k].x - cells[k - 1].right for k in range(1, SIZE)]
    gaps += [cells[k * SIZE].y - cells[(k - 1) * SIZE].bottom for k in range(1, SIZE)]
    return min(gaps)


def _gap_jumps(line_px: np.ndarray, marked: np.ndarray | None = None) -> np.ndarray:
    """Largest sharp colour step along each gap line (lines x k x 3), leaving out steps at marks."""
    p = line_px.astype(np.int16)
    d = np.abs(p[:, 2:] - p[:, :-2])
    step = np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])
    if marked is not None:
        step[marked[:, 2:] | marked[:, :-2]] = 0
    return step.max(axis=1)


def read_board(frame: Frame, profile: Profile, ocr_allowed: bool = True) -> Reading:
    """Read the board the profile points at in this frame (the frame may be the whole screen or the board).

    Raises UnreadableTileError for a still tile that neither colour nor OCR can name.
    """
    if profile.kind == "text":
        from screenbot.vision.text import read_text_board

        return read_text_board(frame, profile, ocr_allowed)
    start = time.perf_counter()
    try:
        region = frame.crop(profile.board_rect).pixels
    except OutsideFrameError:
        return Reading(None, BoardState.NO_BOARD, profile.board_rect, "the board is not inside the captured area",
                       (time.perf_counter() - start) * 1000)
    s = _sampler(profile)
    strip_px = region[s.strip_y, s.strip_x]
    centre_px = region[s.centre_y, s.centre_x]
    line_px = region[s.line_y, s.line_x]
    n_labels = FIRST_TILE + len(s.entries)
    strip_labels = _labels(s.lut, strip_px)
    if s.theme is None:
        # a learned look: its digits may be as wide as the tile (a lines board's 16384 is) and cover
        # the side strips in a colour not known to be the digits'; judge by the top and bottom
        # strips, which digits do not reach and a tile between cells still crosses
        strip_labels = strip_labels[:, : s.top_bottom]
    cells = _judge_cells(strip_labels, _labels(s.lut, centre_px), n_labels, s.digit_like)
    line_labels = _labels(s.lut, line_px)
    gap_share = float((line_labels == GAP).mean())
    # A tile between cells shows as a sharp step along a gap line. Where the gaps are a drawn line
    # (1-3 px) the sample line cannot stay off the tiles' edges: there a tile between cells shows as
    # two colours in one cell instead (`split`).
    jump = int(_gap_jumps(line_px, s.line_marked).max()) if _thinnest_gap(profile) >= THIN_GAP_PX else 0
    settled = jump < JUMP and not cells.split.any() and not cells.centre_bad.any()
    # A learned look's colour names a value only as far as the tiles seen so far go (one game's 4096
    # and up may share a colour first seen on an 8192): its tiles are always checked by their digit
    # shapes too (a lookup; OCR only for a new shape). A built-in theme's palette is known.
    needs_digits = [i for i in range(16) if cells.label[i] >= FIRST_TILE
                    and (s.theme is None or s.entries[cells.label[i] - FIRST_TILE].value is None)]
    if settled and gap_share >= 0.5 and (cells.label >= 0).all():
        values: dict[int, int] = {}
        calls = 0
        for i in needs_digits:  # tiles that share a colour (classic 4096 and up): digit shapes, OCR once each
            value, called = value_from_digits(profile, _cell_pixels(region, profile, i),
                                               s.entries[cells.label[i] - FIRST_TILE].colour, ocr_allowed)
            calls += called
            if value is None:
                break
            values[i] = value
        else:
            grid = _grid_from_labels(cells.label, s.entries, values)
            return Reading(grid, BoardState.PLAYING, profile.board_rect, "read digits" if calls else "",
                           (time.perf_counter() - start) * 1000, calls, calls > 0)
    return _slow_read(region, profile, s, cells, strip_px, line_px, gap_share, jump, settled, start, ocr_allowed)


def _grid_from_labels(labels: np.ndarray, entries: list[_Entry], values: dict[int, int]) -> Grid:
    out = []
    for i, lab in enumerate(labels.tolist()):
        if i in values:
            out.append(values[i])
        elif lab == EMPTY:
            out.append(0)
        else:
            out.append(int(entries[lab - FIRST_TILE].value))  # type: ignore[arg-type]
    return tuple(tuple(out[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE))


def _mode_colour(px: np.ndarray) -> tuple[np.ndarray, float]:
    """Most common colour (4-level bins) among pixels (N x 3) and its share within 8 levels."""
    q = (px >> 2).astype(np.int32)
    codes = (q[:, 0] << 12) | (q[:, 1] << 6) | q[:, 2]
    top = np.bincount(codes).argmax()
    colour = px[codes == top].mean(axis=0)
    share = float((np.abs(px.astype(np.int16) - colour).max(axis=1) <= 8).mean())
    return colour, share


def _overlay(profile: Profile, s: _Sampler, line_px: np.ndarray) -> tuple[BoardState, tuple[int, int, int], float] | None:
    """The overlay the gap lines are seen through: (state, colour, alpha), or None."""
    colour, share = _mode_colour(line_px.reshape(-1, 3))
    gap = np.asarray(profile.gap_colour, float)
    if share < 0.25 or np.abs(colour - gap).max() <= TOL:
        return None
    if s.theme is not None:
        best = None
        for ov in s.theme.overlays:
            target = np.asarray(ov.colour, float) - gap
            denom = float((target**2).sum())
            if denom <= 0:
                continue
            alpha = float(((colour - gap) * target).sum() / denom)
            if not 0.08 <= alpha <= ov.alpha + 0.1:
                continue
            resid = float(np.abs(colour - (gap + alpha * target)).max())
            if resid <= 8 and (best is None or resid < best[0]):
                best = (resid, ov.state, ov.colour, alpha)
        if best:
            return best[1], best[2], best[3]
        return None
    # A learned clone: an even wash over the whole board is an overlay; guess its meaning from its hue.
    if share < 0.5:
        return None
    wash = np.clip(2 * colour - gap, 0, 255)
    saturated = wash.max() - wash.min() > 60
    return (BoardState.WON if saturated else BoardState.OVER), tuple(int(v) for v in wash), 0.5  # type: ignore[return-value]


def _read_under_overlay(s: _Sampler, strip_px: np.ndarray, colour, alpha: float) -> Grid | None:
    """The grid seen through a translucent overlay, when every cell is clear once the wash is taken out."""
    if alpha >= 0.9:
        return None
    clear = (strip_px.astype(np.float32) - alpha * np.asarray(colour, np.float32)) / (1 - alpha)
    labels = _labels(s.lut, np.clip(np.rint(clear), 0, 255).astype(np.uint8))
    n_labels = FIRST_TILE + len(s.entries)
    # the overlay's own text and buttons cover some strips: ask for a clear majority of what is left
    counts = np.stack([np.bincount(row, minlength=n_labels) for row in labels.astype(np.intp)])
    cell_counts = counts[:, EMPTY:]
    best = cell_counts.argmax(axis=1)
    best_n = cell_counts[np.arange(16), best]
    other_n = cell_counts.sum(axis=1) - best_n
    if ((best_n < 0.3 * labels.shape[1]) | (other_n > 0.1 * labels.shape[1])).any():
        return None
    lab = best + EMPTY
    if any(l >= FIRST_TILE and s.entries[l - FIRST_TILE].value is None for l in lab):
        return None
    return _grid_from_labels(lab, s.entries, {})


def _slow_read(region, profile, s, cells, strip_px, line_px, gap_share, jump, settled, start, ocr_allowed) -> Reading:
    def done(grid, state, detail="", ocr_calls=0, learned=False):
        return Reading(grid, state, profile.board_rect, detail, (time.perf_counter() - start) * 1000, ocr_calls, learned)

    overlay = _overlay(profile, s, line_px)
    if overlay is not None:
        state, colour, alpha = overlay
        return done(_read_under_overlay(s, strip_px, colour, alpha), state, f"overlay (wash {alpha:.2f})")
    if gap_share < 0.25:
        return done(None, BoardState.NO_BOARD, "the board's gap colour is not where the profile says: run `screenbot calibrate` again")
    if not settled:
        why = "tile between cells" if jump >= JUMP else "a cell shows two colours or a tile growing"
        return done(None, BoardState.UNSETTLED, why)
    # Still, but some cells are unclear or their colour is shared: read the digits.
    values: dict[int, int] = {}
    ocr_calls = 0
    learned = False
    for i in range(16):
        lab = int(cells.label[i])
        if lab == EMPTY:
            continue
        if lab >= FIRST_TILE and s.entries[lab - FIRST_TILE].value is not None and s.theme is not None:
            continue  # a built-in theme's colour names its value (a learned look's is checked, as above)
        cell_px = _cell_pixels(region, profile, i)
        colour, share = _mode_colour(strip_px[i])
        if share < 0.45:
            return done(None, BoardState.UNSETTLED, f"cell {i // SIZE},{i % SIZE} has no single colour")
        if lab == -1 and _is_flat(cell_px, colour):
            if profile.empty_colour is None:
                # a cell with nothing on it is an empty cell: learn its colour
                profile.empty_colour = tuple(int(round(v)) for v in colour)
                profile.changed = True
                values[i] = 0
                learned = True
                continue
            return done(None, BoardState.UNSETTLED, f"cell {i // SIZE},{i % SIZE} is blank in an unknown colour")
        value, called = value_from_digits(profile, cell_px, colour, ocr_allowed)
        ocr_calls += called
        if value is None:
            reading = done(None, BoardState.UNSETTLED, f"cell {i // SIZE},{i % SIZE}: no number could be read", ocr_calls)
            raise UnreadableTileError(
                f"cannot read the tile in row {i // SIZE + 1}, column {i % SIZE + 1} (colour "
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
    grid = _grid_from_labels(np.where(labels < 0, EMPTY, labels), s.entries, values)
    return done(grid, BoardState.PLAYING, "read digits" if ocr_calls else "", ocr_calls, learned)


def _cell_pixels(region: np.ndarray, profile: Profile, i: int) -> np.ndarray:
    r = profile.cells[i].translated(-profile.board_rect.x, -profile.board_rect.y)
    return region[r.y : r.bottom, r.x : r.right]


def _is_flat(cell_px: np.ndarray, colour) -> bool:
    h, w = cell_px.shape[:2]
    inner = cell_px[int(0.15 * h) : int(0.85 * h), int(0.15 * w) : int(0.85 * w)]
    return float((np.abs(inner.astype(np.int16) - np.asarray(colour)).max(axis=2) <= TOL).mean()) >= 0.98
