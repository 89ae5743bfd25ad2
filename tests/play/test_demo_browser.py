"""The demo's browser on every OS: found ($SCREENBOT_BROWSER, PATH names, Windows' and macOS' install
places, faked here), a missing one named with this OS's install, and ended with every process under it
without process groups on Windows."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import psutil
import pytest

from screenbot.practice import browser, processes
from screenbot.practice.browser import BROWSER_NAMES, ENV, browser_places, find_browser, install_hint
from screenbot.practice.errors import ToolMissingError


def program(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return path


@pytest.fixture(autouse=True)
def no_browser(tmp_path, monkeypatch):
    """An empty PATH and no $SCREENBOT_BROWSER."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.delenv(ENV, raising=False)


@pytest.mark.parametrize("name", BROWSER_NAMES)
def test_every_name_on_path_is_found(tmp_path, monkeypatch, name):
    exe = program(tmp_path / "bin" / name)
    monkeypatch.setenv("PATH", str(exe.parent))
    assert find_browser(environ={}, platform="linux") == str(exe)


def test_path_order_prefers_chromium_and_the_override_beats_path(tmp_path, monkeypatch):
    for name in ("google-chrome", "chromium", "msedge"):
        program(tmp_path / "bin" / name)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    assert find_browser(environ={}) == str(tmp_path / "bin" / "chromium")
    mine = program(tmp_path / "My Browsers" / "chrome")
    assert find_browser(environ={ENV: str(mine)}) == str(mine)
    assert find_browser(environ={ENV: "msedge"}) == str(tmp_path / "bin" / "msedge")


def test_a_bad_override_is_an_error_naming_it(tmp_path):
    with pytest.raises(ToolMissingError, match=f"{ENV}=.*nowhere is not a browser program"):
        find_browser(environ={ENV: str(tmp_path / "nowhere")})


def test_windows_finds_chrome_then_chromium_then_edge_for_all_users_or_one(tmp_path):
    environ = {"ProgramFiles": str(tmp_path / "Program Files"),
               "ProgramFiles(x86)": str(tmp_path / "Program Files (x86)"),
               "LOCALAPPDATA": str(tmp_path / "AppData" / "Local")}
    places = browser_places("win32", environ)
    assert places[0] == os.path.join(environ["ProgramFiles"], "Google", "Chrome", "Application", "chrome.exe")
    assert os.path.join(environ["ProgramFiles(x86)"], "Microsoft", "Edge", "Application", "msedge.exe") in places
    with pytest.raises(ToolMissingError, match="Google Chrome .*or Microsoft Edge, or set SCREENBOT_BROWSER"):
        find_browser(environ=environ, platform="win32")
    edge = program(tmp_path / "Program Files (x86)" / "Microsoft" / "Edge" / "Application" / "msedge.exe")
    assert find_browser(environ=environ, platform="win32") == str(edge)
    own = program(tmp_path / "AppData" / "Local" / "Google" / "Chrome" / "Application" / "chrome.exe")
    assert find_browser(environ=environ, platform="win32") == str(own)
    everyone = program(tmp_path / "Program Files" / "Google" / "Chrome" / "Application" / "chrome.exe")
    assert find_browser(environ=environ, platform="win32") == str(everyone)


def test_macos_finds_the_apps_in_applications(monkeypatch):
    installed: set[str] = set()
    monkeypatch.setattr(browser, "is_program", lambda path: path in installed)
    environ = {"HOME": "/Users/zoe"}
    with pytest.raises(ToolMissingError, match="brew install --cask chromium"):
        find_browser(environ=environ, platform="darwin")
    installed.add("/Users/zoe/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge")
    assert find_browser(environ=environ, platform="darwin").endswith("Microsoft Edge")
    installed.add("/Applications/Chromium.app/Contents/MacOS/Chromium")
    assert find_browser(environ=environ, platform="darwin") == "/Applications/Chromium.app/Contents/MacOS/Chromium"
    chrome = "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"
    installed.add(chrome)
    assert find_browser(environ=environ, platform="darwin") == chrome


