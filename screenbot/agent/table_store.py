"""Where a block table's solved states live, and the file they are kept in (block_tables.py solves them).

A table's entry for key k: 0 while unsolved, else 1 + move + 4 * q (the chance is q / Q). Two layouts,
one solve:
 - dense (solving many states: the build, bench): one uint16 per key, 2.4 GB and 4.2 GB of address
   space, touched page by page as states are solved (one whole game touches nearly all of it);
 - compact (after a build or a load: what play keeps): a bitmap of the solved keys, the count of
   solved keys before every RANK_WORDS words of it, and the solved entries in key order (2 bytes per
   solved state, 654 M of them: 1.8 GB with the bitmap instead of 6.6 GB), plus a small open-addressing
   hash of the states solved since (the overlay), grown between solves.
A layout is the tuple (dense, bits, ranks, entries, okeys, ovals); the unused arrays are empty. The
file (`save` / `load`) keeps, per table, the bitmap's blocks that hold any solved key and the entries,
under a header that names the tables' rules and a checksum.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np
from numba import njit


from screenbot.errors import TableError  # noqa: F401 (raised here, re-exported)


RANK_WORDS = 8  # bitmap words (64 keys each) per rank count
_EMPTY_KEY = -1
_HASH = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, inline="always")
def _slot(k, size):
    """Where key k's probe starts in an overlay of `size` slots (a power of two up to 2**32)."""
    return np.int64((np.uint64(k) * _HASH) >> np.uint64(32)) & (size - 1)


