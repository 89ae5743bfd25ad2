"""A board whose window moves mid-game: play finds it again on the whole screen and carries on,
but only when it is the same board at the same size; otherwise it stops without a key."""

import numpy as np
import pytest

from screenbot.calibration import calibrate
from screenbot.control.keyboard import Click, Press, RecordingKeyboard
from screenbot.control.screen import Frame, ImageScreen, Screen
from screenbot.game.rules import Game, Move, parse_board
from screenbot.geometry import Point, Rect
from screenbot.play.eyes import ScreenEyes
from screenbot.play.loop import PlaySettings, Player
from screenbot.play.record import PROFILE_NAME, FrameRecorder, MoveLog, Recording
from screenbot.play.replay import replay
from screenbot.profile import LearnedColour

from drawn import CLASSIC, DrawnBoard
from play_fakes import VirtualClock, FirstLegalAgent

SCREEN = (1000, 760)  # w, h
PAGE_BGR = (0xEF, 0xF8, 0xFA)  # the classic page's background, #faf8ef
START = parse_board("2 4 . . / . . . . / . 2 . . / . . . 4")
OLD_PLACE, NEW_PLACE = (60, 40), (430, 250)


class MovingPage(Screen):
    """A whole screen showing a seeded game's board (still tiles, drawn as the practice page draws
    them) at `place`; the test moves it, resizes it or shows another board there. Every grab
    takes 3 ms of the virtual clock."""

    def __init__(self, clock: VirtualClock, seed=5, cell=90, gap=11) -> None:
        self.clock = clock
        self.game = Game(seed=seed)
        self.game.reset(start=START)
        self.page = DrawnBoard(cell=cell, gap=gap)
        self.place = OLD_PLACE
        self.shown_instead = None  # a grid shown instead of the game's
        self.keyboard = RecordingKeyboard(on_press=self.on_key)
        self.after_key = None  # callable(number of keys so far), run after the game took the key
        self.keys = 0
        self._drawn = (None, None)

    def on_key(self, move: Move) -> None:
        self.game.step(move)
        self.keys += 1
        if self.after_key is not None:
            self.after_key(self.keys)

    @property
    def board_rect(self) -> Rect:
        return Rect(*self.place, self.page.size, self.page.size)

    def _screen(self) -> ImageScreen:
        grid = self.shown_instead or self.game.grid
        key = (grid, self.place, self.page.size)
        if self._drawn[0] != key:
            tiles = {(r, c): (v, 1.0) for r in range(4) for c in range(4) if (v := grid[r][c])}
            pixels = np.empty((SCREEN[1], SCREEN[0], 3), np.uint8)
            pixels[:] = PAGE_BGR
            x, y = self.place
            pixels[y:y + self.page.size, x:x + self.page.size] = self.page.picture(tiles, CLASSIC).pixels
            self._drawn = (key, ImageScreen(Frame(pixels), advance=False))
        return self._drawn[1]

    def grab(self, region: Rect | None = None) -> Frame:
        self.clock.now += 0.003
        return self._screen().grab(region)

    def monitors(self) -> list[Rect]:
        return self._screen().monitors()

    def move(self, place, cell=None, gap=None, shown_instead=None) -> None:
        self.place = place
        if cell is not None:
            self.page = DrawnBoard(cell=cell, gap=gap)
        self.shown_instead = shown_instead


class StackingWatch:
    """X11's FocusWatch as it behaves here: the game's window is the top one over the watched
    rectangle only while the board covers its middle."""

    def __init__(self, page: MovingPage, board_rect: Rect) -> None:
        self.page, self.board_rect, self.snapshot = page, board_rect, None

    def move_to(self, board_rect: Rect) -> None:
        self.board_rect, self.snapshot = board_rect, None

    def remember(self) -> None:
        self.snapshot = self.board_rect

    def problem(self) -> str | None:
        if self.snapshot is None or self.page.board_rect.contains(self.board_rect.center):
            return None
        return "another window is over the board"

    def close(self) -> None:
        pass


def player_on(page: MovingPage, clock: VirtualClock, said: list, log=None, recorder=None, **settings):
    profile = calibrate(page.grab(), monitors=page.monitors(), source="test")
    eyes = ScreenEyes(page, profile, clock=clock)
    player = Player(eyes, page.keyboard, PlaySettings(**settings), agent=FirstLegalAgent(), clock=clock,
                    focus_watch=StackingWatch(page, eyes.geometry.board_rect), say=said.append,
                    record=Recording(log=log, frames=recorder))
    return player, profile


def move_after_believing(player, page, n, **where):
    """Move the board once `n` boards were believed: after the read, before the next key."""
    original = player.status

    def status(p):
        if original is not None:
            original(p)
        if p.tracker.moves == n and page.place == OLD_PLACE:
            page.move(**where)

    player.status = status


def inside(rect: Rect, click: Click) -> bool:
    return rect.contains(Point(click.x, click.y))


