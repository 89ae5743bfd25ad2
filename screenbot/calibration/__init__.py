"""Finds the 4x4 board on screen by its structure and saves a profile."""

from screenbot.calibration.calibrate import calibrate, draw_preview, hidpi_scale, save_preview
from screenbot.calibration.errors import BoardOffScreenError, ManyBoardsError, NoBoardError, ProfileError
from screenbot.calibration.lattice import Lattice, Search, find_lattices
from screenbot.calibration.profile import Profile, default_profile_path

__all__ = [
    "BoardOffScreenError",
    "Lattice",
    "ManyBoardsError",
    "NoBoardError",
    "Profile",
    "ProfileError",
    "Search",
    "calibrate",
    "default_profile_path",
    "draw_preview",
    "find_lattices",
    "hidpi_scale",
    "save_preview",
]
