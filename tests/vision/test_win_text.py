"""The win message's text read by tesseract (real engine) from recorded boards: the key it names to continue, or none."""

from pathlib import Path

import cv2
import pytest

from screenbot.play.key_hint import key_hint
from screenbot.vision.ocr import read_text, text_colours

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "win_messages"


def named_key(name: str) -> str | None:
    pixels = cv2.imread(str(FIXTURES / f"{name}.png"))
    for text in read_text(pixels):
        hint = key_hint(text)
        if hint is not None:
            return hint.key
    return None


@pytest.mark.parametrize("name", ["classic-key", "dark-key", "terminal-key"])
def test_a_message_that_says_press_enter_is_read_as_enter_over_the_tiles(name):
    assert named_key(name) == "enter"


def test_a_message_with_buttons_names_no_key():
    assert named_key("classic-click") is None


def test_text_colours_leave_out_backgrounds_and_specks():
    pixels = cv2.imread(str(FIXTURES / "classic-key.png"))
    colours = text_colours(pixels)
    assert 1 <= len(colours) <= 6
