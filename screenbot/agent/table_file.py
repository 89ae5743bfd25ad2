"""The block tables' file as play reads it: mapped into memory read-only, never copied.

A table's compact layout (table_store.py: the bitmap of solved keys, the rank counts and the entries)
lies in the file as it lies in memory, so a load maps the file and the OS keeps its pages as it keeps
any file's: shared by every process that maps it (bench's workers, two games at once), read again from
disk when memory is short, never counted as a process's own (anonymous) memory. Only the states a game
solves on top (the overlay) are the process's own.

The file: a META_BYTES block of JSON (the tables' rules, each array's name, type, place and length, and
a SHA-256 over the rules and every array), then the arrays, each at a multiple of ALIGN. It is written
whole or not at all (a temporary file renamed over it). `load` checks the rules, the length and
(unless told not to) the checksum, once per file (a stamp beside it): a file cut short or damaged is a
TableError, never a crash.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import time
from pathlib import Path

import numpy as np

from screenbot.agent.table_store import SolvedStates
from screenbot.errors import TableError

MAGIC = "screenbot block tables, mapped"
META_BYTES = 1 << 16
ALIGN = 1 << 12  # a page: every array starts on one
_PARTS = ("bits", "ranks", "entries")
_DTYPES = {"bits": np.uint64, "ranks": np.int64, "entries": np.uint16}
_HASH_STEP = 1 << 26  # bytes hashed at a time


def _hash_update(h, array: np.ndarray) -> None:
    view = memoryview(np.ascontiguousarray(array)).cast("B")
    for start in range(0, len(view), _HASH_STEP):
        h.update(view[start:start + _HASH_STEP])


def _write_sparse(f, offset: int, array: np.ndarray) -> None:
    """`array` at `offset`, its runs of zeros left unwritten (holes: a file with few solved states
    takes little disk)."""
    view = memoryview(array).cast("B")
    for start in range(0, len(view), _HASH_STEP):
        chunk = view[start:start + _HASH_STEP]
        if np.frombuffer(chunk, np.uint8).any():
            f.seek(offset + start)
            f.write(chunk)


def save(path: Path, header: bytes, tables: dict[int, SolvedStates]) -> int:
    """Write the tables' compact layouts (each overlay merged in) to `path`; returns its size in bytes."""
    compact = {kind: tables[kind].compacted() for kind in sorted(tables)}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    digest = hashlib.sha256(header)
    arrays, offset = [], META_BYTES
    try:
        with open(tmp, "wb") as f:
            f.write(b"\0" * META_BYTES)
            for kind, table in compact.items():
                for part in _PARTS:
                    array = np.ascontiguousarray(getattr(table, part), _DTYPES[part])
                    _write_sparse(f, offset, array)
                    _hash_update(digest, array)
                    arrays.append(dict(kind=kind, part=part, offset=offset, count=int(array.size)))
                    offset = -(-(offset + array.nbytes) // ALIGN) * ALIGN
            f.truncate(offset)
            meta = json.dumps(dict(magic=MAGIC, header=header.decode(), arrays=arrays,
                                   sha256=digest.hexdigest(), bytes=offset)).encode()
            if len(meta) >= META_BYTES:
                raise ValueError("too many tables for the file's head")
            f.seek(0)
            f.write(meta)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)  # also with two processes saving at once
    finally:
        tmp.unlink(missing_ok=True)
    stamp(path, digest.hexdigest())
    return offset


def _stamp_path(path: Path) -> Path:
    return path.with_name(path.name + ".checked")


def stamp(path: Path, sha256: str, min_age_s: float = 0.0) -> None:
    """Note beside the file that its checksum held for the file as it is now (its size and time); only
    for a file unchanged for `min_age_s` (a file's time comes from a coarse clock: a write just after the
    stamp could leave the time it noted; such a file is checked again at its next load)."""
    st = path.stat()
    if time.time_ns() - st.st_mtime_ns < min_age_s * 1e9:
        return
    try:
        _stamp_path(path).write_text(json.dumps(dict(bytes=st.st_size, mtime_ns=st.st_mtime_ns, sha256=sha256)))
    except OSError:
        pass  # checked again at the next load


def was_checked(path: Path, sha256: str) -> bool:
    """Whether the file's checksum held for it as it is now (the same size and time since)."""
    try:
        stamp = json.loads(_stamp_path(path).read_text())
        st = path.stat()
        return (stamp["bytes"], stamp["mtime_ns"], stamp["sha256"]) == (st.st_size, st.st_mtime_ns, sha256)
    except (OSError, ValueError, KeyError, TypeError):
        return False


def read_meta(path: Path, header: bytes) -> dict:
    """The file's head, checked against the tables' rules and the file's length."""
    try:
        with open(path, "rb") as f:
            raw = f.read(META_BYTES)
            size = os.fstat(f.fileno()).st_size
        meta = json.loads(raw.rstrip(b"\0").decode())
        if meta.get("magic") != MAGIC:
            raise ValueError("not a table file")
    except (OSError, ValueError, UnicodeDecodeError, AttributeError) as exc:
        raise TableError(f"{path} is not a readable block table file ({type(exc).__name__})") from None
    if meta["header"].encode() != header:
        raise TableError(f"{path} holds other block tables (another version)")
    if size != meta["bytes"]:
        raise TableError(f"{path} is cut short ({size} of {meta['bytes']} bytes)")
    return meta


def load(path: Path, header: bytes, keys: dict[int, int], verify: bool = True) -> dict[int, SolvedStates]:
    """The tables of `keys` (each kind's key count) in `path`, mapped read-only; TableError when the file
    is for other tables, cut short, damaged (its checksum, when `verify`) or not such a file. The checksum
    is read once per file: a stamp beside it keeps its size and time when it held (written by `save` and
    by the first check), and a file of the same size and time is not read again (in seconds: at once)."""
    meta = read_meta(path, header)
    verify = verify and not was_checked(path, meta["sha256"])
    with open(path, "rb") as f:
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    found: dict[int, dict[str, np.ndarray]] = {}
    digest = hashlib.sha256(header)
    try:
        for a in meta["arrays"]:
            dtype = np.dtype(_DTYPES[a["part"]])
            array = np.frombuffer(mapped, dtype, a["count"], a["offset"])
            if verify:
                _hash_update(digest, array)
            found.setdefault(int(a["kind"]), {})[a["part"]] = array
    except (KeyError, ValueError, TypeError) as exc:
        raise TableError(f"{path} has a table of the wrong shape ({type(exc).__name__})") from None
    if verify:
        if digest.hexdigest() != meta["sha256"]:
            raise TableError(f"{path} is corrupt (checksum mismatch)")
        stamp(path, meta["sha256"])
    tables = {}
    for kind, count in keys.items():
        parts = found.get(kind)
        if parts is None or set(parts) != set(_PARTS) or parts["bits"].size * 64 != count:
            raise TableError(f"{path} has a table of the wrong shape (table {kind})")
        try:
            tables[kind] = SolvedStates.mapped(kind, parts["bits"], parts["ranks"], parts["entries"])
        except TableError as exc:
            raise TableError(f"{path} has a table of the wrong shape ({exc})") from None
    return tables
