"""Play follows a game whose rules differ from the classic ones: it learns them from the boards,
says each once, and still stops on a board no rule explains."""

import random

from screenbot.game.rules import empty_cells, parse_board, place
from screenbot.game.variants import LINE_RULES, slide_with
from screenbot.play.loop import PlaySettings, Player

from play_fakes import FirstLegalAgent, SimulatedScreen, VirtualClock

START = parse_board("2 2 4 8 / . . . . / . . . . / . . . .")


def variant_screen(clock, rule_name, spawns, seed=3, undo_at=None, two_at=None):
    """A SimulatedScreen whose game slides by `rule_name` and spawns from `spawns`; after key
    `undo_at` the game takes its last move back (the board before the key before it); after key
    `two_at` it adds two new tiles."""
    screen = SimulatedScreen(clock, start=START)
    rng = random.Random(seed)
    rule = LINE_RULES[rule_name][0]
    keys, boards = [], [screen.game.grid]

    def on_key(move):
        keys.append(move)
        before = screen.game.grid
        if undo_at is not None and len(keys) == undo_at:
            boards.pop()
            grid = boards[-1]
            screen.pending = [(screen.lag, before), (0, grid)]
        else:
            after, _ = slide_with(before, move, rule)
            if after == before:
                return
            r, c = rng.choice(empty_cells(after))
            grid = place(after, r, c, rng.choice(spawns))
            if len(keys) == two_at:
                r, c = rng.choice(empty_cells(grid))
                grid = place(grid, r, c, 2)
            boards.append(grid)
            screen.pending = [(screen.lag, before), (screen.lag + screen.no_spawn, after), (0, grid)]
        screen.game.grid = grid
        screen.looks = 0

    screen.keyboard.on_press = on_key
    return screen


def play(screen, clock, moves):
    said = []
    player = Player(screen, screen.keyboard, PlaySettings(max_moves=moves), agent=FirstLegalAgent(), clock=clock,
                    say=said.append)
    return player, player.play(), said


def test_chained_merges_and_new_tiles_of_8_are_learned_and_play_goes_on():
    clock = VirtualClock()
    screen = variant_screen(clock, "merged-tile-goes-on", (2, 2, 2, 4, 8))
    player, summary, said = play(screen, clock, 30)
    assert summary.ok and summary.moves == 30, summary.reason
    assert player.tracker.board == screen.game.grid and summary.misreads == 0
    assert "merges: a merged tile merges again in the same move" in summary.rules
    assert "new tiles of 8" in summary.rules
    notes = [m for m in said if "a rule of this game" in m]
    assert len(notes) == len(set(notes)) == len(summary.rules) - ("new tiles:" in summary.rules[-1])


def test_a_move_taken_back_by_the_game_is_followed():
    clock = VirtualClock()
    screen = variant_screen(clock, "classic", (2, 4), undo_at=6)
    player, summary, said = play(screen, clock, 20)
    assert summary.ok and summary.moves == 20 and summary.misreads == 0, summary.reason
    assert len(screen.keyboard.moves) == 22  # the sixth key's board was taken back with the fifth's move
    assert player.tracker.board == screen.game.grid
    assert summary.rules == ["undo: the board went back one move"]
    assert len([m for m in said if "went back" in m]) == 1


def test_a_board_no_rule_explains_stops_play(tmp_path):
    clock = VirtualClock()
    screen = variant_screen(clock, "classic", (2, 4), two_at=4)
    from screenbot.play.record import Recording

    player = Player(screen, screen.keyboard, PlaySettings(max_moves=10), agent=FirstLegalAgent(), clock=clock,
                    record=Recording(stop_dir=tmp_path), say=lambda m: None)
    summary = player.play()
    assert not summary.ok and "does not follow" in summary.reason and summary.moves == 3
    assert not summary.rules
    assert any(tmp_path.iterdir())  # the frames are saved


class ShareAgent(FirstLegalAgent):
    def __init__(self):
        super().__init__()
        self.shares = []

    def set_four_share(self, share):
        self.shares.append(share)


def test_the_agent_thinks_with_the_share_of_fours_the_game_shows():
    clock = VirtualClock()
    screen = variant_screen(clock, "classic", (2, 4), seed=5)
    agent = ShareAgent()
    player = Player(screen, screen.keyboard, PlaySettings(max_moves=40), agent=agent, clock=clock, say=lambda m: None)
    summary = player.play()
    assert summary.ok and summary.moves == 40, summary.reason
    fours = sum(v == 4 for _, _, v in player.tracker.spawns)
    assert agent.shares and agent.shares[-1] == fours / len(player.tracker.spawns)
    assert 0.3 < agent.shares[-1] < 0.7
    assert summary.rules[-1].startswith("new tiles: 2 ")
