"""`screenbot calibrate` and `screenbot read` on screenshots: outputs, files written, errors as one line."""

from __future__ import annotations

import json

import cv2
import pytest

import vision_render as render
from screenbot.board_source import read_grid
from screenbot.cli import main
from screenbot.palette import DARK

BOARD = ((2, 4, 8, 16), (0, 32, 64, 0), (128, 256, 512, 1024), (0, 2048, 0, 2))


@pytest.fixture
def board_png(tmp_path):
    path = tmp_path / "screen.png"
    cv2.imwrite(str(path), render.paste(render.desktop(1200, 800), render.render_board(BOARD, 400), 350, 200))
    return path


def one_error_line(err: str) -> str:
    lines = [l for l in err.strip().splitlines() if l]
    assert len(lines) == 1 and lines[0].startswith("screenbot: error: "), err
    return lines[0]


def test_calibrate_writes_profile_and_preview(board_png, tmp_path, capsys):
    profile = tmp_path / "p.json"
    assert main(["calibrate", "--image", str(board_png), "--profile", str(profile)]) == 0
    out = capsys.readouterr().out
    preview = tmp_path / "p-preview.png"
    assert f"profile: {profile}" in out and f"preview: {preview}" in out
    assert json.loads(profile.read_text())["board_rect"] == [350, 200, 400, 400]
    assert cv2.imread(str(preview)).shape == (800, 1200, 3)


def test_calibrate_defaults_to_the_user_config_dir(board_png, user_dirs, capsys):
    assert main(["calibrate", "--image", str(board_png)]) == 0
    assert (user_dirs / "config" / "screenbot" / "profile.json").is_file()


def test_read_json_with_and_without_a_profile(board_png, tmp_path, capsys):
    assert main(["read", "--image", str(board_png), "--json"]) == 0  # no profile: found on the fly
    first = json.loads(capsys.readouterr().out)
    assert first == {"board": [list(r) for r in BOARD], "state": "playing", "rect": [350, 200, 400, 400]}
    profile = tmp_path / "p.json"
    main(["calibrate", "--image", str(board_png), "--profile", str(profile)])
    capsys.readouterr()
    assert main(["read", "--image", str(board_png), "--profile", str(profile), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == first


def test_read_prints_the_board(board_png, capsys):
    assert main(["read", "--image", str(board_png)]) == 0
    out = capsys.readouterr().out
    assert "2048" in out and "state: playing" in out


def test_no_board_is_one_line_nonzero_and_keeps_the_frame(tmp_path, user_dirs, capsys):
    empty = tmp_path / "desk.png"
    cv2.imwrite(str(empty), render.desktop(800, 600))
    assert main(["read", "--image", str(empty)]) != 0
    line = one_error_line(capsys.readouterr().err)
    assert "no 2048 board" in line and "kept at" in line
    kept = list((user_dirs / "cache" / "screenbot" / "diagnostics").glob("*.png"))
    assert len(kept) == 1


def test_calibrate_without_board_saves_the_preview(tmp_path, capsys):
    empty = tmp_path / "desk.png"
    cv2.imwrite(str(empty), render.desktop(800, 600))
    assert main(["calibrate", "--image", str(empty), "--profile", str(tmp_path / "p.json")]) != 0
    assert "preview:" in one_error_line(capsys.readouterr().err)
    assert (tmp_path / "p-preview.png").is_file() and not (tmp_path / "p.json").exists()


def test_several_boards_then_pick(tmp_path, capsys):
    canvas = render.desktop(1800, 900)
    render.paste(canvas, render.render_board(BOARD, 400), 100, 200)
    render.paste(canvas, render.render_board(BOARD, 400, DARK), 1000, 200)
    png = tmp_path / "two.png"
    cv2.imwrite(str(png), canvas)
    profile = tmp_path / "p.json"
    assert main(["calibrate", "--image", str(png), "--profile", str(profile)]) != 0
    assert "--pick" in one_error_line(capsys.readouterr().err)
    assert main(["calibrate", "--image", str(png), "--profile", str(profile), "--pick", "2"]) == 0
    assert json.loads(profile.read_text())["theme"] == "dark"


@pytest.mark.parametrize("argv, code", [
    (["read", "--image", "/no/such.png"], 1),
    (["calibrate", "--image", "/no/such.png"], 1),
    (["calibrate", "--pick", "0", "--image", "x.png"], 2),
])
def test_bad_input_is_one_line(argv, code, capsys):
    assert main(argv) == code
    one_error_line(capsys.readouterr().err)


def test_corrupt_profile_is_one_line(board_png, tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    assert main(["read", "--image", str(board_png), "--profile", str(bad)]) == 1
    assert "calibrate" in one_error_line(capsys.readouterr().err)


def test_read_grid_for_hint(board_png):
    assert read_grid(image=board_png) == BOARD
