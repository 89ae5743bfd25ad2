"""Shared set-up of the vision tests: where the recorded screenshots are; user dirs kept in tmp."""

from __future__ import annotations

import pytest

@pytest.fixture(autouse=True)
def user_dirs(tmp_path, monkeypatch):
    """Profiles, previews and diagnostics go to a temporary home, never the user's own."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path
