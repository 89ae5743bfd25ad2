"""Boards believed on two looks in a row once a game has shown that it draws each move in one piece
(play.pace.FirstSight), and looks at unchanged pixels not read again (play.eyes)."""

import numpy as np

from screenbot.board_state import BoardState
from screenbot.control.screen import ImageScreen
from screenbot.game.rules import apply_move
from screenbot.geometry import Rect
from screenbot.play.eyes import ScreenEyes
from screenbot.play.loop import PlaySettings, Player
from screenbot.play.pace import FIRST_SIGHT_AFTER, FIRST_SIGHT_RECHECK, FirstSight
from screenbot.play.record import Recording
from screenbot.vision.reader import Reading

from play_fakes import FirstLegalAgent, SimulatedScreen, VirtualClock


def test_two_looks_are_enough_only_after_a_run_of_moves_drawn_in_one_piece():
    sight = FirstSight()
    for _ in range(FIRST_SIGHT_AFTER - 1):
        assert not sight.two_looks_enough()
        sight.saw(final=True)
    sight.saw(final=False)  # one board that changed after its first sight: the count starts again
    assert not sight.two_looks_enough()
    for _ in range(FIRST_SIGHT_AFTER):
        sight.saw(final=True)
    enough = [sight.two_looks_enough() for _ in range(2 * FIRST_SIGHT_RECHECK)]
    assert enough.count(False) == 2  # every FIRST_SIGHT_RECHECK-th move waits for the still gap
    sight.distrust()  # a new tile found misread
    assert not sight.two_looks_enough()


def looks_per_move(screen: SimulatedScreen) -> list[int]:
    """Wraps the fake's key handler: the looks each move took, counted at the next key."""
    counts = []
    on_key = screen.keyboard.on_press

    def counted(move):
        counts.append(screen.looks)
        on_key(move)

    screen.keyboard.on_press = counted
    return counts


def play(screen, clock, moves):
    player = Player(screen, screen.keyboard, PlaySettings(max_moves=moves), agent=FirstLegalAgent(),
                    clock=clock, record=Recording())
    return player.play()


def test_a_game_that_draws_at_once_is_believed_on_two_looks_after_the_first_moves():
    clock = VirtualClock()
    screen = SimulatedScreen(clock, seed=3, lag=0, no_spawn=0, look_ms=5.0)
    counts = looks_per_move(screen)
    summary = play(screen, clock, FIRST_SIGHT_AFTER + 20)
    assert summary.ok and summary.misreads == 0 and summary.moves == FIRST_SIGHT_AFTER + 20
    early, late = counts[2:FIRST_SIGHT_AFTER], counts[FIRST_SIGHT_AFTER + 1:]
    assert min(early) >= 5  # a 20 ms still gap at 5 ms a look
    assert late.count(2) >= len(late) - 1  # two looks (one move in FIRST_SIGHT_RECHECK waits the gap)


def test_a_game_whose_first_sight_can_show_another_new_tile_waits_for_the_still_gap_every_move():
    clock = VirtualClock()
    screen = SimulatedScreen(clock, seed=3, lag=0, no_spawn=0, look_ms=5.0)
    key = screen.on_key

    def flicker(move):  # the new tile's first look shows the other of 2 and 4
        key(move)
        if screen.pending:
            before = screen.pending[0][1]
            slid, _ = apply_move(before, move)
            new = screen.game.grid
            cell = next((r, c) for r in range(4) for c in range(4) if new[r][c] != slid[r][c] and slid[r][c] == 0)
            other = tuple(tuple((6 - v) if (r, c) == cell else v for c, v in enumerate(row)) for r, row in enumerate(new))
            screen.pending = [(1, other), (0, new)]

    screen.keyboard.on_press = flicker
    counts = looks_per_move(screen)
    summary = play(screen, clock, FIRST_SIGHT_AFTER + 20)
    assert summary.ok and summary.misreads == 0
    assert min(counts[2:]) >= 5  # never believed on two looks


