"""Play's tables without waiting (screenbot.agent.table_supply, table_build): mapped in a thread, or
made by a low-priority job of its own; memory, disk, locks and failures each said in one line."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from argparse import Namespace

import pytest

from screenbot.agent import table_supply as S
from screenbot.agent.block_tables import BIG, BlockTables
from screenbot.agent.corner import CornerAgent
from screenbot.agent.table_build import read_progress, side_file, write_progress
from screenbot.errors import UsageError

from block_boards import CROWDED, _prefilled, _solved_some


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A made tables file (some states solved) and the same tables in numpy's zip file."""
    folder = tmp_path_factory.mktemp("made")
    tables = _solved_some()
    tables.save(folder / "corner.npz")
    tables.save(folder / "corner.tables")
    return folder / "corner.tables", folder / "corner.npz"


def _known_board(path):
    """A board the made tables at `path` answer without solving anything."""
    tables = BlockTables.load(path)
    for kind, rest in CROWDED:
        grid = _prefilled(kind, rest)
        if tables.suggest(grid, budget=0)[1] is not None:
            return grid
    raise AssertionError("no board the tables know")


@pytest.mark.slow
def test_a_made_file_is_taken_between_two_moves_once_mapped(made, tmp_path):
    grid = _known_board(made[0])
    supply = S.TableSupply(made[0], build=False).start()
    assert supply.job is None and supply.unavailable is None
    agent = CornerAgent(None, threads=1, later=supply)
    while not supply.ready:
        assert agent.tables_note() == "tables: loading"
        assert agent.choose(grid, depth=1).chance is None  # searched meanwhile: no move waits for them
    decision = agent.choose(grid, depth=1)
    assert decision.chance is not None and decision.depth == 0  # the tables' move
    assert agent.tables_note() is None and supply.poll() is None  # taken once, kept by the agent
    assert supply.still_making() is None


@pytest.mark.slow
def test_a_damaged_file_is_made_again_by_the_job_here_from_numpys_zip_file(made, tmp_path):
    path, npz = tmp_path / "corner.tables", tmp_path / "corner.npz"
    path.write_bytes(made[0].read_bytes()[:-4096])  # cut short
    npz.write_bytes(made[1].read_bytes())
    supply = S.TableSupply(path).start()  # its `.npz` twin beside it
    tables = supply.wait(timeout=300)
    assert supply.damaged is not None and "cut short" in supply.damaged
    assert supply.end_notes()[0].startswith("the corner tables file was refused (")
    assert tables is not None and tables.states_solved() == BlockTables.load(made[0]).states_solved()
    assert path.exists() and not npz.exists()  # converted by the real job, the zip file dropped
    assert read_progress(path)["stage"] == "done" and not side_file(path, ".lock").exists()


def test_too_little_memory_starts_nothing_and_play_says_which_player_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(S, "available_memory", lambda: 3 * S.GIB)
    monkeypatch.setattr(S, "start_job", lambda *a: pytest.fail("no job without the memory"))
    supply = S.TableSupply(tmp_path / "corner.tables").start()
    assert supply.unavailable.startswith("building the corner tables needs about 8 GB of free memory and 3.0 GB")
    assert supply.job is None and supply.wait() is None and supply.note() is None
    from screenbot.agent.search import ExpectimaxAgent
    from screenbot.commands.player_args import player_from_args

    agent = player_from_args(Namespace(player="corner-v4"), background=True, threads=1)
    assert type(agent) is ExpectimaxAgent  # plain, the strongest player without the tables
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "playing 'plain' instead" in err
    with pytest.raises(UsageError, match="try --player plain"):
        player_from_args(Namespace(player="corner-v4"), background=True, fall_back=False)


def test_too_little_disk_starts_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(S, "available_memory", lambda: 64 * S.GIB)
    monkeypatch.setattr(S, "free_disk", lambda folder: S.GIB)
    supply = S.TableSupply(tmp_path / "corner.tables").start()
    assert supply.unavailable.startswith("the corner tables need 3 GB on disk")


