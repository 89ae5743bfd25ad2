"""The play loop against a simulated game: it presses only what it believes, and stops when it should."""


import pytest

from screenbot.control.keyboard import Click, Press
from screenbot.game.rules import Game, Move, parse_board
from screenbot.play.guard import focus_point
from screenbot.play.loop import PlaySettings, Player
from screenbot.play.record import MoveLog, Recording, read_log

from play_fakes import VirtualClock, SimulatedScreen, FirstLegalAgent


def make_player(screen, clock, diag=None, **settings):
    return Player(
        screen, screen.keyboard, PlaySettings(**settings), agent=FirstLegalAgent(),
        clock=clock, record=Recording(stop_dir=diag),
    )


def test_plays_the_game_it_sees_and_believes_every_board():
    clock = VirtualClock()
    screen = SimulatedScreen(clock, seed=7)
    player = make_player(screen, clock, max_moves=40)
    summary = player.play()
    assert summary.ok and summary.moves == 40 and "max-moves" in summary.reason
    assert player.tracker.board == screen.game.grid
    assert player.tracker.score == screen.game.score == summary.score
    assert summary.misreads == 0
    assert summary.depths == {1: 40}  # how deep the moves played were searched (the fake agent says 1)
    assert "search depth of the moves played: 1: 40" in summary.text()
    # the first event is the focusing click, inside the board, then only arrow keys
    assert isinstance(screen.keyboard.events[0], Click)
    assert all(isinstance(e, Press) for e in screen.keyboard.events[1:])
    assert len(screen.keyboard.moves) == 40


def test_focus_click_lands_on_the_board_background_not_a_cell():
    clock = VirtualClock()
    screen = SimulatedScreen(clock)
    x, y = focus_point(screen.geometry)
    g = screen.geometry
    assert g.board_rect.contains(__import__("screenbot.geometry", fromlist=["Point"]).Point(x, y))
    assert not any(cell.contains(__import__("screenbot.geometry", fromlist=["Point"]).Point(x, y)) for cell in g.cells)


def test_stops_at_game_over():
    clock = VirtualClock()
    start = parse_board("2 4 8 16 / 32 64 128 256 / 512 1024 4 8 / 16 32 . 2")
    screen = SimulatedScreen(clock, start=start)
    summary = make_player(screen, clock).play()
    assert summary.reason == "game over" and summary.ok
    assert summary.moves >= 1


def test_the_game_s_over_message_hiding_the_last_board_ends_the_game():
    clock = VirtualClock()
    start = parse_board("2 4 8 16 / 32 64 128 256 / 512 1024 4 8 / 16 32 . 2")  # one move left, then over
    screen = SimulatedScreen(clock, start=start)
    original = screen.keyboard.on_press
    screen.keyboard.on_press = lambda m: (original(m), setattr(screen, "over_message", True))
    summary = make_player(screen, clock, safety_wait_s=1.0).play()
    assert summary.reason == "game over" and summary.ok
    assert len(screen.keyboard.moves) == 1


def after_keys(screen, n: int, trouble: str) -> None:
    """From the n-th key on, the screen shows `trouble` (an attribute of the simulated screen set True)."""
    pressed = []

    def hook(move):
        pressed.append(move)
        if len(pressed) == n:
            setattr(screen, trouble, True)

    original = screen.keyboard.on_press
    screen.keyboard.on_press = lambda m: (original(m), hook(m))


def test_an_over_message_after_a_move_that_cannot_end_the_game_is_no_game_over():
    clock = VirtualClock()
    screen = SimulatedScreen(clock, seed=5)  # an opening: no move can end it
    after_keys(screen, 3, "over_message")
    summary = make_player(screen, clock, safety_wait_s=1.0).play()
    assert not summary.ok and summary.reason != "game over"
    assert len(screen.keyboard.moves) == 3


def test_a_persistent_misread_stops_play_with_frames_and_presses_nothing_more(tmp_path):
    clock = VirtualClock()
    screen = SimulatedScreen(clock, seed=3)
    player = make_player(screen, clock, max_moves=50, diag=tmp_path / "diag")
    calls = {"n": 0}

    def keyboard_hook(move):
        calls["n"] += 1
        if calls["n"] == 5:  # from the 5th move on, one cell is always read wrong
            screen.misread = lambda g: tuple(
                tuple((v * 2 if (r, c) == (3, 3) and v else (8 if (r, c) == (3, 3) else v)) for c, v in enumerate(row))
                for r, row in enumerate(g)
            )

    original = screen.keyboard.on_press
    screen.keyboard.on_press = lambda m: (original(m), keyboard_hook(m))
    summary = player.play()
    assert not summary.ok
    assert "does not follow" in summary.reason
    assert summary.misreads == 1
    assert len(screen.keyboard.moves) == 5  # nothing pressed after the board stopped making sense
    assert (tmp_path / "diag" / "seen.png").is_file()
    assert "expected" in (tmp_path / "diag" / "diagnostic.txt").read_text()