@njit(cache=True)
def _rank_before(k, bits, ranks):
    """How many keys below k the bitmap holds."""
    w = k >> 6
    r = ranks[w // RANK_WORDS]
    for j in range(w - w % RANK_WORDS, w):
        r += _popcount(bits[j])
    return r + _popcount(bits[w] & ((np.uint64(1) << np.uint64(k & 63)) - np.uint64(1)))


@njit(cache=True)
def get_entry(k, dense, bits, ranks, entries, okeys, ovals):
    if dense.size:
        return dense[k]
    if (bits[k >> 6] >> np.uint64(k & 63)) & np.uint64(1):
        return entries[_rank_before(k, bits, ranks)]
    size = okeys.size
    if size == 0:
        return np.uint16(0)
    s = _slot(k, size)
    while okeys[s] != _EMPTY_KEY:
        if okeys[s] == k:
            return ovals[s]
        s = (s + 1) & (size - 1)
    return np.uint16(0)


@njit(cache=True)
def put_entry(k, e, dense, okeys, ovals):
    if dense.size:
        dense[k] = e
        return
    size = okeys.size
    s = _slot(k, size)
    while okeys[s] != _EMPTY_KEY and okeys[s] != k:
        s = (s + 1) & (size - 1)
    okeys[s] = k
    ovals[s] = e


@njit(cache=True)
def _count_solved(dense):
    n = 0
    for v in dense:
        if v != 0:
            n += 1
    return n


@njit(cache=True)
def _compact(dense, bits, entries):
    """Fill the bitmap and the entries (in key order) from a dense table."""
    c = 0
    for w in range(bits.size):
        word = np.uint64(0)
        base = w * 64
        for j in range(64):
            v = dense[base + j]
            if v != 0:
                word |= np.uint64(1) << np.uint64(j)
                entries[c] = v
                c += 1
        bits[w] = word


@njit(cache=True)
def _rank_counts(bits):
    ranks = np.empty(-(-bits.size // RANK_WORDS), np.int64)
    c = 0
    for w in range(bits.size):
        if w % RANK_WORDS == 0:
            ranks[w // RANK_WORDS] = c
        c += _popcount(bits[w])
    return ranks, c


@njit(cache=True)
def _rehash(okeys, ovals, new_keys, new_vals):
    no_dense = np.zeros(0, np.uint16)
    for s in range(okeys.size):
        if okeys[s] != _EMPTY_KEY:
            put_entry(okeys[s], ovals[s], no_dense, new_keys, new_vals)


@njit(cache=True)
def _merge_positions(keys, bits, ranks):
    """For sorted keys not in the bitmap: where each goes among the entries; the bitmap gets them."""
    at = np.empty(keys.size, np.int64)
    for i in range(keys.size):
        at[i] = _rank_before(keys[i], bits, ranks)
    for k in keys:
        bits[k >> 6] |= np.uint64(1) << np.uint64(k & 63)
    return at


class SolvedStates:
    """One table's solved states over `keys` keys, dense or compact (see above); `kind` names the table."""

    MIN_OVERLAY = 1 << 16

    def __init__(self, kind: int, keys: int) -> None:
        self.kind, self.keys = kind, keys
        self.dense = np.zeros(keys, np.uint16)
        self.bits = np.zeros(0, np.uint64)
        self.ranks = np.zeros(0, np.int64)
        self.entries = np.zeros(0, np.uint16)
        self._empty_overlay()

    def _empty_overlay(self) -> None:
        self.okeys = np.zeros(0, np.int64)
        self.ovals = np.zeros(0, np.uint16)
        self.overlaid = 0

    @classmethod
    def _compact_over(cls, kind: int, bits: np.ndarray, ranks: np.ndarray, entries: np.ndarray) -> SolvedStates:
        """The compact layout over these arrays (checked by the caller), its overlay empty."""
        table = cls.__new__(cls)
        table.kind, table.keys = kind, bits.size * 64
        table.dense = np.zeros(0, np.uint16)
        table.bits, table.ranks, table.entries = bits, ranks, entries
        table._empty_overlay()
        return table

    @classmethod
    def compact_from(cls, kind: int, bits: np.ndarray, entries: np.ndarray) -> SolvedStates:
        ranks, count = _rank_counts(bits)
        if count != len(entries):
            raise TableError("the solved states bitmap and the entries disagree")
        return cls._compact_over(kind, bits, ranks, entries)

    @classmethod
    def mapped(cls, kind: int, bits: np.ndarray, ranks: np.ndarray, entries: np.ndarray) -> SolvedStates:
        """The compact layout over arrays kept elsewhere (a mapped file: table_file.py), read-only; the
        rank counts are checked at their ends only (the file's checksum vouches for the rest)."""
        if ranks.size != -(-bits.size // RANK_WORDS) or (
                ranks.size and ranks[-1] + sum(_popcount(w) for w in bits[(ranks.size - 1) * RANK_WORDS:])
                != entries.size):
            raise TableError("the solved states bitmap and the entries disagree")
        return cls._compact_over(kind, bits, ranks, entries)

    @classmethod
    def empty_compact(cls, kind: int, keys: int) -> SolvedStates:
        return cls.compact_from(kind, np.zeros(keys // 64, np.uint64), np.zeros(0, np.uint16))

    @property
    def is_dense(self) -> bool:
        return self.dense.size > 0

    def layout(self) -> tuple[np.ndarray, ...]:
        return self.dense, self.bits, self.ranks, self.entries, self.okeys, self.ovals

    def room(self) -> float:
        """How many states a solve may store before the overlay must grow (unbounded when dense)."""
        return np.inf if self.is_dense else self.okeys.size // 2 - self.overlaid

    def grow(self, at_least: float) -> None:
        size = max(self.MIN_OVERLAY, self.okeys.size)
        while size // 2 - self.overlaid < at_least:
            size *= 2
        if size == self.okeys.size:
            return
        keys, vals = np.full(size, _EMPTY_KEY, np.int64), np.zeros(size, np.uint16)
        _rehash(self.okeys, self.ovals, keys, vals)
        self.okeys, self.ovals = keys, vals

    def solved(self) -> int:
        return _count_solved(self.dense) if self.is_dense else len(self.entries) + self.overlaid

    def compacted(self) -> SolvedStates:
        """The compact layout of a dense table, or of a compact one with its overlay merged in."""
        if self.is_dense:
            bits = np.zeros(self.keys // 64, np.uint64)
            entries = np.zeros(_count_solved(self.dense), np.uint16)
            _compact(self.dense, bits, entries)
            return SolvedStates.compact_from(self.kind, bits, entries)
        if not self.overlaid:
            return self
        used = self.okeys != _EMPTY_KEY
        order = np.argsort(self.okeys[used])
        keys, vals = self.okeys[used][order], self.ovals[used][order]
        bits = self.bits.copy()
        at = _merge_positions(keys, bits, self.ranks)
        return SolvedStates.compact_from(self.kind, bits, np.insert(self.entries, at, vals))


# ---- the file ------------------------------------------------------------------------------------
CHUNK = 1 << 16  # a table's key count is a multiple of this (the callers round it up)
FILE_BLOCK_WORDS = CHUNK // 64  # a file keeps the bitmap's blocks of this many words that hold any solved key


def _digest(header: bytes, arrays: dict[str, np.ndarray]) -> str:
    h = hashlib.sha256(header)
    for name in sorted(arrays):
        h.update(name.encode())
        h.update(memoryview(np.ascontiguousarray(arrays[name])).cast("B"))
    return h.hexdigest()


def save(path: Path, header: bytes, tables: dict[int, SolvedStates]) -> int:
    """Write the tables' solved states to `path` (whole or not at all; a compact table's overlay is
    merged in for good); returns the file's size in bytes. Per table: the numbers of the bitmap's
    blocks of FILE_BLOCK_WORDS words that hold any solved key, those blocks, and the entries in key order."""
    arrays = {}
    for kind in sorted(tables):
        table = tables[kind].compacted()
        if not tables[kind].is_dense:
            tables[kind] = table
        words = table.bits.reshape(-1, FILE_BLOCK_WORDS)
        blocks = np.flatnonzero(words.any(axis=1))
        arrays[f"blocks_{kind}"] = blocks.astype(np.int64)
        arrays[f"solved_{kind}"] = words[blocks].reshape(-1)
        arrays[f"entries_{kind}"] = table.entries
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            np.savez(f, header=np.frombuffer(header, np.uint8),
                     checksum=np.frombuffer(_digest(header, arrays).encode(), np.uint8), **arrays)
        os.replace(tmp, path)  # also with two processes saving at once
    finally:
        tmp.unlink(missing_ok=True)
    return path.stat().st_size


def load(path: Path, header: bytes, keys: dict[int, int]) -> dict[int, SolvedStates]:
    """The tables in `path` (`keys`: each kind's key count), compact; TableError when the file was
    written for other tables, is damaged or is not such a file."""
    arrays = {}
    try:
        with np.load(path, allow_pickle=False) as data:
            if bytes(data["header"]) != header:
                raise TableError(f"{path} holds other block tables (another version)")
            stored = bytes(data["checksum"]).decode()
            for kind in keys:
                blocks, words, entries = (data[f"{name}_{kind}"] for name in ("blocks", "solved", "entries"))
                count = keys[kind] // 64 // FILE_BLOCK_WORDS
                if (blocks.dtype != np.int64 or words.dtype != np.uint64 or entries.dtype != np.uint16
                        or blocks.ndim != 1 or words.shape != (len(blocks) * FILE_BLOCK_WORDS,) or entries.ndim != 1
                        or np.any(blocks < 0) or np.any(blocks >= count) or np.any(np.diff(blocks) <= 0)):
                    raise TableError(f"{path} has a table of the wrong shape")
                arrays[f"blocks_{kind}"], arrays[f"solved_{kind}"], arrays[f"entries_{kind}"] = blocks, words, entries
    except TableError:
        raise
    except Exception as exc:  # a truncated or foreign file: zipfile, KeyError, ValueError ...
        raise TableError(f"{path} is not a readable block table file ({type(exc).__name__})") from None
    if _digest(header, arrays) != stored:
        raise TableError(f"{path} is corrupt (checksum mismatch)")
    tables = {}
    for kind in keys:
        bits = np.zeros((keys[kind] // 64 // FILE_BLOCK_WORDS, FILE_BLOCK_WORDS), np.uint64)
        bits[arrays[f"blocks_{kind}"]] = arrays[f"solved_{kind}"].reshape(-1, FILE_BLOCK_WORDS)
        entries = arrays[f"entries_{kind}"]
        try:
            tables[kind] = SolvedStates.compact_from(kind, bits.reshape(-1), entries)
        except TableError as exc:
            raise TableError(f"{path} has a table of the wrong shape ({exc})") from None
        if len(entries) and not np.all(entries):
            raise TableError(f"{path} has a table of the wrong shape (an empty entry)")
    return tables
