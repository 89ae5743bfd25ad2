"""`screenbot bench`: seeded simulated games end to end (tiny ones), the JSON and plot it writes, and bad arguments."""

import json
import sys
import time
from pathlib import Path

import pytest

from screenbot.bench.games import BenchSettings, make_agent, play_game, run_games
from screenbot.bench.summary import merge_summaries, reported_tiles
from screenbot.cli import main
from screenbot.game import is_over, max_tile


def test_bench_writes_the_figures_as_json_and_a_plot(tmp_path, capsys):
    out_json, out_png = tmp_path / "bench.json", tmp_path / "reach.png"
    argv = ["bench", "--player", "plain", "--games", "2", "--seed", "3", "--depth", "1", "--stop-at", "256",
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
    # how deep each game's moves were searched: a fixed depth of 1, every move
    for g in summary["per_game"]:
        assert g["depths"] == {"1": g["moves"]}
    assert summary["depths"] == {"1": summary["moves_total"]}
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    printed = capsys.readouterr().out
    assert "reached: 256" in printed and "median" in printed and "search depth of the moves: 1: 100.0%" in printed


def test_a_game_stops_at_the_tile_asked_for_and_replays_identically():
    settings = BenchSettings(player="plain", depth=1, stop_at=128)
    first = play_game(11, settings)
    assert first.max_tile == 128 and not first.over
    assert len(first.move_ms) == first.moves
    again = play_game(11, settings)
    assert (again.score, again.moves, again.max_tile, again.final) == (first.score, first.moves, 128, first.final)


@pytest.mark.slow
def test_workers_play_the_same_games_as_one_process():
    settings = BenchSettings(player="plain", depth=1, stop_at=64)
    alone = run_games([20, 21, 22], settings, workers=1)
    shared = run_games([20, 21, 22], settings, workers=2)
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
        (["--threads", "0"], "--threads"),
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
        (["--player", "best"], "invalid choice"),
        (["--corner", "table"], "unrecognized arguments"),
    ],
)
def test_bad_arguments_are_one_line_with_exit_code_2(capsys, extra, problem):
    assert main(["bench"] + extra) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("screenbot: error: ") and "\n" not in err and problem in err


def test_a_game_without_stop_tile_plays_until_no_move_is_legal():
    result = play_game(5, BenchSettings(player="plain", depth=0))
    assert result.over and is_over(result.final) and max_tile(result.final) == result.max_tile


def test_settings_describe_the_depth_cap_they_play_with():
    deepened = ", every decision deepened toward the uncapped rule (up to 80 ms)"
    plain = "player plain, "
    assert BenchSettings(player="plain").describe() == plain + "the defaults (adaptive depth up to 6, at most 500 ms)" + deepened
    assert BenchSettings(player="plain", depth_cap="endgame").describe() == \
        plain + "depth cap endgame (adaptive depth up to 6, uncapped from 16384, at most 500 ms)" + deepened
    # a cap the rule never reaches leaves no close call to deepen past it
    assert BenchSettings(player="plain", depth_cap=40, stop_at=16384).describe() == \
        plain + "depth cap 40 (adaptive depth up to 40, at most 500 ms), stop at 16384"
    assert BenchSettings(player="plain", depth_cap=12).describe() == plain + "depth cap 12 (adaptive depth up to 12, at most 500 ms)" + deepened
    assert BenchSettings(player="plain", depth_cap=13).describe() == plain + "depth cap 13 (adaptive depth up to 13, at most 500 ms)"
    assert BenchSettings(player="plain", depth="adaptive", budget_ms=200).describe() == plain + "budget 200 ms" + deepened
    assert BenchSettings(player="plain", budget_ms=200).describe() == plain + "budget 200 ms"
    assert BenchSettings(player="plain", depth="adaptive", depth_cap=5).describe() == plain + "depth adaptive up to 5"
    assert BenchSettings(player="plain", depth=3).describe() == plain + "depth 3"
    assert BenchSettings(player="plain", deepen_gap=1e-3).describe() == \
        plain + "the defaults (adaptive depth up to 6, at most 500 ms), close calls (within 0.001, up to 80 ms) deepened"
    assert BenchSettings(player="plain", deepen_gap=0.003).describe() == \
        plain + "the defaults (adaptive depth up to 6, at most 500 ms), close calls (within 0.003, up to 80 ms) deepened"
    assert BenchSettings(player="plain", deepen_gap=0).describe() == \
        plain + "the defaults (adaptive depth up to 6, at most 500 ms), close calls not deepened"
    assert BenchSettings.from_summary({"budget_ms": None, "depth": None, "stop_at": None, "deepen_gap": 0.01}).deepen_gap == 0.01
    assert BenchSettings(player="corner-v4", depth=3).describe() == "player corner-v4, depth 3"
    assert BenchSettings(player="corner-v4", variant="macroxue's search at depth 8").describe().startswith(
        "player corner-v4 (macroxue's search at depth 8), ")
    # summaries in benchmarks/results name the agent by their older fields: read as a player and a variant
    older = {"budget_ms": None, "depth": None, "stop_at": None, "deepen_gap": 1.0}
    assert BenchSettings.from_summary({**older, "corner": "table"}).player == "corner-v2"
    assert BenchSettings.from_summary({**older, "corner": "table", "corner_tables": 4}).player == "corner-v4"
    assert BenchSettings.from_summary({**older, "corner": "eval"}).player == "corner-eval"
    read = BenchSettings.from_summary({**older, "corner": "table", "corner_depth": 8, "corner_loss": "tile"})
    assert read.variant == "macroxue's search at depth 8, loss rule tile"
    assert BenchSettings.from_summary({**older, "endgame_tables": True}).variant == "endgame tables"
    assert BenchSettings.from_summary(older).player == "plain" and BenchSettings.from_summary(older).variant is None
    # results written before close calls were deepened have no deepen_gap: they read as off
    assert BenchSettings.from_summary({"budget_ms": None, "depth": None, "stop_at": None}).describe() == \
        plain + "the defaults (adaptive depth up to 6, at most 500 ms), close calls not deepened"


