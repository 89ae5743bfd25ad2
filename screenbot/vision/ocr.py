"""Reads the number on one tile with tesseract (the fallback when colour cannot tell), and digit-shape keys."""

from __future__ import annotations

import re

import cv2
import numpy as np

from screenbot.errors import ScreenbotError
from screenbot.game.rules import is_tile
from screenbot.imaging import EDGE_PX, FG_DIFF, LINE_THICK_PX, glyph_mask
from screenbot.segments import read_segment_number
from screenbot.vision.tesseract import install_hint, tesseract_program

GLYPH_W, GLYPH_H = 32, 12  # digit-shape key resolution (columns x rows)
# tesseract's FAQ, "Is there a Minimum / Maximum Text Size?": accuracy collapses below an x-height
# of ~10 px, and the LSTM engine falters above ~30 px
DIGIT_HEIGHT = 28  # px: tesseract reads digits best at about this height
MARGIN = 12  # white border around the digits
DIGITS = "0123456789"  # what tesseract may answer for a tile
KILO = DIGITS + "kK"  # ... and for a number a terminal game writes as 1k, 2k
FOR_TILES = "to read tiles that share a colour"  # what OCR is needed for, said when tesseract is missing


class OcrUnavailableError(ScreenbotError):
    """tesseract is not installed, so tiles that share a colour cannot be told apart."""


EDGE_SHARE = 0.4  # digits cut by the box's top (bottom) edge keep to the tile's top (bottom) this share


def digit_box(cell: np.ndarray, background, diff: int = FG_DIFF) -> tuple[int, int, int, int]:
    """(y0, y1, x0, x1): the part of a cell its digits are looked for in. The outer sixth is left out
    (rounded corners, the neighbours' glow), unless digits cross that line at the top or the bottom (a
    number on a tall block's first or last text line), the rest of the box clear: then the box reaches to
    the cell's edge there, less the edge itself."""
    return _digits_found(cell, background, diff)[0]


def digit_mask(cell: np.ndarray, background, diff: int = FG_DIFF) -> np.ndarray:
    """True where a cell's pixel belongs to the digits: more than `diff` from the tile's background colour,
    inside digit_box."""
    return _digits_found(cell, background, diff)[1]


def _digits_found(cell: np.ndarray, background, diff: int) -> tuple[tuple[int, int, int, int], np.ndarray]:
    """digit_box and digit_mask, from one mask of the cell's columns."""
    h, w = cell.shape[:2]
    y0, y1, x0, x1 = int(0.12 * h), int(0.88 * h), int(0.06 * w), int(0.94 * w)
    ink = _without_borders(glyph_mask(cell[:, x0:x1], background, diff).astype(bool))
    rows = np.flatnonzero(ink[y0:y1].any(axis=1))
    if h > 4 * EDGE_PX and y0 > EDGE_PX and len(rows):
        # only where all the ink in the box keeps to that edge's side (a picture across the tile is no number)
        if (ink[y0] & ink[y0 - 1]).any() and y0 + rows[-1] < EDGE_SHARE * h:
            y0 = EDGE_PX
        elif (ink[y1 - 1] & ink[y1]).any() and y0 + rows[0] > (1 - EDGE_SHARE) * h:
            y1 = h - EDGE_PX
    return (y0, y1, x0, x1), ink[y0:y1]


BORDER_SHARE = 0.9  # an unbroken thin run of ink this share of the cell across (or down) is a border, no digit
BORDER_REST = 0.05  # ... where the mark it belongs to is lines but for this share


def _without_borders(ink: np.ndarray) -> np.ndarray:
    """The ink less the marks made only of thin lines (twice LINE_THICK_PX at most) running unbroken across or
    down nearly the whole cell: a tile drawn as a box round its number, a rule. Digits, even many side by side,
    leave room between them; a band of another colour joined to more of it (round a picture tile) stays."""
    h, w = ink.shape
    if h < 4 or w < 4:
        return ink
    long_w, long_h = (max(3, int(BORDER_SHARE * n)) | 1 for n in (w, h))  # odd: the opening keeps a run's ends
    if ink.sum(axis=1).max() < long_w and ink.sum(axis=0).max() < long_h:
        return ink  # no row or column holds that much ink (most tiles: a number alone): no line to look for
    mask = ink.astype(np.uint8)
    across = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((1, long_w), np.uint8))
    down = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((long_h, 1), np.uint8))
    if not across.any() and not down.any():
        return ink
    thick = 2 * LINE_THICK_PX + 1  # a line and its antialiased or doubled edge
    across &= ~cv2.morphologyEx(across, cv2.MORPH_OPEN, np.ones((thick, 1), np.uint8))
    down &= ~cv2.morphologyEx(down, cv2.MORPH_OPEN, np.ones((1, thick), np.uint8))
    lines = cv2.dilate(across | down, np.ones((3, 3), np.uint8)).astype(bool)
    n, labels = cv2.connectedComponents(mask, connectivity=8)
    on_lines = np.unique(labels[lines & ink])
    out = ink.copy()
    for k in on_lines[on_lines > 0]:
        part = labels == k
        if (part & ~lines).sum() <= BORDER_REST * part.sum():  # a mark of lines alone
            out &= ~part
    return out


