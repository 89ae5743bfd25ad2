"""Finding tesseract on every OS (--tesseract, $SCREENBOT_TESSERACT, PATH, install folders), and every
command that reads tiles checking for it first. Windows and macOS are faked: sys.platform, the
environment, and the file system (files made in tmp_path, or a fake `is_program`)."""

from __future__ import annotations

import os
import stat
import sys

import pytest

from screenbot.cli import main
from screenbot.vision import ocr, tesseract
from screenbot.vision.tesseract import ENV, TesseractPathError, find_tesseract, install_hint, install_places


def program(path):
    """An executable file at `path` (its folders made)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture(autouse=True)
def nothing_installed(tmp_path, monkeypatch):
    """No tesseract anywhere: an empty PATH, no $SCREENBOT_TESSERACT, no Linux install folder; the
    program this process chose (and the OCR engine's state) put back afterwards."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.delenv("TESSDATA_PREFIX", raising=False)
    monkeypatch.setattr(tesseract, "LINUX_PLACES", ())
    monkeypatch.setattr(tesseract, "_chosen", None)
    monkeypatch.setattr(ocr._ENGINE, "kind", None)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def test_the_option_comes_before_the_environment_and_the_environment_before_path(tmp_path, monkeypatch):
    given, from_env, on_path = (program(tmp_path / d / "tesseract") for d in ("given", "env", "bin"))
    monkeypatch.setenv("PATH", str(on_path.parent))
    assert find_tesseract() == str(on_path)
    monkeypatch.setenv(ENV, str(from_env))
    assert find_tesseract() == str(from_env)
    assert find_tesseract(str(given)) == str(given)


def test_path_comes_before_the_install_folders(tmp_path, monkeypatch):
    on_path = program(tmp_path / "bin" / "tesseract")
    installed = program(tmp_path / "usr-local" / "tesseract")
    monkeypatch.setattr(tesseract, "LINUX_PLACES", (str(installed),))
    assert find_tesseract() == str(installed)
    monkeypatch.setenv("PATH", str(on_path.parent))
    assert find_tesseract() == str(on_path)


def test_a_folder_holding_the_program_is_taken_too(tmp_path):
    exe = program(tmp_path / "Tesseract-OCR" / "tesseract")
    assert find_tesseract(str(tmp_path / "Tesseract-OCR")) == str(exe)


def test_nothing_installed_is_none():
    assert find_tesseract() is None


@pytest.mark.parametrize("where", ["option", "environment"])
def test_a_bad_path_is_an_error_naming_where_it_came_from(tmp_path, monkeypatch, where):
    not_a_program = tmp_path / "notes.txt"
    not_a_program.write_text("hello")
    not_a_program.chmod(0o644)
    for bad in (str(tmp_path / "missing" / "tesseract"), str(not_a_program)):
        if where == "option":
            with pytest.raises(TesseractPathError, match=f"--tesseract {bad}: no tesseract program there"):
                find_tesseract(bad)
        else:
            monkeypatch.setenv(ENV, bad)
            with pytest.raises(TesseractPathError, match=f"{ENV} {bad}: no tesseract program there"):
                find_tesseract()


def test_windows_finds_the_ub_mannheim_install_in_program_files_or_local_appdata(tmp_path):
    environ = {"ProgramFiles": str(tmp_path / "Program Files"),
               "ProgramFiles(x86)": str(tmp_path / "Program Files (x86)"),
               "LOCALAPPDATA": str(tmp_path / "AppData" / "Local")}
    places = install_places("win32", environ)
    assert places == [os.path.join(environ["ProgramFiles"], "Tesseract-OCR", "tesseract.exe"),
                      os.path.join(environ["ProgramFiles(x86)"], "Tesseract-OCR", "tesseract.exe"),
                      os.path.join(environ["LOCALAPPDATA"], "Programs", "Tesseract-OCR", "tesseract.exe")]
    assert find_tesseract(environ=environ, platform="win32") is None
    for_one_user = program(tmp_path / "AppData" / "Local" / "Programs" / "Tesseract-OCR" / "tesseract.exe")
    assert find_tesseract(environ=environ, platform="win32") == str(for_one_user)
    x86 = program(tmp_path / "Program Files (x86)" / "Tesseract-OCR" / "tesseract.exe")
    assert find_tesseract(environ=environ, platform="win32") == str(x86)
    for_all = program(tmp_path / "Program Files" / "Tesseract-OCR" / "tesseract.exe")
    assert find_tesseract(environ=environ, platform="win32") == str(for_all)


def test_windows_takes_the_install_folder_as_the_option(tmp_path):
    exe = program(tmp_path / "Tesseract-OCR" / "tesseract.exe")
    assert find_tesseract(str(tmp_path / "Tesseract-OCR"), environ={}, platform="win32") == str(exe)


def test_windows_without_the_environment_variables_has_no_install_folder():
    assert install_places("win32", {}) == []


def test_macos_finds_homebrew_then_macports(monkeypatch):
    installed: set[str] = set()
    monkeypatch.setattr(tesseract, "is_program", lambda path: path in installed)
    assert find_tesseract(platform="darwin") is None
    installed.add("/opt/local/bin/tesseract")  # MacPorts
    assert find_tesseract(platform="darwin") == "/opt/local/bin/tesseract"
    installed.add("/usr/local/bin/tesseract")  # Homebrew on Intel
    assert find_tesseract(platform="darwin") == "/usr/local/bin/tesseract"
    installed.add("/opt/homebrew/bin/tesseract")  # Homebrew on Apple silicon
    assert find_tesseract(platform="darwin") == "/opt/homebrew/bin/tesseract"


@pytest.mark.parametrize("platform, names", [
    ("linux", ["sudo apt install tesseract-ocr", "dnf install tesseract"]),
    ("darwin", ["brew install tesseract"]),
    ("win32", ["https://github.com/UB-Mannheim/tesseract/wiki"]),
])
def test_the_install_hint_names_this_os_install(platform, names):
    hint = install_hint(platform)
    assert all(name in hint for name in names)
    assert "--tesseract PATH" in hint and "\n" not in hint
    others = {"linux": "apt install", "darwin": "brew install", "win32": "UB-Mannheim"}
    assert not any(text in hint for os_name, text in others.items() if os_name != platform)


def test_the_program_found_is_handed_to_pytesseract(tmp_path):
    import pytesseract

    exe = program(tmp_path / "tools" / "tesseract")
    before = pytesseract.pytesseract.tesseract_cmd
    try:
        assert tesseract.use_tesseract(str(exe)) == str(exe)
        assert ocr.pytesseract_module().pytesseract.tesseract_cmd == str(exe)
    finally:
        pytesseract.pytesseract.tesseract_cmd = before


def test_the_language_files_are_found_through_the_program_found(tmp_path):
    exe = tmp_path / "tools" / "tesseract"
    exe.parent.mkdir()
    exe.write_text('#!/bin/sh\necho \'List of available languages in "/somewhere/tessdata/" (1):\'\necho eng\n')
    exe.chmod(0o755)
    assert ocr._tessdata() is None  # nothing installed
    tesseract.use_tesseract(str(exe))
    assert ocr._tessdata() == "/somewhere/tessdata/"


def test_ocr_without_tesseract_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "tesserocr", None)  # the in-process engine absent too
    monkeypatch.setattr(sys, "platform", "darwin")
    with pytest.raises(ocr.OcrUnavailableError, match="brew install tesseract"):
        ocr._ENGINE.read(ocr.np.full((40, 40), 255, ocr.np.uint8))
    with pytest.raises(ocr.OcrUnavailableError, match="needed to read the win message: .*brew install"):
        next(ocr.read_text(ocr.np.full((40, 40, 3), 255, ocr.np.uint8)))