def test_the_rules_deepest_depth_is_what_a_full_board_of_different_tiles_asks_for():
    from screenbot.agent.search import RULE_MAX_DEPTH, adaptive_depth

    ranks = [[2 ** (1 + 4 * r + c) for c in range(4)] for r in range(4)]
    ranks[3][3] = 0  # a cell holds 2 .. 32768: at most 15 different tiles
    assert adaptive_depth(ranks) == RULE_MAX_DEPTH


def test_the_search_threads_are_part_of_the_results(tmp_path, capsys):
    out = tmp_path / "bench.json"
    assert main(["bench", "--player", "plain", "--games", "1", "--depth", "1", "--stop-at", "32", "--threads", "1", "--json", str(out)]) == 0
    summary = json.loads(out.read_text())
    assert summary["settings"]["threads"] == 1  # a search bounded by time plays another game on more threads
    assert "1 worker(s), 1 search thread(s) each" in capsys.readouterr().out


def _keep(folder, *extra):
    return main(["bench", "--player", "plain", "--games", "3", "--seed", "7", "--depth", "1", "--stop-at", "64", "--threads", "1",
                 "--keep-games", str(folder), *extra])


def test_kept_games_are_not_played_again_and_the_summary_covers_them_all(tmp_path, capsys):
    folder, whole, resumed = tmp_path / "games", tmp_path / "whole.json", tmp_path / "resumed.json"
    assert _keep(folder, "--json", str(whole)) == 0
    files = sorted(p.name for p in folder.iterdir())
    assert files == ["seed_7.json", "seed_8.json", "seed_9.json"]
    first = json.loads(whole.read_text())
    assert first["games"] == 3 and first["seeds"] == [7, 8, 9]
    # each kept file is a one-game summary of its own, as `bench --games 1 --json` writes it
    one = json.loads((folder / "seed_8.json").read_text())
    assert one["games"] == 1 and [g["seed"] for g in one["per_game"]] == [8] and one["settings"]["threads"] == 1
    (folder / "seed_8.json").unlink()  # as if the run had stopped before game 8 ended
    before = (folder / "seed_9.json").stat().st_mtime_ns
    capsys.readouterr()
    assert _keep(folder, "--json", str(resumed)) == 0
    err = capsys.readouterr().err
    assert "2 of the 3 games are kept" in err and "playing the other 1" in err
    assert (folder / "seed_9.json").stat().st_mtime_ns == before
    again = json.loads(resumed.read_text())
    # a fixed depth plays a seed's game the same way every time: the resumed run's games are the first run's
    assert [(g["seed"], g["score"], g["moves"]) for g in again["per_game"]] == \
        [(g["seed"], g["score"], g["moves"]) for g in first["per_game"]]
    assert again["reached"] == first["reached"] and again["ms_per_move_median_of_games"] > 0
    assert again["depths"] == {"1": again["moves_total"]}


