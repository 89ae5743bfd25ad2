"""Where the bot cannot work, it says so in one line naming the fix, before touching anything."""

from screenbot import cli
from screenbot.control.desktop import desktop_problem


def test_no_display_names_the_fix():
    problem = desktop_problem({}, "linux")
    assert "no display" in problem and "screenbot demo" in problem


def test_wayland_without_x_names_the_fix():
    assert "Wayland" in desktop_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux")
    assert "Wayland" in desktop_problem({"XDG_SESSION_TYPE": "wayland"}, "linux")


def test_x11_and_other_platforms_pass_the_first_check():
    assert desktop_problem({"DISPLAY": ":0"}, "linux") is None
    assert desktop_problem({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, "linux") is None  # XWayland
    assert desktop_problem({}, "win32") is None


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
