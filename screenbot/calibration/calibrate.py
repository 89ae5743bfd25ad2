"""Turns a frame into a Profile: find the board by structure, measure it, name its theme (colours.py). The
profiles of a board found are made in profiles.py, the preview in preview.py."""

from __future__ import annotations

import copy

from functools import partial

from dataclasses import replace
from typing import Sequence

from screenbot.board_state import BoardState
from screenbot.calibration.apart import find_apart_blocks
from screenbot.calibration.bare import find_tiles, tile_spans
from screenbot.calibration.blocks import find_block_boards
from screenbot.calibration.colours import _close, gap_shades, measure_colours, theme_of
from screenbot.calibration.framed import as_text, find_framed_lattices
from screenbot.calibration.errors import BoardOffScreenError, NoBoardError
from screenbot.calibration.inset import block_inset, tile_inset
from screenbot.calibration.lattice import WIDE_ASPECT, Lattice, Rejected, Search, find_lattices
from screenbot.calibration.look import dominant_share
from screenbot.calibration.lattice_grow import unfamiliar_rows
from screenbot.calibration.paper import paper_board
from screenbot.calibration.past_edge import blocks_go_on, text_goes_on
from screenbot.calibration.profiles import (blocks_profile, board_in_picture, board_rect, cell_rects, chosen, describe,
                                             inside_frame, monitor_of, overlap, text_profile)
from screenbot.calibration.text_lattice import TextBoard, background_candidates, find_text_boards
from screenbot.control.desktop import black_capture_problem
from screenbot.control.screen import Frame
from screenbot.errors import ScreenbotError
from screenbot.game.sizes import MAX_SIDE
from screenbot.geometry import Rect
from screenbot.imaging import LINE_THICK_PX, glyph_mask
from screenbot.profile import Profile, cell_patches


def calibrate(
    frame: Frame,
    pick: int | None = None,
    monitors: Sequence[Rect] | None = None,
    scale: float = 1.0,
    source: str = "",
    search: Search | None = None,
) -> Profile:
    """Find the one board in the frame (or candidate number `pick`, 1-based) and measure it.

    Raises NoBoardError (BoardOffScreenError when a grid runs off the edge) and
    ManyBoardsError (several boards and no pick).
    """
    try:
        profile = _calibrate(frame, pick, monitors, scale, source, search)
    except BoardOffScreenError:
        raise
    except NoBoardError as exc:
        tiles = find_tiles(frame.pixels)
        if tiles is None:
            raise
        raise NoBoardError(f"{exc}; {len(tiles.rects)} tiles stand on a plain background with no board drawn round "
                           "them: `screenbot calibrate --probe` presses arrow keys to see where its cells are") from None
    if profile.shape != (4, 4):
        _reads_as_a_board(frame, profile)
    return profile


def calibrate_lattice(frame: Frame, lattice: Lattice, monitors: Sequence[Rect] | None = None, scale: float = 1.0,
                      source: str = "") -> Profile:
    """The profile of a board whose lattice is known from elsewhere (tiles alone, placed by the keys that
    moved them: calibration/bare.py), measured in `frame` as a board found there would be."""
    profile = _calibrate_found(frame, None, monitors, scale, source, Search(boards=[lattice]), framed=False, bare=True)
    if _profile_reads(frame, profile):
        return profile
    # tiles whose own corners show the background (rounded far in): their numbers on the paper, as text
    return _calibrate_found(frame, None, monitors, scale, source, Search(boards=[lattice]), framed=False)


def _whole(frame: Frame, lattice: Lattice, search: Search) -> Lattice:
    """A lattice of another size than the classic that reads as a board, grown by each row or column of
    cells beyond it, in colours it does not have, as long as the bigger board reads too: tiles of values
    seen nowhere else on the board (a column of them with no empty cell) left the rest looking like a
    smaller board."""
    while True:
        for bigger in unfamiliar_rows(frame.pixels, lattice, dominant_share):
            if _lattice_reads(frame, bigger, search):
                lattice = bigger
                break
        else:
            return lattice