def test_an_app_bundle_is_taken_as_the_override(tmp_path):
    exe = program(tmp_path / "Google Chrome.app" / "Contents" / "MacOS" / "Google Chrome")
    assert find_browser(environ={ENV: str(tmp_path / "Google Chrome.app")}, platform="darwin") == str(exe)


@pytest.mark.parametrize("platform, says, never", [
    ("linux", ["apt-get install chromium", "dnf install chromium"], ["brew", "Microsoft Edge"]),
    ("darwin", ["Google Chrome", "brew install --cask chromium"], ["apt-get", "Microsoft Edge"]),
    ("win32", ["Google Chrome", "Microsoft Edge"], ["apt-get", "brew"]),
])
def test_the_missing_browser_line_names_this_os_install(platform, says, never):
    hint = install_hint(platform)
    assert all(s in hint for s in says) and not any(n in hint for n in never)
    with pytest.raises(ToolMissingError) as caught:
        find_browser(environ={}, platform=platform)
    line = str(caught.value)
    assert line.startswith("no Chrome, Chromium or Edge browser found") and hint in line and "\n" not in line


def test_the_browser_gets_a_process_group_of_its_own_on_every_os(monkeypatch):
    monkeypatch.setattr(sys, "platform", "win32")
    assert processes.own_group() == {"creationflags": 0x200}  # CREATE_NEW_PROCESS_GROUP
    monkeypatch.setattr(sys, "platform", "darwin")
    assert processes.own_group() == {"start_new_session": True}


SH_ENV = {"PATH": os.defpath}  # the shell's own PATH (the tests' PATH is emptied)


def tree_of(proc: subprocess.Popen, count: int) -> list[int]:
    """The pids under proc once `count` of them are there."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        kids = [p.pid for p in psutil.Process(proc.pid).children(recursive=True)]
        if len(kids) >= count:
            return kids
        time.sleep(0.02)
    raise AssertionError("the children did not start")


def gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_the_whole_tree_ends(tmp_path):
    proc = subprocess.Popen(["/bin/sh", "-c", "sleep 60 & sh -c 'sleep 60' & wait"], env=SH_ENV, **processes.own_group())
    kids = tree_of(proc, 3)
    processes.end_tree(proc, grace_s=2)
    assert proc.poll() is not None and all(gone(pid) for pid in kids)


def test_a_child_left_behind_by_its_parent_ends_too(tmp_path):
    """A browser's launcher may exit and leave its browser running: on POSIX its group still holds it."""
    pid_file = tmp_path / "pid"
    proc = subprocess.Popen(["/bin/sh", "-c", f"sleep 60 & echo $! > {pid_file}; exit 0"], env=SH_ENV,
                            **processes.own_group())
    proc.wait(timeout=10)
    orphan = int(pid_file.read_text())
    assert not gone(orphan)
    processes.end_tree(proc, grace_s=2)
    assert gone(orphan)


def test_on_windows_the_tree_ends_without_process_groups(monkeypatch):
    proc = subprocess.Popen(["/bin/sh", "-c", "sleep 60 & sleep 60 & wait"], env=SH_ENV, start_new_session=True)
    kids = tree_of(proc, 2)

    def no_killpg(*args):
        raise AssertionError("os.killpg is POSIX only")

    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(os, "killpg", no_killpg)
    processes.end_tree(proc, grace_s=2)
    assert proc.poll() is not None and all(gone(pid) for pid in kids)


def test_the_demo_ends_its_browser_with_its_tree(monkeypatch):
    from screenbot.play import demo

    proc = subprocess.Popen(["/bin/sh", "-c", "sleep 60 & wait"], env=SH_ENV, **processes.own_group())
    kids = tree_of(proc, 1)
    demo._end(proc)
    assert proc.poll() is not None and all(gone(pid) for pid in kids)
    demo._end(proc)  # once more: nothing left, nothing raised
    demo._end(None)
