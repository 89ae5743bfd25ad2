"""Opening the screen with a profile: a saved profile that fits is used, one that does not is replaced for the run only, none is found now."""

from __future__ import annotations

import json

import cv2
import pytest

import vision_render as render
from screenbot import board_source
from screenbot.board_source import open_session
from screenbot.calibration import Profile
from screenbot.cli import main
from screenbot.control.screen import ImageScreen
from screenbot.paths import default_profile_path

BOARD = ((2, 4, 8, 16), (0, 32, 64, 0), (128, 256, 512, 1024), (0, 2048, 0, 2))


def screenshot(tmp_path, name: str, x: int, y: int):
    path = tmp_path / name
    cv2.imwrite(str(path), render.paste(render.desktop(1200, 800), render.render_board(BOARD, 400), x, y))
    return path


@pytest.fixture
def profile_here(tmp_path, capsys):
    """A profile calibrated on a screenshot with the board at (350, 200)."""
    path = tmp_path / "p.json"
    assert main(["calibrate", "--image", str(screenshot(tmp_path, "here.png", 350, 200)), "--profile", str(path)]) == 0
    capsys.readouterr()
    return path


def test_a_profile_that_fits_is_used_as_it_is(tmp_path, profile_here, capsys):
    with open_session(screenshot(tmp_path, "same.png", 350, 200), profile_here) as s:
        reading = s.read()
    assert not s.found_now and s.profile_path == profile_here and s.profile.board_rect.as_list() == [350, 200, 400, 400]
    assert reading.grid == BOARD and capsys.readouterr().err == ""


def test_a_stale_profile_is_replaced_for_this_run_only_and_said_in_one_line(tmp_path, profile_here, capsys):
    saved = profile_here.read_text()
    moved = screenshot(tmp_path, "moved.png", 100, 300)
    with open_session(moved, profile_here) as s:
        reading = s.read()
    assert s.found_now and s.profile_path is None and s.profile.board_rect.as_list() == [100, 300, 400, 400]
    assert reading.grid == BOARD
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("screenbot: note: the board is not where the profile says")
    assert profile_here.read_text() == saved  # the saved profile is left as it was

    assert main(["read", "--image", str(moved), "--profile", str(profile_here), "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {"board": [list(r) for r in BOARD], "state": "playing", "rect": [100, 300, 400, 400]}
    assert len(captured.err.strip().splitlines()) == 1


def test_the_same_for_a_profile_given_as_an_object(tmp_path, profile_here):
    with open_session(screenshot(tmp_path, "moved.png", 100, 300), Profile.load(profile_here)) as s:
        assert s.found_now and s.profile.board_rect.as_list() == [100, 300, 400, 400]


def test_no_profile_the_board_is_found_now_and_kept_only_when_asked(tmp_path, monkeypatch, capsys):
    png = screenshot(tmp_path, "screen.png", 350, 200)
    monkeypatch.setattr(board_source, "MssScreen", lambda: ImageScreen(png))  # the "live" screen
    with open_session() as s:
        assert s.found_now and s.live and s.profile_path is None
    assert not default_profile_path().exists() and capsys.readouterr().err == ""
    with open_session(keep_new=True) as s:
        assert s.found_now and s.profile_path == default_profile_path()
    assert Profile.load(default_profile_path()).board_rect == s.profile.board_rect
    assert capsys.readouterr().err.strip() == f"screenbot: no profile yet: calibrated on the live screen, saved {default_profile_path()}"
    with open_session() as s:  # the next session loads it
        assert not s.found_now and s.profile_path == default_profile_path()


def test_a_missing_explicit_profile_is_an_error_before_the_screen_is_opened(tmp_path, monkeypatch):
    from screenbot.calibration import ProfileError

    monkeypatch.setattr(board_source, "MssScreen", lambda: pytest.fail("the screen was opened"))
    with pytest.raises(ProfileError):
        open_session(profile=tmp_path / "nope.json")


def test_a_still_board_with_no_move_left_is_read_as_the_game_s_end(capsys):
    """A terminal game that writes "GAME OVER" beside its board (or nothing): `read` says over, with the board."""
    from pathlib import Path

    frame = Path(__file__).resolve().parents[1] / "fixtures" / "corpus" / "py2048cli" / "over.png"
    truth = json.loads(frame.with_suffix(".json").read_text())["board"]
    assert main(["read", "--image", str(frame), "--json"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert said["state"] == "over" and said["board"] == truth


def test_ended_by_rules_names_over_only_where_no_move_is_left_or_a_message_says_so():
    import numpy as np

    from screenbot.board_state import BoardState
    from screenbot.control.screen import Frame
    from screenbot.geometry import Rect
    from screenbot.vision.reading import Reading

    full = ((2, 4, 2, 4), (4, 2, 4, 2), (2, 4, 2, 4), (4, 2, 4, 2))
    merge_left = ((2, 2, 4, 8),) + full[1:]
    rect = Rect(0, 0, 40, 40)
    assert board_source.ended_by_rules(Reading(full, BoardState.PLAYING, rect)).state == BoardState.OVER
    assert board_source.ended_by_rules(Reading(merge_left, BoardState.PLAYING, rect)).state == BoardState.PLAYING
    empty = ((0,) * 4,) * 4  # nothing moves on it either, but no game ends with no tile
    assert board_source.ended_by_rules(Reading(empty, BoardState.PLAYING, rect)).state == BoardState.PLAYING
    blank = Frame(np.full((40, 40, 3), 200, np.uint8))  # nothing written: left unsettled
    moving = Reading(None, BoardState.UNSETTLED, rect, "tile between cells")
    assert board_source.ended_by_rules(moving, blank) == moving


def test_a_board_under_a_box_whose_words_say_game_over_is_read_as_over(capsys):
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "fixtures" / "corpus" / "vis2048"  # "You Lose!" across four cells
    from screenbot.calibration import calibrate
    from screenbot.control.screen import Frame
    from screenbot.vision.reader import read_board

    profile = calibrate(Frame(cv2.imread(str(folder / "still000.png"))))
    over = Frame(cv2.imread(str(folder / "over.png")))
    reading = read_board(over, profile)
    assert reading.state == "unsettled"
    said = board_source.ended_by_rules(reading, over)
    assert said.state == "over" and said.grid is None and "says" in said.detail