def test_a_key_that_never_arrives_stops_play():
    clock = VirtualClock()
    screen = SimulatedScreen(clock, seed=4)
    screen.keys_ignored = True
    summary = make_player(screen, clock).play()
    assert not summary.ok and "did not reach the game" in summary.reason
    assert len(screen.keyboard.moves) == 1


def test_a_covered_board_pauses_then_stops_without_pressing():
    clock = VirtualClock()
    screen = SimulatedScreen(clock, seed=5)
    after_keys(screen, 3, "covered")
    summary = make_player(screen, clock, safety_wait_s=1.0).play()
    assert not summary.ok and "no key was pressed" in summary.reason
    assert len(screen.keyboard.moves) == 3


def test_a_board_uncovered_in_time_is_played_on():
    clock = VirtualClock()
    screen = SimulatedScreen(clock, seed=5)
    state = {"n": 0}

    def cover_briefly(move):
        state["n"] += 1
        if state["n"] == 3:
            screen.covered = True
            state["uncover_at"] = clock.now + 0.5

    original_look = screen.look

    def look():
        if screen.covered and clock.now >= state.get("uncover_at", 1e9):
            screen.covered = False
        return original_look()

    screen.look = look
    original = screen.keyboard.on_press
    screen.keyboard.on_press = lambda m: (original(m), cover_briefly(m))
    summary = make_player(screen, clock, max_moves=10, safety_wait_s=2.0).play()
    assert summary.ok and summary.moves == 10


def win_overlay_after_2048(screen):
    """The simulated page raises "You win!" a while after the first 2048 and drops it on a click."""

    def on_key(move, original=screen.keyboard.on_press):
        original(move)
        if max(max(r) for r in screen.game.grid) >= 2048 and not screen.keep_going_clicks:
            screen.win_pending = True  # the overlay comes up a while after the move

    def click(x, y, original=screen.keyboard._click):
        original(x, y)
        if screen.won_overlay:
            screen.won_overlay = False
            screen.keep_going_clicks += 1
            screen.win_pending = False

    screen.keyboard.on_press = on_key
    screen.keyboard._click = click


@pytest.mark.parametrize("overlay_after_looks", [0, 8])
def test_the_win_overlay_is_dismissed_with_keep_going_and_play_goes_on(monkeypatch, overlay_after_looks):
    from screenbot.play import overlay
    from screenbot.play.overlay import Button
    from screenbot.geometry import Rect

    clock = VirtualClock()
    start = parse_board("1024 1024 . . / . . . . / . . . . / . . . 2")
    screen = SimulatedScreen(clock, start=start)
    screen.win_delay_looks = overlay_after_looks
    button = Button(Rect(10, 60, 30, 10))
    monkeypatch.setattr(overlay, "find_keep_going", lambda frame, board: button if screen.won_overlay else None)

    win_overlay_after_2048(screen)
    summary = make_player(screen, clock, max_moves=6).play()
    assert summary.ok and summary.moves == 6, summary.reason
    assert screen.keep_going_clicks == 1
    clicks = [e for e in screen.keyboard.events if isinstance(e, Click)]
    assert clicks[-1] == Click(25, 65)  # the button's centre


def test_a_text_boards_win_box_stops_play_without_a_click(monkeypatch):
    """A terminal game's "You win!" box offers words (often a key), not a button found by its
    pixels: play stops with a message instead of clicking a guess."""
    from types import SimpleNamespace

    from screenbot.play import overlay
    from screenbot.play.overlay import Button
    from screenbot.geometry import Rect

    clock = VirtualClock()
    screen = SimulatedScreen(clock, start=parse_board("1024 1024 . . / . . . . / . . . . / . . . 2"))
    screen.win_delay_looks = 0
    screen.profile = SimpleNamespace(kind="text")
    monkeypatch.setattr(overlay, "find_keep_going", lambda frame, board: Button(Rect(10, 60, 30, 10)))
    win_overlay_after_2048(screen)
    summary = make_player(screen, clock, max_moves=6).play()
    assert not summary.ok and "won" in summary.reason, summary.reason
    assert not [e for e in screen.keyboard.events if isinstance(e, Click) and e != Click(*focus_point(screen.geometry))]


