"""The tracker believes only boards that follow from the last one by the rules."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from screenbot.game.rules import Game, Move, apply_move, legal_moves, parse_board
from screenbot.play.tracker import BIG_TILE, Tracker, TrackingError, UnknownTileError, compare


def board(text):
    return parse_board(text)


START = board("2 . . 2 / . . . . / . 4 . . / . . . .")


def test_the_slid_board_plus_one_spawn_matches():
    t = Tracker()
    t.begin(START)
    p = t.predict(Move.LEFT)
    seen = board("4 . . . / . . . 2 / 4 . . . / . . . .")
    check = t.check(seen, p)
    assert check.verdict == "match"
    assert check.spawn == (1, 3, 2)
    t.accept(check, p)
    assert t.board == seen and t.score == 4 and t.moves == 1


def test_the_old_board_is_unchanged_and_the_slid_board_has_no_spawn_yet():
    t = Tracker()
    t.begin(START)
    p = t.predict(Move.LEFT)
    assert t.check(START, p).verdict == "unchanged"
    assert t.check(board("4 . . . / . . . . / 4 . . . / . . . ."), p).verdict == "no-spawn"


@pytest.mark.parametrize(
    "seen",
    [
        "4 . . . / . . . 8 / 4 . . . / . . . .",  # an 8 cannot spawn
        "4 . . . / . . 2 2 / 4 . . . / . . . .",  # two new tiles
        "2 2 . . / . . . 2 / 4 . . . / . . . .",  # merge not done
        "4 . . . / . . . 2 / 2 . . . / . . . .",  # a tile changed value
    ],
)
def test_anything_else_is_a_mismatch(seen):
    t = Tracker()
    t.begin(START)
    p = t.predict(Move.LEFT)
    check = t.check(board(seen), p)
    assert check.verdict == "mismatch" and not check.matched
    assert check.differences
    with pytest.raises(TrackingError):
        t.accept(check, p)


def test_big_tiles_are_known_from_history_even_where_colour_is_shared():
    t = Tracker()
    t.begin(board("4096 4096 . . / 2 . . . / . . . . / . . . ."))
    p = t.predict(Move.LEFT)
    # the reader saw the shared colour and called both "4096" or could not name it
    for shown in (4096, BIG_TILE, None, 16384):
        seen = [[shown, 0, 0, 2], [2, 0, 0, 0], [0] * 4, [0] * 4]
        check = t.check(seen, p)
        assert check.verdict == "match", shown
        assert check.board[0][0] == 8192
    t.accept(t.check([[4096, 0, 0, 2], [2, 0, 0, 0], [0] * 4, [0] * 4], p), p)
    assert t.board[0][0] == 8192


def test_a_big_marker_where_a_small_tile_belongs_is_a_mismatch():
    t = Tracker()
    t.begin(START)
    p = t.predict(Move.LEFT)
    assert t.check([[BIG_TILE, 0, 0, 0], [0, 0, 0, 2], [4, 0, 0, 0], [0] * 4], p).verdict == "mismatch"


def test_a_first_board_with_an_unnamed_big_tile_is_refused():
    with pytest.raises(UnknownTileError):
        Tracker().begin([[BIG_TILE, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4])


def test_an_illegal_move_cannot_be_predicted():
    t = Tracker()
    t.begin(board("2 . . . / . . . . / . . . . / . . . ."))
    with pytest.raises(TrackingError):
        t.predict(Move.LEFT)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(st.sampled_from(list(Move)), min_size=1, max_size=60))
def test_every_real_game_step_matches_and_score_follows(seed, moves):
    game = Game(seed=seed)
    game.reset()
    t = Tracker()
    t.begin(game.grid)
    for move in moves:
        if move not in legal_moves(game.grid):
            continue
        p = t.predict(move)
        grid, _, _ = game.step(move)
        check = t.check(grid, p)
        assert check.verdict == "match"
        t.accept(check, p)
        assert t.board == game.grid
    assert t.score == game.score


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 15), st.sampled_from([2, 4, 8]))
def test_a_wrong_cell_is_never_accepted(seed, cell, delta):
    game = Game(seed=seed)
    game.reset()
    move = legal_moves(game.grid)[0]
    t = Tracker()
    t.begin(game.grid)
    p = t.predict(move)
    grid, _, _ = game.step(move)
    rows = [list(r) for r in grid]
    r, c = divmod(cell, 4)
    rows[r][c] = rows[r][c] * 2 if rows[r][c] else delta
    check = compare(rows, p)
    spawn_cell = next((r2, c2) for r2 in range(4) for c2 in range(4) if grid[r2][c2] != p.after[r2][c2])
    if (r, c) == spawn_cell and grid[r][c] == 2:
        # a 2 misread as 4 on the spawn cell is itself a legal spawn: only the reader can catch it
        assert check.matched and check.board[r][c] == 4
    else:
        assert check.verdict == "mismatch"


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 40), st.sampled_from(list(Move)))
def test_merged_cells_are_where_the_rules_put_merged_tiles(seed, steps, move):
    from screenbot.game.rules import merged_cells

    game = Game(seed=seed)
    game.reset()
    for i in range(steps):
        legal = legal_moves(game.grid)
        if not legal:
            break
        game.step(legal[i % len(legal)])
    after, gain = apply_move(game.grid, move)
    cells = merged_cells(game.grid, move)
    # every merge adds its tile's value to the score, and removes one tile from the board
    assert sum(after[r][c] for r, c in cells) == gain
    count = lambda g: sum(1 for row in g for v in row if v)
    assert count(game.grid) - count(after) == len(cells)


def test_merged_cells_example():
    from screenbot.game.rules import merged_cells

    grid = board("2 2 2 2 / 4 4 8 . / . . . . / 2 . 2 4")
    assert merged_cells(grid, Move.LEFT) == [(0, 0), (0, 1), (1, 0), (3, 0)]
    assert merged_cells(grid, Move.RIGHT) == [(0, 2), (0, 3), (1, 2), (3, 2)]
