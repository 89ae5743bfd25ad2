"""Draws 2048 boards, desktops and board look-alikes for the tests the live rig cannot stage."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from screenbot.palette import CLASSIC, Theme

FONT_PATHS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
)


def font(px: int) -> ImageFont.FreeTypeFont:
    for path in FONT_PATHS:
        if Path(path).is_file():
            return ImageFont.truetype(path, max(6, int(px)))
    raise FileNotFoundError("install fonts-dejavu-core (needed to draw digits for the tests)")


def rgb(bgr) -> tuple[int, int, int]:
    b, g, r = bgr
    return (r, g, b)


def text_colour(theme: Theme, value: int):
    """Dark digits on the light small tiles, light digits on the others (both built-in themes)."""
    colour = dict(theme.tiles)[value]
    light = sum(colour) / 3 > 170
    return (50, 40, 40) if light else (245, 245, 245)


def font_px(value: int, cell: float) -> float:
    """The classic font sizes (55/45/35/30 px on a 106 px tile) scaled to the cell."""
    size = 55 if value < 128 else 45 if value < 1024 else 35 if value < 4096 else 30
    return size * cell / 106.25


def draw_tile(draw: ImageDraw.ImageDraw, x: float, y: float, cell: float, value: int, theme: Theme,
              tile_colours: dict[int, tuple[int, int, int]] | None = None, scale: float = 1.0) -> None:
    colour = (tile_colours or dict(theme.tiles))[value]
    s = cell * scale
    cx, cy = x + cell / 2, y + cell / 2
    radius = max(1, int(3 * cell / 106.25 * scale))
    draw.rounded_rectangle([cx - s / 2, cy - s / 2, cx + s / 2 - 1, cy + s / 2 - 1], radius, fill=rgb(colour))
    f = font(font_px(value, cell) * scale)
    draw.text((cx, cy), str(value), fill=text_colour(theme, value) if tile_colours is None else (250, 250, 250),
              font=f, anchor="mm")


def render_board(grid, size: int = 500, theme: Theme = CLASSIC, tile_colours=None,
                 shift: tuple[int, int, float] | None = None, grow: tuple[int, int, float] | None = None) -> np.ndarray:
    """A board picture (BGR, size x size) in the classic proportions: 15/500 gaps, 106.25/500 cells.

    shift=(row, col, fraction): draw that tile moved right by a fraction of a cell (a slide).
    grow=(row, col, scale): draw that tile scaled about its centre (a new tile appearing).
    """
    u = size / 500.0
    img = Image.new("RGB", (size, size), (0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle([0, 0, size - 1, size - 1], max(1, int(6 * u)), fill=rgb(theme.gap))
    cell, gap = 106.25 * u, 15 * u
    for r in range(4):
        for c in range(4):
            x, y = gap + c * (cell + gap), gap + r * (cell + gap)
            draw.rounded_rectangle([x, y, x + cell - 1, y + cell - 1], max(1, int(3 * u)), fill=rgb(theme.empty))
    for r in range(4):
        for c in range(4):
            v = grid[r][c]
            if not v:
                continue
            x, y = gap + c * (cell + gap), gap + r * (cell + gap)
            scale = 1.0
            if shift and (r, c) == shift[:2]:
                x += shift[2] * (cell + gap)
            if grow and (r, c) == grow[:2]:
                scale = grow[2]
            draw_tile(draw, x, y, cell, v, theme, tile_colours, scale)
    return cv2.cvtColor(np.asarray(img), cv2.COLOR_RGB2BGR)


def board_truth(x: int, y: int, size: int) -> list[int]:
    return [x, y, size, size]


def desktop(w: int, h: int, seed: int = 0) -> np.ndarray:
    """A plain desktop: a dark wallpaper gradient, a couple of windows with text, a task bar."""
    rng = np.random.default_rng(seed)
    ramp = np.linspace(40, 90, h, dtype=np.float32)[:, None]
    img = np.dstack([np.repeat(ramp, w, 1) * k for k in (1.0, 0.8, 0.6)]).astype(np.uint8)
    cv2.rectangle(img, (0, h - 40), (w, h), (50, 50, 50), -1)
    for i in range(2):
        x0, y0 = int(rng.integers(20, w // 2)), int(rng.integers(20, h // 2))
        x1, y1 = x0 + w // 3, y0 + h // 3
        cv2.rectangle(img, (x0, y0), (x1, y1), (235, 235, 235), -1)
        cv2.rectangle(img, (x0, y0), (x1, y0 + 28), (200, 120, 60), -1)
        for k in range(6):
            cv2.putText(img, "Lorem ipsum dolor sit amet 2048", (x0 + 10, y0 + 55 + 25 * k), cv2.FONT_HERSHEY_SIMPLEX,
                        0.6, (30, 30, 30), 1, cv2.LINE_AA)
    return img


def paste(canvas: np.ndarray, picture: np.ndarray, x: int, y: int) -> np.ndarray:
    h, w = picture.shape[:2]
    canvas[y : y + h, x : x + w] = picture
    return canvas


def checkerboard(size: int = 400, n: int = 8) -> np.ndarray:
    img = np.zeros((size, size, 3), np.uint8)
    step = size // n
    for r in range(n):
        for c in range(n):
            if (r + c) % 2 == 0:
                img[r * step : (r + 1) * step, c * step : (c + 1) * step] = (240, 240, 240)
            else:
                img[r * step : (r + 1) * step, c * step : (c + 1) * step] = (40, 40, 40)
    return img


def calendar(cols: int = 7, rows: int = 5, cell: int = 70, gap: int = 8) -> np.ndarray:
    """A month view: rounded day squares with numbers on a uniform background."""
    w = cols * cell + (cols + 1) * gap
    h = rows * cell + (rows + 1) * gap
    img = Image.new("RGB", (w, h), (220, 225, 230))
    draw = ImageDraw.Draw(img)
    f = font(cell // 3)
    for r in range(rows):
        for c in range(cols):
            x, y = gap + c * (cell + gap), gap + r * (cell + gap)
            fill = (255, 255, 255) if (r * cols + c) % 9 else (255, 220, 200)
            draw.rounded_rectangle([x, y, x + cell - 1, y + cell - 1], 4, fill=fill)
            draw.text((x + cell / 2, y + cell / 2), str(r * cols + c + 1), fill=(60, 60, 60), font=f, anchor="mm")
    return cv2.cvtColor(np.asarray(img), cv2.COLOR_RGB2BGR)


def photo_grid(size: int = 420, seed: int = 1) -> np.ndarray:
    """Sixteen 'photos' (smooth noise) in a 4x4 grid with even white gaps: a gallery, not a game."""
    rng = np.random.default_rng(seed)
    gap = size * 15 // 500
    cell = (size - 5 * gap) // 4
    img = np.full((size, size, 3), 250, np.uint8)
    for r in range(4):
        for c in range(4):
            noise = rng.integers(0, 255, (8, 8, 3)).astype(np.uint8)
            tile = cv2.resize(noise, (cell, cell), interpolation=cv2.INTER_CUBIC)
            x, y = gap + c * (cell + gap), gap + r * (cell + gap)
            img[y : y + cell, x : x + cell] = tile
    return img


def spreadsheet(cols: int = 4, rows: int = 4, cell: int = 90) -> np.ndarray:
    """A 4x4 table drawn with 1 px lines: the cells touch, no gaps."""
    w, h = cols * cell + 1, rows * cell + 1
    img = np.full((h, w, 3), 255, np.uint8)
    for k in range(cols + 1):
        img[:, k * cell] = (120, 120, 120)
    for k in range(rows + 1):
        img[k * cell, :] = (120, 120, 120)
    return img


def written_table(grid, cell: int = 56, line=(128, 128, 128), ink=(230, 230, 230), paper=(0, 0, 0)) -> np.ndarray:
    """A table ruled with 1 px lines whose cells touch, a number written in each cell that is not 0."""
    rows, cols = len(grid), len(grid[0])
    img = Image.new("RGB", (cols * cell + 1, rows * cell + 1), rgb(paper))
    draw = ImageDraw.Draw(img)
    for k in range(cols + 1):
        draw.line([(k * cell, 0), (k * cell, rows * cell)], fill=rgb(line))
    for k in range(rows + 1):
        draw.line([(0, k * cell), (cols * cell, k * cell)], fill=rgb(line))
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if value:
                draw.text((c * cell + cell / 2, r * cell + cell / 2), str(value), fill=rgb(ink), font=font(cell // 4),
                          anchor="mm")
    return cv2.cvtColor(np.asarray(img), cv2.COLOR_RGB2BGR)


def tile_picture(value: int, cell: int, background, digits) -> np.ndarray:
    """One tile alone (BGR), with the classic font size for its value."""
    img = Image.new("RGB", (cell, cell), rgb(background))
    draw = ImageDraw.Draw(img)
    draw.text((cell / 2, cell / 2), str(value), fill=rgb(digits), font=font(font_px(value, cell)), anchor="mm")
    return cv2.cvtColor(np.asarray(img), cv2.COLOR_RGB2BGR)
