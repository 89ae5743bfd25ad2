"""Live: the Chromium window is moved mid-game on the rig; play finds the board again and carries on,
and stops without a key when the board is moved partly off the screen or zoomed to another size."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import pytest

from screenbot.board_source import calibrate_live
from screenbot.control.screen import MssScreen
from screenbot.geometry import Point
from screenbot.play.demo import misreads_against_page
from screenbot.play.loop import PlaySettings, Player
from screenbot.play.record import Recording
from screenbot.play.live_parts import open_live

pytestmark = pytest.mark.live


class BrowserWindow:
    """The rig's Chromium window as an X top-level window (the topmost one under the board's
    middle); Xvfb has no window manager, so moving it is one ConfigureWindow request."""

    def __init__(self, rig) -> None:
        from Xlib import X

        from screenbot.control.x11 import open_x_display

        self.display = open_x_display()
        centre = rig.board_rect().center
        found = None
        for child in self.display.screen().root.query_tree().children:
            attrs = child.get_attributes()
            if attrs.map_state != X.IsViewable or attrs.win_class == X.InputOnly:
                continue
            g = child.get_geometry()
            if g.x <= centre.x < g.x + g.width and g.y <= centre.y < g.y + g.height:
                found = child  # children come bottom to top: the last one is on top
        assert found is not None, "no window under the board"
        self.window = found

    @property
    def position(self) -> Point:
        g = self.window.get_geometry()
        return Point(g.x, g.y)

    def move_to(self, x: int, y: int) -> None:
        self.window.configure(x=x, y=y)
        self.display.sync()

    def close(self) -> None:
        self.display.close()


@dataclass
class Run:
    summary: object
    player: Player
    keys_at_change: int | None  # the page's key count right after the change
    said: list[str]  # what play said on stderr


def play_while(rig, tmp_path, after_moves, change, **settings) -> Run:
    """Calibrate where the board is now, then play; once the page has made `after_moves` more
    moves, `change()` runs (in another thread)."""
    with MssScreen() as screen:
        profile = calibrate_live(screen)
    start = rig.state(history=False)["moves"]
    keys_at_change = {}

    def change_later():
        rig.wait_for_moves(start + after_moves, timeout=60)
        change()
        keys_at_change["keys"] = rig.state(history=False)["keys"]

    thread = threading.Thread(target=change_later, daemon=True)
    thread.start()
    parts = open_live(profile=profile)
    said: list[str] = []
    try:
        player = Player(parts.eyes, parts.keyboard, PlaySettings(**{"player": "plain", **settings}), focus_watch=parts.focus_watch,
                        record=Recording(stop_dir=tmp_path / "stop"), say=said.append)
        summary = player.play()
    finally:
        parts.close()
    thread.join(10)
    return Run(summary, player, keys_at_change.get("keys"), said)


def test_a_moved_window_is_followed_and_a_cut_off_or_zoomed_board_stops_play(make_rig, tmp_path):
    rig = make_rig(seed=31, anim=0.5, export_env=True)
    window = BrowserWindow(rig)
    try:
        # moved mid-game: found again, the same game played on with every board the page's own
        run = play_while(rig, tmp_path, 15, lambda: window.move_to(300, 40), max_moves=45)
        summary, player = run.summary, run.player
        assert summary.ok, summary.reason
        assert summary.moves == 45 and summary.relocations == 1
        assert window.position == Point(300, 40)
        assert misreads_against_page(player.tracker.history, rig.state()) == 0
        board = player.eyes.geometry.board_rect
        assert board.x > 300  # the board read at its new place
        assert run.said == [f"screenbot: the board moved to ({board.x}, {board.y}): carrying on"]

        # moved so that the board runs off the screen's right edge: no key after the move
        run = play_while(rig, tmp_path, 8, lambda: window.move_to(1250, 40), max_moves=400, safety_wait_s=2.5)
        time.sleep(0.3)
        reason = run.summary.reason
        assert not run.summary.ok and reason.startswith("paused, then stopped"), reason
        assert reason.endswith("no key was pressed") and run.summary.relocations == 0 and run.said == []
        assert rig.state(history=False)["keys"] - run.keys_at_change <= 1  # at most the key already on its way

        # back on screen, then zoomed out (the board drawn smaller): not taken for the same board
        window.move_to(0, 0)
        time.sleep(0.5)
        run = play_while(rig, tmp_path, 8, lambda: rig.press("ctrl+minus"), max_moves=400, safety_wait_s=2.5)
        time.sleep(0.3)
        reason = run.summary.reason
        assert not run.summary.ok and reason.startswith("paused, then stopped"), reason
        assert "another size" in reason and reason.endswith("no key was pressed") and run.said == []
        assert rig.state(history=False)["keys"] - run.keys_at_change <= 1
    finally:
        window.close()

