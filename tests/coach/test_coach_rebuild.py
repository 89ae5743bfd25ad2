"""Rebuilding a game from believed boards: one move, a unique pair of moves, gaps (never a made-up move)."""

from __future__ import annotations

from coach_render import seeded_game

from screenbot.coach.rebuild import Believer, Seen, explain, rebuild, rebuild_boards
from screenbot.game.rules import Move, apply_move

# seeded_game(0, 30)[8:11]: left, then down
B0 = ((0, 0, 2, 4), (0, 0, 0, 4), (0, 2, 0, 4), (0, 0, 0, 4))
B1 = ((2, 4, 0, 0), (4, 2, 0, 0), (2, 4, 0, 0), (4, 0, 0, 0))
B2 = ((2, 0, 0, 2), (4, 4, 0, 0), (2, 2, 0, 0), (4, 4, 0, 0))


def moves_of(game):
    return [(step.board, step.move) for step in game.steps]


def test_one_move_between_two_boards():
    why = explain(B0, B1)
    assert why.kind == "one" and why.steps[0].move == Move.LEFT and why.board == B1
    game = rebuild_boards([B0, B1, B2])
    assert moves_of(game) == [(B0, Move.LEFT), (B1, Move.DOWN)]
    assert game.gaps == [] and game.last == B2


def test_a_whole_seeded_game_is_rebuilt_move_by_move():
    boards, moves = seeded_game(2, 80)
    game = rebuild_boards(boards)
    assert moves_of(game) == list(zip(boards, moves))
    assert game.gaps == []


def test_every_move_rebuilt_is_the_move_played_and_every_gap_is_a_true_ambiguity():
    for seed in range(8):
        boards, moves = seeded_game(seed, 80)
        game = rebuild_boards(boards)
        truth = dict(zip(boards, moves))
        assert all(truth[step.board] == step.move for step in game.steps)
        assert all(gap.kind == "ambiguous" for gap in game.gaps)
        assert len(game.steps) + len(game.gaps) == len(moves)


def test_a_game_joined_mid_way_starts_from_the_first_board_seen():
    boards, moves = seeded_game(5, 40)
    game = rebuild_boards(boards[17:])
    assert moves_of(game) == list(zip(boards[17:], moves[17:]))


def test_two_moves_in_one_jump_with_a_unique_explanation():
    why = explain(B0, B2)
    assert why.kind == "two"
    assert [(s.board, s.move) for s in why.steps] == [(B0, Move.LEFT), (B1, Move.DOWN)]
    game = rebuild_boards([B0, B2])
    assert moves_of(game) == [(B0, Move.LEFT), (B1, Move.DOWN)]  # the board between them rebuilt too
    assert game.two_move_jumps == 1 and game.gaps == []


def test_an_ambiguous_jump_is_a_gap_not_a_guess():
    # seeded_game(0, 30)[0:3]: right, right; seven pairs of moves (and new tiles) make the same board
    a = ((0, 0, 0, 2), (2, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))
    c = ((0, 0, 0, 2), (0, 0, 0, 2), (0, 2, 0, 2), (0, 0, 0, 0))
    why = explain(a, c)
    assert why.kind == "ambiguous" and not why.steps
    game = rebuild_boards([a, c])
    assert game.steps == [] and len(game.gaps) == 1 and game.gaps[0].kind == "ambiguous"


def test_two_moves_that_leave_the_same_board_cannot_be_told_apart():
    # down + a 2 at the bottom right, or right + a 2 at the bottom left: the same board
    a = ((0, 0, 0, 2), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 2, 0))
    b = ((0, 0, 0, 2), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 2, 2))
    why = explain(a, b)
    assert why.kind == "ambiguous" and "down" in why.detail and "right" in why.detail
    assert rebuild_boards([a, b]).steps == []


def test_three_moves_in_one_jump_are_a_gap():
    boards, moves = seeded_game(0, 30)
    assert explain(boards[0], boards[3]).kind == "none"
    game = rebuild_boards(boards[:1] + boards[3:8])
    assert len(game.gaps) == 1 and game.gaps[0].kind == "none"
    assert moves_of(game) == list(zip(boards[3:7], moves[3:7]))  # restarted from the board after the gap


def test_a_new_game_is_a_gap_and_both_games_are_rebuilt():
    first, first_moves = seeded_game(1, 12)
    second, second_moves = seeded_game(2, 9)
    game = rebuild_boards(first + second)
    assert len(game.gaps) == 1
    assert game.gaps[0].moves_before == 12 and "fewer tiles" in game.gaps[0].reason
    assert moves_of(game) == list(zip(first, first_moves)) + list(zip(second, second_moves))


def test_one_misread_board_between_two_that_follow_is_dropped():
    boards, moves = seeded_game(7, 10)
    misread = tuple(tuple(8 if v == 2 else v for v in row) for row in boards[5])
    seen = boards[:5] + [misread] + boards[5:]
    game = rebuild_boards(seen)
    assert game.gaps == [] and [s.board for s in game.dropped] == [misread]
    assert moves_of(game) == list(zip(boards, moves))


def test_a_glimpsed_board_bridges_a_jump_of_three_moves():
    boards, moves = seeded_game(0, 60)
    # the first three moves that no pair explains, but a pair does after their first board
    i = next(i for i in range(57) if explain(boards[i], boards[i + 3]).kind == "none"
             and explain(boards[i + 1], boards[i + 3]).kind == "two")
    seen = [Seen(boards[i], "f0"), Seen(boards[i + 1], "f1", sure=False), Seen(boards[i + 3], "f3")]
    game = rebuild(seen)
    assert moves_of(game) == list(zip(boards[i:i + 3], moves[i:i + 3]))
    assert game.bridged == 1 and game.gaps == []
    assert [s.at for s in game.steps] == ["f0", "f1", ""]


