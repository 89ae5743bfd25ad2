"""The rig's processes: each program runs in a session of its own, ended with everything in it; and whether a process is still there.
A browser on the user's own screen (any OS): started in a group of its own, ended with its process tree."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
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


def own_group() -> dict:
    """Popen's keywords that start a program in a process group of its own, apart from this one's
    Ctrl-C: CREATE_NEW_PROCESS_GROUP on Windows, a new session elsewhere."""
    if sys.platform == "win32":
        return {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0x200)}
    return {"start_new_session": True}


def end_tree(proc: subprocess.Popen | None, grace_s: float = 5.0) -> None:
    """End a program started with own_group() and every process under it, on any OS: the tree psutil
    sees under it, and on POSIX its whole group too (a child whose parent has exited is no longer
    under it, but still in the group). Politely first (terminate), then for sure (kill)."""
    if proc is None:
        return
    import psutil

    tree = []
    if proc.poll() is None:  # (once it has been waited for, its number may be another process's)
        try:
            parent = psutil.Process(proc.pid)
            tree = [parent, *parent.children(recursive=True)]
        except psutil.NoSuchProcess:
            pass
    group = sys.platform != "win32" and hasattr(os, "killpg")
    if group:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except (ProcessLookupError, PermissionError):
            group = False
    for process in tree:
        try:
            process.terminate()
        except psutil.NoSuchProcess:
            pass
    _, alive = psutil.wait_procs(tree, timeout=grace_s)
    if group:
        deadline = time.monotonic() + grace_s
        while (others := group_members(proc.pid)) and time.monotonic() < deadline:
            time.sleep(0.05)
        alive = list({p.pid: p for p in [*alive, *others]}.values())
    for process in alive:
        try:
            process.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(alive, timeout=grace_s)
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:  # pragma: no cover - killed above
        pass


def group_members(pgid: int) -> list:
    """The live processes (psutil.Process, zombies left out) of process group `pgid` (POSIX)."""
    import psutil

    members = []
    for process in psutil.process_iter():
        try:
            if os.getpgid(process.pid) == pgid and process.status() != psutil.STATUS_ZOMBIE:
                members.append(process)
        except (OSError, psutil.Error):
            pass
    return members