def _lattice_reads(frame: Frame, lattice: Lattice, search: Search) -> bool:
    """The board of this lattice alone reads as a 2048 board."""
    try:
        profile = _calibrate(frame, None, None, 1.0, "", Search(boards=[lattice]), framed=False)
    except ScreenbotError:
        return False
    if profile.kind == "text":  # the characters ruling its cells (`-`, `|`, `+`) are marks, as the read after knows
        from screenbot.vision.marks import learn_marks

        learn_marks(frame, profile)
    return _profile_reads(frame, profile)


def _reads_with_marks(frame: Frame, profile: Profile) -> bool:
    """The profile reads as a board once the marks over it are learned (as a calibrated profile's are),
    learned on a copy: the profile is left as it is."""
    if profile.kind != "text":
        return _profile_reads(frame, profile)
    from screenbot.vision.marks import learn_marks

    trial = copy.deepcopy(profile)
    learn_marks(frame, trial)
    return _profile_reads(frame, trial)


def _profile_reads(frame: Frame, profile: Profile) -> bool:
    try:
        _reads_as_a_board(frame, profile)
    except ScreenbotError:
        return False
    return True


def _reads_as_a_board(frame: Frame, profile: Profile) -> None:
    """A grid of another size than the classic is a board only when its cells read as one: tiles that
    are powers of two (a calendar's or a table's numbers are not) and at least one of them. NoBoardError
    otherwise."""
    from screenbot.vision import read_board

    try:
        reading = read_board(frame, profile.shifted(0, 0))
    except ScreenbotError as exc:  # a number that names no tile, OCR that cannot say
        raise NoBoardError(f"a grid of {profile.rows}x{profile.cols} squares whose cells do not read as 2048 tiles "
                           f"({str(exc).split(':')[0]}): not a 2048 board; show the whole game and try again") from None
    tiles = [v for row in (reading.grid or ()) for v in row if v]
    if reading.state not in (BoardState.PLAYING, BoardState.OVER) or not tiles:
        why = "no tile on it" if reading.grid else reading.detail.split(":")[0] or reading.state.value
        raise NoBoardError(f"a grid of {profile.rows}x{profile.cols} squares whose cells do not read as 2048 tiles "
                           f"({why}): not a 2048 board; show the whole game and try again")


def _calibrate(frame: Frame, pick: int | None, monitors: Sequence[Rect] | None, scale: float, source: str,
               search: Search | None, framed: bool = True) -> Profile:
    profile = _calibrate_found(frame, pick, monitors, scale, source, search, framed)
    if framed and pick is None:
        inside = _framed_profile(frame, monitors, scale, source)
        if inside is not None and _holds(inside.board_rect, profile) and _same_steps(inside, profile):
            # a board in a frame whose empty cells are not drawn may leave whole rows or columns of it blank:
            # what was found is then part of it, and the frame says how much more there is; or what was
            # found does not read and looks for empty cells of another colour than the frame's (they are
            # the gaps' colour). Where both agree on the empty cells, what was found is kept: it may not
            # read now for another reason (a number wider than its cell, read once still)
            # (more cells only where the empty cells found are not drawn in a colour of their own: drawn
            # ones would show in the rows the frame adds, and a window round a board is no frame of it)
            drawn = profile.empty_colour is not None and not _same_colour(inside.empty_colour, profile.empty_colour)
            if (len(inside.cells) > len(profile.cells) and not (drawn and _reads_with_marks(frame, profile))) or (
                    inside.empty_colour is not None and not _same_colour(inside.empty_colour, profile.empty_colour)
                    and not _reads_with_marks(frame, profile)):
                return inside
    return profile


def _same_colour(a, b, tol: int = 12) -> bool:
    return a is not None and b is not None and _close(a, b, tol)


def _same_steps(a: Profile, b: Profile, slack: float = 0.1) -> bool:
    """The two profiles' cells stand the same distance apart each way (one lattice, maybe more of it)."""
    def steps(p: Profile) -> tuple[float, float]:
        cols = p.cols
        across = p.cells[1].x - p.cells[0].x if cols > 1 else p.cells[0].w
        down = p.cells[cols].y - p.cells[0].y if len(p.cells) > cols else p.cells[0].h
        return float(across), float(down)
    return all(abs(u - v) <= slack * max(u, v) for u, v in zip(steps(a), steps(b)))