def test_a_job_already_making_the_file_is_watched_not_doubled(tmp_path, monkeypatch):
    path = tmp_path / "corner.tables"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        import psutil

        side_file(path, ".lock").write_text(
            f'{{"pid": {sleeper.pid}, "started": {psutil.Process(sleeper.pid).create_time()}}}')
        monkeypatch.setattr(S, "start_job", lambda *a: pytest.fail("one job at a time"))
        write_progress(path, stage="building", solved=40, total=100)
        supply = S.TableSupply(path).start()
        assert supply.job == sleeper.pid and supply.note() == "tables: building 40%"
        assert f"process {sleeper.pid}" in supply.still_making() and supply.end_notes() == [supply.still_making()]
        assert not S.BuildLock(path).take()
    finally:
        sleeper.kill()
        sleeper.wait()
    assert supply.poll() is None and supply.unavailable.startswith("the corner tables' build stopped without a file")
    assert S.BuildLock(path).take()  # its process gone: the lock is taken over


def test_a_job_that_fails_is_said_in_its_own_words(tmp_path, monkeypatch):
    monkeypatch.setattr(S, "available_memory", lambda: 64 * S.GIB)
    path = tmp_path / "corner.tables"
    fail = ("import sys; from pathlib import Path; from screenbot.agent.table_build import write_progress; "
            f"write_progress(Path({str(path)!r}), stage='failed', error='not enough memory to build'); sys.exit(1)")
    supply = S.TableSupply(path, command=[sys.executable, "-c", fail]).start()
    assert supply.job is not None
    assert supply.wait(timeout=60) is None and supply.unavailable == "not enough memory to build"
    assert supply.end_notes() == ["no corner tables this game (not enough memory to build): the corner search "
                                  "played alone"]


