"""Finds the 4x4 board on screen by its structure and saves a profile."""

from screenbot.calibration.calibrate import calibrate, calibrate_lattice
from screenbot.calibration.preview import draw_preview, save_preview
from screenbot.calibration.errors import BoardOffScreenError, ManyBoardsError, NoBoardError
from screenbot.calibration.lattice import Lattice, Search, find_lattices
from screenbot.paths import default_profile_path
from screenbot.profile import Profile, ProfileError  # what calibrate() makes

__all__ = [
    "BoardOffScreenError",
    "Lattice",
    "ManyBoardsError",
    "NoBoardError",
    "Profile",
    "ProfileError",
    "Search",
    "calibrate",
    "calibrate_lattice",
    "default_profile_path",
    "draw_preview",
    "find_lattices",
    "save_preview",
]
