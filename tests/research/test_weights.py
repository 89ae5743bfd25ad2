"""Weights for the plain evaluation read from a file (research.weights), as the tuning scripts write them."""

import json

import pytest

from research.weights import load_weights
from screenbot.agent.heuristic import Weights

W = Weights()
OTHER = Weights(empty=400.0, merges=500.0, monotonicity_power=3.2, monotonicity=60.0, sum_power=3.9, sum=8.0)


def test_weights_files_load_and_bad_ones_are_refused_with_the_reason(tmp_path):
    from dataclasses import asdict

    good = tmp_path / "w.json"
    good.write_text(json.dumps({"weights": asdict(OTHER), "best_candidate": asdict(W)}))
    assert load_weights(good) == OTHER
    assert load_weights(good, "best_candidate") == W
    cases = {
        "missing": ("{not json", "not a weights file"),
        "nokey": (json.dumps({"other": {}}), "not a weights file"),
        "fields": (json.dumps({"weights": {**asdict(OTHER), "extra": 1.0}}), "exactly the fields"),
        "nan": (json.dumps({"weights": {**asdict(OTHER), "sum": float("nan")}}), "finite number"),
        "text": (json.dumps({"weights": {**asdict(OTHER), "sum": "11"}}), "finite number"),
        "power": (json.dumps({"weights": {**asdict(OTHER), "sum_power": 9.0}}), "sum_power must lie"),
    }
    for name, (text, reason) in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(text)
        with pytest.raises(ValueError, match=reason) as info:
            load_weights(path)
        assert str(path) in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(ValueError, match="not a weights file"):
        load_weights(tmp_path / "absent.json")