COMMANDS = [
    ["play"], ["play", "--dry-run"], ["hint"], ["hint", "--image", "shot.png"], ["coach"], ["calibrate"],
    ["calibrate", "--image", "shot.png"], ["review", "game.mp4"], ["read"], ["read", "--image", "shot.png"],
    ["demo"], ["replay", "recording"],
]


def no_board_search(monkeypatch):
    """Anything that would look at the screen or a picture fails the test."""
    def looked(*args, **kwargs):
        raise AssertionError("the board was searched before tesseract was checked")

    import screenbot.board_source as board_source
    import screenbot.control.screen as screen

    monkeypatch.setattr(board_source, "open_session", looked)
    monkeypatch.setattr(screen.MssScreen, "grab", looked)
    monkeypatch.setattr(screen.Frame, "load", looked)


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("platform, names", [("linux", "sudo apt install tesseract-ocr"),
                                             ("win32", "UB-Mannheim"), ("darwin", "brew install tesseract")])
def test_a_command_that_reads_tiles_checks_for_tesseract_before_the_board(argv, platform, names, capsys,
                                                                          monkeypatch):
    no_board_search(monkeypatch)
    monkeypatch.setattr(sys, "platform", platform)
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("screenbot: error: tesseract not found") and names in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("argv", [["read"], ["play"], ["calibrate"]], ids=" ".join)
def test_a_bad_tesseract_option_is_one_line(argv, tmp_path, capsys, monkeypatch):
    no_board_search(monkeypatch)
    assert main([*argv, "--tesseract", str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err
    assert err == f"screenbot: error: --tesseract {tmp_path / 'nowhere'}: no tesseract program there " \
                  "(give the path of tesseract, or of the folder holding it)\n"


def test_a_bad_environment_path_is_one_line(tmp_path, capsys, monkeypatch):
    no_board_search(monkeypatch)
    monkeypatch.setenv(ENV, str(tmp_path / "nowhere.exe"))
    assert main(["read"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_the_option_is_the_program_a_command_uses(tmp_path, capsys, monkeypatch):
    exe = program(tmp_path / "tools" / "tesseract")
    seen = []

    def open_session(*args, **kwargs):
        seen.append(tesseract.tesseract_program())
        raise tesseract.UsageError("stop here")

    import screenbot.board_source as board_source

    monkeypatch.setattr(board_source, "open_session", open_session)
    assert main(["read", "--tesseract", str(exe)]) == 2
    assert seen == [str(exe)]


def test_a_typed_in_board_needs_no_tesseract(capsys):
    assert main(["hint", "--player", "plain", "--board", "2 2 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 4", "--depth", "1"]) == 0
    assert "best move: " in capsys.readouterr().out
