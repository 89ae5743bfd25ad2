"""Profile: JSON round trip, learned colours, and clear errors for missing or corrupt files."""

from __future__ import annotations

import json

import pytest

from screenbot.board_state import BoardState
from screenbot.calibration import Profile, ProfileError, default_profile_path
from screenbot.geometry import Rect


def make_profile() -> Profile:
    cells = tuple(Rect(15 + c * 121, 15 + r * 121, 106, 106) for r in range(4) for c in range(4))
    return Profile.from_cells(Rect(0, 0, 500, 500), cells, monitor=2, scale=2.0, theme="classic",
                              gap_colour=(160, 173, 187), empty_colour=(180, 192, 204))


def test_profile_round_trip(tmp_path):
    p = make_profile()
    p.learn((10, 20, 30), 8)
    p.remember_glyph("3c3a32:00ff", 4096)
    path = p.save(tmp_path / "sub" / "profile.json")
    q = Profile.load(path)
    assert q.to_json() == p.to_json()
    assert q.cells[5] == Rect(136, 136, 106, 106)
    assert len(q.patches[0]) == 5 and all(q.cells[0].contains(patch) for patch in q.patches[0])
    assert (q.monitor, q.scale, q.theme) == (2, 2.0, "classic")
    assert q.learned[0].colour == (10, 20, 30) and q.learned[0].value == 8


def test_a_colour_seen_with_two_values_becomes_shared():
    p = make_profile()
    p.learn((50, 58, 60), 4096)
    p.learn((51, 58, 60), 8192)
    assert len(p.learned) == 1 and p.learned[0].value is None


def test_default_path_is_in_the_user_config_dir(user_dirs):
    assert default_profile_path() == user_dirs / "config" / "screenbot" / "profile.json"


def test_missing_profile_says_to_calibrate(tmp_path):
    with pytest.raises(ProfileError, match="screenbot calibrate"):
        Profile.load(tmp_path / "nope.json")


@pytest.mark.parametrize("text", ["{not json", "[]", '{"version": 1}', '{"version": 99, "board": [0,0,1,1]}'])
def test_corrupt_profile_says_what_to_do(tmp_path, text):
    path = tmp_path / "p.json"
    path.write_text(text)
    with pytest.raises(ProfileError, match="corrupt.*calibrate"):
        Profile.load(path)


def test_profile_with_wrong_cell_count_is_rejected(tmp_path):
    data = make_profile().to_json()
    data["cells"] = data["cells"][:15]
    data["patches"] = data["patches"][:15]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ProfileError):
        Profile.load(path)


def test_practice_stylesheet_classic_matches_the_real_game_palette():
    from screenbot.palette import CLASSIC, DARK, STYLESHEET, theme_from_stylesheet

    practice_classic = theme_from_stylesheet(STYLESHEET.read_text(), ":root", "classic")
    assert practice_classic.tiles == CLASSIC.tiles and practice_classic.gap == CLASSIC.gap
    assert max(abs(a - b) for a, b in zip(practice_classic.empty, CLASSIC.empty)) <= 2
    assert DARK.name == "dark" and DARK.gap != CLASSIC.gap and len(DARK.tiles) == len(CLASSIC.tiles)
    assert {o.state for o in DARK.overlays} == {BoardState.WON, BoardState.OVER}
