"""`screenbot coach` on bad input: one line, a non-zero exit code, before anything is looked at."""

from __future__ import annotations

import pytest

from screenbot.cli import main


def test_coach_without_a_display_says_what_to_do(capsys, monkeypatch, tmp_path):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    code = main(["coach", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip()
    assert code == 4
    assert err.startswith("screenbot: error: ") and "\n" not in err and "display" in err
    assert not (tmp_path / "out").exists()  # nothing written for a session that never began


@pytest.mark.parametrize("args, words", [
    (["--max-moves", "0"], "--max-moves"),
    (["--seconds", "-1"], "--seconds"),
    (["--depth", "deep"], "--depth"),
    (["--budget-ms", "0"], "--budget-ms"),
])
def test_coach_bad_arguments(capsys, args, words):
    code = main(["coach", *args])
    err = capsys.readouterr().err.strip()
    assert code == 2 and err.startswith("screenbot: error: ") and words in err and "\n" not in err
