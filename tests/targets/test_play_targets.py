"""screenbot plays real 2048 programs it was not written for: calibrate on the screen, then play
with real X keys, every believed board checked against the game's own record."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from screenbot.game.rules import is_over, to_grid

from harness import Quantum2048, Term2048, VirtualDisplay, WebComponent2048

pytestmark = pytest.mark.live


@contextmanager
def screen_on(display: str) -> Iterator[None]:
    """$DISPLAY names `display` inside: screenbot's live screen and keys go there."""
    old = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = display
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("DISPLAY", None)
        else:
            os.environ["DISPLAY"] = old


def play_calibrated(profile, moves: int, stop_dir, player: str = "plain", keys: str = "auto"):
    """screenbot plays up to `moves` moves by `player` on the live screen `profile` was calibrated on,
    pressing `keys` (a key set's name; auto: learned from the first move, as `play` does by default):
    the summary, and the Player (its tracker holds what it believed)."""
    from screenbot.agent.players import default_player
    from screenbot.play.live_parts import open_live
    from screenbot.play.loop import PlaySettings, Player
    from screenbot.play.record import Recording

    if profile.shape != (4, 4) and player == "plain":
        player = default_player(profile.shape)  # plain plays 4x4 boards: another size is played by its own player
    parts = open_live(profile=profile, keys=keys)
    try:
        bot = Player(parts.eyes, parts.keyboard, PlaySettings(max_moves=moves, player=player),
                     focus_watch=parts.focus_watch, record=Recording(stop_dir=stop_dir), learn_keys=keys == "auto")
        return bot.play(), bot
    finally:
        parts.close()


def play_target(target_cls, moves: int, tmp_path, **target_options):
    """`target_cls` on a fresh Xvfb, calibrated with no options and played `moves` moves: the summary,
    the Player, the profile and the game's own boards."""
    from screenbot.board_source import calibrate_live
    from screenbot.control.screen import MssScreen

    display = VirtualDisplay((1280, 800)).start()
    target = target_cls(display.display, seed=7, **target_options)
    with screen_on(display.display):
        try:
            target.start()
            target.focus()
            with MssScreen() as screen:
                profile = calibrate_live(screen, tmp_path / "profile.json")
            summary, player = play_calibrated(profile, moves, tmp_path / "stop")
            truth = [r["board"] for r in target.history()]
            return summary, player, profile, truth
        finally:
            target.cleanup()
            display.stop()


def check_played_by_record(target_cls, kind: str, moves: int, tmp_path) -> None:
    """`target_cls` calibrated as a `kind` board and played `moves` moves (or to game over) with every
    believed board the game's own."""
    summary, player, profile, truth = play_target(target_cls, moves, tmp_path)
    assert profile.kind == kind
    assert summary.moves >= moves or summary.reason == "game over", summary.reason
    assert summary.ok, summary.reason
    believed, changed = believed_and_shown(player, truth)
    if summary.reason == "game over" and len(changed) == len(believed) + 1 and is_over(to_grid(changed[-1])):
        # the game's own message covered its last board, and play ended on the message: that board was
        # never believed (nor misread)
        truth = truth[:truth.index(changed[-1])]
    assert believed_against_truth(player, truth) == 0


def believed_and_shown(player, truth) -> tuple[list, list]:
    """The boards play believed, and the game's record without the keys that did nothing."""
    believed = [[list(r) for r in b] for b in player.tracker.history]
    changed = [b for i, b in enumerate(truth) if i == 0 or b != truth[i - 1]]
    return believed, changed


def believed_against_truth(player, truth) -> int:
    believed, changed = believed_and_shown(player, truth)
    return sum(a != b for a, b in zip(believed, changed)) + abs(len(believed) - len(changed))


def test_term2048_in_xterm_is_calibrated_and_played_without_a_misread(tmp_path):
    summary, player, profile, truth = play_target(Term2048, 300, tmp_path)
    assert profile.kind == "text"
    assert summary.moves >= 300 or summary.reason == "game over", summary.reason
    assert summary.ok, summary.reason
    assert believed_against_truth(player, truth) == 0


@pytest.mark.parametrize("target_cls", [Quantum2048, WebComponent2048], ids=["quantum2048", "webcomponent2048"])
def test_a_desktop_window_and_a_web_component_are_played_without_a_misread(target_cls, tmp_path):
    summary, player, profile, truth = play_target(target_cls, 300, tmp_path)
    assert summary.moves >= 300 or summary.reason == "game over", summary.reason
    assert summary.ok, summary.reason
    assert believed_against_truth(player, truth) == 0
