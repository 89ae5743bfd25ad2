"""One JSON line of a benchmark's figures: printed, and appended to a file when one is named."""

from __future__ import annotations

import json


def emit(row: dict, path: str | None) -> None:
    print(json.dumps(row), flush=True)
    if path:
        with open(path, "a") as f:
            f.write(json.dumps(row) + "\n")
