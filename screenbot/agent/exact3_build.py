"""The 3x3 game packed in an integer, and its exact solve layer by layer of tile sum (numba).

A board is an int64 of 9 cells, 4 bits each, holding the exponent of the cell's tile (0 = empty):
cell (r, c) at bits 4 * (3r + c), so a row is 12 bits and a row's first cell its lowest bits. Moves
go through two 4096-entry row tables (left and right); up and down transpose first. A board's
canonical form is the least of its 8 images under the square's symmetries, which play the same
game (a move's image is the image's move), so one value serves all 8.

A move keeps the tile sum and a spawn adds 2 or 4, so the reachable states split into layers by
tile sum and each layer is made from the two below it (forward) and solved from the two above it
(backward): the value of an afterstate (a board just after a move, before its spawn) is the mean
over spawns of the value of the state the spawn makes; the value of a state is the best over its
legal moves of the move's gain plus its afterstate's value, 0 with no legal move. Values are the
score still to come under optimal play.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numba import njit

CELLS = 9
MAX_SUM = 2046  # no tile sum a 3x3 game reaches is larger (nine cells of distinct powers up to 1024)
BUCKETS_PER_SUM = 16  # a solution file's index: tile sum / 2, then the exponent in cell 8
Progress = Callable[[int, int], None]  # (done, total), as commands.build_progress shows it


class Cancelled(Exception):
    """The solve was told to stop (`should_stop` answered True between layers)."""


class TooLarge(Exception):
    """The solve met more states than it was allowed to hold."""


def _row_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every 12-bit row: the row after sliding left, after sliding right, and the gain (the same
    either way only for symmetric rows, so one gain table per direction: left, right)."""
    left = np.zeros(4096, np.int64)
    right = np.zeros(4096, np.int64)
    gains = np.zeros((2, 4096), np.int64)
    for row in range(4096):
        cells = [(row >> (4 * c)) & 0xF for c in range(3)]
        for side, order in ((0, cells), (1, cells[::-1])):
            tiles = [v for v in order if v]
            out: list[int] = []
            gain, i = 0, 0
            while i < len(tiles):
                # 15 + 15 would not fit a cell; no board the agent accepts can make two 2**15 tiles
                if i + 1 < len(tiles) and tiles[i] == tiles[i + 1] and tiles[i] < 15:
                    out.append(tiles[i] + 1)
                    gain += 1 << (tiles[i] + 1)
                    i += 2
                else:
                    out.append(tiles[i])
                    i += 1
            out += [0] * (3 - len(out))
            if side == 1:
                out = out[::-1]
            packed = out[0] | (out[1] << 4) | (out[2] << 8)
            (left if side == 0 else right)[row] = packed
            gains[side, row] = gain
    return left, right, gains


LEFT_ROW, RIGHT_ROW, ROW_GAIN = _row_tables()
_N = [0xF << (4 * i) for i in range(CELLS)]  # one cell's bits
_DIAG, _UP8, _CELL2 = _N[0] | _N[4] | _N[8], _N[1] | _N[5], _N[2]
_COL0, _COL1, _ROW0, _ROW1 = _N[0] | _N[3] | _N[6], _N[1] | _N[4] | _N[7], 0xFFF, 0xFFF << 12


@njit(cache=True, inline="always")
def transpose(b: int) -> int:
    """Cell (r, c) to (c, r)."""
    return ((b & _DIAG) | ((b & _UP8) << 8) | ((b >> 8) & _UP8) | ((b & _CELL2) << 16)
            | ((b >> 16) & _CELL2))


@njit(cache=True, inline="always")
def flip_h(b: int) -> int:
    """Cell (r, c) to (r, 2 - c)."""
    return (b & _COL1) | ((b & _COL0) << 8) | ((b >> 8) & _COL0)


@njit(cache=True, inline="always")
def flip_v(b: int) -> int:
    """Cell (r, c) to (2 - r, c)."""
    return (b & _ROW1) | ((b & _ROW0) << 24) | ((b >> 24) & _ROW0)


