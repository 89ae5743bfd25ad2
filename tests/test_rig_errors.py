"""The rig's start-up errors name what to install, before it starts anything (no display needed)."""

from __future__ import annotations

import os
import shutil

import pytest

from screenbot.practice.errors import RigError, ToolMissingError
from screenbot.practice.browser import find_browser
from screenbot.practice.launch import zoom_level
from screenbot.practice.measure import Box
from screenbot.practice.rig import Rig


def path_with(tmp_path, *programs: str) -> str:
    """A PATH holding only links to the named programs (those installed here)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in programs:
        real = shutil.which(name)
        if real:
            os.symlink(real, bin_dir / name)
    return str(bin_dir)


def test_missing_xvfb_names_the_package(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", path_with(tmp_path, "xdotool", "chromium"))
    with pytest.raises(ToolMissingError, match=r"Xvfb not found: install it, e.g. `apt-get install xvfb`"):
        Rig().start()


def test_missing_browser_names_the_package(tmp_path, monkeypatch):
    monkeypatch.delenv("SCREENBOT_BROWSER", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ToolMissingError, match=r"no Chrome, Chromium or Edge browser found.*apt-get install chromium"):
        find_browser()


def test_browser_override_must_exist(monkeypatch):
    monkeypatch.setenv("SCREENBOT_BROWSER", "/nonexistent/chrome")
    with pytest.raises(ToolMissingError, match="SCREENBOT_BROWSER"):
        find_browser()


def test_missing_xdotool_names_the_package(tmp_path, monkeypatch):
    fake_xvfb = tmp_path / "Xvfb"
    fake_xvfb.write_text("#!/bin/sh\nexit 1\n")
    fake_xvfb.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ToolMissingError, match=r"xdotool not found: .*apt-get install xdotool"):
        Rig().start()


def test_zoom_level_is_log_base_1_2():
    assert zoom_level(1.0) == 0
    assert zoom_level(1.2) == pytest.approx(1.0)
    assert zoom_level(0.5) == pytest.approx(-3.8018, abs=1e-4)


def test_box_rounds_to_the_pixels_chromium_paints():
    assert Box(243.5, 350.0, 500.0, 500.0).rect().as_list() == [244, 350, 500, 500]
    assert Box(640.5, 271.5, 625.0, 625.0).rect().as_list() == [641, 272, 625, 625]
    assert Box(10.4, 10.6, 20.0, 20.0).rect().as_list() == [10, 11, 20, 20]


def test_unknown_looks_and_key_sets_are_refused_before_anything_starts():
    with pytest.raises(RigError, match="unknown theme 'neon'.*terminal"):
        Rig(theme="neon")
    with pytest.raises(RigError, match="unknown key set 'ijkl'"):
        Rig(keys="ijkl")
    for theme in ("lines", "lines-light", "terminal"):
        rig = Rig(theme=theme, marks=True, overhang=True, keys="wasd")
        assert rig.page_options["marks"] and rig.page_options["overhang"] and rig.page_options["keys"] == "wasd"
