"""The play loop reading new tiles while they grow in, on a drawn page with the classic timing:
it believes only what the frames show, thinks ahead, and presses long before the tile is still."""

from screenbot.board_state import BoardState
from screenbot.control.keyboard import RecordingKeyboard
from screenbot.game.rules import Game, Move, apply_move, parse_board
from screenbot.play.eyes import BoardGeometry, Eyes, Sight
from screenbot.play.loop import PlaySettings, Player
from screenbot.play.spawn import SpawnReader

from drawn import CLASSIC, DrawnBoard, ease
from play_fakes import VirtualClock, FirstLegalAgent

FRAME_S = 1 / 60  # the page draws at 60 Hz
DRAW_S = 0.02  # a key shows on the next frame or so
APPEAR_DELAY_S, APPEAR_S = 0.1, 0.2  # the classic `appear`: invisible 100 ms, then grows for 200 ms
START = parse_board("2 4 . . / . . . . / . 2 . . / . . . 4")


class GrowingPage(Eyes):
    """A seeded game drawn frame by frame on a virtual clock: after a key, the old board until the
    page draws, the slid board, then the new tile growing in (scale = opacity = ease(t)). A full
    look reads the board only once it is still (as vision does); a glance costs `glance_ms`."""

    def __init__(self, clock: VirtualClock, seed=1, start=START, glance_ms=1.5, look_ms=4.0, wrong_still=None):
        self.clock = clock
        self.page = DrawnBoard(cell=60, gap=8)
        self.geometry = BoardGeometry(self.page.rect, self.page.cells(), 1.0)
        self.game = Game(seed=seed)
        self.game.reset(start=start)
        self.keyboard = RecordingKeyboard(on_press=self.on_key)
        self.glance_ms, self.look_ms = glance_ms, look_ms
        self.before = self.after = self.game.grid
        self.key_t = -10.0
        self.spawn = None
        self.wrong_still = wrong_still  # (r, c, value): a still tile drawn wrong from then on
        self._cache = (None, None)

    def on_key(self, move: Move) -> None:
        before = self.game.grid
        after, _ = apply_move(before, move)
        grid, _, changed = self.game.step(move)
        if changed:
            self.before, self.after, self.key_t = before, after, self.clock.now
            self.spawn = next((r, c) for r in range(4) for c in range(4) if after[r][c] != grid[r][c])

    def _shown(self):
        """(tiles to draw, still?) at the page's last frame."""
        t = int((self.clock.now - self.key_t) / FRAME_S) * FRAME_S  # the frame on screen now
        if t < DRAW_S:
            board, growing = self.before, None
        else:
            board, growing = self.after, ease(min(1.0, max(0.0, (t - DRAW_S - APPEAR_DELAY_S) / APPEAR_S)))
        if growing is None or growing >= 1.0:
            board, growing = self.game.grid, None
        tiles = {(r, c): (v, 1.0) for r in range(4) for c in range(4) if (v := board[r][c])}
        if growing:
            r, c = self.spawn
            tiles[(r, c)] = (self.game.grid[r][c], growing)
        if self.wrong_still is not None:
            r, c, v = self.wrong_still
            if (r, c) in tiles and tiles[(r, c)][1] == 1.0:
                tiles[(r, c)] = (v, 1.0)
        return tiles, growing is None and t >= DRAW_S

    def _frame(self):
        tiles, still = self._shown()
        key = tuple(sorted(tiles.items()))
        if self._cache[0] != key:
            self._cache = (key, self.page.picture(tiles, CLASSIC))
        return self._cache[1], still, tiles

    def glance(self) -> Sight:
        self.clock.now += self.glance_ms / 1000
        frame, _, _ = self._frame()
        return Sight(None, BoardState.UNREAD, frame, self.clock.now, self.glance_ms)

    def look(self) -> Sight:
        self.clock.now += self.look_ms / 1000
        frame, still, tiles = self._frame()
        grid = tuple(tuple(tiles.get((r, c), (0, 1.0))[0] for c in range(4)) for r in range(4))
        return Sight(grid if still else None, BoardState.PLAYING if still else BoardState.UNSETTLED, frame, self.clock.now, self.look_ms)


