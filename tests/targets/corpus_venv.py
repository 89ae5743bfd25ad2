"""The venv the PyPI corpus programs run in (corpus_pypi.py): their pinned versions, installed with pip on
first use into $XDG_CACHE_HOME/screenbot-targets/pypi-venv (else ~/.cache/...; $SCREENBOT_TARGETS_PYPI
overrides the folder), and made again when the pin list or the Python changes.

Like harness.py this does not import screenbot; the launchers the venv's Python runs import truthlog.py
from this folder (game_env puts it on PYTHONPATH).
"""

from __future__ import annotations

import fcntl
import os
import platform
import subprocess
import sys
from pathlib import Path

from target_processes import TargetError

HERE = Path(__file__).resolve().parent

# the six programs, and the versions of what they pull in that were tried with them
PINS = (
    "tui-2048==1.0.0",
    "curses-2048==1.4",
    "py2048-cli-game==0.1.0",
    "py-cui-2048==0.0.1",
    "py-cui==0.0.3",  # py-cui-2048 0.0.1 asks for any py-cui; from 0.1 on its menu's "New Game" starts nothing
    "tuinty-forpy-eight==1.3.3",
    "textual==8.2.8",
    "rich==15.0.0",
    "markdown-it-py==4.3.0",
    "mdit-py-plugins==0.7.0",
    "linkify-it-py==2.2.0",
    "mdurl==0.1.2",
    "platformdirs==4.14.8",
    "Pygments==2.21.0",
    "typing_extensions==4.16.0",
    "vis2048==1.0.3",
)
STAMP = "screenbot-pins.txt"  # in the venv: what it was made with


def venv_dir() -> Path:
    root = os.environ.get("SCREENBOT_TARGETS_PYPI")
    if root:
        return Path(root)
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "screenbot-targets" / "pypi-venv"


def _stamp_text() -> str:
    return f"python {platform.python_version()} {sys.base_prefix}\n" + "\n".join(PINS) + "\n"


def venv_python(timeout_s: float = 900.0) -> Path:
    """The venv's Python, with every pinned package installed (made first if it is missing or stale)."""
    venv = venv_dir()
    python = venv / "bin" / "python"
    stamp = venv / STAMP
    want = _stamp_text()
    if python.exists() and stamp.exists() and stamp.read_text() == want:
        return python
    venv.parent.mkdir(parents=True, exist_ok=True)
    with open(venv.parent / f"{venv.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two starts at once: one makes it, the other waits and uses it
        if python.exists() and stamp.exists() and stamp.read_text() == want:
            return python
        _run([sys.executable, "-m", "venv", "--clear", str(venv)], "python -m venv", timeout_s)
        _run([str(python), "-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--quiet", *PINS],
             "pip install", timeout_s)
        stamp.write_text(want)
    return python


def _run(args: list[str], what: str, timeout_s: float) -> None:
    try:
        result = subprocess.run(args, capture_output=True, text=True, timeout=timeout_s, check=False)
    except subprocess.TimeoutExpired:
        raise TargetError(f"{what} for the PyPI 2048 programs took over {timeout_s:g} s") from None
    if result.returncode != 0:
        lines = [line for line in result.stderr.splitlines() if line.strip() and not line.startswith("WARNING")]
        reason = lines[-1].strip() if lines else f"exit status {result.returncode}"
        raise TargetError(f"{what} for the PyPI 2048 programs into {venv_dir()} failed: {reason}")


def game_env(env: dict[str, str]) -> dict[str, str]:
    """`env` for a launcher run by the venv's Python: this folder first on PYTHONPATH (for truthlog)."""
    env = dict(env)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(HERE), env.get("PYTHONPATH", "")) if p)
    env.pop("PYTHONHOME", None)
    env.pop("VIRTUAL_ENV", None)
    return env
