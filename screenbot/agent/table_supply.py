"""Play's block tables as they become ready, without ever making a game wait for them.

`TableSupply.start()` returns at once. When the tables file is there, a thread maps it and checks its
checksum (a few seconds); when it is not (or is damaged), a low-priority process of its own makes it
(table_build.py: converted from numpy's zip file in seconds, or built in about 11 minutes, four times
that while a game is played), which a later play finds done. Meanwhile the player searches with the corner evaluation alone, and takes the
tables between two moves (`poll`) once ready (they first answer a few hundred moves into a game, once a
128 to 1024 is on the board: docs/agent.md). `note()` says where they are, for a status line.

A build needs about 8 GB of free memory and 3 GB of disk; without them, or in a cache dir that cannot
be written, `unavailable` says why in one line and nothing is started.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from screenbot.agent.table_build import LOCK_SUFFIX, LOG_SUFFIX, read_progress, say_playing, side_file

GIB = 2**30
BUILD_MEMORY = 8 * GIB  # a build's peak: BIG and SMALL dense (6.6 GB) until each is compacted in turn, then PAIR
CONVERT_MEMORY = 4 * GIB  # reading numpy's zip file whole (3.5 GB at the peak) to write the mapped one
# The job is looked at (its progress file for the status line, after every move; its process for the
# player, at every decision) at most this often: it runs for minutes.
LOOK_EVERY_S = 1.0
FILE_DISK = 3 * GIB  # the mapped file (2.85 GB) and a little room


def available_memory() -> int | None:
    """Bytes of memory the system can give without swapping, or None when unknown (psutil: every OS)."""
    try:
        import psutil

        return int(psutil.virtual_memory().available)
    except Exception:  # noqa: BLE001 - an OS psutil cannot read: unknown, not an error
        return None


def free_disk(folder: Path) -> int | None:
    """Bytes free on the disk of `folder` (or of its nearest existing parent), or None when unknown."""
    for place in (folder, *folder.parents):
        if place.exists():
            try:
                return shutil.disk_usage(place).free
            except OSError:
                return None
    return None


def build_shortfall(path: Path) -> str | None:
    """Why the tables file at `path` cannot be made now for lack of memory or disk (a phrase), or None:
    converted from numpy's zip file beside it when there is one, else built."""
    what, need = ("converting", CONVERT_MEMORY) if path.with_suffix(".npz").exists() else ("building", BUILD_MEMORY)
    free = available_memory()
    if free is not None and free < need:
        return (f"{what} the corner tables needs about {need / GIB:.0f} GB of free memory and "
                f"{free / GIB:.1f} GB is free")
    disk = free_disk(path.parent)
    if disk is not None and disk < FILE_DISK:
        return (f"the corner tables need {FILE_DISK / GIB:.0f} GB on disk at {path.parent} and "
                f"{disk / GIB:.1f} GB is free")
    return None