def _holds(board: Rect, profile: Profile) -> bool:
    """Every cell of the profile lies within `board`."""
    return all(board.x <= c.x and board.y <= c.y and c.right <= board.right and c.bottom <= board.bottom
               for c in profile.cells)


def _calibrate_found(frame: Frame, pick: int | None, monitors: Sequence[Rect] | None, scale: float, source: str,
                     search: Search | None, framed: bool = True, bare: bool = False) -> Profile:
    # bare: the lattice of tiles drawn alone (calibrate_lattice): its empty cells are its gaps' colour
    if search is None:
        search = find_lattices(frame.pixels)
        search.unscreened = True
    if search.unscreened or search.doubtful:
        # a grid of another size than the classic, or of cells that touch, is a candidate only when its
        # cells read as a board
        boards = []
        for b in search.boards:
            other_size = search.unscreened and b.shape != (4, 4)
            if other_size or b in search.doubtful:
                if not _lattice_reads(frame, b, search):
                    search.rejected.append(Rejected(b.board_rect, f"a {b.rows}x{b.cols} grid whose cells are no 2048 tiles"))
                    continue
                if other_size:
                    b = _whole(frame, b, search)
            boards.append(b)
        search.boards, search.unscreened, search.doubtful = boards, False, []
    known_look = search.boards and all(theme_of(frame, b)[0] is not None for b in search.boards)
    text = [] if known_look else find_text_boards(frame.pixels)  # a built-in theme's board is tiles
    # text of another size than the classic is a board only when it reads as one (the bars of a grid
    # ruled with characters, lines of a menu, stand in columns too), and only where no classic board is
    # written (a board of another size leaves none: its parts go on past four rows or columns)
    classic = [t for t in text if t.lattice.shape == (4, 4)]
    if len(classic) > 1:  # several: those that read as a board, where any does (the others are lattices of its parts)
        classic = [t for t in classic if _text_reads(frame, t)] or classic
    text = classic or _distinct([_grown(frame, t) for t in text if _text_reads(frame, t)])
    if text and (tiles := find_tiles(frame.pixels)) is not None:
        text = [t for t in text if not tile_spans(tiles, t.lattice)]
    if text:
        # numbers written on the background make a text board, even where filled blocks (tiles in
        # an ANSI colour) looked like a lattice of squares too
        overlapping = [b for b in search.boards
                       if any(overlap(board_rect(b, frame), board_rect(t.lattice, frame)) for t in text)]
        # a lattice of squares of another shape than the text on it (boxes round the cells, a row of them
        # empty with nothing written) outlines the board: its cells are read as text (paper_board below)
        same_shape = all(any(b.shape == t.lattice.shape for t in text) for b in overlapping)
        if len(overlapping) == len(search.boards) and same_shape:
            profile = text_profile(frame, text, pick, monitors, scale, source)
            # where a lattice of squares is there too, the text must read as a board (the stubs left
            # where a grid's lines cross are marks on a lattice, but no numbers)
            if search.boards:
                # a lattice of squares ruled round the cells places them better than numbers written
                # right or left in them: the text's cells are taken only where they are the lattice's
                if _profile_reads(frame, profile) and all(_aligned(t.lattice, b) for t in text for b in overlapping
                                                          if b.shape == t.lattice.shape):
                    return profile
            elif _profile_reads(frame, profile):
                return profile
            elif framed and (inside := _framed_profile(frame, monitors, scale, source)) is not None:
                return inside
            elif not (blocks := _read_blocks(frame)):
                return profile
            else:
                # numbers written on blocks that touch, the commonest of them taken for a background,
                # that do not read as a board: the blocks that read as one are the board
                return blocks_profile(frame, blocks, pick, monitors, scale, source)
    if not search.boards and not text:
        # blocks apart one way may be many times wider than tall (a text line tall, a number and its room wide)
        blocks = _read_blocks(frame) or find_apart_blocks(
            frame.pixels, partial(find_block_boards, max_aspect=WIDE_ASPECT), lambda lat: _blocks_read(frame, lat))
        # a classic lattice of blocks that does not read (caught mid-move, or off the board by a row: two
        # tiles one on another fit a lattice a row up too) yields to a board written on the paper that reads
        unread = bool(blocks) and not any(_blocks_read(frame, b) for b in blocks)
        if blocks and not unread:
            return blocks_profile(frame, blocks, pick, monitors, scale, source)
        # tiles drawn as blocks in ruled cells, in too few rows for a lattice of squares (a 3x3 board with
        # its bottom row empty): the cells' writing and blocks make the board, where they read as one
        ruled = find_text_boards(frame.pixels, blocks=True)
        inset = _distinct([t for t in ruled if _text_reads(frame, t, marks=True)])
        inset = [t for t in inset if not text_goes_on(frame, t)]
        if inset:
            return text_profile(frame, inset, pick, monitors, scale, source)
        if blocks:
            return blocks_profile(frame, blocks, pick, monitors, scale, source)
        # every cell a block inset in its ruled box, the empty cells' blocks too (wider than any lattice of
        # squares: a text line tall): the blocks, each read by its own colour and digits, are the board
        blocks = _blocksinside_frame(frame, [(t.lattice, t.background) for t in ruled])
        if blocks:
            return blocks_profile(frame, blocks, pick, monitors, scale, source)
        inside = _framed_profile(frame, monitors, scale, source) if framed else None
        if inside is not None:
            return inside
        # blocks far wider than tall (a text line tall), apart both ways or in boxes of their own: a lattice
        # of such cells, where each holds a block at one inset (the empty cells' blocks too)
        wide = find_lattices(frame.pixels, WIDE_ASPECT)
        blocks = _blocksinside_frame(frame, [(lat, bg) for lat in wide.boards
                                        for bg in background_candidates(frame.pixels, most=2)])
        if blocks:
            return blocks_profile(frame, blocks, pick, monitors, scale, source)
        # such cells with the empty ones bare: the lattice of wide cells, where it reads as a board
        wide.boards = [b for b in wide.boards if _lattice_reads(frame, b, wide)]
        if wide.boards:
            wide.doubtful, wide.unscreened = [], False
            return _calibrate_found(frame, pick, monitors, scale, source, wide, framed)
    if not search.boards:
        black = black_capture_problem(frame.pixels)
        if black is not None:
            raise NoBoardError(black)
        if search.cut_off:
            x, y, w, h = search.cut_off[0]
            raise BoardOffScreenError(
                f"a board at about {[int(x) + frame.left, int(y) + frame.top, int(w), int(h)]} runs off the edge of "
                "the screen: move the game window fully onto one screen and calibrate again"
            )
        why = ""
        if search.rejected:
            why = f" (saw {search.rejected[0].reason})"
            if "moving" in search.rejected[0].reason:
                raise NoBoardError(f"the board seems to be moving{why}: calibrate again when it is still")
        raise NoBoardError(
            f"no 2048 board found on the screen{why}: show the whole game (no menu or window over it) and try again"
        )
    lattice = chosen(search.boards, search.boards, pick, frame,
                      f"{len(search.boards)} boards found ({describe(search, frame)})")
    gap, empty = measure_colours(frame.pixels, lattice)
    if bare:
        empty = gap
    theme, overlay = theme_of(frame, lattice)
    if theme is None and not bare:
        paper = paper_board(frame.pixels, lattice)
        if paper is not None:  # numbers written on cells of one colour: read as text, in these cells
            # cells apart on a colour of their own (gaps wider than a drawn line): that colour is no writing
            apart = min(lattice.gap_x, lattice.gap_y) > LINE_THICK_PX and not _close(gap, paper.background, 16)
            written = text_profile(frame, [paper], None, monitors, scale, source, gap if apart else None)
            if not framed or _reads_with_marks(frame, written):
                return written  # else (tiles that filled the board, read as paper) the tiles' look is tried
    board = board_in_picture(lattice, frame)
    if theme is not None:
        gap, empty = theme.gap, theme.empty
    profile = Profile.from_cells(
        board,
        cell_rects(lattice, frame),
        monitor=monitor_of(board, monitors),
        scale=float(scale),
        theme=theme.name if theme else "learned",
        gap_colour=gap,
        empty_colour=empty,
        overlay_at_calibration=overlay,
        source=source,
        shape=lattice.shape,
    )
    if theme is None:
        inset = tile_inset(frame.pixels, [c.translated(-frame.left, -frame.top) for c in profile.cells], empty)
        if inset is not None:  # tiles drawn inset in their cells: sample each tile in its own rectangle
            profile.tile_inset = inset
            profile.patches = tuple(cell_patches(profile.tile_rect(i)) for i in range(len(profile.cells)))
        profile.gap_shades = gap_shades(frame, profile, lattice)
        if max(lattice.gap_x, lattice.gap_y) <= LINE_THICK_PX and not _profile_reads(frame, profile):
            touching = _touching_blocks(frame, board, monitors, scale, source)
            if touching is not None:
                return touching
    else:
        # a built-in look drawn with ruled lines of its own in the gaps (a terminal game in the classic
        # colours, boxes round the cells): their colour is the gap's too
        profile.gap_shades = gap_shades(frame, profile, lattice)
    return profile


