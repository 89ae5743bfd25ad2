"""The hands: only the four keys of the game's key set can be pressed, clicks only inside the allowed area."""

import os

import pytest

from screenbot.control.keyboard import (
    ARROW_KEYS,
    KEY_SETS,
    Click,
    Press,
    RecordingKeyboard,
    UnsafeClickError,
    move_key,
)
from screenbot.control.x11 import ensure_xauthority
from screenbot.game.rules import Move
from screenbot.geometry import Rect


def test_every_move_maps_to_an_arrow_key():
    assert {move_key(m) for m in Move} == ARROW_KEYS == {"up", "down", "left", "right"}


@pytest.mark.parametrize("keys, expected", [("wasd", "wsad"), ("hjkl", "kjhl")])
def test_each_key_set_has_one_key_per_move(keys, expected):
    """expected: the keys of up, down, left, right in that order."""
    assert "".join(move_key(m, keys) for m in (Move.UP, Move.DOWN, Move.LEFT, Move.RIGHT)) == expected
    keyboard = RecordingKeyboard(keys=keys)
    keyboard.press(Move.RIGHT)
    keyboard.press(Move.DOWN)
    assert keyboard.moves == [Move.RIGHT, Move.DOWN]
    with pytest.raises(TypeError):
        keyboard.press(KEY_SETS[keys][Move.UP])  # a key name is not a move


def test_an_unknown_key_set_is_refused():
    with pytest.raises(ValueError, match="arrows, wasd, hjkl"):
        RecordingKeyboard(keys="ijkl")


@pytest.mark.parametrize("thing", ["r", "enter", "left", 2, None, "ctrl"])
def test_anything_but_a_move_is_refused(thing):
    keyboard = RecordingKeyboard()
    with pytest.raises(TypeError):
        keyboard.press(thing)
    assert keyboard.events == []


def test_presses_are_recorded_as_moves():
    keyboard = RecordingKeyboard()
    keyboard.press(Move.LEFT)
    keyboard.press(Move.UP)
    assert keyboard.moves == [Move.LEFT, Move.UP]
    assert keyboard.events == [Press(Move.LEFT), Press(Move.UP)]


def test_clicks_are_refused_without_an_area_and_outside_it():
    keyboard = RecordingKeyboard()
    with pytest.raises(UnsafeClickError):
        keyboard.click(10, 10)
    keyboard.confine_clicks(Rect(100, 100, 50, 50))
    with pytest.raises(UnsafeClickError):
        keyboard.click(99, 120)
    with pytest.raises(UnsafeClickError):
        keyboard.click(150, 120)  # right edge is exclusive
    keyboard.click(149, 100)
    assert keyboard.events == [Click(149, 100)]


def test_missing_xauthority_is_replaced_by_an_empty_file(monkeypatch, tmp_path):
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XAUTHORITY", raising=False)
    ensure_xauthority()
    path = os.environ["XAUTHORITY"]
    assert os.path.isfile(path) and os.path.getsize(path) == 0
    os.unlink(path)


def test_an_existing_xauthority_is_kept(monkeypatch, tmp_path):
    auth = tmp_path / "auth"
    auth.write_bytes(b"x")
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.setenv("XAUTHORITY", str(auth))
    ensure_xauthority()
    assert os.environ["XAUTHORITY"] == str(auth)
