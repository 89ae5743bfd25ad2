"""The command line starts without loading the agent, vision or any heavy package: those load when a command runs."""

import json
import subprocess
import sys
from pathlib import Path

import screenbot
from screenbot.cli import COMMANDS

HEAVY = ["numba", "cv2", "numpy", "matplotlib", "rich", "mss", "pyautogui", "pytesseract", "screenbot.agent.search"]

# Runs in a fresh interpreter: builds the parser, shows the help (top level and of every command),
# then prints which of the heavy modules got imported.
PROBE = """
import contextlib, io, json, sys
from screenbot.cli import build_parser

argvs = [["--help"], ["--version"]] + [[name, "--help"] for name in {commands!r}]
for argv in argvs:
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            build_parser().parse_args(argv)
        except SystemExit:
            pass
print(json.dumps([name for name in {heavy!r} if name in sys.modules]))
"""


def loaded_after(code: str) -> list[str]:
    package_root = str(Path(screenbot.__file__).resolve().parents[1])
    done = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {package_root!r})\n{code}"],
                          capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_help_and_version_import_nothing_heavy():
    assert loaded_after(PROBE.format(commands=COMMANDS, heavy=HEAVY)) == []


def test_importing_screenbot_imports_nothing_heavy():
    assert loaded_after(f"import json, sys, screenbot\nprint(json.dumps([n for n in {HEAVY!r} if n in sys.modules]))") == []
