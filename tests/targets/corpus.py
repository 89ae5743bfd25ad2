"""Every real 2048 program of the harness in one registry: the three of harness.py and the corpus
modules' (corpus_pypi.py, corpus_debian.py, corpus_npm.py), each of which exports `TARGETS`
(name -> Target class) and `PROGRAMS` (name -> what it is: registry, package, version, toolkit)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

CORPUS_MODULES = ("corpus_pypi", "corpus_debian", "corpus_npm")

TARGETS: dict = dict(harness.TARGETS)
PROGRAMS: dict[str, str] = {
    "quantum2048": "PyPI 2048 0.3.3 (pygame)",
    "term2048": "PyPI term2048 0.2.7 in xterm",
    "webcomponent2048": "npm 2048-webcomponent 1.1.0 in Chromium",
}
for _name in CORPUS_MODULES:
    if (Path(__file__).resolve().parent / f"{_name}.py").exists():
        _module = importlib.import_module(_name)
        TARGETS.update(_module.TARGETS)
        PROGRAMS.update(_module.PROGRAMS)
