"""`screenbot hint`: advice for a typed-in board, a screenshot or the screen; one-line errors with exit codes."""

import json
from pathlib import Path

import pytest

from screenbot.cli import main
from screenbot.game import Move, apply_move, parse_board


def test_hint_prints_the_best_move_and_every_moves_value(capsys):
    board = "32 4 64 32 / 0 16 2 16 / 32 128 256 32 / 4 256 128 256"
    assert main(["hint", "--player", "plain", "--board", board, "--depth", "2"]) == 0
    out = capsys.readouterr().out
    keys = {m.key for m in Move}
    lines = {line.split()[0]: line for line in out.splitlines() if line.split() and line.split()[0] in keys}
    assert set(lines) == {"up", "down", "left", "right"}
    assert "illegal" in lines["right"]  # nothing moves right on this board
    assert lines["left"].split()[1] == "0"  # every spawn after left loses
    best = [key for key, line in lines.items() if line.endswith("<- best")]
    assert len(best) == 1 and best[0] in ("up", "down")
    assert f"best move: {best[0]}  (depth 2," in out
    grid = parse_board(board)
    assert apply_move(grid, Move.parse(best[0]))[1] > 0


def test_the_endgame_cap_searches_deeper_only_once_a_16384_is_on_the_board(capsys):
    endgame = "8 512 8192 16384 / 8 256 1024 4096 / 2 16 32 128 / . 2 4 8"  # 12 distinct tiles: rule depth 10
    before = endgame.replace("16384", "2048")
    depths = {}
    for name, board in (("endgame", endgame), ("before", before)):
        for cap in ("6", "endgame"):
            assert main(["hint", "--player", "plain", "--board", board, "--depth", "adaptive", "--depth-cap", cap]) == 0
            out = capsys.readouterr().out
            depths[name, cap] = int(out.split("(depth ")[1].split(",")[0])
    assert depths == {("endgame", "6"): 6, ("endgame", "endgame"): 10, ("before", "6"): 6, ("before", "endgame"): 6}


def test_a_deepen_gap_searches_a_close_call_past_the_cap(capsys):
    board = "2 4 8 16 / 32 64 128 . / . . . . / . . . ."  # the rule says 5; at 3 its best moves lie ~0.7 % apart
    depths = {}
    for gap in ("0", "0.002", "0.05"):  # play's defaults otherwise (adaptive depth within 500 ms)
        assert main(["hint", "--player", "plain", "--board", board, "--depth-cap", "3", "--deepen-gap", gap, "--deepen-ms", "400"]) == 0
        depths[gap] = int(capsys.readouterr().out.split("(depth ")[1].split(",")[0])
    assert depths == {"0": 3, "0.002": 3, "0.05": 5}


def test_hint_deepens_only_within_its_deepen_ms(capsys):
    board = "2 4 8 16 / 32 64 128 . / . . . . / . . . ."
    assert main(["hint", "--player", "plain", "--board", board, "--depth-cap", "3", "--deepen-gap", "0.05", "--deepen-ms", "0.001"]) == 0
    assert "(depth 3," in capsys.readouterr().out  # past the cap nothing finishes within 1 microsecond
    assert main(["hint", "--player", "plain", "--board", board, "--deepen-ms", "-1"]) == 2
    assert "--deepen-ms" in capsys.readouterr().err


def test_hint_on_a_lost_board_says_so(capsys):
    assert main(["hint", "--player", "plain", "--board", "2 4 2 4 / 4 2 4 2 / 2 4 2 4 / 4 2 4 2", "--budget-ms", "5"]) == 0
    assert "no legal move" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, problem",
    [
        (["hint", "--player", "plain", "--board", "2 0 0 4"], "16 cells, got 4"),
        (["hint", "--player", "plain", "--board", "2 0 0 3 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0"], "3 is not a power of two"),
        (["hint", "--player", "plain", "--board", "-2 0 0 4 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0"], "negative"),
        (["hint", "--player", "plain", "--board", "2 0 0 4 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", "--depth", "deep"], "--depth"),
        (["hint", "--player", "plain", "--board", "2 0 0 4 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", "--depth", "99"], "--depth"),
        (["hint", "--player", "plain", "--board", "2 0 0 4 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", "--budget-ms", "-5"], "--budget-ms"),
        (["hint", "--player", "plain", "--board", "2 0 0 4 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", "--depth-cap", "99"], "--depth-cap"),
        (["hint", "--player", "plain", "--board", "2 0 0 4 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", "--depth-cap", "deep"], "--depth-cap"),
        (["hint", "--player", "plain", "--board", "2 0 0 4 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", "--deepen-gap", "2"], "--deepen-gap"),
        (["hint", "--player", "plain", "--board", "2 0 0 4 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", "--deepen-gap", "close"], "--deepen-gap"),
        (["hint", "--player", "plain", "--board", "2 0 0 4 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", "--depth", "2", "--budget-ms", "9"], "not allowed"),
        (["hint", "--player", "plain", "--board", "2 0 0 4 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", "--image", "x.png"], "not allowed"),
        (["hint", "--player", "plain", "--board", "2 0 0 4 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", "--profile", "p.json"], "--profile"),
    ],
)
def test_bad_input_is_one_line_with_exit_code_2(capsys, argv, problem):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert err.startswith("screenbot: error: ") and "\n" not in err and problem in err


SCREENS = Path(__file__).parent / "fixtures" / "screens"


def test_hint_reads_a_screenshot_then_advises(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))  # no saved profile: the board is found on the fly
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    png = SCREENS / "classic_z100_s1_p0__01_static.png"
    truth = json.loads(png.with_suffix(".json").read_text())["grid"]
    assert main(["hint", "--player", "plain", "--image", str(png), "--depth", "2"]) == 0
    out = capsys.readouterr().out
    board_lines = out.splitlines()[:4]
    assert [[int(t) if t != "." else 0 for t in line.split()] for line in board_lines] == truth
    best = out.split("best move: ")[1].split()[0]
    assert Move.parse(best) in [m for m in Move if apply_move(tuple(map(tuple, truth)), m)[0] != tuple(map(tuple, truth))]


def test_hint_from_the_screen_without_a_display_says_what_to_do(capsys, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    code = main(["hint"])
    err = capsys.readouterr().err.strip()
    assert code != 0 and code != 2
    assert err.startswith("screenbot: error: ") and "\n" not in err and "display" in err


def test_hint_gives_the_default_players_table_move_where_they_know_the_board(capsys, monkeypatch, tmp_path):
    from screenbot.agent.block_tables import BlockTables, default_table_path

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    BlockTables.empty_compact().save(default_table_path())  # nothing solved: the hint solves what it needs
    board = "32768 16384 8192 512 / 4096 2048 1024 256 / 128 64 128 0 / 4 4 32 64"
    assert main(["hint", "--board", board]) == 0
    captured = capsys.readouterr()
    chance, move, _ = BlockTables().suggest(parse_board(board))
    assert f"best move: {move.key}  (corner block tables," in captured.out
    assert f"without moving it: {100 * chance:.1f} %" in captured.out
    assert captured.err == ""  # the made tables are mapped at once: nothing to say
    early = "2 0 0 4 / 0 0 0 0 / 0 2 0 0 / 0 0 0 0"  # no block of big tiles: the corner evaluation's search
    assert main(["hint", "--board", early, "--depth", "2"]) == 0
    out = capsys.readouterr().out
    assert "best move:" in out and "(depth 2," in out and "<- best" in out
    assert main(["hint", "--board", early, "--player", "best"]) == 2