class BuildLock:
    """Who is making the tables file: a lock file beside it naming the process (pid and start time), taken
    by creating it; one whose process is gone is taken over."""

    def __init__(self, path: Path) -> None:
        self.file = side_file(path, LOCK_SUFFIX)
        self.held = False

    def holder(self) -> int | None:
        """The pid of the live process holding the lock, or None."""
        import psutil

        try:
            owner = json.loads(self.file.read_text())
            process = psutil.Process(int(owner["pid"]))
            if abs(process.create_time() - float(owner["started"])) < 1.0:
                return process.pid
        except (OSError, ValueError, KeyError, TypeError, psutil.Error):
            pass
        return None

    def take(self) -> bool:
        import psutil

        self.file.parent.mkdir(parents=True, exist_ok=True)
        me = json.dumps(dict(pid=os.getpid(), started=psutil.Process().create_time()))
        for _ in range(2):
            try:
                fd = os.open(self.file, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                if self.holder() is not None:
                    return False
                self.file.unlink(missing_ok=True)  # its process is gone: taken over
                continue
            with os.fdopen(fd, "w") as f:
                f.write(me)
            self.held = True
            return True
        return False

    def release(self) -> None:
        if self.held:
            self.file.unlink(missing_ok=True)
            self.held = False


def job_command(path: Path) -> list[str]:
    return [sys.executable, "-m", "screenbot.agent.table_build", str(path)]


def start_job(command: list[str], log: Path) -> subprocess.Popen:
    """Start `command` as a process of its own (not in this terminal's group, so a Ctrl-C here leaves it
    running); its output goes to `log`."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "ab") as out:
        options: dict = dict(stdin=subprocess.DEVNULL, stdout=out, stderr=out, close_fds=True)
        if sys.platform == "win32":
            options["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP | subprocess.DETACHED_PROCESS
        else:
            options["start_new_session"] = True
        return subprocess.Popen(command, **options)


class TableSupply:
    """The tables at `path` for one command: loaded in a thread, or made by a job, never waited for
    unless asked (`wait`); numpy's zip file of the same tables beside it (`.npz`) is converted.
    `build`: whether a missing file may be made (a job is started); `command`: the job's command line
    (tests give their own)."""

    def __init__(self, path: Path | None = None, build: bool = True, command: list[str] | None = None) -> None:
        from screenbot.agent.block_tables import default_table_path

        self.path = default_table_path() if path is None else path
        self.build = build
        self.command = command or job_command(self.path)
        self._lock = threading.Lock()
        self._tables = None
        self._taken = False
        self._loading = False
        self.job: int | None = None  # the pid of the job making the file (ours or another command's)
        self._popen: subprocess.Popen | None = None  # the job, when this supply started it
        self.unavailable: str | None = None  # why the tables will not come, in one line
        self.damaged: str | None = None  # the file found damaged (and set to be made again), in words
        self.load_seconds: float | None = None
        self._progress_read: tuple[float, dict] = (-LOOK_EVERY_S, {})  # (when, what) the progress file said
        self._job_looked = -LOOK_EVERY_S  # when poll last looked whether the job ended
        self._playing_said = -LOOK_EVERY_S  # when poll last told the job a game is on
        self._started = False

    # ---------------------------------------------------------------- state
    def start(self) -> TableSupply:
        """Begin: map the file in a thread, or start (or find) the job making it. Returns at once."""
        with self._lock:
            if self._started:
                return self
            self._started = True
        if self.path.exists() and BuildLock(self.path).holder() is None:
            self._load_in_thread()
        else:
            self._make()
        return self

    def _load_in_thread(self) -> None:
        self._loading = True
        threading.Thread(target=self._load, name="table-load", daemon=True).start()

    def _load(self) -> None:
        from screenbot.agent.block_tables import BlockTables, TableError

        start = time.monotonic()
        try:
            tables = BlockTables.load(self.path)
        except TableError as exc:
            self.damaged = str(exc)
            if not self.build:  # a judge or a hint leaves it to play, which makes it again
                self.unavailable = f"the corner tables at {self.path} are damaged ({exc}): screenbot play makes them again"
                self._loading = False
                return
            try:
                self.path.unlink()
            except OSError:
                pass
            self._loading = False
            self._make()
            return
        except (OSError, MemoryError) as exc:
            self.unavailable = f"the corner tables at {self.path} cannot be read ({type(exc).__name__})"
            self._loading = False
            return
        with self._lock:
            self._tables = tables
            self.load_seconds = time.monotonic() - start
            self._loading = False

    def _make(self) -> None:
        """Find the job making the file, or start one when allowed and there is room."""
        holder = BuildLock(self.path).holder()
        if holder is not None and not self.build and read_progress(self.path).get("stage") != "converting":
            # a judge or a hint does not wait out another command's build (minutes); a conversion is seconds
            self.unavailable = "the corner tables are being built in the background by another screenbot command"
            return
        if holder is not None:
            self.job = holder
            return
        if not self.build:
            self.unavailable = "the corner tables are not built yet (screenbot play builds them in the background)"
            return
        short = build_shortfall(self.path)
        if short is not None:
            self.unavailable = short
            return
        try:
            self._popen = start_job(self.command, side_file(self.path, LOG_SUFFIX))
            self.job = self._popen.pid
        except OSError as exc:
            self.unavailable = f"cannot start the corner tables' build: {exc.strerror or exc}"

    def _job_ended(self) -> bool:
        import psutil

        if self.job is None:
            return False
        if self._popen is not None:  # ours: reaped here
            return self._popen.poll() is not None
        try:
            return psutil.Process(self.job).status() == psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return True

    def _check_job(self) -> None:
        """A job that ended: its file is loaded, or its reason kept."""
        if not self._job_ended():
            return
        self.job = self._popen = None
        if self.path.exists():
            self._load_in_thread()
        else:
            error = read_progress(self.path).get("error")
            log = side_file(self.path, LOG_SUFFIX)
            self.unavailable = error or f"the corner tables' build stopped without a file (its log: {log})"

    # ---------------------------------------------------------------- asked by the player
    def poll(self, playing: bool = True, largest: int | None = None):
        """The tables, the first time they are asked for once ready (None before, and after: the player
        keeps them). A job making them is looked at once every LOOK_EVERY_S at most (the player asks at
        every decision), and told that a game is on (`playing`), with its largest tile when known: the
        job then gives way to it as far as the game allows (table_build.run_share)."""
        with self._lock:
            if self._tables is not None and not self._taken:
                self._taken = True
                return self._tables
        if playing and self.job is not None and time.monotonic() - self._playing_said >= LOOK_EVERY_S:
            self._playing_said = time.monotonic()
            try:
                say_playing(self.path, largest)
            except OSError:
                pass  # a cache dir gone read-only: the job runs on at its own pace
        if self.job is not None and not self._loading and time.monotonic() - self._job_looked >= LOOK_EVERY_S:
            self._job_looked = time.monotonic()
            self._check_job()
        return None

    def wait(self, timeout: float | None = None):
        """The tables, waiting for them (at most `timeout` seconds); None when they will not come."""
        self.start()
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            tables = self.poll(playing=False)  # nothing is played while waiting: the job runs whole
            if tables is not None:
                return tables
            if self.unavailable is not None or (end is not None and time.monotonic() >= end):
                return None
            time.sleep(0.1)

    @property
    def ready(self) -> bool:
        return self._tables is not None

    def note(self) -> str | None:
        """Where the tables are, in a few words (None once taken, or when they will not come)."""
        stage = self._stage()
        return None if stage is None else f"tables: {stage}"

    def _stage(self) -> str | None:
        """Where the tables are: "loading", the job's stage ("building 40%"), or None once taken or when
        they will not come."""
        if self._taken or self.unavailable is not None:
            return None
        if self._loading or self._tables is not None:
            return "loading"
        if self.job is not None:
            progress = self._progress()
            if progress.get("stage") == "building" and progress.get("total"):
                return f"building {100 * progress['solved'] // progress['total']}%"
            return progress.get("stage") or "starting"
        return None

    def end_notes(self) -> list[str]:
        """At the end of a command that played with them: one line for each thing a user should know (the
        file found damaged, tables that could not be made, a job still making them)."""
        notes = []
        if self.damaged is not None:
            notes.append(f"the corner tables file was refused ({self.damaged}); it is made again")
        if self.unavailable is not None and not self._taken:
            notes.append(f"no corner tables this game ({self.unavailable}): the corner search played alone")
        still = self.still_making()
        if still is not None:
            notes.append(still)
        return notes

    def _progress(self) -> dict:
        """The job's progress, read from its file at most once every LOOK_EVERY_S (the status line asks
        after every move)."""
        now = time.monotonic()
        if now - self._progress_read[0] >= LOOK_EVERY_S:
            self._progress_read = (now, read_progress(self.path))
        return self._progress_read[1]

    def still_making(self) -> str | None:
        """At the end of a command: one line when a job is still making the file, else None."""
        if self.job is None or self._job_ended():
            return None
        return (f"the corner tables are still being made in the background ({self._stage() or 'building'}, "
                f"process {self.job}); later games take them from {self.path}")