def test_dry_run_reads_and_advises_without_touching_anything():
    clock = VirtualClock()
    screen = SimulatedScreen(clock, seed=2)
    summary = make_player(screen, clock, dry_run=True).play()
    assert summary.ok and summary.advice["move"] in ("left", "down", "right", "up")
    assert screen.keyboard.events == []


def test_log_has_one_line_per_move_then_the_summary(tmp_path):
    clock = VirtualClock()
    screen = SimulatedScreen(clock, seed=9)
    log = MoveLog(tmp_path / "game.jsonl")
    player = Player(screen, screen.keyboard, PlaySettings(max_moves=12), agent=FirstLegalAgent(),
                    record=Recording(log=log), clock=clock)
    player.play()
    log.close()
    moves, summary = read_log(tmp_path / "game.jsonl")
    assert [m["i"] for m in moves] == list(range(12))
    assert set(moves[0]) >= {"i", "board", "move", "t", "read_ms", "think_ms"}
    assert summary["moves"] == 12
    # each logged board is the one the move was played from: replaying the moves gives the same boards
    game = Game(seed=9)
    game.reset()
    for entry in moves:
        assert entry["board"] == [list(r) for r in game.grid]
        game.step(Move.parse(entry["move"]))


def test_the_default_agent_searches_with_plays_depth_cap():
    from screenbot.play.loop import default_agent

    grid = parse_board("2 16 4 2 / 32 8 64 4 / 128 256 512 1024 / . 2 . 8")  # adaptive depth 8
    agent = default_agent(PlaySettings(depth_cap=4, player="plain"))
    try:
        agent.warm_up()  # compiled (or loaded from numba's cache) before the timed search
        assert agent.choose(grid, depth="adaptive").depth == 4  # no time limit: nothing cuts it short under load
    finally:
        agent.close()
    assert default_agent(PlaySettings(deepen_gap=0.25, player="corner-eval")).deepen_gap == 0.25
    assert PlaySettings().player == "corner-v4"  # a library user's Player plays as `screenbot play`


def test_keep_going_waits_for_the_overlay_to_stand_still_before_clicking(monkeypatch):
    """Mid-fade the button may show, vanish, or show elsewhere (the other button picked while one
    is too faint): the click waits for two looks in a row that agree."""
    from screenbot.play import overlay
    from screenbot.play.overlay import Button
    from screenbot.geometry import Rect

    clock = VirtualClock()
    screen = SimulatedScreen(clock, start=parse_board("1024 1024 . . / . . . . / . . . . / . . . 2"))
    keep_going, try_again = Button(Rect(10, 60, 30, 10)), Button(Rect(60, 60, 30, 10))
    fading = [keep_going, None, try_again]  # what the first looks at the overlay find
    monkeypatch.setattr(overlay, "find_keep_going",
                        lambda frame, board: (fading.pop(0) if fading else keep_going) if screen.won_overlay else None)

    win_overlay_after_2048(screen)
    summary = make_player(screen, clock, max_moves=6).play()
    assert summary.ok and summary.moves == 6, summary.reason
    assert not fading and screen.keep_going_clicks == 1
    clicks = [e for e in screen.keyboard.events if isinstance(e, Click)]
    assert clicks[-1] == Click(25, 65)  # Keep going's centre, never Try again's


def test_a_game_that_adds_no_tile_after_a_move_is_followed_and_play_goes_on():
    """Some clones add no new tile after certain moves (one skips it on the move that first makes
    2048): the slid board, still for no_spawn_still_s, is the move's board; said once, counted."""
    from screenbot.game.rules import apply_move

    clock = VirtualClock()
    screen = SimulatedScreen(clock, seed=4)
    said = []
    keys = []
    original = screen.on_key

    def on_key(move):
        keys.append(move)
        before = screen.game.grid
        original(move)
        if len(keys) == 5:  # this move adds no tile: the page shows the slid board and stays so
            after, _ = apply_move(before, move)
            screen.game.grid = after
            screen.pending = [(screen.lag, before), (0, after)]

    screen.keyboard.on_press = on_key
    player = Player(screen, screen.keyboard, PlaySettings(max_moves=12), agent=FirstLegalAgent(), clock=clock,
                    say=said.append)
    summary = player.play()
    assert summary.ok and summary.moves == 12, summary.reason
    assert player.tracker.board == screen.game.grid
    assert player.tracker.no_spawn_moves == [5] and summary.no_spawn_moves == 1
    assert len([m for m in said if "no new tile" in m]) == 1
