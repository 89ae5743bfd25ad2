"""Win messages that differ between clones: the key a message names, the key play presses for it, and play going on (or stopping) around it."""

import pytest

from screenbot.board_state import BoardState
from screenbot.control.keyboard import Click, Dismiss, Press, RecordingKeyboard, UnsafeKeyError
from screenbot.control.screen import Frame
from screenbot.game.rules import Move, parse_board
from screenbot.play import overlay
from screenbot.play.context import PlayContext, StopPlaying
from screenbot.play.eyes import Sight
from screenbot.play.guard import Guard
from screenbot.play.key_hint import ANY_KEY, KeyHint, key_hint, key_to_press
from screenbot.play.settings import PlaySettings

from play_fakes import SimulatedScreen, VirtualClock, board_pixels
from test_loop import make_player


# ----------------------------------------------------------------- the key a message names
@pytest.mark.parametrize("text, key", [
    ("You win!\nPress Enter to keep going", "enter"),
    ("2048 Oo: You win! 2) Press  Enter to keep going 2|", "enter"),  # as tesseract reads it over tiles
    ("PRESS RETURN TO CONTINUE", "enter"),
    ("press space to continue", "space"),
    ("Press the SPACE BAR to keep playing", "space"),
    ("Hit Esc to play on", "escape"),
    ("You win! Press any key to continue", ANY_KEY),
    ("Press C to continue", "c"),
    ("Press 'K' to keep going", "k"),
    ("press [enter] key to resume", "enter"),
])
def test_a_message_that_names_a_key_to_continue_gives_that_key(text, key):
    assert key_hint(text).key == key


@pytest.mark.parametrize("text", [
    "You win!", "", "Keep going  Try again", "Press R to restart", "Press Enter to start a new game",
    "Press N for a new game", "press enter", "Enter to keep going",
])
def test_a_message_that_names_no_key_to_continue_gives_none(text):
    assert key_hint(text) is None


def test_the_key_pressed_is_the_named_one_or_for_any_key_the_move_play_was_going_to_press():
    assert key_to_press(KeyHint("enter", ""), Move.UP) == "enter"
    assert key_to_press(KeyHint("c", ""), None) == "c"
    assert key_to_press(KeyHint(ANY_KEY, ""), Move.LEFT) == Move.LEFT
    assert key_to_press(KeyHint(ANY_KEY, ""), None) is None


@pytest.mark.parametrize("letter", ["q", "r", "n", "u", "z"])
def test_letters_games_bind_to_quit_restart_or_undo_are_never_pressed(letter):
    assert key_to_press(key_hint(f"Press {letter} to continue"), Move.UP) is None


def test_hints_are_named_for_the_log():
    assert [key_hint(t).name for t in ("press return to continue", "press c to continue", "press any key to continue")] == [
        "Enter", "C", ANY_KEY]


# ----------------------------------------------------------------- the keyboard and the guard
@pytest.mark.parametrize("key", ["r", "q", "f5", "ctrl+w", "alt+f4", "tab", "Enter", "", Move.LEFT, None])
def test_the_keyboard_refuses_any_key_but_moves_and_dismiss_keys(key):
    keyboard = RecordingKeyboard()
    with pytest.raises(UnsafeKeyError):
        keyboard.press_dismiss(key)
    assert keyboard.events == []


def test_the_keyboard_records_dismiss_keys_apart_from_moves():
    keyboard = RecordingKeyboard()
    keyboard.press_dismiss("enter")
    keyboard.press(Move.UP)
    assert keyboard.events == [Dismiss("enter"), Press(Move.UP)] and keyboard.moves == [Move.UP]


class FocusWatch:
    def __init__(self, problem=None):
        self.problem_text = problem

    def remember(self):
        pass

    def problem(self):
        return self.problem_text

    def move_to(self, rect):
        pass


def guard_with(state: BoardState, focus_problem=None) -> tuple[Guard, RecordingKeyboard]:
    clock = VirtualClock()
    screen = SimulatedScreen(clock)
    ctx = PlayContext(screen, PlaySettings(), clock)
    keyboard = RecordingKeyboard()
    guard = Guard(ctx, keyboard, FocusWatch(focus_problem))
    playing = Sight(screen.game.grid, BoardState.PLAYING, Frame(board_pixels(), 0, 0), 0.0, 1.0)
    guard.learn(playing)
    ctx.last_sight = Sight(None, state, playing.frame, 0.0, 1.0)
    return guard, keyboard