def test_kept_games_played_another_way_or_unreadable_stop_the_run_with_one_line(tmp_path, capsys):
    folder = tmp_path / "games"
    assert _keep(folder) == 0
    capsys.readouterr()
    # another depth would mix two ways of playing into one summary
    assert main(["bench", "--player", "plain", "--games", "3", "--seed", "7", "--depth", "2", "--stop-at", "64", "--threads", "1",
                 "--keep-games", str(folder)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("screenbot: error: --keep-games") and "\n" not in err and "another way" in err
    (folder / "seed_8.json").write_text("{not json")
    assert _keep(folder) == 2
    err = capsys.readouterr().err.strip()
    assert "seed_8.json is not a kept bench game" in err and "\n" not in err
    (folder / "seed_8.json").write_text((folder / "seed_7.json").read_text())  # the wrong seed's game
    assert _keep(folder) == 2
    assert "not seed 8 alone" in capsys.readouterr().err
    (tmp_path / "file").write_text("")
    assert main(["bench", "--player", "plain", "--games", "1", "--depth", "0", "--keep-games", str(tmp_path / "file")]) == 2
    assert "not a folder" in capsys.readouterr().err


def test_merging_needs_one_way_of_playing_and_each_seed_once():
    settings = BenchSettings(player="plain", depth=1, stop_at=32)
    from screenbot.bench.summary import summarize

    a = summarize([play_game(1, settings)], settings, 1, 1, 1.0, 1)
    b = summarize([play_game(2, settings)], settings, 2, 2, 1.0, 1)  # another number of workers is the same play
    merged = merge_summaries([b, a])
    assert merged["seeds"] == [1, 2] and merged["games"] == 2 and merged["reached_games"]["32"] == 2
    with pytest.raises(ValueError, match="twice"):
        merge_summaries([a, a])
    c = summarize([play_game(3, settings)], settings, 3, 1, 1.0, 2)  # two search threads: another way
    with pytest.raises(ValueError, match="different settings"):
        merge_summaries([a, c])


@pytest.mark.slow
def test_bench_plays_the_player_it_is_told_as_make_player_makes_it(monkeypatch, tmp_path):
    from screenbot.agent.block_tables import BlockTables, default_table_path
    from screenbot.agent.corner import CornerAgent
    from screenbot.agent.players import PLAY_SOLVE_BUDGET
    from screenbot.agent.search import ExpectimaxAgent

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    saved = BlockTables()
    saved.suggest(((32768, 16384, 8192, 512), (4096, 2048, 1024, 256), (128, 64, 128, 0), (4, 4, 32, 64)))
    saved.compact().save(default_table_path())
    agent = make_agent(BenchSettings(player="corner-v4"), 1)  # play's tables in the cache: loaded, play's budget
    assert isinstance(agent, CornerAgent) and agent.solve_budget == PLAY_SOLVE_BUDGET
    assert agent.block.states_solved() == saved.states_solved() > 0
    assert not any(t.is_dense for t in agent.block.tables.values())
    evaluation = make_agent(BenchSettings(player="corner-eval"), 1)
    assert isinstance(evaluation, CornerAgent) and evaluation.block is None
    assert type(make_agent(BenchSettings(player="plain"), 1)) is ExpectimaxAgent
    result = play_game(5, BenchSettings(player="corner-eval", depth=2, stop_at=256))
    assert result.max_tile >= 256 and not result.over


def _children(pid: int) -> list[int]:
    kids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            kids.append(int(stat.parent.name))
    return kids


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text(errors="replace")
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("how", ["term", "kill"])
def test_a_bench_stopped_or_killed_leaves_no_worker_playing(tmp_path, how):
    import os
    import signal
    import subprocess

    # games at the defaults: each lasts minutes, far longer than the test waits for a worker to end
    bench = subprocess.Popen([sys.executable, "-m", "screenbot", "bench", "--player", "plain", "--games", "4", "--seed", "1",
                              "--workers", "2", "--threads", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env={**os.environ, "SCREENBOT_THREADS": "1"})
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            workers = [pid for pid in _children(bench.pid) if "spawn_main" in _cmdline(pid)]
            if len(workers) == 2:
                break
            time.sleep(0.2)
        assert len(workers) == 2, "the bench never started its two workers"
        time.sleep(3)  # the games under way
        bench.send_signal(signal.SIGTERM if how == "term" else signal.SIGKILL)
        code = bench.wait(timeout=60)
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(_alive(pid) for pid in workers), "a worker went on playing after the bench stopped"
        if how == "term":
            assert code == 130 and "interrupted" in bench.stderr.read()
    finally:
        if bench.poll() is None:
            bench.kill()
            bench.wait()
        for pid in workers:  # a failing run leaves nothing behind either
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_summaries_record_the_player_and_older_ones_read_as_theirs():
    from screenbot.bench.summary import same_settings, summary_settings

    v4 = summary_settings(BenchSettings(player="corner-v4", stop_at=32768), workers=2, threads=1)
    assert v4["player"] == "corner-v4" and v4["variant"] is None
    older = {k: v for k, v in v4.items() if k not in ("player", "variant")}
    assert same_settings({**older, "corner": "table", "corner_tables": 4}, v4)
    assert not same_settings({**older, "corner": "table"}, v4)  # tables without a version: version 2's
    assert not same_settings({**older, "corner": "table", "corner_tables": 4, "corner_depth": 8}, v4)
    assert same_settings({**older, "corner": "eval", "corner_loss": "fixed"}, {**v4, "player": "corner-eval"})