@njit(cache=True)
def canonical(b: int) -> int:
    """The least of the board's 8 images under the square's symmetries."""
    h = flip_h(b)
    v = flip_v(b)
    hv = flip_h(v)
    t = transpose(b)
    best = min(b, h, v, hv)
    return min(best, t, flip_h(t), flip_v(t), flip_h(flip_v(t)))


@njit(cache=True, inline="always")
def _rows(b: int, table: np.ndarray, side: int) -> tuple[int, int]:
    out = 0
    gain = 0
    for r in range(3):
        row = (b >> (12 * r)) & 0xFFF
        out |= table[row] << (12 * r)
        gain += ROW_GAIN[side, row]
    return out, gain


@njit(cache=True)
def move(b: int, m: int) -> tuple[int, int]:
    """The board after move m (0 up, 1 down, 2 left, 3 right) and the score it gains; the same board
    when the move is not legal."""
    if m == 2:
        return _rows(b, LEFT_ROW, 0)
    if m == 3:
        return _rows(b, RIGHT_ROW, 1)
    out, gain = _rows(transpose(b), LEFT_ROW if m == 0 else RIGHT_ROW, 0 if m == 0 else 1)
    return transpose(out), gain


@njit(cache=True, inline="always")
def tile_sum(b: int) -> int:
    total = 0
    for i in range(CELLS):
        e = (b >> (4 * i)) & 0xF
        if e:
            total += 1 << e
    return total


@njit(cache=True)
def orbit_size(b: int) -> int:
    """How many distinct boards the 8 symmetries make of b."""
    t = transpose(b)
    images = (b, flip_h(b), flip_v(b), flip_h(flip_v(b)), t, flip_h(t), flip_v(t), flip_h(flip_v(t)))
    distinct = 0
    for i in range(8):
        seen = False
        for j in range(i):
            if images[j] == images[i]:
                seen = True
        if not seen:
            distinct += 1
    return distinct


@njit(cache=True)
def orbit_total(keys: np.ndarray) -> int:
    total = 0
    for k in keys:
        total += orbit_size(k)
    return total


@njit(cache=True)
def largest_exponent(keys: np.ndarray) -> int:
    best = 0
    for b in keys:
        for i in range(CELLS):
            best = max(best, (b >> (4 * i)) & 0xF)
    return best


@njit(cache=True, inline="always")
def find(keys: np.ndarray, k: int) -> int:
    """Where k is in the sorted array keys, or -1."""
    j = np.searchsorted(keys, k)
    if j < len(keys) and keys[j] == k:
        return j
    return -1


@njit(cache=True)
def lookup(offsets: np.ndarray, keys: np.ndarray, values: np.ndarray, c: int) -> float:
    """The value a solution file's arrays hold for canonical afterstate c, or NaN when they hold none:
    bucket (tile sum / 2) * 16 + the exponent in cell 8, then the low 32 bits, sorted in the bucket."""
    bucket = (tile_sum(c) >> 1) * BUCKETS_PER_SUM + (c >> 32)
    if bucket + 1 >= len(offsets):
        return np.nan
    lo = offsets[bucket]
    hi = offsets[bucket + 1]
    low = np.uint32(c & 0xFFFFFFFF)
    j = lo + np.searchsorted(keys[lo:hi], low)
    if j < hi and keys[j] == low:
        return values[j]
    return np.nan


@njit(cache=True)
def afterstates_of(states: np.ndarray) -> np.ndarray:
    """The canonical afterstates of every legal move of every state (repeats included)."""
    out = np.empty(len(states) * 4, np.int64)
    n = 0
    for s in states:
        for m in range(4):
            a, _ = move(s, m)
            if a != s:
                out[n] = canonical(a)
                n += 1
    return out[:n]


