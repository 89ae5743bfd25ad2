"""Rect, Frame and the replay screen: absolute coordinates, including monitors left of the origin."""

from __future__ import annotations

import numpy as np
import pytest

from screenbot.control.screen import Frame, ImageLoadError, ImageScreen, OutsideFrameError
from screenbot.geometry import Point, Rect


def test_rect_edges_centre_and_list():
    r = Rect(10, 20, 30, 40)
    assert (r.right, r.bottom) == (40, 60)
    assert r.center == Point(25, 40)
    assert r.as_list() == [10, 20, 30, 40]
    assert Rect.from_list([10.4, 19.6, 30, 40]) == r


def test_rect_contains_intersects_scaled():
    outer = Rect(-100, 0, 200, 100)
    assert outer.contains(Rect(-50, 10, 20, 20))
    assert not outer.contains(Rect(90, 10, 20, 20))
    assert outer.intersection(Rect(90, 10, 20, 20)) == Rect(90, 10, 10, 20)
    assert not outer.intersects(Rect(100, 0, 5, 5))
    assert Rect(100, 50, 40, 20).scaled(0.5) == Rect(50, 25, 20, 10)


def test_frame_crop_uses_absolute_coordinates_with_negative_origin():
    pixels = np.zeros((100, 300, 3), np.uint8)
    pixels[10, 20] = (1, 2, 3)
    frame = Frame(pixels, left=-200, top=-50)
    part = frame.crop(Rect(-180, -40, 5, 5))
    assert (part.left, part.top) == (-180, -40)
    assert part.pixels[0, 0].tolist() == [1, 2, 3]
    with pytest.raises(OutsideFrameError):
        frame.crop(Rect(90, 0, 20, 20))


def test_image_screen_serves_frames_in_order_then_repeats_the_last():
    a = np.full((10, 10, 3), 1, np.uint8)
    b = np.full((10, 10, 3), 2, np.uint8)
    screen = ImageScreen([a, b], origin=(-10, 0))
    assert screen.grab().pixels[0, 0, 0] == 1
    second = screen.grab(Rect(-5, 0, 3, 3))
    assert second.pixels[0, 0, 0] == 2 and second.left == -5 and second.pixels.shape == (3, 3, 3)
    assert screen.exhausted
    assert screen.grab().pixels[0, 0, 0] == 2
    assert screen.monitors()[0] == Rect(-10, 0, 10, 10)


def test_image_screen_describes_its_monitors():
    monitors = [Rect(-1600, 0, 1600, 1000), Rect(0, 0, 1920, 1080)]
    screen = ImageScreen(np.zeros((1080, 3520, 3), np.uint8), origin=(-1600, 0), monitor_rects=monitors)
    assert screen.monitors() == [Rect(-1600, 0, 3520, 1080), *monitors]


def test_frame_load_names_the_problem(tmp_path):
    with pytest.raises(ImageLoadError, match="no such file"):
        Frame.load(tmp_path / "missing.png")
    bad = tmp_path / "bad.png"
    bad.write_text("not a picture")
    with pytest.raises(ImageLoadError, match="cannot open image"):
        Frame.load(bad)


def test_frame_save_and_load_round_trip(tmp_path):
    pixels = np.random.default_rng(0).integers(0, 255, (20, 30, 3)).astype(np.uint8)
    path = Frame(pixels).save(tmp_path / "f.png")
    assert np.array_equal(Frame.load(path).pixels, pixels)