def test_the_job_runs_at_low_priority(tmp_path):
    code = ("import os, sys, psutil; from screenbot.agent.table_build import lower_priority; lower_priority(); "
            "print(psutil.Process().nice(), os.sched_getscheduler(0) if sys.platform.startswith('linux') else -1)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert int(out[0]) == (psutil_idle() if sys.platform == "win32" else 19)
    if sys.platform.startswith("linux"):
        assert int(out[1]) == os.SCHED_IDLE


def psutil_idle():
    import psutil

    return psutil.IDLE_PRIORITY_CLASS


def test_judges_and_hints_do_not_make_the_tables_and_say_who_answers(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(S, "start_job", lambda *a: pytest.fail("only play makes the tables"))
    from screenbot.commands.player_args import player_tables

    assert player_tables(Namespace(player="corner-v4")) == ("corner-eval", None)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'corner-eval' answers instead" in err
    with pytest.raises(UsageError, match="try --player corner-eval"):
        player_tables(Namespace(player="corner-v4"), fall_back=False)
    assert player_tables(Namespace(player="plain")) == ("plain", None)


@pytest.mark.slow
def test_judges_and_hints_wait_for_a_made_file(made, tmp_path, monkeypatch):
    from screenbot.agent.block_tables import default_table_path
    from screenbot.commands.player_args import player_tables

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    default_table_path().parent.mkdir(parents=True)
    os.symlink(made[0], default_table_path())
    name, tables = player_tables(Namespace(player="corner-v4"))
    assert name == "corner-v4" and tables.states_solved() == BlockTables.load(made[0]).states_solved()


@pytest.mark.parametrize("error,message", [(OSError(28, "No space left on device"), "No space left on device"),
                                           (MemoryError(), "not enough memory")])
def test_tables_that_cannot_be_built_or_kept_give_a_one_line_error(monkeypatch, tmp_path, error, message):
    from screenbot.agent import corner as C
    from screenbot.commands import corner_tables

    def fail(path=None, progress=None):
        raise error

    monkeypatch.setattr(C, "default_table_path", lambda: tmp_path / "corner.tables")
    monkeypatch.setattr(C, "load_or_build", fail)
    monkeypatch.setattr(S, "available_memory", lambda: None)
    with pytest.raises(UsageError, match=message):
        corner_tables.ensure_corner_tables()


def test_a_wait_for_the_tables_knows_what_each_needs(monkeypatch, tmp_path):
    from screenbot.commands import corner_tables

    path = tmp_path / "corner.tables"
    monkeypatch.setattr(S, "available_memory", lambda: 3 * S.GIB)
    assert corner_tables.memory_shortfall(path).startswith("building the corner tables needs about 8 GB")
    path.with_suffix(".npz").write_bytes(b"tables")
    assert corner_tables.memory_shortfall(path).startswith("converting the corner tables needs about 4 GB")
    path.write_bytes(b"tables")  # a made file is mapped: no memory of its own
    assert corner_tables.memory_shortfall(path) is None


def test_available_memory_and_disk_are_read_from_the_system(tmp_path):
    free = S.available_memory()
    assert free is not None and 0 < free < 1 << 50
    assert 0 < S.free_disk(tmp_path / "not" / "yet") < 1 << 60


def test_on_windows_the_job_starts_detached_in_its_own_group_at_the_idle_class(tmp_path, monkeypatch):
    """Windows' branch on Linux, with fakes: no POSIX session, its own process group, no console; the
    job asks for the idle priority class and nothing Linux-only."""
    import psutil

    from screenbot.agent import table_build

    started = {}

    class FakePopen:
        pid = 4242

        def __init__(self, command, **options):
            started.update(options, command=command)

    monkeypatch.setattr(S.sys, "platform", "win32")
    monkeypatch.setattr(S.subprocess, "Popen", FakePopen)
    monkeypatch.setattr(S.subprocess, "CREATE_NEW_PROCESS_GROUP", 0x200, raising=False)
    monkeypatch.setattr(S.subprocess, "DETACHED_PROCESS", 0x8, raising=False)
    job = S.start_job(["python", "-m", "screenbot.agent.table_build", "x"], tmp_path / "job.log")
    assert job.pid == 4242 and started["creationflags"] == 0x208 and "start_new_session" not in started

    asked = []

    class FakeProcess:
        def nice(self, value):
            asked.append(value)

    monkeypatch.setattr(table_build.sys, "platform", "win32")
    monkeypatch.setattr(psutil, "Process", FakeProcess)
    monkeypatch.setattr(psutil, "IDLE_PRIORITY_CLASS", 0x40, raising=False)
    monkeypatch.setattr(table_build.os, "sched_setscheduler", lambda *a: pytest.fail("Linux only"), raising=False)
    table_build.lower_priority()
    assert asked == [0x40]


@pytest.mark.parametrize("stage,waits", [("building", False), ("converting", True)])
def test_judges_and_hints_wait_for_another_command_s_conversion_but_not_its_build(tmp_path, stage, waits):
    path = tmp_path / "corner.tables"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        import psutil

        side_file(path, ".lock").write_text(
            f'{{"pid": {sleeper.pid}, "started": {psutil.Process(sleeper.pid).create_time()}}}')
        write_progress(path, stage=stage, solved=40, total=100)
        supply = S.TableSupply(path, build=False).start()
        if waits:
            assert supply.job == sleeper.pid and supply.unavailable is None
        else:
            assert supply.job is None and supply.wait(timeout=5) is None
            assert supply.unavailable == "the corner tables are being built in the background by another screenbot command"
    finally:
        sleeper.kill()
        sleeper.wait()


def test_judges_and_hints_leave_a_damaged_file_to_play_and_say_it_is_damaged(tmp_path):
    path = tmp_path / "corner.tables"
    path.write_bytes(b"not a tables file" * 100)
    supply = S.TableSupply(path, build=False).start()
    assert supply.wait(timeout=30) is None
    assert supply.unavailable.startswith(f"the corner tables at {path} are damaged")
    assert path.exists() and supply.job is None


def _statuses(process, seconds: float) -> list[str]:
    import time

    seen, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        seen.append(process.status())
        time.sleep(0.02)
    return seen


def test_while_a_game_is_played_the_job_s_worker_runs_a_share_of_each_cycle_and_is_never_left_suspended(tmp_path):
    import threading
    import time

    import psutil

    from screenbot.agent.table_build import PLAYING_SUFFIX, give_way

    path = tmp_path / "corner.tables"
    worker = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    process = psutil.Process(worker.pid)
    codes = []
    watch = threading.Thread(target=lambda: codes.append(give_way(worker, path, cycle=0.4, share=0.25)))
    try:
        watch.start()
        assert psutil.STATUS_STOPPED not in _statuses(process, 1.0)  # no game: it runs whole
        playing = side_file(path, PLAYING_SUFFIX)
        playing.touch()
        time.sleep(0.5)
        during = _statuses(process, 1.6)
        stopped = during.count(psutil.STATUS_STOPPED) / len(during)
        assert 0.45 < stopped < 0.95, stopped  # suspended about three quarters of the time
        os.utime(playing, (time.time() - 10, time.time() - 10))  # the game has ended
        time.sleep(0.5)
        assert psutil.STATUS_STOPPED not in _statuses(process, 1.0)
        playing.touch()
        time.sleep(0.5)
    finally:
        worker.kill()
        watch.join(10)
    assert codes == [worker.returncode] and codes[0] != 0


def test_the_player_tells_the_job_a_game_is_on_and_a_wait_does_not(tmp_path):
    import time

    from screenbot.agent.table_build import PLAYING_SUFFIX, game_on

    path = tmp_path / "corner.tables"
    with _a_job_holding(path):
        waiting = S.TableSupply(path).start()
        assert waiting.wait(timeout=0.3) is None and not game_on(path)
        playing = S.TableSupply(path).start()
        assert playing.poll() is None and game_on(path)
        assert not game_on(path, now=time.time() + 10)
        assert side_file(path, PLAYING_SUFFIX).exists()


@contextlib.contextmanager
def _a_job_holding(path):
    """A process that holds PATH's lock as a job making the tables would, for the time of the block."""
    import psutil

    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        side_file(path, ".lock").write_text(
            f'{{"pid": {sleeper.pid}, "started": {psutil.Process(sleeper.pid).create_time()}}}')
        yield
    finally:
        sleeper.kill()
        sleeper.wait()


def test_the_build_runs_a_share_while_the_game_is_young_and_whole_once_its_largest_tile_is_2048(tmp_path):
    import time

    from screenbot.agent.table_build import EARLY_RUN_SHARE, PLAYING_SUFFIX, run_share, say_playing

    path = tmp_path / "corner.tables"
    assert run_share(path) == 1.0  # no game
    say_playing(path, 1024)
    assert run_share(path) == EARLY_RUN_SHARE < 1
    say_playing(path, 2048)
    assert run_share(path) == 1.0
    say_playing(path, None)  # a game whose tiles are not known: nothing held back
    assert run_share(path) == 1.0
    say_playing(path, 64)
    assert run_share(path, now=time.time() + 10) == 1.0  # the game has ended
    side_file(path, PLAYING_SUFFIX).write_text("garbage")
    assert run_share(path) == 1.0


def test_the_corner_player_tells_the_job_the_largest_tile_of_the_board_it_decides_on(tmp_path):
    from screenbot.agent.table_build import EARLY_RUN_SHARE, PLAYING_SUFFIX, run_share

    path = tmp_path / "corner.tables"
    with _a_job_holding(path):
        agent = CornerAgent(later=S.TableSupply(path).start())
        assert agent.table_decision(((2, 4, 0, 0), (0, 512, 0, 0), (0, 0, 0, 0), (0, 0, 0, 2))) is None
        assert side_file(path, PLAYING_SUFFIX).read_text() == "512"
        assert run_share(path) == EARLY_RUN_SHARE


def test_a_worker_left_by_a_job_killed_outright_is_ended_by_the_next_job(tmp_path):
    from screenbot.agent.table_build import end_orphans

    path = tmp_path / "corner.tables"
    other = tmp_path / "other.tables"
    orphan = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "screenbot.agent.table_build",
                               "--work", str(path)])
    bystander = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "screenbot.agent.table_build",
                                  "--work", str(other)])
    try:
        import time

        time.sleep(0.3)
        end_orphans(path)
        assert orphan.wait(timeout=10) != 0
        assert bystander.poll() is None  # another file's worker is left alone
    finally:
        for p in (orphan, bystander):
            if p.poll() is None:
                p.kill()
            p.wait()