def player_for(page, clock, **settings):
    reader = SpawnReader(page.page.cells(), tuple(page.page.strips(c) for c in page.page.cells()))
    return Player(page, page.keyboard, PlaySettings(**settings), agent=FirstLegalAgent(),
                  spawn_reader=reader, clock=clock)


def test_new_tiles_are_read_while_they_grow_and_every_board_is_the_games():
    clock = VirtualClock()
    page = GrowingPage(clock, seed=11)
    player = player_for(page, clock, max_moves=40)
    summary = player.play()
    assert summary.ok and summary.moves == 40, summary.reason
    assert player.tracker.board == page.game.grid
    assert summary.misreads == 0
    # every new value's first appearance is read still (its colour is learned there); the rest early
    assert summary.early_reads >= 30
    # pressed long before a new tile is still (300 ms after its key on this page)
    assert summary.move_ms_median < 200
    assert player.thinker is not None and player.thinker.ahead > 0  # the decisions were searched ahead
    assert abs(player.watcher.pace.frame_ms - 1000 * FRAME_S) < 3  # the page's frame interval, measured
    assert player.watcher.pace.quiet_ms() > 50  # and play rested after its keys


def test_a_still_tile_that_disagrees_is_never_believed_early_and_play_stops():
    clock = VirtualClock()
    page = GrowingPage(clock, seed=11)
    player = player_for(page, clock, max_moves=40, settle_timeout_s=1.0)
    original = page.on_key
    presses = []

    def on_key(move):
        original(move)
        presses.append(move)
        if len(presses) == 12:  # from now on one still tile shows another value than the game has
            r, c = next((r, c) for r in range(4) for c in range(4) if page.game.grid[r][c] == 2 and page.spawn != (r, c))
            page.wrong_still = (r, c, 8)

    page.keyboard.on_press = on_key
    summary = player.play()
    assert not summary.ok and "does not follow" in summary.reason
    assert len(presses) == 12  # nothing pressed after the board stopped making sense
    assert player.tracker.moves == 11


def test_the_guesses_are_a_2_in_every_empty_cell_then_a_4_and_fewer_for_a_thinker_that_cannot_stop():
    from screenbot.play.thinker import Thinker

    clock = VirtualClock()
    page = GrowingPage(clock)
    player = player_for(page, clock)
    player.tracker.begin(START)
    prediction = player.tracker.predict(Move.LEFT)
    cells = list(prediction.spawn_cells)
    n = len(cells)
    twos = sorted(prediction.with_spawn(r, c, 2) for r, c in cells)
    fours = sorted(prediction.with_spawn(r, c, 4) for r, c in cells)

    guesses = player.watcher.guesses(prediction, clock.now)
    assert n == 12 and sorted(guesses[:n]) == twos and sorted(guesses[n:]) == fours

    # a search that cannot be stopped: only what fits before the earliest first frame (100 ms)
    unstoppable = FirstLegalAgent()
    unstoppable.can_cancel = False
    player.watcher.thinker = Thinker(unstoppable)
    try:
        assert not player.watcher.thinker.can_stop
        player.watcher.thinker.recent_ms.append(30.0)
        player.watcher.pace.first_ms.extend([100.0] * 8)
        limited = player.watcher.guesses(prediction, clock.now)
    finally:
        player.watcher.thinker.close()
    assert len(limited) == 4 and set(limited) <= set(twos)


def test_play_works_with_any_agent_and_stops_its_wrong_guesses_through_its_cancel():
    """A second, trivial agent (first legal move, 20 ms of real time per board): play thinks ahead
    with it, and the guesses the new tile proves wrong are stopped through the agent's own cancel."""
    clock = VirtualClock()
    page = GrowingPage(clock, seed=11)
    agent = FirstLegalAgent(think_s=0.02)
    reader = SpawnReader(page.page.cells(), tuple(page.page.strips(c) for c in page.page.cells()))
    player = Player(page, page.keyboard, PlaySettings(max_moves=30), agent=agent,
                    spawn_reader=reader, clock=clock)
    summary = player.play()
    assert summary.ok and summary.moves == 30, summary.reason
    assert player.tracker.board == page.game.grid
    assert agent.warmed
    assert agent.cancels > 0 and player.thinker.cancelled > 0  # wrong guesses were stopped half-way
    assert agent.allows >= agent.cancels - 1  # and searches were allowed again after each