class Geometry:
    board_rect = Rect(10, 10, 40, 40)
    cells = tuple(Rect(12 + 10 * (i % 4), 12 + 10 * (i // 4), 8, 8) for i in range(16))
    scale = 1.0


def test_a_look_at_the_very_pixels_of_the_last_is_not_read_again():
    image = np.zeros((60, 60, 3), np.uint8)
    reads = []
    grid = tuple((2, 0, 0, 0) if r == 0 else (0, 0, 0, 0) for r in range(4))

    def read(frame, profile):
        reads.append(frame)
        return Reading(grid, BoardState.PLAYING)

    eyes = ScreenEyes(ImageScreen(image), Geometry(), read=read)
    first, second = eyes.look(), eyes.look()
    assert len(reads) == 1 and second.grid == first.grid == grid and second.state == BoardState.PLAYING
    image[20, 20] = (1, 2, 3)  # one pixel of the board changed: read
    eyes.look()
    assert len(reads) == 2
    eyes.move_to(Geometry())  # another profile: read, whatever the pixels
    eyes.look()
    assert len(reads) == 3


def test_a_game_whose_new_tiles_grow_in_never_has_its_boards_believed_on_two_looks():
    from test_loop_growing import GrowingPage, player_for

    clock = VirtualClock()
    page = GrowingPage(clock, seed=11)
    player = player_for(page, clock, max_moves=FIRST_SIGHT_AFTER + 30, early_give_up_s=0.0)  # every move read still
    summary = player.play()
    assert summary.ok and summary.misreads == 0 and player.tracker.board == page.game.grid
    assert summary.read_still  # read once still after watching it grow: those moves teach nothing
    assert not player.watcher.first_sight.trusted


def test_a_game_drawn_at_once_is_looked_at_again_for_a_growing_tile_without_waiting_out_the_look():
    from screenbot.play.pace import AT_ONCE_AFTER, RECHECK_EVERY
    from test_loop_growing import DRAW_S, GrowingPage, player_for

    class AtOncePage(GrowingPage):
        def _shown(self):  # the old board until the page draws, then the new board whole
            t = self.clock.now - self.key_t
            board = self.before if t < DRAW_S else self.game.grid
            return {(r, c): (v, 1.0) for r in range(4) for c in range(4) if (v := board[r][c])}, t >= DRAW_S

    clock = VirtualClock()
    page = AtOncePage(clock, seed=5)
    moves = 3 * RECHECK_EVERY
    player = player_for(page, clock, max_moves=moves)
    summary = player.play()
    assert summary.ok and summary.misreads == 0 and player.tracker.board == page.game.grid
    assert player.watcher.redraw.at_once
    assert summary.read_still["the new board stood still with no tile growing"] >= 2  # the looks again
    gaps = [b - a for a, b in zip(player.stats.key_times, player.stats.key_times[1:])]
    waited_out = [i for i, gap in enumerate(gaps) if gap >= player.settings.early_give_up_s]
    assert len(waited_out) <= AT_ONCE_AFTER, waited_out  # only while it learned that the game draws at once


def test_a_key_lost_by_a_game_played_on_two_looks_is_pressed_once_more():
    clock = VirtualClock()
    screen = SimulatedScreen(clock, seed=3, lag=0, no_spawn=0, look_ms=5.0)
    key = screen.keyboard.on_press
    pressed = []

    def drops_one(move):  # the game misses one key, once play believes its boards on two looks
        pressed.append(move)
        if len(pressed) != FIRST_SIGHT_AFTER + 10:
            key(move)

    screen.keyboard.on_press = drops_one
    summary = play(screen, clock, FIRST_SIGHT_AFTER + 20)
    assert summary.ok and summary.misreads == 0 and summary.moves == FIRST_SIGHT_AFTER + 20
    assert len(pressed) == summary.moves + 1  # the lost key, pressed again
    assert pressed[FIRST_SIGHT_AFTER + 9] == pressed[FIRST_SIGHT_AFTER + 10]


def test_a_key_is_not_pressed_again_once_the_board_has_changed_to_one_not_read():
    from screenbot.play.eyes import Sight

    unread = object()

    class SlowToRead(SimulatedScreen):
        """After one key the board shows unmoved for a look, then for 0.6 s as nothing can read it (a
        terminal redrawing line by line, tiles a reader does not yet know), then moved."""

        keys = 0

        def on_key(self, move):
            before = self.game.grid
            super().on_key(move)
            SlowToRead.keys += 1
            if SlowToRead.keys == FIRST_SIGHT_AFTER + 10 and self.pending:
                self.pending = [(1, before), (120, unread), (0, self.game.grid)]

        def look(self):
            sight = super().look()
            if sight.grid is unread:
                return Sight(None, BoardState.UNSETTLED, sight.frame, sight.t, sight.ms, "a row not read")
            return sight

    clock = VirtualClock()
    screen = SlowToRead(clock, seed=3, lag=0, no_spawn=0, look_ms=5.0)
    pressed = []
    key = screen.keyboard.on_press
    screen.keyboard.on_press = lambda move: (pressed.append(move), key(move))
    summary = play(screen, clock, FIRST_SIGHT_AFTER + 20)
    assert summary.ok and summary.misreads == 0 and summary.moves == FIRST_SIGHT_AFTER + 20, summary.reason
    assert len(pressed) == summary.moves  # the key that moved the board is pressed once