def _framed_profile(frame: Frame, monitors: Sequence[Rect] | None, scale: float, source: str) -> Profile | None:
    """The profile of a board whose empty cells are not drawn (a frame with tiles on the background inside
    it) where one reads, else None: filled tiles read as blocks (each by its own colour and digits), else
    as tiles or, where their colours tell too little (the empty cells are the gaps' colour), as text."""
    tiles = find_tiles(frame.pixels)
    for found in find_framed_lattices(frame.pixels):
        lat = found.lattice
        if tiles is not None and tile_spans(tiles, lat):
            continue
        if found.filled:  # blocks on the background: each cell's own colour and digits
            try:
                blocks = blocks_profile(frame, [lat], None, monitors, scale, source)
            except ScreenbotError:
                blocks = None
            if blocks is not None and _profile_reads(frame, blocks):
                return blocks
        try:
            profile = _calibrate(frame, None, monitors, scale, source, Search(boards=[lat]), framed=False)
        except ScreenbotError:
            profile = None
        if profile is not None and _reads_with_marks(frame, profile):
            return profile
        written = as_text(frame.pixels, lat)
        if written is not None and _text_reads(frame, written):
            return text_profile(frame, [written], None, monitors, scale, source)
    return None


def _touching_blocks(frame: Frame, board: Rect, monitors: Sequence[Rect] | None, scale: float,
                     source: str) -> Profile | None:
    """The profile of a board of blocks that touch on `board`, where one reads there, else None.

    Blocks that touch can outline squares on an even lattice (a tile beside tiles of other colours
    in every row and column): found as tiles with no gap between them, the empty cells are taken
    for gaps and the board does not read. The same cells read as blocks then decide."""
    # looked for around the board only (a part of a bigger board of blocks may have been taken for it:
    # as much again on each side holds the whole)
    local = board.inset(-max(board.w, board.h)).intersection(frame.rect)
    if local is None:
        return None
    part = frame.crop(local)
    shift = (part.left - frame.left, part.top - frame.top)
    blocks = [b.translated(*shift) for b in _read_blocks(part) if overlap(board_rect(b, part), board)]
    if len(blocks) != 1:
        return None
    touching = blocks_profile(frame, blocks, None, monitors, scale, source)
    return touching if _profile_reads(frame, touching) else None