def test_a_board_moved_between_moves_is_found_again_and_play_carries_on():
    clock, said = VirtualClock(), []
    page = MovingPage(clock)
    old = page.board_rect
    # every new tile read once still: the check before each key asks the window side afresh
    player, profile = player_on(page, clock, said, max_moves=20, early_spawn=False)
    move_after_believing(player, page, 6, place=NEW_PLACE)
    summary = player.play()
    assert summary.ok and summary.moves == 20, summary.reason
    assert summary.relocations == 1 and "moved 1 time" in summary.text()
    assert player.tracker.board == page.game.grid and summary.misreads == 0
    # the profile as calibrated, shifted by as much as the board moved
    now = player.eyes.geometry.board_rect
    assert now == profile.board_rect.translated(NEW_PLACE[0] - OLD_PLACE[0], NEW_PLACE[1] - OLD_PLACE[1])
    assert said == [f"screenbot: the board moved to ({now.x}, {now.y}): carrying on"]
    # one click on the old board, six keys, nothing until one click on the board at its new place
    events = page.keyboard.events
    assert [type(e) for e in events] == [Click] + [Press] * 6 + [Click] + [Press] * 14
    assert inside(old, events[0]) and inside(page.board_rect, events[7]) and not inside(old, events[7])


def test_a_board_moved_while_its_move_plays_is_found_again_showing_that_move():
    clock, said = VirtualClock(), []
    page = MovingPage(clock)
    old = page.board_rect
    player, _ = player_on(page, clock, said, max_moves=20)
    page.after_key = lambda keys: page.move(NEW_PLACE) if keys == 6 else None
    summary = player.play()
    assert summary.ok and summary.moves == 20, summary.reason
    assert summary.relocations == 1 and summary.misreads == 0
    assert player.tracker.board == page.game.grid
    events = page.keyboard.events
    assert [type(e) for e in events] == [Click] + [Press] * 6 + [Click] + [Press] * 14
    assert inside(page.board_rect, events[7]) and not inside(old, events[7])


def test_the_log_summary_counts_the_move_and_a_recording_replays_across_it(tmp_path):
    clock, said = VirtualClock(), []
    page = MovingPage(clock)
    log, recorder = MoveLog(tmp_path / "rec" / "log.jsonl"), FrameRecorder(tmp_path / "rec")
    player, profile = player_on(page, clock, said, log=log, recorder=recorder, max_moves=12)
    profile.save(tmp_path / "rec" / PROFILE_NAME)
    move_after_believing(player, page, 5, place=NEW_PLACE)
    summary = player.play()
    log.close()
    recorder.close()
    assert summary.ok and summary.relocations == 1
    assert '"relocations":1' in (tmp_path / "rec" / "log.jsonl").read_text().splitlines()[-1]
    report = replay(tmp_path / "rec")
    assert report.ok, report.disagreements
    assert report.frames_read == 12


@pytest.mark.parametrize("change", ["another size", "another position"])
def test_a_board_that_is_not_the_same_one_is_not_taken_and_play_stops_without_a_key(change):
    clock, said = VirtualClock(), []
    page = MovingPage(clock)
    player, _ = player_on(page, clock, said, max_moves=20, safety_wait_s=2.5, early_spawn=False)

    def another_position():
        g = [list(row) for row in page.game.grid]  # the tracked board with one tile changed
        g[3][0] = 64 if g[3][0] != 64 else 128
        return tuple(tuple(row) for row in g)

    def status(p):
        if p.tracker.moves == 6 and page.place == OLD_PLACE:
            if change == "another size":
                page.move(NEW_PLACE, cell=100, gap=12)  # zoomed in
            else:
                page.move(NEW_PLACE, shown_instead=another_position())

    player.status = status
    summary = player.play()
    assert not summary.ok
    assert summary.reason.startswith("paused, then stopped: ") and summary.reason.endswith("no key was pressed")
    assert change in summary.reason
    assert summary.relocations == 0 and said == []
    events = page.keyboard.events
    assert [type(e) for e in events] == [Click] + [Press] * 6  # no click and no key after the move


def test_a_shifted_profile_keeps_what_was_learned_and_learns_on_its_own():
    clock = VirtualClock()
    page = MovingPage(clock)
    profile = calibrate(page.grab(), monitors=page.monitors())
    profile.learned.append(LearnedColour((1, 2, 3), 8))
    profile.glyphs["abc"] = 4096
    moved = profile.shifted(370, 210, monitor=2)
    assert moved.board_rect == profile.board_rect.translated(370, 210) and moved.monitor == 2
    assert all(a.translated(370, 210) == b for a, b in zip(profile.cells, moved.cells))
    assert all(p.translated(370, 210) == q for ps, qs in zip(profile.patches, moved.patches) for p, q in zip(ps, qs))
    assert moved.learned == profile.learned and moved.glyphs == profile.glyphs and moved.theme == profile.theme
    moved.learn((200, 100, 50), 16)
    assert len(profile.learned) == 1 and moved.changed and not profile.changed
    assert profile.moved_to(moved.board_rect).board_rect == moved.board_rect
