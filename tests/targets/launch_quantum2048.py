"""Start PyPI `2048` (quantum5's pygame game) unmodified, reporting its true board (see harness.py).

Wraps Game2048.__init__ (a new game) and Game2048.on_key_down (a key) from outside; seeds
`random`; keeps its save files in $TARGET_DATA_DIR so every start is a new game.
"""

import os

import pygame

import truthlog
from _2048.game import Game2048
from _2048.main import run_game

DIRECTIONS = {pygame.K_UP: "up", pygame.K_DOWN: "down", pygame.K_LEFT: "left", pygame.K_RIGHT: "right"}

_init = Game2048.__init__
_on_key_down = Game2048.on_key_down


def __init__(self, *args, **kwargs):
    _init(self, *args, **kwargs)
    truthlog.new_game(self.grid, self.score)


def on_key_down(self, event):
    before = [row[:] for row in self.grid]
    _on_key_down(self, event)  # slides, spawns and animates before it returns
    direction = DIRECTIONS.get(event.key)
    if direction and not event.mod & pygame.KMOD_CTRL:
        truthlog.move(direction, self.grid != before, self.grid, self.score)


Game2048.__init__ = __init__
Game2048.on_key_down = on_key_down  # bound into each game's handler table when it is made

if __name__ == "__main__":
    truthlog.seed_random()
    data_dir = os.environ.get("TARGET_DATA_DIR") or None
    if data_dir:
        os.makedirs(data_dir, exist_ok=True)
    run_game(data_dir=data_dir)
