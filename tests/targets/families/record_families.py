"""Record a family program's screens for the tests, as record_fixtures.py does for the corpus (the same
options and labels), with the families' registry.

    PYTHONPATH=. .venv/bin/python tests/targets/families/record_families.py tk_wide \
        --out tests/fixtures/families/tk_wide
"""

from __future__ import annotations

import sys
from pathlib import Path

TARGETS_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TARGETS_DIR))
import record_fixtures  # noqa: E402
from families.corpus_families import PROGRAMS, TARGETS  # noqa: E402

if __name__ == "__main__":
    record_fixtures.TARGETS, record_fixtures.PROGRAMS = TARGETS, PROGRAMS  # main() looks both up by name
    record_fixtures.main()
