"""`screenbot review` end to end on drawn games: screenshots, a video, a recording; the JSON and the report; errors."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from coach_render import page, seeded_game, write_recording, write_screenshots, write_video

from screenbot.agent.base import Decision
from screenbot.cli import main
from screenbot.coach import Judge, review
from screenbot.coach.frames import natural_key
from screenbot.game.rules import Move, apply_move, legal_moves

MOVE_KEYS = {"up", "down", "left", "right"}


@pytest.fixture(autouse=True)
def user_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def quick_judge() -> Judge:
    """The first legal move in Move order is 'best'; the others lose 1 %, 5 %, 20 %."""
    def choose(board):
        moves = legal_moves(board)
        return Decision(moves[0], {m: 1000.0 * (1 - (0.0, 0.01, 0.05, 0.2)[k]) for k, m in enumerate(moves)})

    return Judge(choose)


def played(result) -> list[tuple]:
    return [(j.board, j.move) for j in result.moves]


def test_screenshots_are_taken_in_name_order():
    names = ["shot10.png", "shot2.png", "shot1.png", "Shot3.png"]
    assert sorted(names, key=natural_key) == ["shot1.png", "shot2.png", "Shot3.png", "shot10.png"]


def test_the_command_reviews_a_folder_of_screenshots_and_writes_the_json_and_report(tmp_path, capsys):
    boards, moves = seeded_game(11, 12)
    folder = write_screenshots(tmp_path / "shots", boards)  # shot0 .. shot12: name order is not text order
    out, report = tmp_path / "review.json", tmp_path / "report"
    assert main(["review", str(folder), "--json", str(out), "--out", str(report), "--depth", "1", "--player", "corner-eval"]) == 0
    printed = capsys.readouterr().out
    assert "12 moves rebuilt, 0 gaps" in printed
    data = json.loads(out.read_text())
    assert set(data) >= {"moves", "gaps", "accuracy", "source"}
    assert data["gaps"] == 0 and data["source"]["kind"] == "screenshots"
    assert len(data["moves"]) == 12
    for k, (m, board, move) in enumerate(zip(data["moves"], boards, moves)):
        assert set(m) >= {"i", "board", "move", "best", "loss", "band"}
        assert m["i"] == k and m["board"] == [list(r) for r in board] and m["move"] == move.key
        assert m["best"] in MOVE_KEYS and 0.0 <= m["loss"] <= 1.0
        assert m["band"] in ("good", "inaccuracy", "mistake", "blunder")
        assert (m["loss"] == 0.0) or m["move"] != m["best"]
    assert data["accuracy"] == pytest.approx(sum(m["move"] == m["best"] for m in data["moves"]) / 12, abs=1e-6)
    page_html = (report / "report.html").read_text()
    assert "Game review" in page_html and "loss.png" in page_html and "<table class=\"board\">" in page_html
    assert "inaccuracy: loss ≥ 0.5%, mistake: ≥ 1.5%, blunder: ≥ 4%" in page_html  # the 4x4 judge's bands
    assert data["thresholds"] == {"inaccuracy": 0.005, "mistake": 0.015, "blunder": 0.04}
    assert (report / "loss.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_report_draws_the_worst_moves_first(tmp_path):
    from screenbot.coach.report import report_html

    boards, moves = seeded_game(12, 10)
    result = review(write_screenshots(tmp_path / "shots", boards), quick_judge())
    worst = result.worst(10)
    assert [j.loss for j in worst] == sorted((j.loss for j in result.moves if j.loss > 0), reverse=True)
    html = report_html(result)
    first = html.index(f"move {worst[0].i + 1}: {worst[0].move.key}")
    assert all(html.index(f"move {j.i + 1}: {j.move.key}") > first for j in worst[1:])


def test_a_cut_between_two_games_is_one_gap(tmp_path):
    first, first_moves = seeded_game(1, 6)
    second, second_moves = seeded_game(2, 5)
    result = review(write_screenshots(tmp_path / "shots", first + second), quick_judge())
    assert played(result) == list(zip(first, first_moves)) + list(zip(second, second_moves))
    data = result.as_json()
    assert data["gaps"] == 1 and data["gap_list"][0]["after_move"] == 6
    assert data["gap_list"][0]["from"] == "shot6.png" and data["gap_list"][0]["to"] == "shot7.png"


def video_frames(boards, moves, hold: int = 3) -> list[np.ndarray]:
    """Each board held still for `hold` frames, with one frame caught mid-slide before each next board."""
    frames = []
    for k, board in enumerate(boards):
        if k > 0:
            before = boards[k - 1]
            tile = next(((r, c) for r in range(4) for c in range(4) if before[r][c]), (0, 0))
            frames.append(page(before, shift=(tile[0], tile[1], 0.4)))  # a tile between cells: unsettled
        frames += [page(board)] * hold
    return frames


def test_a_video_is_rebuilt_with_unchanged_frames_skipped(tmp_path):
    boards, moves = seeded_game(21, 10)
    video = write_video(tmp_path / "game.avi", video_frames(boards, moves))
    result = review(video, quick_judge())
    assert played(result) == list(zip(boards, moves))
    assert result.game.gaps == []
    stats = result.stats
    assert stats.frames == 11 * 3 + 10
    assert stats.unchanged >= 11  # the still frames after the first of each board were not read again
    assert stats.read < stats.frames


def test_a_video_board_on_one_frame_only_is_not_believed_but_the_moves_are_still_found(tmp_path):
    boards, moves = seeded_game(0, 60)
    frames = []
    for k, board in enumerate(boards[8:12], 8):
        frames += [page(board)] * (1 if k == 9 else 3)
        frames.append(np.full_like(frames[-1], 90))  # a cut between the boards (a dark frame)
    result = review(write_video(tmp_path / "game.avi", frames), quick_judge())
    assert played(result) == list(zip(boards[8:11], moves[8:11]))
    assert result.stats.glimpsed == 1 and result.game.two_move_jumps == 1


def test_a_recording_folder_is_read_with_its_profile_origins_and_log(tmp_path):
    boards, moves = seeded_game(31, 9)
    folder = write_recording(tmp_path / "rec", boards, moves)
    result = review(folder, quick_judge())
    assert result.source["kind"] == "recording" and result.stats.calibrated_on == "profile.json"
    assert played(result) == list(zip(boards, moves))  # the summary's board follows the last key
    assert (result.stats.logged, result.stats.log_agrees, result.stats.log_disagrees) == (10, 9, [])
    assert result.log_moves_disagree == []
    frames_only = review(folder, quick_judge(), use_log=False)
    assert played(frames_only) == list(zip(boards[:-1], moves[:-1]))  # no frame shows the last board
    assert frames_only.stats.read == 9 and frames_only.stats.logged == 0


def test_a_recording_frame_grabbed_while_the_new_tile_grew_in_is_read_from_the_log(tmp_path):
    boards, moves = seeded_game(32, 6)
    pictures = [page(b) for b in boards]
    before = boards[3]
    after = next(((r, c) for r in range(4) for c in range(4) if before[r][c] in (2, 4)
                  and boards[2][r][c] == 0 and apply_move(boards[2], moves[2])[0][r][c] == 0), None)
    assert after is not None
    growing = [list(row) for row in before]
    growing[after[0]][after[1]] = 0  # the new tile too small to see yet
    pictures[3] = page(tuple(tuple(row) for row in growing))
    folder = write_recording(tmp_path / "rec", boards, moves, pictures=pictures)
    result = review(folder, quick_judge())
    assert played(result) == list(zip(boards, moves))
    assert result.stats.log_growing == 1 and result.stats.log_disagrees == []


def test_a_logged_move_that_the_boards_contradict_is_reported(tmp_path):
    boards, moves = seeded_game(33, 5)
    folder = write_recording(tmp_path / "rec", boards, moves)
    log = folder / "log.jsonl"
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    other = next(m for m in Move if m != moves[2])
    lines[2]["move"] = other.key
    log.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    result = review(folder, quick_judge())
    assert played(result) == list(zip(boards, moves))  # the move comes from the boards, not the log
    assert result.log_moves_disagree == [2]


def run_cli(capsys, *args) -> tuple[int, str]:
    code = main(["review", "--player", "corner-eval", *map(str, args)])
    return code, capsys.readouterr().err


def assert_one_error_line(code: int, err: str, *words: str) -> None:
    assert code != 0
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("screenbot: error: "), err
    for word in words:
        assert word in lines[0]


def test_a_missing_source_is_one_error_line(tmp_path, capsys):
    assert_one_error_line(*run_cli(capsys, tmp_path / "nothing.mp4"), "no such file")


def test_an_empty_folder_is_one_error_line(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert_one_error_line(*run_cli(capsys, tmp_path / "empty"), "no screenshots")


def test_a_corrupt_video_is_one_error_line(tmp_path, capsys):
    bad = tmp_path / "broken.mp4"
    bad.write_bytes(np.random.default_rng(0).integers(0, 256, 5000, dtype=np.uint8).tobytes())
    assert_one_error_line(*run_cli(capsys, bad), "broken.mp4")
    (tmp_path / "empty.mp4").write_bytes(b"")
    assert_one_error_line(*run_cli(capsys, tmp_path / "empty.mp4"), "empty")


def test_a_corrupt_screenshot_is_one_error_line(tmp_path, capsys):
    folder = write_screenshots(tmp_path / "shots", seeded_game(3, 2)[0])
    (folder / "shot3.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    assert_one_error_line(*run_cli(capsys, folder), "shot3.png")


def test_a_video_without_a_board_is_one_error_line(tmp_path, capsys):
    frames = [np.full((240, 320, 3), 30 + 10 * k, np.uint8) for k in range(6)]
    video = write_video(tmp_path / "desktop.avi", frames)
    assert_one_error_line(*run_cli(capsys, video), "no 2048 board")


def test_one_picture_is_not_a_game(tmp_path, capsys):
    picture = tmp_path / "one.png"
    cv2.imwrite(str(picture), page(seeded_game(1, 0)[0][0]))
    assert_one_error_line(*run_cli(capsys, picture), "folder")


def test_bad_arguments_are_usage_errors(tmp_path, capsys):
    code, err = run_cli(capsys, tmp_path, "--still-frames", "0")
    assert code == 2 and "--still-frames" in err
    code, err = run_cli(capsys, tmp_path, "--depth", "deep")
    assert code == 2 and "--depth" in err


def test_moves_are_named_as_the_keys(tmp_path):
    boards, moves = seeded_game(5, 4)
    data = review(write_screenshots(tmp_path / "s", boards), quick_judge()).as_json()
    assert [m["move"] for m in data["moves"]] == [m.key for m in moves]
    assert all(Move.parse(m["best"]) in Move for m in data["moves"])
