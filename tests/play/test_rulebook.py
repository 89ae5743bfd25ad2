"""Play learns a game's rule variants from its boards: merges that chain, new tiles of other values."""

import random

import pytest

from screenbot.game.rules import Grid, Move, empty_cells, parse_board, place
from screenbot.game.variants import LINE_RULES, slide_with
from screenbot.play.rulebook import RuleBook
from screenbot.play.tracker import Tracker, compare


def board(text: str) -> Grid:
    return parse_board(text)


def test_a_new_tile_of_8_is_explained_and_said_once():
    t = Tracker()
    t.begin(board("2 . . 2 / . . . . / . . . . / . . . ."))
    p = t.predict(Move.LEFT)
    seen = board("4 . . . / . . . . / . . 8 . / . . . .")
    assert compare(seen, p).verdict == "mismatch"  # not by the classic rules
    explained = t.explain(seen, p)
    assert explained is not None and explained.line_rule == "classic"
    assert explained.check.spawn == (2, 2, 8)
    believed, notes = t.adopt(explained)
    assert believed == seen and notes == ["new tiles of 8"]
    p = t.predict(Move.RIGHT)
    seen = board(". . . 4 / . . . . / . . . 8 / 8 . . .")
    assert t.adopt(t.explain(seen, p))[1] == []  # an 8 is known now


def test_merges_that_chain_are_learned_and_then_predicted():
    t = Tracker()
    t.begin(board("16 16 32 64 / . . . . / . . . . / . . . 2"))
    p = t.predict(Move.LEFT)
    assert p.after[0] == (32, 32, 64, 0)  # the classic rules
    seen = board("128 . . . / . . . . / . 2 . . / 2 . . .")
    explained = t.explain(seen, p)
    assert explained is not None and explained.line_rule == "merged-tile-goes-on"
    _, notes = t.adopt(explained)
    assert notes == ["merges: a merged tile merges again in the same move"]
    assert t.score == 32 + 64 + 128
    assert t.rules.predict(board("2 2 4 . / . . . . / . . . . / . . . ."), Move.LEFT).after[0] == (8, 0, 0, 0)


def test_a_board_no_rule_explains_is_not_believed():
    t = Tracker()
    t.begin(board("2 . . 2 / . . . . / . . . . / . . . ."))
    p = t.predict(Move.LEFT)
    six = ((4, 0, 0, 0), (0, 0, 0, 0), (0, 0, 6, 0), (0, 0, 0, 0))  # 6 is no tile
    assert t.explain(six, p) is None
    for text in ("4 . . . / . . 2 . / . . 2 . / . . . .",  # two new tiles
                 "8 . . . / . . . . / . . 2 . / . . . .",  # a 2 and a 2 make no 8 by any rule
                 "2 2 . . / . . . . / . . 2 . / . . . ."):  # no merge
        assert t.explain(board(text), p) is None, text


@pytest.mark.parametrize("name", [n for n in LINE_RULES if n != "classic"])
def test_every_line_rule_is_learned_from_seeded_games_played_by_it(name):
    """Seeded games by one variant (new tiles of 2, 4 and 8): every board is believed, and from the
    first move whose board the classic rules would have made otherwise, the rule believed is one
    that makes every move played so far as the game did (two variants may agree on all of them)."""
    rule = LINE_RULES[name][0]
    told_games = 0
    for seed in range(12):
        rng = random.Random(seed)
        grid = place(place(parse_board(". . . . / . . . . / . . . . / . . . ."), 0, 0, 2), 1, 1, 2)
        t = Tracker()
        t.begin(grid)
        told = False
        played = []
        for _ in range(150):
            moves = [m for m in Move if slide_with(grid, m, rule)[0] != grid]
            if not moves or any(t.rules.predict(grid, m).after == grid for m in moves):
                break  # the rules known so far call a move illegal that is not: play would not press it
            move = rng.choice(moves)
            p = t.predict(move)
            after, _ = slide_with(grid, move, rule)
            told = told or after != p.after
            played.append((grid, move, after))
            r, c = rng.choice(empty_cells(after))
            grid = place(after, r, c, rng.choice((2, 2, 2, 4, 8)))
            check = compare(grid, p)
            if check.matched:
                t.accept(check, p)
            else:
                explained = t.explain(grid, p)
                assert explained is not None, (name, seed, grid)
                t.adopt(explained)
            assert t.board == grid
            believed = LINE_RULES[t.rules.line_rule][0]
            assert (t.rules.line_rule != "classic") == told
            assert all(slide_with(b, m, believed)[0] == a for b, m, a in played)
        told_games += told
    assert told_games >= 2  # the games did tell the rules apart


