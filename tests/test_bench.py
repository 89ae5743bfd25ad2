"""`screenbot bench`: seeded simulated games end to end (tiny ones), the JSON and plot it writes, and bad arguments."""

import json

import pytest

from screenbot.agent.bench import BenchSettings, play_game, reported_tiles, run_games
from screenbot.cli import main
from screenbot.game import is_over, max_tile


def test_bench_writes_the_figures_as_json_and_a_plot(tmp_path, capsys):
    out_json, out_png = tmp_path / "bench.json", tmp_path / "reach.png"
    argv = ["bench", "--games", "2", "--seed", "3", "--depth", "1", "--stop-at", "256",
            "--json", str(out_json), "--plot", str(out_png)]
    assert main(argv) == 0
    summary = json.loads(out_json.read_text())
    assert summary["games"] == 2
    assert [g["seed"] for g in summary["per_game"]] == [3, 4]
    assert set(summary["reached"]) == {"256"}
    shares = [g["max_tile"] >= 256 for g in summary["per_game"]]
    assert summary["reached"]["256"] == sum(shares) / 2
    for g in summary["per_game"]:  # the last board is kept, and its biggest tile is the game's
        assert len(g["final"]) == 4 and max(map(max, g["final"])) == g["max_tile"]
    scores = sorted(g["score"] for g in summary["per_game"])
    assert summary["mean_score"] == sum(scores) / 2 and summary["median_score"] == sum(scores) / 2
    assert summary["moves_total"] == sum(g["moves"] for g in summary["per_game"]) > 0
    assert summary["ms_per_move_median"] > 0 and summary["ms_per_move_p95"] >= summary["ms_per_move_median"]
    assert summary["moves_per_s"] > 0
    # the agent's close-call setting is written out, not left as "the default" (which has changed)
    assert summary["settings"]["deepen_gap"] == 1.0 and summary["settings"]["deepen_ms"] == 80
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    printed = capsys.readouterr().out
    assert "reached: 256" in printed and "median" in printed


def test_a_game_stops_at_the_tile_asked_for_and_replays_identically():
    settings = BenchSettings(depth=1, stop_at=128)
    first = play_game(11, settings)
    assert first.max_tile == 128 and not first.over
    assert len(first.move_ms) == first.moves
    again = play_game(11, settings)
    assert (again.score, again.moves, again.max_tile, again.final) == (first.score, first.moves, 128, first.final)


def test_workers_play_the_same_games_as_one_process():
    settings = BenchSettings(depth=1, stop_at=64)
    alone = run_games(3, 20, settings, workers=1)
    shared = run_games(3, 20, settings, workers=2)
    assert [(r.seed, r.score, r.moves) for r in alone] == [(r.seed, r.score, r.moves) for r in shared]


def test_tiles_reported():
    assert reported_tiles(None) == [2048, 4096, 8192, 16384, 32768, 65536]
    assert reported_tiles(8192) == [2048, 4096, 8192]
    assert reported_tiles(512) == [512]


@pytest.mark.parametrize(
    "extra, problem",
    [
        (["--games", "0"], "--games"),
        (["--workers", "0"], "--workers"),
        (["--budget-ms", "20", "--depth", "2"], "not allowed"),
        (["--budget-ms", "0"], "--budget-ms"),
        (["--depth", "many"], "--depth"),
        (["--depth-cap", "0"], "--depth-cap"),
        (["--deepen-gap", "-1"], "--deepen-gap"),
        (["--stop-at", "1000"], "power of two"),
        (["--stop-at", "2"], "power of two"),
        (["--json", "/no/such/folder/out.json"], "does not exist"),
        (["--plot", "reach.txt"], "--plot"),
        (["--games", "two"], "invalid int"),
    ],
)
def test_bad_arguments_are_one_line_with_exit_code_2(capsys, extra, problem):
    assert main(["bench"] + extra) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("screenbot: error: ") and "\n" not in err and problem in err


def test_a_game_without_stop_tile_plays_until_no_move_is_legal():
    result = play_game(5, BenchSettings(depth=0))
    assert result.over and is_over(result.final) and max_tile(result.final) == result.max_tile


