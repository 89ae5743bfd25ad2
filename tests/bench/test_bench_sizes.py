"""`bench --size RxC` and `hint --board` on boards other than 4x4: each size gets its own player."""

from __future__ import annotations

import json

from screenbot.cli import main


def test_bench_plays_a_5x5_board_with_the_any_size_player(tmp_path, capsys):
    out = tmp_path / "bench.json"
    assert main(["bench", "--size", "5x5", "--games", "2", "--stop-at", "64", "--json", str(out)]) == 0
    summary = json.loads(out.read_text())
    assert summary["settings"]["shape"] == [5, 5] and summary["settings"]["player"] == "any-size"
    assert [g["max_tile"] for g in summary["per_game"]] == [64, 64]
    assert "5x5 board, player any-size" in capsys.readouterr().out


def test_bench_refuses_a_size_outside_3x3_to_8x8_and_a_player_of_another_size_in_one_line(capsys):
    assert main(["bench", "--size", "2x9", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "2x9 board is not supported: boards are 3x3 to 8x8" in err and err.count("\n") == 1
    assert main(["bench", "--size", "5x5", "--player", "corner-v4", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "the player 'corner-v4' plays 4x4 boards, not 5x5: try --player any-size" in err and err.count("\n") == 1


def test_a_stop_tile_is_checked_against_the_size(capsys):
    assert main(["bench", "--size", "3x3", "--games", "1", "--stop-at", "2048"]) == 2
    assert "--stop-at must be a power of two from 4 to 1024" in capsys.readouterr().err


def test_hint_advises_on_a_board_of_another_size(capsys):
    assert main(["hint", "--board", "2 8 0 0 0 / 0 4 0 0 0 / 0 0 0 0 2 / 0 0 0 0 0 / 4 0 0 0 0", "--depth", "2"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["2", "8", ".", ".", "."] and "<- best" in out
