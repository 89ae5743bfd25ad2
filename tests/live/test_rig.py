"""The rig end to end: real X key events into a real Chromium; the page's history obeys the engine."""

from __future__ import annotations

import os
import random
import socket
import time

import pytest

from screenbot.game.rules import Game, Move, apply_move, empty_cells, is_over, to_grid
from screenbot.practice.rig import PageLoadError, Rig
from screenbot.practice.server import PortInUseError

pytestmark = pytest.mark.live

WIN_NEXT = to_grid([[1024, 1024, 8, 2], [4, 16, 2, 0], [2, 0, 0, 0], [0, 0, 0, 4]])


def engine_history(seed: int, moves: list[Move], start=None) -> tuple[list, int]:
    game = Game(seed=seed)
    game.reset(start=start)
    boards = []
    for m in moves:
        grid, _, changed = game.step(m)
        if changed:
            boards.append(grid)
    return boards, game.score


def assert_follows_rules(start, history, moves) -> None:
    """Each board is the previous one slid by its move plus exactly one new 2 or 4 on an empty cell."""
    prev = to_grid(start)
    assert len(history) == len(moves)
    for i, (board, move) in enumerate(zip(history, moves)):
        board = to_grid(board)
        slid, _ = apply_move(prev, Move.parse(move))
        assert slid != prev, f"move {i} ({move}) changed nothing but was counted"
        new = [(r, c) for r, c in empty_cells(slid) if board[r][c] != 0]
        assert len(new) == 1, f"move {i}: {len(new)} new tiles"
        r, c = new[0]
        assert board[r][c] in (2, 4)
        assert all(board[y][x] == slid[y][x] for y in range(4) for x in range(4) if (y, x) != (r, c))
        prev = board


def test_seeded_page_plays_exactly_like_the_engine(make_rig):
    rig = make_rig(seed=2024, screen=(1280, 900))
    rnd = random.Random(5)
    moves = [rnd.choice(list(Move)) for _ in range(40)]
    for m in moves[:10]:  # one X event at a time
        rig.press(m)
    rig.press_many(moves[10:])  # then 30 keys in one burst: none may be lost
    st = rig.wait_for_keys(40, timeout=10)
    expected, score = engine_history(2024, moves)
    assert to_grid(st["start"]) == Game(seed=2024).reset()
    assert [to_grid(b) for b in st["history"]] == expected
    assert st["moves"] == len(expected) and st["score"] == score and st["seed"] == 2024


def test_unseeded_history_follows_the_rules(rig):
    sent = []
    rnd = random.Random(11)
    for _ in range(25):
        move = rnd.choice([Move.LEFT, Move.DOWN, Move.RIGHT, Move.DOWN, Move.UP])
        before = rig.state()
        rig.press(move)
        st = rig.wait_for_keys(before["keys"] + 1)
        if st["moves"] > before["moves"]:
            sent.append(move.key)
    st = rig.state()
    assert st["history_moves"] == sent
    assert_follows_rules(st["start"], st["history"], st["history_moves"])
    assert st["board"] == st["history"][-1]


def test_win_overlay_ignores_keys_until_keep_going_is_clicked(make_rig):
    rig = make_rig(board=WIN_NEXT, seed=3, anim=0)
    rig.press(Move.LEFT)
    st = rig.wait_for(lambda s: s["won"], what="the win")
    assert st["moves"] == 1 and st["history"][0][0][0] == 2048 and not st["keep_going"]
    for move in (Move.RIGHT, Move.DOWN, Move.UP):
        rig.press(move)
    st = rig.wait_for_keys(4)
    assert st["moves"] == 1 and st["event"] == "ignored"
    rig.click_button("keep-going")
    st = rig.wait_for(lambda s: s["keep_going"], what="keep going")
    assert st["won"] and st["moves"] == 1
    rig.press(Move.RIGHT)
    st = rig.wait_for_moves(2)
    expected, _ = engine_history(3, [Move.LEFT, Move.RIGHT], start=WIN_NEXT)
    assert [to_grid(b) for b in st["history"]] == expected