@njit(cache=True)
def spawns_of(afters: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The canonical states a spawned 2 and a spawned 4 make of each afterstate (repeats included)."""
    twos = np.empty(len(afters) * CELLS, np.int64)
    fours = np.empty(len(afters) * CELLS, np.int64)
    n = 0
    for a in afters:
        for i in range(CELLS):
            if (a >> (4 * i)) & 0xF == 0:
                twos[n] = canonical(a | (1 << (4 * i)))
                fours[n] = canonical(a | (2 << (4 * i)))
                n += 1
    return twos[:n], fours[:n]


@njit(cache=True)
def known_mask(afters: np.ndarray, offsets: np.ndarray, keys: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Which afterstates a solution file already holds."""
    out = np.zeros(len(afters), np.bool_)
    for i in range(len(afters)):
        out[i] = not np.isnan(lookup(offsets, keys, values, afters[i]))
    return out


@njit(cache=True)
def afterstate_values(afters: np.ndarray, k2: np.ndarray, v2: np.ndarray, k4: np.ndarray, v4: np.ndarray,
                      four: float) -> np.ndarray:
    """Each afterstate's value: the mean over its empty cells, and over a 2 (1 - four) or a 4 (four),
    of the value of the state the spawn makes (k2/v2: the layer 2 above, k4/v4: 4 above; NaN if a
    state is missing, which the caller treats as a defect)."""
    out = np.empty(len(afters))
    for i in range(len(afters)):
        a = afters[i]
        total = 0.0
        empty = 0
        for c in range(CELLS):
            if (a >> (4 * c)) & 0xF == 0:
                empty += 1
                j = find(k2, canonical(a | (1 << (4 * c))))
                total += (1.0 - four) * (v2[j] if j >= 0 else np.nan)
                j = find(k4, canonical(a | (2 << (4 * c))))
                total += four * (v4[j] if j >= 0 else np.nan)
        out[i] = total / empty
    return out


@njit(cache=True)
def state_values(states: np.ndarray, ak: np.ndarray, av: np.ndarray, offsets: np.ndarray, keys: np.ndarray,
                 values: np.ndarray) -> np.ndarray:
    """Each state's value: the best legal move's gain plus its afterstate's value (from this layer's
    afterstates ak/av, else from a solution file's arrays), 0 with no legal move."""
    out = np.empty(len(states))
    for i in range(len(states)):
        s = states[i]
        best = 0.0
        for m in range(4):
            a, gain = move(s, m)
            if a == s:
                continue
            c = canonical(a)
            j = find(ak, c)
            v = av[j] if j >= 0 else lookup(offsets, keys, values, c)
            if np.isnan(v):
                best = np.nan  # an afterstate neither here nor in the file: the caller's defect
                break
            best = max(best, gain + v)
        out[i] = best
    return out


@dataclass
class Layers:
    """A solve's result: per tile sum, the sorted canonical afterstates and their values, and what it
    counted (states and afterstates, canonical and as boards: every image of each counted once)."""

    afters: dict[int, np.ndarray]
    values: dict[int, np.ndarray]
    states: int = 0
    states_raw: int = 0
    afterstates: int = 0
    afterstates_raw: int = 0
    largest_tile: int = 0
    largest_layer: int = 0  # the most canonical states one tile sum held
    largest_sum: int = 0  # the largest tile sum a state reached


EMPTY_TABLE = (np.zeros(1, np.int64), np.zeros(0, np.uint32), np.zeros(0, np.float64))


def solve(starts: np.ndarray, four: float = 0.1, known: tuple[np.ndarray, np.ndarray, np.ndarray] = EMPTY_TABLE,
          progress: Progress | None = None, should_stop: Callable[[], bool] | None = None,
          limit: int | None = None, count: bool = True) -> Layers:
    """Every state reachable from `starts` (packed boards), and the value of every afterstate met on the
    way. Afterstates `known` holds (a solution file's offsets, keys, values) are not followed: their
    values come from it. Raises Cancelled when `should_stop()` says so (asked once per layer) and
    TooLarge past `limit` states. `progress(done, total)`: two units a layer enumerated (the slower
    half), one a layer solved."""
    starts = np.unique(np.array([canonical(int(b)) for b in starts], np.int64))
    pending: dict[int, list[np.ndarray]] = {}
    for b in starts:
        pending.setdefault(tile_sum(int(b)), []).append(np.array([b], np.int64))
    top = max(MAX_SUM, max(pending))
    state_layers: dict[int, np.ndarray] = {}
    out = Layers({}, {})
    held = 0
    first = min(pending)
    span = (top - first) // 2 + 1  # layers at most
    while pending:
        if should_stop is not None and should_stop():
            raise Cancelled
        s = min(pending)
        layer = np.unique(np.concatenate(pending.pop(s)))
        afters = np.unique(afterstates_of(layer))
        if len(afters) and known[1].size:
            afters = afters[~known_mask(afters, *known)]
        twos, fours = spawns_of(afters)
        if len(twos):
            pending.setdefault(s + 2, []).append(np.unique(twos))
            pending.setdefault(s + 4, []).append(np.unique(fours))
        state_layers[s] = layer
        out.afters[s] = afters
        held += len(layer) + len(afters)
        if limit is not None and held > limit:
            raise TooLarge(f"more than {limit} states and afterstates")
        if count:
            out.states += len(layer)
            out.afterstates += len(afters)
            out.states_raw += orbit_total(layer)
            out.afterstates_raw += orbit_total(afters)
            out.largest_layer = max(out.largest_layer, len(layer))
            out.largest_sum = s
            out.largest_tile = max(out.largest_tile, 1 << int(largest_exponent(layer)))
        if progress is not None:
            progress(2 * min((s - first) // 2 + 1, span), 3 * span)
    empty_k, empty_v = np.zeros(0, np.int64), np.zeros(0, np.float64)
    values: dict[int, np.ndarray] = {}
    sums = sorted(state_layers, reverse=True)
    for done, s in enumerate(sums):
        if should_stop is not None and should_stop():
            raise Cancelled
        afters = out.afters[s]
        k2, v2 = (state_layers[s + 2], values[s + 2]) if s + 2 in values else (empty_k, empty_v)
        k4, v4 = (state_layers[s + 4], values[s + 4]) if s + 4 in values else (empty_k, empty_v)
        av = afterstate_values(afters, k2, v2, k4, v4, four)
        if np.isnan(av).any():
            raise RuntimeError(f"tile sum {s}: an afterstate's spawn led to a state the enumeration missed")
        out.values[s] = av
        values[s] = state_values(state_layers[s], afters, av, *known)
        if np.isnan(values[s]).any():
            raise RuntimeError(f"tile sum {s}: a move led to an afterstate neither solved nor known")
        values.pop(s + 6, None)
        state_layers.pop(s + 6, None)
        if progress is not None:
            progress(2 * span + (done + 1) * span // len(sums), 3 * span)
    return out


def state_value(board: int, layers: Layers, known: tuple[np.ndarray, np.ndarray, np.ndarray] = EMPTY_TABLE) -> float:
    """A state's value from a solve's afterstates (or `known`): its best move's gain plus afterstate."""
    values = [gain + afterstate_value(canonical(a), layers, known) for a, gain in (move(board, m) for m in range(4))
              if a != board]
    if not values:
        return 0.0  # no legal move
    return np.nan if np.isnan(values).any() else float(max(values))


def afterstate_value(c: int, layers: Layers, known: tuple[np.ndarray, np.ndarray, np.ndarray] = EMPTY_TABLE) -> float:
    """A canonical afterstate's value from a solve (or `known`); NaN when neither holds it."""
    afters = layers.afters.get(tile_sum(c))
    if afters is not None:
        j = find(afters, c)
        if j >= 0:
            return float(layers.values[tile_sum(c)][j])
    return float(lookup(*known, c))