def test_the_share_of_fours_is_learned_once_enough_new_tiles_came():
    book = RuleBook()
    assert book.four_share() == pytest.approx(0.1)
    for v in [2] * 12 + [4] * 8:
        book.saw_spawn(v)
    assert book.four_share() == pytest.approx(0.1)  # 20 are too few to tell
    for v in [2] * 6 + [4] * 4:
        book.saw_spawn(v)
    assert book.four_share() == pytest.approx(0.4)
    assert book.spawn_note() == "new tiles: 2 60 %, 4 40 %"


def test_the_classic_share_of_fours_says_nothing():
    book = RuleBook()
    for v in [2] * 27 + [4] * 3:
        book.saw_spawn(v)
    assert book.spawn_note() is None


def test_the_tracker_goes_back_one_move():
    t = Tracker()
    start = board("2 . . 2 / . . . . / . . . . / . . . .")
    t.begin(start)
    p = t.predict(Move.LEFT)
    t.accept(compare(board("4 . . . / . . . . / . . 2 . / . . . ."), p), p)
    assert t.score == 4 and t.moves == 1
    assert t.go_back() == start and t.score == 0 and t.moves == 0 and t.history == [start]


def test_a_new_tile_read_too_soon_is_amended_when_the_next_board_says_it_was_the_other_value():
    t = Tracker()
    t.begin(board("2 . . 2 / . . . . / . . . . / . . . ."))
    p = t.predict(Move.LEFT)
    check = compare(board("4 . . . / . . . . / . . . 2 / . . . ."), p)
    t.accept(check, p)
    t.early_spawn = check.spawn  # as the watcher marks a tile read while it grew in
    p = t.predict(Move.RIGHT)
    alt = t.amended(p)
    assert alt is not None and alt.before == board("4 . . . / . . . . / . . . 4 / . . . .")
    seen = board(". . . 4 / . . . . / . . . 4 / 2 . . .")  # the true board: the tile was a 4
    assert compare(seen, p).verdict == "mismatch" and compare(seen, alt).matched
    assert t.amend(alt) is True  # it had been read while it grew in
    t.accept(compare(seen, alt), alt)
    assert t.board == seen and t.misreads == 1 and t.spawns[0] == (2, 3, 4)
    assert t.history == [board("2 . . 2 / . . . . / . . . . / . . . ."), alt.before, seen]
    assert t.amended(t.predict(Move.LEFT)).before == board(". . . 4 / . . . . / . . . 4 / 4 . . .")


def test_a_key_that_moves_nothing_on_the_amended_board_is_seen_as_such():
    t = Tracker()
    t.begin(board(". 2 . . / . . . . / . . . . / . . . ."))
    p = t.predict(Move.LEFT)
    t.accept(compare(board("2 2 . . / . . . . / . . . . / . . . ."), p), p)  # the new 2 was a 4
    alt = t.amended(t.predict(Move.LEFT))  # left merges the two 2s believed, and moves nothing on 2 4
    assert alt.after == alt.before == board("2 4 . . / . . . . / . . . . / . . . .")
    assert t.amend(alt) is False and t.board == alt.before and t.moves == 1
