"""Weights for the plain evaluation read from a file, for tuning experiments (benchmarks/tune_weights.py
writes them, benchmarks/late_game.py plays them)."""

from __future__ import annotations

import json
import math
from dataclasses import fields
from pathlib import Path

from screenbot.agent.heuristic import Weights

POWER_RANGE = (1.0, 6.0)  # powers outside this make rank-15 rows overflow the table's scale or lose all shape


def load_weights(path: str | Path, key: str = "weights") -> Weights:
    """Weights from a JSON file whose `key` holds `Weights`' fields (benchmarks/tune_weights.py writes
    them). ValueError with a one-line reason when the file is unreadable or a field is missing,
    unknown, not a finite number or (powers) outside POWER_RANGE."""
    try:
        data = json.loads(Path(path).read_text())[key]
    except (OSError, ValueError, TypeError, KeyError) as exc:
        raise ValueError(f"{path}: not a weights file ({type(exc).__name__}: {exc})") from None
    names = {f.name for f in fields(Weights)}
    if not isinstance(data, dict) or set(data) != names:
        raise ValueError(f"{path}: {key!r} must hold exactly the fields {sorted(names)}")
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in data.values()):
        raise ValueError(f"{path}: every weight must be a finite number")
    weights = Weights(**{k: float(v) for k, v in data.items()})
    for name in ("monotonicity_power", "sum_power"):
        if not POWER_RANGE[0] <= getattr(weights, name) <= POWER_RANGE[1]:
            raise ValueError(f"{path}: {name} must lie in {POWER_RANGE}")
    return weights
