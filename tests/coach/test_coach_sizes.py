"""`screenbot review` of games on boards of other sizes than 4x4: the moves rebuilt, judged by the player
play plays on that size (exact-3x3 on 3x3, any-size on 5x5), the worst moves ranked first."""

from __future__ import annotations

import json

import pytest
from coach_render import seeded_game, write_recording, write_screenshots

from screenbot.agent.any_size import AnySizeAgent
from screenbot.agent.base import Decision
from screenbot.agent.exact3 import Exact3Agent, build, default_path, load
from screenbot.cli import main
from screenbot.coach import Judge, explain, review
from screenbot.coach.evaluate import CLASSIC_BANDS, OtherSizeJudged, bands_for, loss_of
from screenbot.game.rules import Game, Move, legal_moves


@pytest.fixture(autouse=True)
def user_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def check_ranked(data: dict) -> list[dict]:
    """Each move's loss is the share of the best move's value it gave up; returns the moves that lost
    something, worst first (as the review ranks them)."""
    for m in data["moves"]:
        values = {Move.parse(k): v for k, v in m["values"].items()}
        assert m["best"] == max(values, key=lambda k: (values[k], -int(k))).key
        assert m["loss"] == pytest.approx(loss_of(values, Move.parse(m["move"]), Move.parse(m["best"])), abs=1e-5)
    return sorted((m for m in data["moves"] if m["loss"] > 0), key=lambda m: (-m["loss"], m["i"]))


def check_bands(data: dict, player: str) -> None:
    """The review's bands are its size's own player's, and every move is banded by them."""
    bands = bands_for(player)
    assert bands != CLASSIC_BANDS
    assert data["thresholds"] == bands.as_json()
    assert all(m["band"] == bands.band_of(m["loss"]) for m in data["moves"])


def test_a_5x5_game_is_rebuilt_and_judged_by_the_5x5_player(tmp_path, capsys):
    boards, moves = seeded_game(51, 30, shape=(5, 5))
    folder = write_screenshots(tmp_path / "shots", boards)
    out = tmp_path / "review.json"
    assert main(["review", str(folder), "--json", str(out), "--depth", "1"]) == 0
    printed = capsys.readouterr().out
    data = json.loads(out.read_text())
    assert "30 moves rebuilt, 0 gaps" in printed
    assert [(m["board"], m["move"]) for m in data["moves"]] == [([list(r) for r in b], m.key)
                                                                 for b, m in zip(boards, moves)]
    assert data["search"]["player"] == "any-size" and data["search"]["shape"] == "5x5"
    check_bands(data, "any-size")
    from screenbot.coach.report import report_html
    page = report_html(review(folder, Judge(depth=1, shape=(5, 5))))
    assert "inaccuracy: loss ≥ 0.75%, mistake: ≥ 8%, blunder: ≥ 24%" in page
    agent = AnySizeAgent()
    for m in data["moves"][:8]:  # the judge's best move is the 5x5 player's, at the judge's depth
        assert m["best"] == agent.choose(m["board"], depth=1).move.key
    worst = check_ranked(data)
    assert len(worst) >= 3  # random moves give some away
    shown = [line.strip() for line in printed.splitlines() if line.strip().startswith("move ")]
    assert [int(line.split(":")[0].split()[1]) - 1 for line in shown] == [m["i"] for m in worst[:5]]


# A 3x3 board late in a game: the exact solution of every board reachable from it is small (about
# 420,000 afterstates, made in half a second), so the test builds it where the exact player looks.
START_3X3 = ((0, 0, 0), (0, 0, 128), (1024, 512, 256))
SEED_3X3 = 6
BAD_AT = (3, 8)  # moves played as the worst legal move; every other move is the optimal one


def exact_game(solution) -> tuple[list, list]:
    """A 3x3 game from START_3X3: the optimal move each time but at BAD_AT, the worst."""
    agent = Exact3Agent(solution=solution)
    game = Game(seed=SEED_3X3, size=(3, 3))
    game.reset(start=START_3X3)
    boards, played = [game.grid], []
    while legal_moves(game.grid):
        values = agent.choose(game.grid).values
        pick = min if len(played) in BAD_AT else max
        move = pick(values, key=lambda m: (values[m], -int(m)))
        game.step(move)
        boards.append(game.grid)
        played.append(move)
    return boards, played


def test_a_3x3_recording_is_rebuilt_and_judged_by_the_exact_player(tmp_path, capsys):
    solution = load(build(default_path(), starts=[START_3X3]))  # in this test's user cache dir
    boards, moves = exact_game(solution)
    assert len(moves) >= 15
    folder = write_recording(tmp_path / "rec", boards, moves)
    out = tmp_path / "review.json"
    assert main(["review", str(folder), "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    data = json.loads(out.read_text())
    assert f"{len(moves)} moves rebuilt, 0 gaps" in printed
    assert [m["move"] for m in data["moves"]] == [m.key for m in moves]
    assert data["search"]["player"] == "exact-3x3" and data["search"]["shape"] == "3x3"
    check_bands(data, "exact-3x3")
    worst = check_ranked(data)
    # the two worst moves played are the only ones that lose, ranked by how much they gave up
    assert sorted(m["i"] for m in worst) == list(BAD_AT)
    assert all(m["loss"] == 0 for m in data["moves"] if m["i"] not in BAD_AT)
    assert worst[0]["loss"] >= worst[1]["loss"] > 0
    assert data["accuracy"] == pytest.approx(1 - len(BAD_AT) / len(moves), abs=1e-6)


def test_a_log_names_the_move_where_two_moves_give_the_same_board(tmp_path):
    """On 3x3, up and left can both lead to the next board: pictures alone cannot say which was played
    (the review drops that board), a recording's log can."""
    before, after = ((0, 2, 0), (0, 0, 0), (2, 0, 0)), ((2, 2, 0), (0, 0, 0), (2, 0, 0))
    assert explain(before, after).kind == "ambiguous"
    told = explain(before, after, told="left")
    assert told.kind == "one" and told.steps[0].move == Move.LEFT
    boards, moves = seeded_game(5, 25, shape=(3, 3))  # its second move is that one
    assert (boards[0], boards[1], moves[0]) == (before, after, Move.LEFT)
    judge = Judge(lambda board: Decision(legal_moves(board)[0], {m: 1.0 for m in legal_moves(board)}))
    from_pictures = review(write_screenshots(tmp_path / "shots", boards), judge)
    from_log = review(write_recording(tmp_path / "rec", boards, moves), judge)
    assert [j.move for j in from_log.moves] == moves
    assert len(from_pictures.moves) == len(moves) - 1 and not from_pictures.game.gaps


def test_a_player_of_another_size_is_one_line(tmp_path, capsys):
    boards, _ = seeded_game(52, 4, shape=(5, 5))
    folder = write_screenshots(tmp_path / "shots", boards)
    assert main(["review", str(folder), "--player", "corner-eval", "--depth", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "screenbot: error: the player 'corner-eval' plays 4x4 boards, not 5x5: try --player any-size"


def test_a_judge_refuses_a_board_of_another_size():
    judge = Judge(depth=1, shape=(5, 5))
    assert judge.described["player"] == "any-size"
    with pytest.raises(OtherSizeJudged, match="a 4x4 board, and the judge plays 5x5 boards"):
        judge.decision(((2, 0, 0, 0),) + ((0, 0, 0, 0),) * 3)
