"""The rig's processes: each program runs in a session of its own, ended with everything in it; and whether a process is still there."""

from __future__ import annotations

import os
import signal
import subprocess
import time


def process_alive(pid: int) -> bool:
    """Whether a process is still there (not gone, not a zombie): Linux /proc."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def session_pids(sid: int) -> list[int]:
    """Every live process in session `sid` (the rig starts each program in its own session)."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read().decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        # fields[0] = state, [1] = ppid, [2] = pgrp, [3] = session
        if len(fields) > 3 and int(fields[3]) == sid and fields[0] != "Z":
            pids.append(int(entry))
    return pids


def end_session(proc: subprocess.Popen | None, grace_s: float = 3.0) -> None:
    """End a process started with start_new_session=True and everything else in its session."""
    if proc is None:
        return
    sid = proc.pid
    for sig in (signal.SIGTERM, signal.SIGKILL):
        pids = session_pids(sid)
        if proc.poll() is None and proc.pid not in pids:
            pids.append(proc.pid)
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + grace_s
        while time.monotonic() < deadline:
            proc.poll()
            if not session_pids(sid):
                break
            time.sleep(0.02)
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL above
        pass
