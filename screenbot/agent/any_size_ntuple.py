"""A learned evaluation for small boards: an n-tuple network trained by temporal-difference learning (numba).

The value of a board after a move (an "afterstate") is the sum, over a few groups of cells ("tuples")
seen in each of the board's four symmetries (as is, mirrored left-right, top-bottom, both), of a
weight looked up by the ranks in those cells. It is trained on the board's own games to estimate the
score still to come (Szubert & Jaśkowski, "Temporal difference learning of N-tuple networks for
the game 2048", CIG 2014: TD(0) on afterstates): each move is the one with the highest gain + value
after it, and the value of the afterstate before it is moved toward that gain + value (toward 0 when
the game is over). So the search can add up score gains and this value, and a lost board's 0 is in
the same units.

Boards here are 64-bit words of 4-bit ranks, cell (r, c) at bit 4 * (r * cols + c), for boards of at
most 16 cells with sides up to 4 (4x3 is the one trained; 3x4 is played turned to 4x3). A cell's
rank is capped at the largest a board of its size can hold, so that a tuple of k cells indexes
`base ** k` weights (base = that rank + 1: 14 on 4x3).

    .venv/bin/python -m screenbot.agent.any_size_ntuple --size 4x3 --games 200000 --out net.npz
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from screenbot.game.sizes import format_size, parse_size

# 6-cell tuples of a 4x3 board (cells r * 3 + c): the top two rows, the middle two rows, the left
# three cells of the top three rows' first two columns, and the first column with two cells beside it
TUPLES_4X3 = (
    (0, 1, 2, 3, 4, 5),
    (3, 4, 5, 6, 7, 8),
    (0, 3, 6, 1, 4, 7),
    (0, 3, 6, 9, 1, 4),
)


@dataclass(frozen=True)
class Network:
    """The tuples of a board shape and how ranks index their weights."""

    rows: int
    cols: int
    tuples: tuple[tuple[int, ...], ...]

    @property
    def base(self) -> int:
        return self.rows * self.cols + 2  # ranks 0 .. cells + 1 (the largest tile: 2 ** (cells + 1))

    @property
    def size(self) -> int:
        return self.base ** len(self.tuples[0])

    def looks(self) -> np.ndarray:
        """Every lookup: [tuple (its weight table), its cells in the symmetry's order ...] per tuple and symmetry."""
        out = []
        for k, cells in enumerate(self.tuples):
            for flip_lr in (False, True):
                for flip_ud in (False, True):
                    moved = []
                    for i in cells:
                        r, c = divmod(i, self.cols)
                        r = self.rows - 1 - r if flip_ud else r
                        c = self.cols - 1 - c if flip_lr else c
                        moved.append(r * self.cols + c)
                    out.append([k] + moved)
        return np.array(out, np.int64)

    def new_weights(self) -> np.ndarray:
        return np.zeros((len(self.tuples), self.size), np.float32)


NETWORKS = {(4, 3): Network(4, 3, TUPLES_4X3)}
RESTART_RING = 4096  # boards kept for restarts


@njit(cache=True)
def value(board, weights, looks, base):
    """The network's value of a nibble board."""
    total = 0.0
    width = looks.shape[1]
    for k in range(looks.shape[0]):
        index = 0
        for j in range(1, width):
            index = index * base + np.int64((board >> np.uint64(4 * looks[k, j])) & np.uint64(0xF))
        total += weights[looks[k, 0], index]
    return total


@njit(cache=True)
def _update(board, weights, looks, base, step):
    width = looks.shape[1]
    for k in range(looks.shape[0]):
        index = 0
        for j in range(1, width):
            index = index * base + np.int64((board >> np.uint64(4 * looks[k, j])) & np.uint64(0xF))
        weights[looks[k, 0], index] += step


@njit(cache=True)
def _line(board, lines, move, i, n):
    w = 0
    for j in range(n):
        w |= np.int64((board >> np.uint64(4 * lines[move, i, j])) & np.uint64(0xF)) << (4 * j)
    return w


@njit(cache=True)
def _slide_word(w, n, cap):
    """A line word of n nibbles slid toward nibble 0: (the new word, the score gained); ranks stop at cap."""
    out = 0
    k = 0
    last = 0
    gain = 0
    for i in range(n):
        v = (w >> (4 * i)) & 0xF
        if v == 0:
            continue
        if v == last and v < cap:
            out += 1 << (4 * (k - 1))
            gain += 1 << (v + 1)
            last = 0
        else:
            out |= v << (4 * k)
            k += 1
            last = v
    return out, gain


@njit(cache=True)
def move_board(board, move, lines):
    """Play `move` (UP 0, DOWN 1, LEFT 2, RIGHT 3) on a nibble board: (new board, score gained).
    lines[move, i]: the cells of the move's line i, from the wall its tiles move toward (-1 past its end)."""
    out = board
    gain = 0
    cap = 15
    for i in range(lines.shape[1]):
        n = 0
        while n < lines.shape[2] and lines[move, i, n] >= 0:
            n += 1
        if n == 0:
            continue
        w = _line(board, lines, move, i, n)
        slid, g = _slide_word(w, n, cap)
        gain += g
        for j in range(n):
            shift = np.uint64(4 * lines[move, i, j])
            out = (out & ~(np.uint64(0xF) << shift)) | (np.uint64((slid >> (4 * j)) & 0xF) << shift)
    return out, gain


@njit(cache=True)
def _rand(state):
    """xorshift64*: (the next state, a float in [0, 1))."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return np.float64((x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(11)) / 9007199254740992.0


@njit(cache=True)
def _spawn(board, cells, state, four):
    empty = 0
    for i in range(cells):
        if (board >> np.uint64(4 * i)) & np.uint64(0xF) == 0:
            empty += 1
    if empty == 0:
        return board
    pick = int(_rand(state) * empty)
    tile = np.uint64(2) if _rand(state) < four else np.uint64(1)
    for i in range(cells):
        if (board >> np.uint64(4 * i)) & np.uint64(0xF) == 0:
            if pick == 0:
                return board | (tile << np.uint64(4 * i))
            pick -= 1
    return board


@njit(cache=True)
def _max_rank(board, cells):
    top = 0
    for i in range(cells):
        top = max(top, np.int64((board >> np.uint64(4 * i)) & np.uint64(0xF)))
    return top


@njit(cache=True)
def train_games(weights, looks, base, lines, cells, games, alpha, seed, four, out_scores, starts, stored,
                restart_share, restart_rank):
    """Play `games` games greedily on the network's values and learn from them (TD(0) on afterstates,
    step alpha / lookups); out_scores[g] = game g's score (-1 for a game restarted mid-way).

    Restarts: the board on which a game first holds a tile of `restart_rank` is kept in the ring `starts`
    (stored[0]: boards kept so far); a game then starts from one of them with chance `restart_share`, so
    that the late game, which few whole games reach, is learned as often as the early one."""
    state = np.array([np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) | np.uint64(1)], np.uint64)
    step_scale = alpha / looks.shape[0]
    ring = starts.shape[0]
    for g in range(games):
        restarted = stored[0] > 0 and _rand(state) < restart_share
        if restarted:
            board = starts[int(_rand(state) * min(stored[0], ring))]
        else:
            board = _spawn(_spawn(np.uint64(0), cells, state, four), cells, state, four)
        kept = restarted
        score = 0
        previous = np.uint64(0)
        has_previous = False
        while True:
            best_q = -1e300
            best_after = np.uint64(0)
            best_gain = 0
            for move in range(4):
                after, gain = move_board(board, move, lines)
                if after == board:
                    continue
                q = gain + value(after, weights, looks, base)
                if q > best_q:
                    best_q, best_after, best_gain = q, after, gain
            if best_q == -1e300:  # game over: the last afterstate led nowhere
                if has_previous:
                    _update(previous, weights, looks, base, step_scale * (0.0 - value(previous, weights, looks, base)))
                break
            if has_previous:
                target = best_q
                _update(previous, weights, looks, base, step_scale * (target - value(previous, weights, looks, base)))
            previous, has_previous = best_after, True
            score += best_gain
            board = _spawn(best_after, cells, state, four)
            if not kept and best_gain >= (1 << restart_rank) and _max_rank(board, cells) >= restart_rank:
                starts[stored[0] % ring] = board
                stored[0] += 1
                kept = True
        out_scores[g] = -1 if restarted else score


def move_lines(rows: int, cols: int) -> np.ndarray:
    """lines[move, i, j]: cell j of line i of `move`, from the wall its tiles move toward (-1 past the end)."""
    width = max(rows, cols)
    lines = -np.ones((4, width, width), np.int64)
    for i in range(cols):  # UP, DOWN: the columns
        lines[0, i, :rows] = [r * cols + i for r in range(rows)]
        lines[1, i, :rows] = [r * cols + i for r in reversed(range(rows))]
    for i in range(rows):  # LEFT, RIGHT: the rows
        lines[2, i, :cols] = [i * cols + c for c in range(cols)]
        lines[3, i, :cols] = [i * cols + c for c in reversed(range(cols))]
    return lines


def train(network: Network, games: int, weights: np.ndarray | None = None, alpha: float = 0.1, seed: int = 1,
          chunk: int = 1000, four: float = 0.1, optimistic: float = 0.0, restart_share: float = 0.0,
          restart_tile: int = 2048, report=None) -> np.ndarray:
    """Train the network's weights (new ones unless given) for `games` games; report(games done, mean
    score of the last chunk's whole games) after every chunk. `optimistic`: new weights start so that
    every board is worth this much (optimistic TD, Guei et al.: boards not seen yet look good, so play
    tries them). `restart_share`: the share of games that start from a board on which an earlier game
    first held `restart_tile` (see train_games)."""
    looks = network.looks()
    if weights is None:
        weights = network.new_weights()
        weights[:] = optimistic / looks.shape[0]
    lines = move_lines(network.rows, network.cols)
    starts = np.zeros(RESTART_RING, np.uint64)
    stored = np.zeros(1, np.int64)
    restart_rank = int(restart_tile).bit_length() - 1
    done = 0
    while done < games:
        n = min(chunk, games - done)
        scores = np.zeros(n, np.int64)
        train_games(weights, looks, network.base, lines, network.rows * network.cols, n, alpha, seed + done, four,
                    scores, starts, stored, restart_share, restart_rank)
        done += n
        whole = scores[scores >= 0]
        if report is not None:
            report(done, float(whole.mean()) if len(whole) else float("nan"))
    return weights


def default_path(rows: int = 4, cols: int = 3) -> Path:
    """Where a trained network of this shape is kept: the user cache dir."""
    from screenbot.paths import cache_dir

    return cache_dir() / f"any-size-ntuple-{rows}x{cols}.npz"


def save(path: Path, network: Network, weights: np.ndarray, games: int) -> None:
    np.savez(path, weights=weights, rows=network.rows, cols=network.cols, tuples=np.array(network.tuples),
             games=games)


def load(path: Path) -> tuple[Network, np.ndarray, int]:
    with np.load(path) as f:
        network = Network(int(f["rows"]), int(f["cols"]), tuple(tuple(int(c) for c in t) for t in f["tuples"]))
        return network, f["weights"], int(f["games"])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="train the n-tuple network of a small board")
    ap.add_argument("--size", default="4x3")
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--alpha", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--optimistic", type=float, default=0.0, help="new weights value every board at this much")
    ap.add_argument("--restart-share", type=float, default=0.0, help="share of games started from a board on "
                    "which an earlier game first held --restart-tile")
    ap.add_argument("--restart-tile", type=int, default=2048)
    ap.add_argument("--resume", action="store_true", help="go on training the weights in --out")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    size = parse_size(args.size)
    network, weights, before = NETWORKS[size], None, 0
    if args.resume:
        network, weights, before = load(Path(args.out))
    started = time.perf_counter()

    def report(done: int, mean: float) -> None:
        print(f"{format_size(size)} games {before + done}: mean score of the last ones {mean:.0f} "
              f"({time.perf_counter() - started:.0f} s)", flush=True)

    weights = train(network, args.games, weights, args.alpha, args.seed + before, optimistic=args.optimistic,
                    restart_share=args.restart_share, restart_tile=args.restart_tile, report=report)
    save(Path(args.out), network, weights, before + args.games)


if __name__ == "__main__":
    main()