CORE_SHARE = 0.7  # a stroke's core: pixels this share of the strongest contrast from the background


def _core_diff(cell: np.ndarray, background, diff: int) -> int:
    """The contrast a pixel needs to be a stroke's core (not the blur at its edge)."""
    strongest = int(np.abs(cell.astype(np.int16) - np.asarray(background, np.int16)).max())
    return max(diff, int(CORE_SHARE * strongest))


def glyph_bits(mask: np.ndarray) -> np.ndarray | None:
    """The digits' shape, cropped to their bounding box and shrunk to GLYPH_H x GLYPH_W booleans."""
    ys, xs = np.nonzero(mask)
    if len(xs) < 4:
        return None
    crop = mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].astype(np.float32)
    small = cv2.resize(crop, (GLYPH_W, GLYPH_H), interpolation=cv2.INTER_AREA)
    # strokes thinner than a bin (line-art digits) never fill one: half the fullest bin marks ink then
    return small >= min(0.5, 0.5 * float(small.max()))


def glyph_key(colour, bits: np.ndarray) -> str:
    """A text key for (tile colour, digit shape): 'rrggbb:hex bits'."""
    b, g, r = (int(v) for v in colour)
    return f"{r:02x}{g:02x}{b:02x}:{np.packbits(bits.ravel()).tobytes().hex()}"


def key_bits(key: str) -> tuple[tuple[int, int, int], np.ndarray]:
    colour_hex, bits_hex = key.split(":")
    r, g, b = int(colour_hex[0:2], 16), int(colour_hex[2:4], 16), int(colour_hex[4:6], 16)
    bits = np.unpackbits(np.frombuffer(bytes.fromhex(bits_hex), np.uint8))[: GLYPH_W * GLYPH_H]
    return (b, g, r), bits.reshape(GLYPH_H, GLYPH_W).astype(bool)