def test_the_guard_presses_a_dismiss_key_while_the_message_is_up_and_the_window_has_focus():
    guard, keyboard = guard_with(BoardState.WON)
    guard.dismiss("enter")
    guard.dismiss(Move.LEFT)  # "any key": the move's own key
    assert keyboard.events == [Dismiss("enter"), Press(Move.LEFT)]


@pytest.mark.parametrize("state, focus, why", [
    (BoardState.PLAYING, None, "no longer on screen"),
    (BoardState.OVER, None, "no longer on screen"),
    (BoardState.WON, "another window has the focus", "another window has the focus"),
])
def test_the_guard_presses_no_dismiss_key_without_the_message_or_without_focus(state, focus, why):
    guard, keyboard = guard_with(state, focus)
    with pytest.raises(StopPlaying, match=why):
        guard.dismiss("enter")
    assert keyboard.events == []


# ----------------------------------------------------------------- play around the message
def win_message_at(screen, tile, dismiss_key=None, any_key=False):
    """The simulated page shows its win message a while after the first `tile`; a click, or the
    key `dismiss_key` (or any key, which only dismisses), takes it away."""

    def on_key(move, original=screen.keyboard.on_press):
        if screen.won_overlay and any_key:
            screen.won_overlay, screen.win_pending = False, False
            screen.keep_going_clicks += 1
            return  # the key only dismissed the message
        original(move)
        if max(max(r) for r in screen.game.grid) >= tile and not screen.keep_going_clicks:
            screen.win_pending = True

    def dismissed(*_):
        if screen.won_overlay:
            screen.won_overlay, screen.win_pending = False, False
            screen.keep_going_clicks += 1

    def click(x, y, original=screen.keyboard._click):
        original(x, y)
        if dismiss_key is None and not any_key:
            dismissed()

    def press_dismiss_key(key, original=screen.keyboard._press_dismiss_key):
        original(key)
        if key == dismiss_key:
            dismissed()

    screen.keyboard.on_press = on_key
    screen.keyboard._click = click
    screen.keyboard._press_dismiss_key = press_dismiss_key


def message(monkeypatch, screen, text=None, button=None):
    """The message shows `button` (or none) and reads as `text`."""
    from screenbot.vision import ocr

    reads = []

    def read_text(pixels, *_):
        reads.append(pixels.shape)
        yield "You win!"
        if text is not None:
            yield text

    monkeypatch.setattr(overlay, "find_keep_going", lambda frame, board: button if screen.won_overlay else None)
    monkeypatch.setattr(ocr, "read_text", read_text)
    return reads


START = parse_board("1024 1024 . . / . . . . / . . . . / . . . 2")


@pytest.mark.parametrize("overlay_after_looks", [0, 8])
def test_a_message_that_names_enter_is_dismissed_with_enter_and_play_goes_on(monkeypatch, overlay_after_looks):
    clock = VirtualClock()
    screen = SimulatedScreen(clock, start=START)
    screen.win_delay_looks = overlay_after_looks
    win_message_at(screen, 2048, dismiss_key="enter")
    message(monkeypatch, screen, "Press Enter to keep going")
    said = []
    player = make_player(screen, clock, max_moves=8)
    player.ctx.say = said.append
    summary = player.play()
    assert summary.ok and summary.moves == 8, summary.reason
    assert screen.keyboard.dismissed == ["enter"] and screen.keep_going_clicks == 1
    assert summary.rules == ["win message at 2048", "win message dismissed with Enter"]
    assert "rules seen: win message at 2048; win message dismissed with Enter" in summary.text()
    assert said == ["screenbot: note: win message at 2048: playing on",
                    "screenbot: note: win message dismissed with Enter: playing on"]
    assert player.tracker.board == screen.game.grid and summary.misreads == 0


def test_a_message_slow_to_dismiss_on_a_busy_machine_still_gives_the_move_its_time_to_land(monkeypatch):
    """The move's board is watched for settle_timeout_s from the message's dismissal, not from the key:
    reading the message (OCR on a busy machine) may take that long by itself."""
    from screenbot.vision import ocr

    clock = VirtualClock()
    screen = SimulatedScreen(clock, start=START)
    screen.win_delay_looks = 0  # up on the move's own frame
    win_message_at(screen, 2048, dismiss_key="enter")
    message(monkeypatch, screen, "Press Enter to keep going")
    quick = ocr.read_text

    def read_text(pixels, *_):
        clock.sleep(PlaySettings().settle_timeout_s)
        yield from quick(pixels)

    monkeypatch.setattr(ocr, "read_text", read_text)
    summary = make_player(screen, clock, max_moves=8).play()
    assert summary.ok and summary.moves == 8, summary.reason
    assert screen.keyboard.dismissed == ["enter"] and summary.max_tile == 2048


