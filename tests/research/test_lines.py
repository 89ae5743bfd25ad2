"""The learned line network (research.lines): its value, its TD update, its row table for the
search, its files, and that training learns."""

import numpy as np
import pytest

from research import lines
from screenbot.agent import ExpectimaxAgent
from screenbot.agent.search import _row_table
from screenbot.game import apply_move, parse_board
from screenbot.game.bitboard import to_bitboard

BOARDS = [
    parse_board("2 4 8 16 / 32 64 128 . / 256 . . . / . . . ."),
    parse_board("16384 8192 4096 2048 / 2 4 8 1024 / . . 2 512 / . . . 256"),
    parse_board("2 2 2 2 / 4 . 4 . / . 8 . 8 / 32768 . . 2"),
]


def _symmetric(kinds, seed):
    rng = np.random.default_rng(seed)
    S = rng.normal(size=(kinds, 1 << 16))
    return S + S[:, lines.REVERSE]  # a line and its reverse are one feature


def _lines_of(grid):
    """The eight lines of a grid as row words (rank in nibble i = cell i of the line), with whether each is outer."""
    ranks = [[0 if v == 0 else int(v).bit_length() - 1 for v in row] for row in grid]
    out = []
    for q in range(4):
        row = ranks[q]
        col = [ranks[r][q] for r in range(4)]
        for cells in (row, col):
            out.append((sum(k << (4 * i) for i, k in enumerate(cells)), q in (0, 3)))
    return out


@pytest.mark.parametrize("kinds", [1, 2])
@pytest.mark.parametrize("grid", BOARDS)
def test_the_value_is_the_sum_of_the_eight_lines_weights(kinds, grid):
    S = _symmetric(kinds, 1)
    expected = sum(S[0 if (outer or kinds == 1) else 1, word] for word, outer in _lines_of(grid))
    assert lines.value(S, np.uint64(to_bitboard(grid))) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("kinds", [1, 2])
def test_an_update_keeps_the_tables_symmetric_and_moves_the_value_its_way(kinds):
    S = _symmetric(kinds, 2)
    board = np.uint64(to_bitboard(BOARDS[1]))
    before = lines.value(S, board)
    lines._update(S, board, 0.5)
    assert np.array_equal(S, S[:, lines.REVERSE])
    # each line's weight went up by 0.5 for every line (of the same kind) equal to it or to its reverse
    words = [(w, 0 if (outer or kinds == 1) else 1) for w, outer in _lines_of(BOARDS[1])]
    bumps = sum(0.5 * sum((w2 == w) + (int(lines.REVERSE[w2]) == w != w2) for w2, k2 in words if k2 == k)
                for w, k in words)
    assert lines.value(S, board) == pytest.approx(before + bumps, rel=1e-12)


def test_the_row_table_is_the_score_made_plus_the_value():
    S = _symmetric(1, 3)
    table = lines.row_table(S)
    for grid in BOARDS:
        made = sum((k - 1) * 2**k for row in grid for v in row if v for k in [int(v).bit_length() - 1] if k >= 2)
        total = sum(table[word] for word, _ in _lines_of(grid))
        assert total == pytest.approx(made + lines.value(S, np.uint64(to_bitboard(grid))), rel=1e-12)
    with pytest.raises(ValueError, match="one shared"):
        lines.row_table(_symmetric(2, 3))


def test_an_agent_searches_with_a_line_table():
    table = lines.row_table(_symmetric(1, 4) * 1000.0)
    agent = ExpectimaxAgent(threads=1, weights=table)
    grid = BOARDS[0]
    decision = agent.choose(grid, depth=0)  # depth 0: the evaluation of each move's board
    for move, v in decision.values.items():
        after = apply_move(grid, move)[0]
        assert v == pytest.approx(sum(table[w] for w, _ in _lines_of(after)), rel=1e-9)
    with pytest.raises(ValueError, match="row table"):
        _row_table(np.zeros(10), table)


def test_files_round_trip_and_damage_is_refused(tmp_path):
    S = _symmetric(2, 5)
    path = tmp_path / "net.npz"
    lines.save(path, S, {"games": 7})
    loaded, info = lines.load(path)
    assert info == {"games": 7}
    assert np.array_equal(loaded, S.astype(np.float32).astype(np.float64))
    with np.load(path) as data:
        parts = dict(data)
    parts["table"] = parts["table"].copy()
    parts["table"][1, 123] += 1.0  # one weight changed, checksum kept
    np.savez(tmp_path / "bad.npz", **parts)
    with pytest.raises(ValueError, match="checksum"):
        lines.load(tmp_path / "bad.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="not a line-network file"):
        lines.load(tmp_path / "junk.npz")
    with pytest.raises(ValueError, match="not a line-network file"):
        lines.load(tmp_path / "missing.npz")
    np.savez(tmp_path / "shape.npz", table=np.zeros((3, 5), np.float32), info=np.array("{}"), sha256=np.array(""))
    with pytest.raises(ValueError, match="shape"):
        lines.load(tmp_path / "shape.npz")


def test_training_learns_to_play_better_than_the_untrained_network():
    starts = np.zeros(1, np.uint64)  # fresh games
    games = 400
    score, rank = np.zeros(games, np.int64), np.zeros(games, np.int64)
    S = lines.new_table(2)
    lines.train(S, starts, games, 0.0025, 11, score, rank, False)  # untrained: every move ties
    untrained = score.mean()
    lines.train(S, starts, 20000, 0.0025, 12, np.zeros(20000, np.int64), np.zeros(20000, np.int64), True)
    lines.train(S, starts, games, 0.0025, 11, score, rank, False)
    assert score.mean() > 2 * untrained, (score.mean(), untrained)
    assert np.array_equal(S, S[:, lines.REVERSE])