def _tessdata() -> str | None:
    """Where tesseract's language files are (TESSDATA_PREFIX, else what the tesseract program says)."""
    import os
    import subprocess

    env = os.environ.get("TESSDATA_PREFIX")
    if env:
        return env
    exe = tesseract_program()
    if not exe:
        return None
    try:
        out = subprocess.run([exe, "--list-langs"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    for line in (out.stdout + out.stderr).splitlines():
        if '"' in line and "languages" in line:
            return line.split('"')[1]
    return None


def missing(what: str = FOR_TILES) -> OcrUnavailableError:
    """The error for OCR asked for with no tesseract program: what it was needed for, and how to install it."""
    return OcrUnavailableError(f"tesseract not found, needed {what}: {install_hint()}")


def pytesseract_module(what: str = FOR_TILES):
    """pytesseract, pointed at the tesseract program found (OcrUnavailableError, saying it was needed
    `what` for, when there is none)."""
    program = tesseract_program()
    if program is None:
        raise missing(what)
    try:
        import pytesseract
    except ImportError as exc:
        raise OcrUnavailableError(f"pytesseract cannot be loaded ({exc}): pip install pytesseract") from exc
    pytesseract.pytesseract.tesseract_cmd = program
    return pytesseract


class _Engine:
    """tesseract behind one call: in-process (tesserocr, ~10-20 ms) when installed, else pytesseract (~150 ms)."""

    def __init__(self) -> None:
        self.api = None
        self.kind = None
        self.chars = DIGITS  # the whitelist set on the in-process engine

    def _start(self) -> None:
        if self.kind is not None:
            return
        try:
            import tesserocr  # noqa: PLC0415 - optional, faster
            path = _tessdata()
            if path:
                api = tesserocr.PyTessBaseAPI(path=path.rstrip("/") + "/", lang="eng", psm=tesserocr.PSM.SINGLE_LINE)
                api.SetVariable("tessedit_char_whitelist", DIGITS)
                api.SetVariable("classify_enable_learning", "0")
                self.api, self.kind = api, "tesserocr"
                return
        except (ImportError, RuntimeError):
            pass
        pytesseract_module()
        self.kind = "pytesseract"

    def read(self, image: np.ndarray, chars: str = DIGITS) -> str:
        self._start()
        if self.kind == "tesserocr":
            from PIL import Image

            if self.chars != chars:
                self.api.SetVariable("tessedit_char_whitelist", chars)
                self.chars = chars
            self.api.SetImage(Image.fromarray(image))
            return self.api.GetUTF8Text()
        return pytesseract_module().image_to_string(image, config=f"--psm 7 -c tessedit_char_whitelist={chars}")

    def read_block(self, image: np.ndarray) -> str:
        """Any text (letters, digits, punctuation) in a block of a few lines."""
        self._start()
        if self.kind == "tesserocr":
            import tesserocr
            from PIL import Image

            self.api.SetVariable("tessedit_char_whitelist", "")
            self.api.SetPageSegMode(tesserocr.PSM.SINGLE_BLOCK)
            try:
                self.api.SetImage(Image.fromarray(image))
                return self.api.GetUTF8Text()
            finally:
                self.api.SetPageSegMode(tesserocr.PSM.SINGLE_LINE)
                self.api.SetVariable("tessedit_char_whitelist", self.chars)
        return pytesseract_module().image_to_string(image, config="--psm 6")


_ENGINE = _Engine()


def tesseract_available() -> bool:
    try:
        _ENGINE._start()
    except OcrUnavailableError:
        return False
    return True


def read_words(mask: np.ndarray, letter_h: float) -> str:
    """The words written where `mask` is true (a box of text, letters letter_h px tall), lower case."""
    ys, xs = np.nonzero(mask)
    if len(xs) < 4:
        return ""
    crop = mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    image = np.where(crop, 0, 255).astype(np.uint8)  # dark letters on white
    scale = DIGIT_HEIGHT / max(1.0, letter_h)
    if abs(scale - 1) > 0.05:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    image = cv2.copyMakeBorder(image, MARGIN, MARGIN, MARGIN, MARGIN, cv2.BORDER_CONSTANT, value=255)
    return _ENGINE.read_block(image).lower()


def prepare(cell: np.ndarray, background, digit_height: int = DIGIT_HEIGHT, diff: int = FG_DIFF) -> np.ndarray | None:
    """Dark digits on white, cropped to the digits with a margin, digits scaled to digit_height px.

    The grey picture is enlarged before it is thresholded, so small digits keep their shapes.
    """
    (y0, _, x0, _), mask = _digits_found(cell, background, diff)
    ys, xs = np.nonzero(mask)
    if len(xs) < 4:
        return None
    pad = 2
    crop = cell[
        max(0, y0 + ys.min() - pad) : y0 + ys.max() + 1 + pad,
        max(0, x0 + xs.min() - pad) : x0 + xs.max() + 1 + pad,
    ]
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    scale = digit_height / max(1, ys.max() - ys.min() + 1)
    if abs(scale - 1) > 0.05:
        grey = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    otsu_t, binary = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bg_grey = float(cv2.cvtColor(np.uint8([[background]]), cv2.COLOR_BGR2GRAY)[0, 0])
    if bg_grey <= otsu_t:  # light digits on a darker tile: make the tile white, the digits black
        binary = 255 - binary
    return cv2.copyMakeBorder(binary, MARGIN, MARGIN, MARGIN, MARGIN, cv2.BORDER_CONSTANT, value=255)


def _digit_count(mask: np.ndarray) -> int:
    """How many separate marks the digits (`mask`, from digit_mask) make (usually one per digit)."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    if n <= 1:
        return 0
    tall = stats[1:, cv2.CC_STAT_HEIGHT]
    return int((tall >= 0.6 * tall.max()).sum())


def read_number(cell: np.ndarray, background, kilo: bool = False, diff: int = FG_DIFF,
                zero: bool = False) -> int | None:
    """The tile value written on a cell (BGR pixels), or None when tesseract gives no sure power of two.

    Reads the digits at a few sizes; an answer counts when it is a power of two and either
    two sizes agree or it has as many digits as the tile shows separate marks, and never when it has
    fewer. `kilo`: the number may end in k for thousands of 1024 (terminal games write 1024 as 1k). `diff`: how far
    from the background a pixel belongs to the digits (faint writing on flat paper needs less).
    `zero`: a lone "0" is an answer too (0: the game writes its empty cells as 0); it needs two sizes
    to agree, as a 0 taken for an 8 would lose a tile.
    """
    # numbers drawn rather than printed (seven-segment line art, block fonts) are read by their
    # strokes, which tesseract takes for other digits (a block "8" for a 4); a printed number's curves
    # and slants leave the strokes' places half marked, and it goes to tesseract
    mask = digit_mask(cell, background, diff)
    drawn = read_segment_number(mask)
    if drawn is not None and drawn != read_segment_number(digit_mask(cell, background, _core_diff(cell, background, diff))):
        drawn = None  # the strokes' cores say otherwise: a small printed digit's blur joined its parts (a 0's dot)
    if drawn is not None:
        return drawn if (drawn >= 2 and is_tile(drawn)) or (zero and drawn == 0) else None
    votes: dict[int, int] = {}
    marks = _digit_count(mask)
    for height in (DIGIT_HEIGHT, 40, 22, 32, 20, 24, 48, 16):
        image = prepare(cell, background, height, diff)
        if image is None:
            return None
        text = _ENGINE.read(image, KILO if kilo else DIGITS)
        if kilo:
            found = re.fullmatch(r"(\d{1,6})([kK]?)", "".join(text.split()))
            if not found:
                continue
            value = int(found.group(1)) * (1024 if found.group(2) else 1)
            length = len(found.group(0))
        else:
            digits = "".join(ch for ch in text if ch.isdigit())
            if not digits or len(digits) > 6:
                continue
            value, length = int(digits), len(digits)
        if zero and value == 0 and length == 1:
            votes[0] = votes.get(0, 0) + 1
            if votes[0] >= 2:
                return 0
            continue
        if value < 2 or not is_tile(value):
            continue
        votes[value] = votes.get(value, 0) + 1
        # an answer shorter than the marks (a "2k" read as 2, a 64 whose 6 tesseract passed over read
        # as 4) is never taken; touching digits make fewer marks than characters, so a longer one may be
        if length == marks or (votes[value] >= 2 and length >= marks):
            return value
    return None


# A message's text (the win message's "Press Enter to keep going"): the colours that may be its
# letters cover between these shares of the picture (less: specks; more: a background).
TEXT_COLOUR_SHARE = (0.003, 0.2)
TEXT_COLOUR_TOLERANCE = 40  # levels (max over B, G, R) from a text colour that still count as it


def text_colours(pixels: np.ndarray, count: int = 6) -> list[np.ndarray]:
    """The most common colours (16-level bins, BGR means) that cover a text-sized share of the picture."""
    flat = pixels.reshape(-1, 3)
    q = (flat // 16).astype(np.int32)
    codes = (q[:, 0] << 8) | (q[:, 1] << 4) | q[:, 2]
    counts = np.bincount(codes, minlength=4096)
    low, high = TEXT_COLOUR_SHARE
    found = []
    for code in np.argsort(counts)[::-1]:
        share = counts[code] / len(codes)
        if share < low:
            break
        if share <= high:
            found.append(flat[codes == code].mean(axis=0))
            if len(found) >= count:
                break
    return found


def read_text(pixels: np.ndarray, colours: int = 6, far_first: bool = False):
    """The text written on a picture (BGR), read by tesseract several ways, one reading at a time
    (a generator: the caller stops once a reading tells it what it needs). First the whole picture
    in grey, then each text-coloured layer alone (dark letters on white), of the `colours` commonest
    (`far_first`: those farthest from the picture's median colour first, as a message's letters on
    a board of tiles are): a message drawn over tiles is read best without the tiles' own digits and
    edges."""
    pytesseract = pytesseract_module("to read the win message")
    yield pytesseract.image_to_string(cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY), config="--psm 6")
    found = text_colours(pixels, colours)
    if far_first:
        median = np.median(pixels.reshape(-1, 3), axis=0)
        found.sort(key=lambda c: -float(np.abs(c - median).max()))
    for colour in found:
        distance = np.abs(pixels.astype(np.int16) - colour.astype(np.int16)).max(axis=2)
        layer = np.where(distance <= TEXT_COLOUR_TOLERANCE, 0, 255).astype(np.uint8)
        yield pytesseract.image_to_string(layer, config="--psm 6")


def read_until(pixels: np.ndarray, parse, colours: int = 6, far_first: bool = False):
    """The first non-None `parse(text)` over read_text's readings of the picture (None: none gave one).
    Raises OcrUnavailableError without tesseract."""
    for text in read_text(pixels, colours, far_first):
        found = parse(text)
        if found is not None:
            return found
    return None
