"""The whole suite: its own user cache dir, so that nothing it runs finds, makes or leaves play's tables
in the user's (a `screenbot play` with the default player starts a background job that makes them:
any job still running at the end is stopped, and named, since a test that starts one is a defect)."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def suite_cache_dir(tmp_path_factory):
    cache = tmp_path_factory.mktemp("user-cache")
    before = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(cache)
    yield cache
    if before is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = before
    left = _stop_table_jobs(cache)
    assert not left, f"the suite left table jobs running (stopped now): {left}"


def _stop_table_jobs(cache) -> list[str]:
    import psutil

    left = []
    for lock in cache.rglob("*.tables.lock"):
        try:
            import json

            pid = json.loads(lock.read_text())["pid"]
            psutil.Process(pid).kill()
            left.append(f"{lock} (process {pid})")
        except (OSError, ValueError, KeyError, psutil.Error):
            pass
    return left
