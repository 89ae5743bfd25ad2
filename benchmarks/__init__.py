"""Measurements of screenbot (speed, strength, the lab's experiments): scripts run as `python -m benchmarks.<name>`."""
