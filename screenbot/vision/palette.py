"""Built-in colour themes of 2048 boards (gap, empty cell, tiles, glow, overlays), colours as BGR."""

from __future__ import annotations

from dataclasses import dataclass

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

    state: str  # "won" or "over"
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

    def shared_colours(self) -> set[BGR]:
        seen: dict[BGR, int] = {}
        for _, colour in self.tiles:
            seen[colour] = seen.get(colour, 0) + 1
        return {c for c, n in seen.items() if n > 1}


# gabrielecirulli/2048 style/main.scss (see ../shared/FACTS.md); checked against real screenshots:
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
        Overlay("won", hex_bgr("#edc22e"), 0.5),
        Overlay("over", hex_bgr("#eee4da"), 0.5),
    ),
)

# The practice board's dark theme (screenbot/practice/static/style.css, html.theme-dark).
DARK = Theme(
    name="dark",
    gap=hex_bgr("#2f333d"),
    empty=hex_bgr("#3d424e"),
    tiles=(
        (2, hex_bgr("#e4e8ee")),
        (4, hex_bgr("#c9d3e0")),
        (8, hex_bgr("#2a9d8f")),
        (16, hex_bgr("#268bd2")),
        (32, hex_bgr("#6c71c4")),
        (64, hex_bgr("#d33682")),
        (128, hex_bgr("#b58900")),
        (256, hex_bgr("#cb4b16")),
        (512, hex_bgr("#dc322f")),
        (1024, hex_bgr("#859900")),
        (2048, hex_bgr("#e9c46a")),
        *((2**k, hex_bgr("#f4f1de")) for k in range(12, 18)),
    ),
    glow=hex_bgr("#78c8ff"),
    overlays=(
        Overlay("won", hex_bgr("#2a9d8f"), 0.55),
        Overlay("over", hex_bgr("#14161c"), 0.6),
    ),
)

THEMES: dict[str, Theme] = {CLASSIC.name: CLASSIC, DARK.name: DARK}


def register(theme: Theme) -> None:
    THEMES[theme.name] = theme