def _aligned(a: Lattice, b: Lattice) -> bool:
    """Whether two lattices of one shape have their cells' middles within a quarter step of each other."""
    return (abs(a.x0 + a.cell_w / 2 - b.x0 - b.cell_w / 2) <= b.pitch_x / 4
            and abs(a.y0 + a.cell_h / 2 - b.y0 - b.cell_h / 2) <= b.pitch_y / 4)


def _text_reads(frame: Frame, board: TextBoard, marks: bool = False) -> bool:
    """The board written as text alone reads as a 2048 board (`marks`: once the marks over it are learned,
    as a calibrated profile's are: the characters of boxes drawn round its cells, `+` as tall as a digit)."""
    try:
        profile = text_profile(frame, [board], None, None, 1.0, "")
    except ScreenbotError:
        return False
    return _reads_with_marks(frame, profile) if marks else _profile_reads(frame, profile)


def _grown(frame: Frame, board: TextBoard) -> TextBoard:
    """The text board with a row or a column more on a side, as long as something is written in it and
    the bigger board reads as 2048 tiles too: a row whose numbers stand off the columns the others fit
    (a wide number right-aligned) left the rest looking like a smaller board."""
    writing = glyph_mask(frame.pixels, board.background, board.ink_diff)
    while True:
        lat = board.lattice
        bigger = []  # (the lattice one bigger, the new row's or column's first cell)
        if lat.rows < MAX_SIDE:
            bigger += [(replace(lat, y0=lat.y0 - lat.pitch_y, rows=lat.rows + 1), (0, 0)),
                       (replace(lat, rows=lat.rows + 1), (lat.rows, 0))]
        if lat.cols < MAX_SIDE:
            bigger += [(replace(lat, x0=lat.x0 - lat.pitch_x, cols=lat.cols + 1), (0, 0)),
                       (replace(lat, cols=lat.cols + 1), (0, lat.cols))]
        for grown, (r, c) in bigger:
            if not inside_frame(grown, frame):
                continue
            x, y, w, h = grown.cell(r, c)
            if grown.rows > lat.rows:  # the new row: its cells side by side
                strip = writing[int(y):int(y + h), int(grown.x0):int(grown.x0 + (grown.cols - 1) * grown.pitch_x + w)]
            else:  # the new column: its cells one over another
                strip = writing[int(grown.y0):int(grown.y0 + (grown.rows - 1) * grown.pitch_y + h), int(x):int(x + w)]
            if strip.any() and _text_reads(frame, replace(board, lattice=grown)):
                board = replace(board, lattice=grown)
                break
        else:
            return board


