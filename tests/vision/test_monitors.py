"""One monitor mapping for calibrate and play: mss's monitors in desktop coordinates, the primary (the
monitor at the desktop's origin, whatever its number), and the scale measured from what a grab returns.
mss is faked: a desktop picture drawn at `scale` pixels per point, cut as mss would cut it."""

from __future__ import annotations

import json
import sys
import types

import cv2
import numpy as np
import pytest

import vision_render as render
from screenbot.board_source import calibrate_live
from screenbot.cli import main
from screenbot.control.monitors import primary_index, screen_map, to_desktop
from screenbot.control.screen import MssScreen
from screenbot.geometry import Point, Rect
from screenbot.play.eyes import ScreenEyes, geometry_of
from screenbot.profile import Profile

BOARD = ((2, 4, 8, 16), (0, 32, 64, 0), (128, 256, 512, 1024), (0, 2048, 0, 2))


class FakeShot:
    def __init__(self, bgr: np.ndarray, left: int, top: int) -> None:
        self.height, self.width = bgr.shape[:2]
        self.raw = bytearray(cv2.cvtColor(bgr, cv2.COLOR_BGR2BGRA).tobytes())
        self.left, self.top = left, top


class FakeMss:
    """mss over a desktop picture: `monitors` in points, the picture drawn at `scale` pixels per point
    from the top-left of all of them; a grab returns the picture's pixels under the region (so a
    region of w points is w * scale pixels wide). `monitor_scales`: a grab starting on monitor i is
    returned at that scale instead (monitors grabbed at different scales)."""

    def __init__(self, picture: np.ndarray, monitors: list[Rect], scale: float = 1.0,
                 monitor_scales: list[float] | None = None) -> None:
        whole = Rect.from_edges(min(m.x for m in monitors), min(m.y for m in monitors),
                                max(m.right for m in monitors), max(m.bottom for m in monitors))
        self.whole, self.picture, self.scale = whole, picture, scale
        self.monitor_scales = monitor_scales
        self.monitors = [{"left": r.x, "top": r.y, "width": r.w, "height": r.h} for r in [whole, *monitors]]
        self.grabs: list[dict] = []

    def grab(self, m: dict) -> FakeShot:
        self.grabs.append(dict(m))
        s = self.scale
        x0, y0 = round((m["left"] - self.whole.x) * s), round((m["top"] - self.whole.y) * s)
        part = self.picture[y0 : y0 + round(m["height"] * s), x0 : x0 + round(m["width"] * s)]
        if self.monitor_scales:
            here = next(i for i, r in enumerate(self.monitors[1:]) if
                        r["left"] <= m["left"] < r["left"] + r["width"] and r["top"] <= m["top"] < r["top"] + r["height"])
            k = self.monitor_scales[here]
            part = cv2.resize(part, (round(m["width"] * k), round(m["height"] * k)), interpolation=cv2.INTER_AREA)
        return FakeShot(np.ascontiguousarray(part), m["left"], m["top"])

    def close(self) -> None:
        pass


@pytest.fixture
def fake_mss(monkeypatch):
    """Install a FakeMss as the `mss` module; a pyautogui that would answer the primary's size is there
    too, and the platform is macOS: nothing may ask it (the scale comes from the grab)."""
    def install(fake: FakeMss, primary_size=(0, 0)):
        monkeypatch.setitem(sys.modules, "mss", types.SimpleNamespace(MSS=lambda: fake))
        gui = types.SimpleNamespace(size=lambda: types.SimpleNamespace(width=primary_size[0], height=primary_size[1]))
        monkeypatch.setitem(sys.modules, "pyautogui", gui)
        monkeypatch.setattr(sys, "platform", "darwin")
        return fake
    return install


def two_monitors(board_on: int = 2, scale: float = 1.0):
    """A wide monitor 1 left of the origin and the primary as mss's monitor 2 at (0, 0) (points), a
    320-point board on monitor `board_on`; the picture at `scale` pixels per point."""
    monitors = [Rect(-1000, 0, 1000, 640), Rect(0, 0, 640, 480)]
    s = scale
    picture = render.desktop(round(1640 * s), round(640 * s))
    at = (200, 100) if board_on == 2 else (-700, 200)  # the board's top-left on the desktop (points)
    board = render.render_board(BOARD, round(320 * s))
    render.paste(picture, board, round((at[0] + 1000) * s), round(at[1] * s))
    return FakeMss(picture, monitors, scale), Rect(at[0], at[1], 320, 320)


def test_the_primary_is_the_monitor_at_the_desktop_origin_whatever_its_number():
    left_of_it = [Rect(-1000, 0, 1640, 640), Rect(-1000, 0, 1000, 640), Rect(0, 0, 640, 480)]
    assert primary_index(left_of_it) == 2
    assert primary_index([Rect(0, 0, 3000, 1000), Rect(0, 0, 1920, 1000), Rect(1920, 0, 1080, 900)]) == 1
    assert primary_index([Rect(-10, -10, 100, 100), Rect(-10, -10, 100, 100)]) == 1  # holds the origin
    assert primary_index([Rect(100, 0, 50, 50), Rect(100, 0, 50, 50)]) == 1  # none does: monitor 1


