"""Where screenbot keeps its files by default; imports nothing heavy, so the command line can show it."""

from __future__ import annotations

from pathlib import Path


def default_profile_path() -> Path:
    """platformdirs' user config dir for screenbot, e.g. ~/.config/screenbot/profile.json."""
    import platformdirs

    return Path(platformdirs.user_config_dir("screenbot")) / "profile.json"


def cache_dir() -> Path:
    """platformdirs' user cache dir for screenbot, e.g. ~/.cache/screenbot ($XDG_CACHE_HOME/screenbot
    when that is set, on Linux): what can be made again (play's tables, frames kept for diagnosis)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("screenbot"))
