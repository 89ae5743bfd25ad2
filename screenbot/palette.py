"""Built-in colour themes of 2048 boards (gap, empty cell, tiles, glow, overlays), colours as BGR."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from screenbot.board_state import BoardState

BGR = tuple[int, int, int]


def hex_bgr(text: str) -> BGR:
    """'#eee4da' -> (218, 228, 238): OpenCV pixel order."""
    t = text.lstrip("#")
    r, g, b = int(t[0:2], 16), int(t[2:4], 16), int(t[4:6], 16)
    return (b, g, r)


def blend(under: BGR, over: BGR, alpha: float) -> BGR:
    """`over` painted with opacity alpha on `under`."""
    return tuple(int(round((1 - alpha) * u + alpha * o)) for u, o in zip(under, over))  # type: ignore[return-value]


@dataclass(frozen=True)
class Overlay:
    """A translucent layer over the whole board: the state it means, its colour and full opacity."""

    state: BoardState  # won or over
    colour: BGR
    alpha: float


@dataclass(frozen=True)
class Theme:
    """The colours of one look of the game."""

    name: str
    gap: BGR  # the board behind the cells
    empty: BGR  # an empty cell
    tiles: tuple[tuple[int, BGR], ...]  # (value, background); one colour listed for several values = shared
    glow: BGR | None = None  # the halo big tiles cast over their neighbours
    overlays: tuple[Overlay, ...] = ()
    text: tuple[BGR, ...] = ()  # digit colours (a digit colour may equal a tile colour)


# gabrielecirulli/2048 style/main.scss; checked against real screenshots:
# the empty cell renders as #ccc0b4 (rgba(238,228,218,.35) over #bbada0).
CLASSIC = Theme(
    name="classic",
    gap=hex_bgr("#bbada0"),
    empty=hex_bgr("#ccc0b4"),
    tiles=(
        (2, hex_bgr("#eee4da")),
        (4, hex_bgr("#ede0c8")),
        (8, hex_bgr("#f2b179")),
        (16, hex_bgr("#f59563")),
        (32, hex_bgr("#f67c5f")),
        (64, hex_bgr("#f65e3b")),
        (128, hex_bgr("#edcf72")),
        (256, hex_bgr("#edcc61")),
        (512, hex_bgr("#edc850")),
        (1024, hex_bgr("#edc53f")),
        (2048, hex_bgr("#edc22e")),
        *((2**k, hex_bgr("#3c3a32")) for k in range(12, 18)),
    ),
    glow=hex_bgr("#f3d774"),
    overlays=(
        Overlay(BoardState.WON, hex_bgr("#edc22e"), 0.5),
        Overlay(BoardState.OVER, hex_bgr("#eee4da"), 0.5),
    ),
    text=(hex_bgr("#776e65"), hex_bgr("#f9f6f2")),
)

# The practice board's dark theme is read from its own stylesheet (screenbot/practice/static/
# style.css, `html.theme-dark`), so the two never drift apart.
STYLESHEET = Path(__file__).resolve().parent / "practice" / "static" / "style.css"
_PROP = re.compile(r"--([\w-]+)\s*:\s*([^;]+);")


def _css_blocks(css: str) -> dict[str, dict[str, str]]:
    blocks: dict[str, dict[str, str]] = {}
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        props = dict((k, v.strip()) for k, v in _PROP.findall(body))
        if props:
            blocks.setdefault(selector.strip(), {}).update(props)
    return blocks


def _css_colour(value: str, props: dict[str, str], under: BGR | None = None, depth: int = 0) -> tuple[BGR, float]:
    """(BGR, alpha) of a CSS colour value: #rrggbb, rgba(...), 'r, g, b', or var(--name)."""
    value = value.strip()
    if depth > 8:
        raise ValueError("var() loop")
    m = re.fullmatch(r"var\(--([\w-]+)\)", value)
    if m:
        return _css_colour(props[m.group(1)], props, under, depth + 1)
    if value.startswith("#") and len(value) == 7:
        return hex_bgr(value), 1.0
    m = re.fullmatch(r"rgba?\(([^)]*)\)", value) or re.fullmatch(r"(\d+\s*,\s*\d+\s*,\s*\d+)", value)
    if m:
        parts = [float(p) for p in m.group(1).split(",")]
        colour = (int(parts[2]), int(parts[1]), int(parts[0]))
        return colour, (parts[3] if len(parts) > 3 else 1.0)
    raise ValueError(f"not a colour: {value!r}")


def theme_from_stylesheet(css: str, selector: str, name: str) -> Theme:
    """A Theme from the practice page's custom properties (:root, overridden by `selector`)."""
    blocks = _css_blocks(css)
    props = dict(blocks.get(":root", {}))
    props.update(blocks.get(selector, {}))

    def colour(key: str) -> BGR:
        return _css_colour(props[key], props)[0]

    gap = colour("board-bg")
    empty_c, empty_a = _css_colour(props["cell-bg"], props)
    empty = blend(gap, empty_c, empty_a)
    values = [2**k for k in range(1, 12)]
    tiles = [(v, colour(f"t{v}")) for v in values] + [(2**k, colour("tsuper")) for k in range(12, 18)]
    text = {colour(k) for k in ("dark-tile-text", "light-tile-text") if k in props}
    text |= {colour(f"t{v}-text") for v in values if f"t{v}-text" in props}
    if "tsuper-text" in props:
        text.add(colour("tsuper-text"))
    overlays = []
    for state, key in ((BoardState.WON, "won-overlay"), (BoardState.OVER, "over-overlay")):
        c, a = _css_colour(props[key], props)
        overlays.append(Overlay(state, c, a))
    glow = _css_colour(props["glow-rgb"], props)[0] if "glow-rgb" in props else None
    return Theme(name, gap, empty, tuple(tiles), glow, tuple(overlays), tuple(sorted(text)))


# Used when the stylesheet cannot be read (an installed copy without package data).
DARK_FALLBACK = Theme(
    name="dark",
    gap=hex_bgr("#2f333d"),
    empty=hex_bgr("#3d424e"),
    tiles=(
        (2, hex_bgr("#e4e8ee")), (4, hex_bgr("#c9d3e0")), (8, hex_bgr("#2a9d8f")), (16, hex_bgr("#268bd2")),
        (32, hex_bgr("#6c71c4")), (64, hex_bgr("#d33682")), (128, hex_bgr("#b58900")), (256, hex_bgr("#cb4b16")),
        (512, hex_bgr("#dc322f")), (1024, hex_bgr("#859900")), (2048, hex_bgr("#e9c46a")),
        *((2**k, hex_bgr("#0d0f14")) for k in range(12, 18)),
    ),
    glow=hex_bgr("#78c8ff"),
    overlays=(Overlay(BoardState.WON, hex_bgr("#2a9d8f"), 0.55), Overlay(BoardState.OVER, hex_bgr("#14161c"), 0.6)),
    text=(hex_bgr("#1c1e24"), hex_bgr("#ffffff"), hex_bgr("#e9c46a")),
)


def _practice_dark() -> Theme:
    try:
        return theme_from_stylesheet(STYLESHEET.read_text(), "html.theme-dark", "dark")
    except (OSError, KeyError, ValueError):
        return DARK_FALLBACK


DARK = _practice_dark()

THEMES: dict[str, Theme] = {CLASSIC.name: CLASSIC, DARK.name: DARK}
