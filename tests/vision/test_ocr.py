"""Digits by tesseract (real engine) for tiles that share a colour, and the digit-shape cache."""

from __future__ import annotations

import pytest

import vision_render as render
from screenbot.calibration import calibrate
from screenbot.control.screen import Frame
from screenbot.vision import ocr, read_board
from screenbot.palette import CLASSIC, DARK, hex_bgr
from vision_labels import SHARED_SCREENS, load_label

BIG = [4096, 8192, 16384, 32768, 65536]
SUPER_CLASSIC = (hex_bgr("#3c3a32"), hex_bgr("#f9f6f2"))  # background, digits
SUPER_DARK = (hex_bgr("#f4f1de"), hex_bgr("#1c1e24"))


def test_tesseract_is_installed():
    assert ocr.tesseract_available(), "install tesseract-ocr"


@pytest.mark.parametrize("value", BIG)
@pytest.mark.parametrize("cell", [57, 106, 212])
@pytest.mark.parametrize("colours", [SUPER_CLASSIC, SUPER_DARK], ids=["classic", "dark"])
def test_big_tiles_are_read_by_ocr(value, cell, colours):
    tile = render.tile_picture(value, cell, *colours)
    assert ocr.read_number(tile, colours[0]) == value


@pytest.mark.skipif(not SHARED_SCREENS.is_dir(), reason="../shared/screens is not beside the repo")
def test_big_tiles_on_real_screenshots_are_read_by_ocr():
    seen = 0
    for path in sorted(SHARED_SCREENS.glob("*static*.json")):
        label = load_label(path)
        frame = Frame.load(path.with_suffix(".png"))
        for k, (x, y, w, h) in enumerate(label["cell_rects"]):
            value = label["grid"][k // 4][k % 4]
            if value >= 4096:
                cell = frame.pixels[round(y) : round(y + h), round(x) : round(x + w)]
                assert ocr.read_number(cell, SUPER_CLASSIC[0]) == value
                seen += 1
    assert seen >= 5


@pytest.mark.parametrize("cell", [57, 106])
def test_a_lone_0_is_an_empty_cell_only_where_the_reader_allows_it(cell):
    zero = render.tile_picture(0, cell, *SUPER_CLASSIC)
    assert ocr.read_number(zero, SUPER_CLASSIC[0]) is None  # no tile is 0
    assert ocr.read_number(zero, SUPER_CLASSIC[0], zero=True) == 0  # a game that writes its empty cells as 0
    eight = render.tile_picture(8, cell, *SUPER_CLASSIC)
    assert ocr.read_number(eight, SUPER_CLASSIC[0], zero=True) == 8


def test_a_blank_patch_is_no_number():
    tile = render.tile_picture(2, 106, *SUPER_CLASSIC)[:, :3]  # a sliver with no digits
    assert ocr.read_number(tile, SUPER_CLASSIC[0]) is None


@pytest.mark.parametrize("theme", [CLASSIC, DARK], ids=["classic", "dark"])
def test_shared_colour_tiles_are_read_once_then_from_the_shape_cache(theme):
    board = ((65536, 32768, 16384, 8192), (4096, 2, 4, 8), (0, 0, 0, 0), (0, 0, 0, 2))
    canvas = render.paste(render.desktop(1200, 800), render.render_board(board, 420, theme), 300, 150)
    frame = Frame(canvas)
    profile = calibrate(frame)
    first = read_board(frame, profile)
    assert first.grid == board and first.ocr_calls == 5
    assert len(profile.glyphs) == 5
    again = read_board(frame, profile)
    assert again.grid == board and again.ocr_calls == 0


def test_a_clone_palette_is_learned_not_configured(tmp_path):
    """Unknown colours: each tile's digits are read once, its colour is learned and saved."""
    colours = {v: (40 + 13 * k, 200 - 11 * k, 90 + 9 * k) for k, v in enumerate([2, 4, 8, 16, 32, 64, 128, 256])}
    from screenbot.palette import Theme

    clone = Theme("clone", gap=(90, 60, 50), empty=(120, 100, 90), tiles=tuple(colours.items()))
    board = ((2, 4, 8, 16), (32, 64, 128, 256), (0, 0, 0, 0), (2, 0, 0, 4))
    canvas = render.paste(render.desktop(1200, 800), render.render_board(board, 440, clone, tile_colours=colours), 300, 150)
    frame = Frame(canvas)
    profile = calibrate(frame)
    assert profile.theme == "learned" and profile.empty_colour is not None
    first = read_board(frame, profile)
    assert first.grid == board and first.learned and 8 <= first.ocr_calls <= 9
    path = profile.save(tmp_path / "clone.json")
    from screenbot.calibration import Profile

    reloaded = Profile.load(path)
    assert {e.value for e in reloaded.learned} == set(colours)
    again = read_board(frame, reloaded)
    assert again.grid == board and again.ocr_calls == 0