def test_a_glimpse_that_follows_by_the_rules_but_leads_nowhere_is_passed_over():
    """Two moves no pair explains alone; the board between them glimpsed, then a misread of the last
    board as its new tile appears (a 2 caught as a 4): it follows from the middle board by the rules
    (the same move, a 4 for the new tile) but the believed board does not follow from it."""
    boards, moves = seeded_game(0, 60)
    for i in range(57):
        a, b, c = boards[i:i + 3]
        slid = apply_move(b, moves[i + 1])[0]
        r, q = next((r, q) for r in range(4) for q in range(4) if slid[r][q] == 0 and c[r][q])  # the new tile
        misread = tuple(tuple(4 if (y, x) == (r, q) else v for x, v in enumerate(row)) for y, row in enumerate(c))
        if (c[r][q] == 2 and not explain(a, c).ok and explain(a, b).kind == "one"
                and explain(b, misread).ok and not explain(misread, c).ok):
            break
    else:
        raise AssertionError("no such three boards in the game")
    game = rebuild([Seen(a, "f0"), Seen(b, "f1", sure=False), Seen(misread, "f2", sure=False), Seen(c, "f3")])
    assert moves_of(game) == list(zip(boards[i:i + 2], moves[i:i + 2]))
    assert game.bridged == 1 and game.gaps == []


def test_a_glimpse_that_follows_from_nothing_is_not_used():
    boards, _ = seeded_game(0, 30)
    nonsense = ((2048, 0, 0, 0),) + boards[1][1:]
    game = rebuild([Seen(boards[0]), Seen(nonsense, sure=False), Seen(boards[3])])
    assert game.steps == [] and len(game.gaps) == 1


def test_a_single_move_is_preferred_to_a_pair_when_it_explains_the_jump():
    # seeded_game(14, 30)[28:31]: up then left; a left with a new 4 gives the same board (README: the
    # known limit of a jump over a board no frame showed)
    a = ((0, 4, 16, 8), (0, 2, 4, 32), (0, 0, 0, 0), (0, 0, 2, 0))
    c = ((4, 16, 8, 0), (2, 4, 32, 0), (4, 0, 0, 0), (2, 0, 0, 0))
    why = explain(a, c)
    assert why.kind == "one" and why.steps[0].move == Move.LEFT


def test_big_tiles_read_by_colour_only_are_filled_in_by_the_rules():
    before = ((4096, 4096, 0, 0), (2, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))
    after, _ = apply_move(before, Move.LEFT)
    seen = ((-1, 2, 0, 0),) + after[1:]  # 8192 not named (BIG_TILE), a new 2 beside it
    why = explain(before, seen)
    assert why.kind == "one" and why.board[0][0] == 8192


class TestBeliever:
    def test_on_screenshots_every_still_board_is_believed_once(self):
        b = Believer(1)
        assert b.see(B0, "a") == Seen(B0, "a")
        assert b.see(B0, "b") is None  # the same board again
        assert b.see(None, "c") is None  # unsettled
        assert b.see(B0, "d") is None  # still the last board believed
        assert b.see(B1, "e") == Seen(B1, "e")
        assert [s.board for s in b.believed] == [B0, B1]

    def test_in_a_video_a_board_is_believed_on_two_frames_in_a_row(self):
        b = Believer(2)
        assert b.see(B0, "f0") is None
        assert b.again() == Seen(B0, "f0")  # an unchanged frame counts
        assert b.see(B1, "f2") is None
        assert b.see(None, "f3") is None  # broken: B1 stays a glimpse
        assert b.see(B2, "f4") is None
        assert b.see(B2, "f5") == Seen(B2, "f4")
        assert [(s.board, s.sure) for s in b.boards] == [(B0, True), (B1, False), (B2, True)]

    def test_a_big_tile_nothing_could_name_breaks_the_run(self):
        b = Believer(1)
        assert b.see(((-1, 2, 0, 0),) + B0[1:], "a") is None
        assert b.boards == []


def test_a_new_game_whose_tiles_show_one_after_the_other_is_one_gap():
    """A cut to a new game: its first tile shows, then its second (grown in), then moves. One gap,
    not two, and the new game's moves are rebuilt from its full first board."""
    old, old_moves = seeded_game(1, 30)
    new, new_moves = seeded_game(2, 10)
    start = new[0]
    (r, c) = next((r, c) for r in range(4) for c in range(4) if start[r][c])
    one_tile = tuple(tuple(v if (i, k) == (r, c) else 0 for k, v in enumerate(row)) for i, row in enumerate(start))
    assert one_tile != start
    game = rebuild_boards(old + [one_tile] + new)
    assert len(game.gaps) == 1 and game.gaps[0].moves_before == len(old_moves)
    assert moves_of(game) == list(zip(old, old_moves)) + list(zip(new, new_moves))


def test_tiles_appearing_without_a_cut_are_not_taken_for_a_move():
    boards, moves = seeded_game(3, 6)
    grown = tuple(tuple(v if v else (2 if (i, k) == (3, 3) else 0) for k, v in enumerate(row))
                  for i, row in enumerate(boards[2]))
    if grown == boards[2]:
        return
    game = rebuild_boards(boards[:3] + [grown] + boards[3:])
    truth = dict(zip(boards, moves))
    assert all(truth.get(step.board) == step.move for step in game.steps)
