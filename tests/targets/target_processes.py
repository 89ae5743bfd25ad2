"""The processes under the targets: an Xvfb display of their own, and ending a program with everything it started.

Like harness.py this does not import screenbot (the witness stays independent of what it checks).
"""

from __future__ import annotations

import os
import select
import shutil
import signal
import subprocess
import time
from typing import Any


class TargetError(RuntimeError):
    """A target (or the display under it) could not start, or stopped answering."""


def need(program: str, package: str) -> str:
    """The path of `program`, or TargetError naming the package that provides it."""
    path = shutil.which(program)
    if path is None:
        raise TargetError(f"{program} is not installed (Debian: apt-get install {package})")
    return path


def _stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read().decode(errors="replace")
    except OSError:
        return None
    return text[text.rfind(")") + 2:].split()  # [0] state, [1] ppid, [2] pgrp, [3] session


def _family(root: int) -> list[int]:
    """Live processes in `root`'s session or descended from it (a terminal's child has its own
    session, so both are needed)."""
    table = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields and fields[0] != "Z":
                table[int(entry)] = (int(fields[1]), int(fields[3]))
    found = {pid for pid, (_, sid) in table.items() if sid == root}
    if root in table:
        found.add(root)
    grew = True
    while grew:
        grew = False
        for pid, (ppid, _) in table.items():
            if ppid in found and pid not in found:
                found.add(pid)
                grew = True
    return sorted(found)


def end_process(proc: subprocess.Popen | None, grace_s: float = 3.0) -> None:
    """End a process started with start_new_session=True, its session and all its descendants."""
    if proc is None:
        return
    for sig in (signal.SIGTERM, signal.SIGKILL):
        pids = _family(proc.pid)
        if not pids and proc.poll() is not None:
            break
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + grace_s
        while time.monotonic() < deadline:
            proc.poll()
            if not any(_stat(pid) and _stat(pid)[0] != "Z" for pid in pids):
                break
            time.sleep(0.02)
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL above
        pass


def family_pids(proc: subprocess.Popen | None) -> list[int]:
    return [] if proc is None else _family(proc.pid)


class VirtualDisplay:
    """An Xvfb server on a free display number (reported by Xvfb itself through -displayfd)."""

    def __init__(self, size: tuple[int, int] = (1280, 800)) -> None:
        self.size = size
        self.display = ""
        self.proc: subprocess.Popen | None = None

    def start(self, timeout_s: float = 10.0) -> "VirtualDisplay":
        xvfb = need("Xvfb", "xvfb")
        read_fd, write_fd = os.pipe()
        try:
            w, h = self.size
            self.proc = subprocess.Popen(
                [xvfb, "-displayfd", str(write_fd), "-screen", "0", f"{w}x{h}x24", "-nolisten", "tcp"],
                pass_fds=(write_fd,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, start_new_session=True)
        finally:
            os.close(write_fd)
        number = b""
        deadline = time.monotonic() + timeout_s
        try:
            while not number.endswith(b"\n"):
                ready, _, _ = select.select([read_fd], [], [], max(deadline - time.monotonic(), 0))
                chunk = os.read(read_fd, 16) if ready else b""
                if not chunk:
                    self.stop()
                    raise TargetError(f"Xvfb did not report a display number within {timeout_s:g} s")
                number += chunk
        finally:
            os.close(read_fd)
        self.display = f":{int(number)}"
        return self

    def stop(self) -> None:
        end_process(self.proc)
        self.proc = None

    @property
    def pids(self) -> list[int]:
        return family_pids(self.proc)

    def __enter__(self) -> "VirtualDisplay":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