def test_a_grab_at_twice_the_points_is_scale_2(fake_mss):
    fake = fake_mss(two_monitors(scale=2)[0])
    found = screen_map(fake)
    assert (found.primary, found.scale, found.scales, found.mixed) == (2, 2.0, (2.0, 2.0, 2.0), False)
    assert found.origin(1) == Point(-1000, 0) and found.origin(2) == Point(0, 0)
    assert found.captured() == [Rect(-2000, 0, 3280, 1280), Rect(-2000, 0, 2000, 1280), Rect(0, 0, 1280, 960)]


def test_the_scale_is_the_primarys_and_a_mixed_desktop_says_so(fake_mss):
    fake, _ = two_monitors(scale=2)
    fake.monitor_scales = [1.0, 2.0]  # monitor 1 ordinary, the primary a Retina one
    found = screen_map(fake)
    assert (found.scale, found.scales[1:], found.mixed) == (2.0, (1.0, 2.0), True)
    fake_mss(fake)
    with MssScreen() as screen:
        frame = screen.grab()
    assert frame.rect == Rect(-2000, 0, 3280, 1280)  # one scale for the whole frame


def test_a_region_in_captured_pixels_is_grabbed_where_it_is_at_scale_2(fake_mss):
    fake = fake_mss(two_monitors(scale=2)[0])
    with MssScreen() as screen:
        assert screen.scale == 2.0 and screen.monitors()[0] == Rect(-2000, 0, 3280, 1280)
        for region in (Rect(401, 203, 51, 33), Rect(-1999, 7, 10, 10), Rect(400, 200, 640, 640)):
            frame = screen.grab(region)
            assert frame.rect == region
            x, y = region.x + 2000, region.y
            assert np.array_equal(frame.pixels, fake.picture[y : y + region.h, x : x + region.w])
    assert fake.grabs[-1] == {"left": 200, "top": 100, "width": 320, "height": 320}  # asked of mss in points


def test_covering_captured_pixels_in_points_rounds_outwards():
    assert to_desktop(Rect(401, 203, 51, 33), 2.0) == Rect(200, 101, 26, 17)
    assert to_desktop(Rect(-3, -3, 2, 2), 2.0) == Rect(-2, -2, 2, 2)
    assert to_desktop(Rect(5, 6, 7, 8), 1.0) == Rect(5, 6, 7, 8)


def calibrate_command(tmp_path, *args) -> Profile:
    path = tmp_path / "profile.json"
    assert main(["calibrate", "--profile", str(path), *args]) == 0
    return Profile.load(path)


@pytest.mark.parametrize("board_on", [1, 2])
def test_calibrate_with_the_primary_as_monitor_2(fake_mss, tmp_path, capsys, board_on):
    fake, board = two_monitors(board_on)
    fake_mss(fake, primary_size=(640, 480))  # monitor 1's width over the primary's would say 1.56
    profile = calibrate_command(tmp_path)
    assert (profile.scale, profile.monitor, profile.board_rect) == (1.0, board_on, board)
    assert "scale 1 px/pt" in capsys.readouterr().out
    only = calibrate_command(tmp_path, "--monitor", str(board_on))
    assert (only.scale, only.monitor, only.board_rect) == (1.0, board_on, board)
    assert fake.grabs[-1] == fake.monitors[board_on]  # that monitor alone was grabbed


def near(a: Rect, b: Rect, px: int) -> bool:
    return all(abs(u - v) <= px for u, v in zip(a.as_list(), b.as_list()))


@pytest.mark.parametrize("board_on", [1, 2])
def test_calibrate_and_play_share_the_mapping_at_scale_2(fake_mss, tmp_path, board_on):
    fake, board = two_monitors(board_on, scale=2)
    fake_mss(fake, primary_size=(640, 480))
    profile = calibrate_command(tmp_path)
    assert (profile.scale, profile.monitor) == (2.0, board_on)
    assert near(profile.board_rect, board.scaled(2), 1)  # the board's edge found within a pixel
    with MssScreen() as screen:
        live = calibrate_live(screen)  # how play finds a board with no profile
        assert (live.scale, live.monitor, live.board_rect) == (profile.scale, profile.monitor, profile.board_rect)
        geometry = geometry_of(profile)
        assert near(geometry.board_rect_in_points, board, 1)  # where the mouse clicks
        cx, cy = geometry.to_points(*profile.board_rect.center.as_list())
        assert abs(cx - board.center.x) <= 1 and abs(cy - board.center.y) <= 1
        eyes = ScreenEyes(screen, profile)
        r = profile.board_rect
        x, y = r.x + 2000, r.y
        assert np.array_equal(eyes.grab().pixels, fake.picture[y : y + r.h, x : x + r.w])
    saved = json.loads((tmp_path / "profile.json").read_text())
    assert saved["scale"] == 2.0


def test_calibrate_warns_when_the_monitors_have_different_scales(fake_mss, tmp_path, capsys):
    fake, _ = two_monitors(2, scale=2)
    fake.monitor_scales = [1.0, 2.0]
    fake_mss(fake)
    calibrate_command(tmp_path)
    assert "captured at different scales (1.0, 2.0)" in capsys.readouterr().err
