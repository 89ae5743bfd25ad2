"""Coach: reviews a recorded 2048 game (a video, screenshots, a `play --record` folder) move by move.

It rebuilds the game from the boards on the frames (screenbot.coach.rebuild), judges every move
against the expectimax agent (screenbot.coach.evaluate) and writes the report
(screenbot.coach.report). It reads pictures only: nothing here presses a key.
"""

from screenbot.coach.errors import NoBoardInSourceError, ReviewError, SourceError
from screenbot.coach.evaluate import BLUNDER, INACCURACY, MISTAKE, Judge, band_of, loss_of
from screenbot.coach.rebuild import explain, rebuild, rebuild_boards
from screenbot.coach.review import Review, review

__all__ = [
    "BLUNDER", "INACCURACY", "MISTAKE", "Judge", "NoBoardInSourceError", "Review", "ReviewError", "SourceError",
    "band_of", "explain", "loss_of", "rebuild", "rebuild_boards", "review",
]
