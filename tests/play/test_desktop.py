"""Where the bot cannot work, it says so in one line naming the fix, before touching anything."""

import os

import numpy as np
import pytest

from screenbot import cli
from screenbot.calibration import NoBoardError, calibrate
from screenbot.control.desktop import BLACK_CAPTURE, XWAYLAND_OVERRIDE, desktop_problem
from screenbot.control.screen import Frame
from screenbot.play.safety import BoardLook

from play_fakes import board_pixels, geometry


def test_no_display_names_the_fix():
    problem = desktop_problem({}, "linux")
    assert "no display" in problem and "screenbot demo" in problem


def test_wayland_without_x_names_the_fix():
    for env in ({"WAYLAND_DISPLAY": "wayland-0"}, {"XDG_SESSION_TYPE": "wayland"}):
        problem = desktop_problem(env, "linux")
        assert "Wayland session" in problem and "Xorg" in problem
        assert XWAYLAND_OVERRIDE not in problem  # without an X display the override cannot help


@pytest.mark.parametrize("env", [
    {"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"},
    {"DISPLAY": ":0", "XDG_SESSION_TYPE": "wayland"},
    {"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", XWAYLAND_OVERRIDE: "yes"},
])
def test_wayland_with_xwayland_is_refused_with_the_fix_and_the_override(env):
    """XWayland sets DISPLAY, but an X program there captures native Wayland windows black."""
    problem = desktop_problem(env, "linux")
    assert "Wayland session" in problem and "log in with an 'Xorg'/'X11' session" in problem
    assert f"{XWAYLAND_OVERRIDE}=1" in problem


def test_the_override_plays_under_xwayland_only_with_an_x_display():
    assert desktop_problem({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", XWAYLAND_OVERRIDE: "1"}, "linux") is None
    assert "Wayland" in desktop_problem({"WAYLAND_DISPLAY": "wayland-0", XWAYLAND_OVERRIDE: "1"}, "linux")


def test_x11_and_other_platforms_pass_the_first_check():
    assert desktop_problem({"DISPLAY": ":0"}, "linux") is None
    assert desktop_problem({"DISPLAY": ":0", "XDG_SESSION_TYPE": "x11"}, "linux") is None
    # an X11 session that says so is one, whatever a stray WAYLAND_DISPLAY says
    assert desktop_problem({"DISPLAY": ":0", "XDG_SESSION_TYPE": "x11", "WAYLAND_DISPLAY": "wayland-1"}, "linux") is None
    assert desktop_problem({}, "win32") is None
    assert desktop_problem({"WAYLAND_DISPLAY": "wayland-0"}, "darwin") is None


def test_play_under_xwayland_exits_with_one_line(monkeypatch, capsys):
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    monkeypatch.delenv(XWAYLAND_OVERRIDE, raising=False)
    assert cli.main(["play", "--max-moves", "1"]) == 4
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("screenbot: error: this is a Wayland session")


def test_the_rigs_own_display_passes_the_check_under_wayland_and_the_session_comes_back(monkeypatch, tmp_path):
    """`screenbot demo` under Wayland plays on the rig's Xvfb: the variables the rig exports say X11."""
    from screenbot.practice import rig as rig_module

    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    monkeypatch.setenv("XDG_SESSION_TYPE", "wayland")
    monkeypatch.setattr(rig_module, "start_xvfb", lambda xvfb, size, tmp: (None, ":97"))
    rig = rig_module.Rig(export_env=True)
    rig._tmp = tmp_path / "rig"
    rig._tmp.mkdir()
    rig._start_xvfb("Xvfb")
    assert os.environ["DISPLAY"] == ":97" and "WAYLAND_DISPLAY" not in os.environ
    assert desktop_problem() is None
    rig.stop()
    assert (os.environ["DISPLAY"], os.environ["WAYLAND_DISPLAY"], os.environ["XDG_SESSION_TYPE"]) == (
        ":0", "wayland-0", "wayland")


# ----------------------------------------------------------------- a capture that is all black
def test_calibrating_on_an_all_black_capture_names_the_black_capture():
    with pytest.raises(NoBoardError) as raised:
        calibrate(Frame(np.zeros((300, 400, 3), np.uint8)))
    message = str(raised.value)
    assert message.startswith("the screen capture is all black") and "Wayland" in message
    assert "Screen Recording" in message and "no 2048 board" not in message


def test_a_dark_capture_without_a_board_is_no_board_found():
    pixels = np.zeros((300, 400, 3), np.uint8)
    pixels[10, 10] = (1, 1, 1)
    with pytest.raises(NoBoardError, match="no 2048 board found"):
        calibrate(Frame(pixels))


def test_play_on_an_all_black_capture_says_so_and_stops(monkeypatch, tmp_path, capsys):
    """Play with no profile yet finds the board on the first capture: an all-black one is named."""
    from screenbot.control.screen import ImageScreen

    monkeypatch.setattr("screenbot.board_source.MssScreen", lambda: ImageScreen(np.zeros((200, 300, 3), np.uint8)))
    monkeypatch.setattr("screenbot.play.live_parts.check_desktop", lambda keys=True: None)
    monkeypatch.setattr("screenbot.board_source.diagnostics_dir", lambda: tmp_path)
    monkeypatch.setattr("screenbot.board_source.default_profile_path", lambda: tmp_path / "profile.json")
    assert cli.main(["play", "--max-moves", "1"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "the screen capture is all black" in err[0], err


def test_the_guard_names_a_board_gone_black():
    g = geometry()
    look = BoardLook.learn(Frame(board_pixels()), g.board_rect, g.cells)
    assert look.problem(Frame(board_pixels())) is None
    assert look.problem(Frame(np.zeros_like(board_pixels()))) == BLACK_CAPTURE
    assert "not where it was" in look.problem(Frame(np.full_like(board_pixels(), 255)))


def test_a_board_of_black_cells_on_a_black_screen_is_no_black_capture():
    from screenbot.geometry import Rect
    from screenbot.play.safety import BlocksLook

    # a terminal's board: black cells touching, a grey number in one of them, on a black screen
    cells = [Rect(10 + 50 * c, 10 + 40 * r, 50, 40) for r in range(4) for c in range(4)]
    pixels = np.zeros((200, 220, 3), np.uint8)
    pixels[25:35, 30:40] = 200
    look = BlocksLook.learn(Rect(10, 10, 200, 160), cells)
    assert look.problem(Frame(pixels)) is None
    assert look.problem(Frame(np.zeros_like(pixels))) == BLACK_CAPTURE


def test_play_without_a_display_exits_with_one_line(monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("XDG_SESSION_TYPE", raising=False)
    assert cli.main(["play", "--max-moves", "1"]) == 4
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("screenbot: error: no display")


def test_bad_arguments_are_usage_errors(capsys):
    assert cli.main(["play", "--max-moves", "-3"]) == 2
    assert cli.main(["play", "--depth-cap", "0"]) == 2
    assert cli.main(["play", "--deepen-gap", "1.5"]) == 2
    assert cli.main(["demo", "--moves", "0"]) == 2
    assert "error" in capsys.readouterr().err