def _blocksinside_frame(frame: Frame, lattices: list[tuple[Lattice, tuple[int, int, int]]]) -> list[Lattice]:
    """The lattices of the blocks drawn at one inset in every cell of these lattices (each with the colour
    round its blocks), where they read as a board and no row or column of such blocks goes on past them."""
    out = []
    for lat, background in lattices:
        inset = block_inset(frame.pixels, list(cell_rects(lat, frame)), background)
        if inset is None:
            continue
        left, top, right, bottom = inset
        inner = replace(lat, x0=lat.x0 + left, y0=lat.y0 + top, cell_w=lat.cell_w - left - right,
                        cell_h=lat.cell_h - top - bottom, margin_x=lat.margin_x + left, margin_y=lat.margin_y + top)
        if blocks_go_on(frame, lat, background, inset) or not _blocks_read(frame, inner):
            continue
        if all(inner != o for o in out):
            out.append(inner)
    return out


def _distinct(boards: list[TextBoard]) -> list[TextBoard]:
    """The boards, each lattice once."""
    out: list[TextBoard] = []
    for b in boards:
        if all(b.lattice != o.lattice for o in out):
            out.append(b)
    return out


def _read_blocks(frame: Frame) -> list[Lattice]:
    """The boards of touching blocks in the frame, each chosen by its reading where the structure leaves
    a doubt (find_block_boards)."""
    return find_block_boards(frame.pixels, confirm=lambda lat: _blocks_read(frame, lat))


def _blocks_read(frame: Frame, lattice: Lattice) -> bool:
    """The board of blocks on this lattice alone reads as a 2048 board, with an empty cell on it (blank
    cells of one colour: a number written on every cell, a `0` on the empty ones that OCR may take for an
    8, makes no board of blocks)."""
    try:
        profile = blocks_profile(frame, [lattice], None, None, 1.0, "")
    except ScreenbotError:
        return False
    return profile.empty_colour is not None and _profile_reads(frame, profile)