def test_any_key_is_the_move_play_was_going_to_press(monkeypatch):
    clock = VirtualClock()
    screen = SimulatedScreen(clock, start=START)
    screen.win_delay_looks = 0
    win_message_at(screen, 2048, any_key=True)
    message(monkeypatch, screen, "Press any key to continue")
    summary = make_player(screen, clock, max_moves=8).play()
    assert summary.ok and summary.moves == 8, summary.reason
    assert screen.keyboard.dismissed == [] and screen.keep_going_clicks == 1
    assert summary.rules[1].startswith("win message dismissed with any key (")
    assert len(screen.keyboard.moves) == 8 + 1  # the moves, and one move key that only dismissed the message


@pytest.mark.parametrize("text, why", [
    (None, "names no key to continue"),
    ("Press R to continue", "does not press that key"),
])
def test_a_message_without_a_button_or_a_key_to_press_stops_play_with_no_key(monkeypatch, text, why):
    clock = VirtualClock()
    screen = SimulatedScreen(clock, start=START)
    screen.win_delay_looks = 0
    win_message_at(screen, 2048, dismiss_key="enter")
    reads = message(monkeypatch, screen, text)
    summary = make_player(screen, clock, max_moves=8).play()
    assert not summary.ok and why in summary.reason and "\n" not in summary.reason
    assert screen.keyboard.dismissed == [] and reads
    assert screen.won_overlay and len(screen.keyboard.moves) <= 2  # nothing pressed once the message was up


def test_no_message_at_2048_is_noted_once_and_not_waited_for_again(monkeypatch):
    clock = VirtualClock()
    # LEFT makes two 2048s, DOWN joins them into 4096
    screen = SimulatedScreen(clock, start=parse_board("1024 1024 . . / 1024 1024 . . / . . . . / . . . 2"))
    said = []
    player = make_player(screen, clock, max_moves=6)
    player.ctx.say = said.append
    summary = player.play()
    assert summary.ok and summary.moves == 6, summary.reason
    assert summary.max_tile >= 4096
    assert summary.rules == ["no win message at 2048"] and len(said) == 1
    settings = PlaySettings()
    assert summary.duration_s < 2 * settings.overlay_wait_s  # waited for a message once, not at 4096 again


def test_a_message_at_a_later_tile_is_dismissed_where_it_is_seen_and_noted(monkeypatch):
    from screenbot.geometry import Rect

    clock = VirtualClock()
    screen = SimulatedScreen(clock, start=parse_board("1024 1024 . . / 1024 1024 . . / . . . . / . . . 2"))
    screen.win_delay_looks = 3
    win_message_at(screen, 4096)
    message(monkeypatch, screen, button=overlay.Button(Rect(10, 60, 30, 10)))
    summary = make_player(screen, clock, max_moves=8).play()
    assert summary.ok and summary.moves == 8, summary.reason
    assert summary.rules == ["no win message at 2048", "win message at 4096"]
    assert screen.keep_going_clicks == 1 and Click(25, 65) in screen.keyboard.events


def test_a_message_up_when_the_guard_checks_a_key_is_dismissed_instead_of_pausing(monkeypatch):
    from screenbot.geometry import Rect

    clock = VirtualClock()
    screen = SimulatedScreen(clock, start=START)
    win_message_at(screen, 4096)
    message(monkeypatch, screen, button=overlay.Button(Rect(10, 60, 30, 10)))
    player = make_player(screen, clock)
    paused = []
    monkeypatch.setattr(player.pauser, "wait_until_safe", paused.append)
    screen.won_overlay = True  # came up after the last look, before the next key
    player.unsafe("the board is not where it was")
    assert screen.keep_going_clicks == 1 and paused == []
    player.unsafe("another window has the focus")
    assert paused == ["another window has the focus"]


def test_a_message_gone_while_its_text_was_read_gets_no_key(monkeypatch):
    from screenbot.vision import ocr

    clock = VirtualClock()
    screen = SimulatedScreen(clock, start=START)
    screen.win_delay_looks = 0
    win_message_at(screen, 2048, dismiss_key="enter")
    message(monkeypatch, screen)

    def read_text(pixels, *_):
        screen.won_overlay = False  # someone dismissed it by hand meanwhile
        screen.keep_going_clicks += 1
        yield "You win! Press Enter to keep going"

    monkeypatch.setattr(ocr, "read_text", read_text)
    summary = make_player(screen, clock, max_moves=8).play()
    assert summary.ok and summary.moves == 8, summary.reason
    assert screen.keyboard.dismissed == []
