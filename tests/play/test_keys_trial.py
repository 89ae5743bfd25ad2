"""Play learns which keys move the game from its answer to the first move."""

from screenbot.control.keyboard import KEY_SETS, RecordingKeyboard
from screenbot.game.rules import Move
from screenbot.play.keys_trial import KeyTrial
from screenbot.play.loop import PlaySettings, Player
from screenbot.play.record import Recording

from play_fakes import FirstLegalAgent, SimulatedScreen, VirtualClock


class GameKeys(RecordingKeyboard):
    """The simulated game's keyboard as a real one is: every key sent is kept by name (`sent`), and
    only the keys of the set the game takes move it (None: no key does)."""

    def __init__(self, screen: SimulatedScreen, takes: str | None) -> None:
        super().__init__(on_press=screen.on_key)
        self.takes = takes
        self.sent: list[str] = []

    def _press_key(self, key: str) -> None:
        self.sent.append(key)
        if self.takes is not None and self.keys == self.takes:
            super()._press_key(key)


def play(takes: str | None, moves: int = 20, learn: bool = True):
    clock = VirtualClock()
    screen = SimulatedScreen(clock, seed=5)
    keyboard = GameKeys(screen, takes)
    said: list[str] = []
    player = Player(screen, keyboard, PlaySettings(max_moves=moves), agent=FirstLegalAgent(), clock=clock,
                    record=Recording(), say=said.append, learn_keys=learn)
    return player.play(), player, keyboard, said, screen


def test_the_trial_tries_the_arrows_twice_then_letters_and_on_a_text_board_a_letter_and_enter():
    trial = KeyTrial(focus_known=True, text_board=True)
    tried = [trial.keys]
    while (keys := trial.next_keys()) is not None:
        tried.append(keys)
    assert tried == ["arrows", "arrows", "wasd", "hjkl", "wasd+enter", "wasd+enter", "wasd+enter"]
    assert trial.tried() == "the arrow keys, w a s d, h j k l, w a s d, each followed by Enter"
    tiles = KeyTrial(focus_known=True, text_board=False)
    assert [tiles.keys, *iter(tiles.next_keys, None)] == ["arrows", "arrows", "wasd", "hjkl"]
    blind = KeyTrial(focus_known=False, text_board=True)  # no letters where the focus cannot be known
    assert [blind.keys, *iter(blind.next_keys, None)] == ["arrows", "arrows"]


def test_a_game_moved_by_the_arrows_learns_nothing_and_says_nothing():
    summary, player, keyboard, said, screen = play("arrows")
    assert summary.ok and summary.moves == 20
    assert set(keyboard.sent) <= set(KEY_SETS["arrows"].values())
    assert len(keyboard.sent) == 20
    assert not said and not summary.rules


def test_a_game_moved_by_wasd_is_learned_on_the_first_move_and_played_on_with_them():
    summary, player, keyboard, said, screen = play("wasd")
    assert summary.ok and summary.moves == 20 and summary.misreads == 0
    assert player.tracker.board == screen.game.grid
    # the first move: its arrow twice, then its letter, which moved the board; then letters only
    assert keyboard.sent[0] == keyboard.sent[1] in KEY_SETS["arrows"].values()
    assert all(k in "wasd" for k in keyboard.sent[2:]) and len(keyboard.sent) == 22
    assert summary.rules == ["moves with w a s d"]
    assert any("moves with w a s d" in line and "--keys wasd" in line for line in said)


def test_a_game_moved_by_hjkl_is_learned_after_wasd_moved_nothing():
    summary, player, keyboard, said, screen = play("hjkl", moves=5)
    assert summary.ok and summary.moves == 5
    assert keyboard.sent[2] in "wasd" and keyboard.sent[3] in "hjkl"
    assert summary.rules == ["moves with h j k l"]


def test_a_game_no_key_moves_stops_naming_every_key_set_tried():
    summary, player, keyboard, said, screen = play(None)
    assert not summary.ok and summary.moves == 0
    assert "did not move with any key tried (the arrow keys, w a s d, h j k l)" in summary.reason
    assert len(keyboard.sent) == 4  # one key of each try: no Enter on a board of tiles


def test_keys_named_by_the_user_are_never_changed():
    summary, player, keyboard, said, screen = play("wasd", learn=False)
    assert not summary.ok and "did not reach the game" in summary.reason
    assert len(keyboard.sent) == 1


def test_a_letter_and_enter_key_set_sends_the_letter_then_enter_as_one_move():
    keyboard = GameKeys(SimulatedScreen(VirtualClock()), "wasd+enter")
    keyboard.use("wasd+enter")
    keyboard.press(Move.LEFT)
    keyboard.press(Move.UP)
    assert keyboard.sent == ["a", "enter", "w", "enter"]
    assert keyboard.moves == [Move.LEFT, Move.UP]