def test_settings_describe_the_depth_cap_they_play_with():
    deepened = ", every decision deepened toward the uncapped rule (up to 80 ms)"
    assert BenchSettings().describe() == "the defaults (adaptive depth up to 6, at most 500 ms)" + deepened
    assert BenchSettings(depth_cap="endgame").describe() == \
        "depth cap endgame (adaptive depth up to 6, uncapped from 16384, at most 500 ms)" + deepened
    # a cap the rule never reaches leaves no close call to deepen past it
    assert BenchSettings(depth_cap=40, stop_at=16384).describe() == \
        "depth cap 40 (adaptive depth up to 40, at most 500 ms), stop at 16384"
    assert BenchSettings(depth_cap=12).describe() == "depth cap 12 (adaptive depth up to 12, at most 500 ms)" + deepened
    assert BenchSettings(depth_cap=13).describe() == "depth cap 13 (adaptive depth up to 13, at most 500 ms)"
    assert BenchSettings(depth="adaptive", budget_ms=200).describe() == "budget 200 ms" + deepened
    assert BenchSettings(budget_ms=200).describe() == "budget 200 ms"
    assert BenchSettings(depth="adaptive", depth_cap=5).describe() == "depth adaptive up to 5"
    assert BenchSettings(depth=3).describe() == "depth 3"
    assert BenchSettings(deepen_gap=1e-3).describe() == \
        "the defaults (adaptive depth up to 6, at most 500 ms), close calls (within 0.001, up to 80 ms) deepened"
    assert BenchSettings(deepen_gap=0.003).describe() == \
        "the defaults (adaptive depth up to 6, at most 500 ms), close calls (within 0.003, up to 80 ms) deepened"
    assert BenchSettings(deepen_gap=0).describe() == \
        "the defaults (adaptive depth up to 6, at most 500 ms), close calls not deepened"
    assert BenchSettings.from_summary({"budget_ms": None, "depth": None, "stop_at": None, "deepen_gap": 0.01}).deepen_gap == 0.01
    # results written before close calls were deepened have no deepen_gap: they read as off
    assert BenchSettings.from_summary({"budget_ms": None, "depth": None, "stop_at": None}).describe() == \
        "the defaults (adaptive depth up to 6, at most 500 ms), close calls not deepened"


def test_siblings_are_the_same_new_tile_in_other_empty_cells():
    import random

    from screenbot.agent.bench import SHARED_SIBLINGS, _some_siblings
    from screenbot.game.rules import parse_board

    after = parse_board("2 4 . . / . . . . / 8 . . . / . . . 16")
    board = parse_board("2 4 . . / . 4 . . / 8 . . . / . . . 16")  # the 4 came at row 2, col 2
    rng = random.Random(3)
    counts = set()
    for _ in range(40):
        siblings = _some_siblings(after, board, rng)
        counts.add(len(siblings))
        for s in siblings:
            new = [(r, c) for r in range(4) for c in range(4) if s[r][c] != after[r][c]]
            assert len(new) == 1 and s[new[0][0]][new[0][1]] == 4 and new[0] != (1, 1)
    assert counts == set(range(SHARED_SIBLINGS + 1))
    assert _some_siblings(None, board, rng) == []


def test_a_shared_table_game_plays_on_and_says_so():
    settings = BenchSettings(depth=2, stop_at=128, shared_table=True)
    result = play_game(5, settings)
    assert result.max_tile == 128 and len(result.move_ms) == result.moves
    assert "sibling boards" in settings.describe()


def test_the_rules_deepest_depth_is_what_a_full_board_of_different_tiles_asks_for():
    from screenbot.agent.search import RULE_MAX_DEPTH, adaptive_depth

    ranks = [[2 ** (1 + 4 * r + c) for c in range(4)] for r in range(4)]
    ranks[3][3] = 0  # a cell holds 2 .. 32768: at most 15 different tiles
    assert adaptive_depth(ranks) == RULE_MAX_DEPTH