def test_game_over_is_reported_and_try_again_starts_a_new_history(make_rig):
    start = to_grid([[4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2], [8, 16, 8, 0]])
    seed = next(s for s in range(100) if engine_over_after(start, s, Move.RIGHT))
    rig = make_rig(board=start, seed=seed, anim=0)
    rig.press(Move.RIGHT)
    st = rig.wait_for(lambda s: s["over"], what="game over")
    assert st["moves"] == 1 and is_over(to_grid(st["board"]))
    rig.press(Move.LEFT)
    assert rig.wait_for_keys(2)["event"] == "ignored"
    rig.click_button("try-again")
    st = rig.wait_for(lambda s: not s["over"] and s["event"] == "start", what="a new game")
    assert st["history"] == [] and st["moves"] == 0 and st["score"] == 0
    assert to_grid(st["start"]) == Game(seed=seed + 1).reset()  # game n of a page uses seed + n - 1


def engine_over_after(start, seed: int, move: Move) -> bool:
    game = Game(seed=seed)
    game.reset(start=start)
    game.step(move)
    return game.over


@pytest.mark.parametrize("options", [
    dict(screen=(1600, 1000), window_size=(1000, 950)),
    dict(screen=(1920, 1080), window_pos=(300, 40), window_size=(1400, 1000), zoom=1.5, scroll="board",
         theme="dark"),
    dict(screen=(2560, 1600), scale=2.0, window_pos=(200, 100), window_size=(2200, 1500), zoom=0.8),
    dict(screen=(1280, 900), window_pos=(100, 50), window_size=(1000, 820), app=True),
], ids=["plain", "zoom150-dark", "scale2-zoom80", "app-window"])
def test_board_rect_matches_the_screenshot(make_rig, options):
    rig = make_rig(board=((0,) * 4,) * 4, **options)  # an empty board: no glow around the edges
    box = rig.board_box()
    measured = rig.measure_board_edges(rig.screenshot())
    expected = [box.x, box.y, box.x + box.w, box.y + box.h]
    assert None not in measured, f"board not fully visible: {measured}"
    assert max(abs(m - e) for m, e in zip(measured, expected)) <= 1.0, (measured, expected)
    assert rig.board_fully_visible()


def test_reload_with_new_options_keeps_the_window(rig):
    board = to_grid([[0, 0, 0, 0], [0, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]])
    st = rig.load(board=board, seed=8, theme="dark")
    assert to_grid(st["start"]) == board and st["theme"] == "dark" and st["history"] == []
    rig.focus_page()
    rig.press(Move.UP)
    st = rig.wait_for_moves(1)
    assert [to_grid(b) for b in st["history"]] == engine_history(8, [Move.UP], start=board)[0]


def test_stop_ends_every_process(make_rig):
    rig = make_rig()
    pids = rig.pids
    assert len(pids) >= 3  # Xvfb, Chromium and its helpers
    rig.stop()
    time.sleep(0.1)
    assert not [p for p in pids if os.path.exists(f"/proc/{p}") and not _zombie(p)]
    assert rig.pids == []


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def test_a_page_that_never_loads_is_a_one_line_error_and_leaves_nothing(tmp_path, monkeypatch):
    pid_file = tmp_path / "pid"
    fake = tmp_path / "fake-browser"
    fake.write_text(f"#!/bin/sh\necho $$ > {pid_file}\nexec sleep 300\n")
    fake.chmod(0o755)
    monkeypatch.setenv("SCREENBOT_BROWSER", str(fake))
    with pytest.raises(PageLoadError, match="did not report within 2 s") as info:
        Rig(timeout=2).start()
    assert "\n" not in str(info.value)
    pid = int(pid_file.read_text())
    assert not os.path.exists(f"/proc/{pid}") or _zombie(pid)


def test_a_taken_port_is_a_one_line_error():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        with pytest.raises(PortInUseError, match="is taken"):
            Rig(port=s.getsockname()[1]).start()
