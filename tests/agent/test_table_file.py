"""The block tables' mapped file (screenbot.agent.table_file): round trip, and every way it can be bad."""

from __future__ import annotations

import json

import pytest

from screenbot.agent import block_tables as T
from screenbot.agent import table_file
from screenbot.agent.block_tables import BIG, BlockTables

from block_boards import CROWDED, _prefilled, _solved_some


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """Tables with some states solved, kept in a mapped file (made once: 0.8 GB, mostly zeros)."""
    tables = _solved_some()
    path = tmp_path_factory.mktemp("tables") / "corner.tables"
    size = tables.save(path)
    return tables, path, size


@pytest.mark.slow
def test_the_mapped_file_gives_back_every_answer_read_only(saved):
    tables, path, size = saved
    assert path.stat().st_size == size and size % table_file.ALIGN == 0
    loaded = BlockTables.load(path)
    assert loaded.states_solved() == tables.states_solved() > 0
    answers = [(loaded.suggest(g, budget=0), tables.suggest(g, budget=0)) for g in (_prefilled(k, r) for k, r in CROWDED)]
    assert all(mine == theirs for mine, theirs in answers)
    assert sum(mine[1] is not None for mine, _ in answers) >= 3  # answered from the file, nothing solved
    for table in loaded.tables.values():
        assert not table.bits.flags.writeable and not table.entries.flags.writeable
    # a board the file does not know is solved on top (the overlay), the file untouched
    grid = _prefilled(BIG, CROWDED[0][1])
    fresh = BlockTables.empty_compact()
    assert loaded.suggest(grid) == fresh.suggest(grid)


@pytest.mark.slow
def test_a_file_cut_short_damaged_foreign_or_of_other_rules_is_refused(saved, tmp_path):
    _, path, _ = saved
    data = path.read_bytes()
    cut = tmp_path / "cut.tables"
    cut.write_bytes(data[: len(data) - table_file.ALIGN])
    with pytest.raises(T.TableError, match="cut short"):
        BlockTables.load(cut)
    meta = json.loads(data[: table_file.META_BYTES].rstrip(b"\0"))
    entries = next(a for a in meta["arrays"] if a["part"] == "entries" and a["count"])
    damaged = bytearray(data)
    damaged[entries["offset"]] ^= 0x01  # one bit of one solved state's entry
    bad = tmp_path / "damaged.tables"
    bad.write_bytes(bytes(damaged))
    with pytest.raises(T.TableError, match="checksum"):
        BlockTables.load(bad)
    assert BlockTables.load(bad, verify=False).states_solved() == saved[0].states_solved()  # unchecked: read as is
    # a checked file (its stamp beside it) is not read again, until it changes
    kept = tmp_path / "kept.tables"
    kept.write_bytes(data)
    BlockTables.load(kept)
    assert json.loads((tmp_path / "kept.tables.checked").read_text())["bytes"] == len(data)
    with open(kept, "r+b") as f:
        f.seek(entries["offset"])
        f.write(bytes([data[entries["offset"]] ^ 0x01]))
    with pytest.raises(T.TableError, match="checksum"):
        BlockTables.load(kept)
    foreign = tmp_path / "foreign.tables"
    foreign.write_bytes(b"\x89PNG" + bytes(100))
    with pytest.raises(T.TableError, match="not a readable"):
        BlockTables.load(foreign)
    with pytest.raises(T.TableError, match="other block tables"):
        BlockTables.load(path, version=T.TABLE_VERSION + 1)
