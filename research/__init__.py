"""Experiments measured against screenbot's players and not kept in them; used by the scripts in
benchmarks/ (run from the repo root: `python -m benchmarks.<name>`). Not part of the installed package."""
