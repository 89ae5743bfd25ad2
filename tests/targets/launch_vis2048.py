"""Start PyPI `vis2048` (Tk) with ONE of its boards in a window of its own, reporting its true board (see
harness.py).

The package's demo (vis2048.demo) shows four boards that all take every key. This places one of the
package's own `GameVis` widgets (default size and font) in a window titled "vis2048", and binds the arrow
keys to the demo's own key handler (GameVisDemo._key_down) over that one board: the rules, the spawning
and the drawing are the package's. Truth: GameVis.game.mat (None = empty) and game.score after each key.
"""

import functools
import tkinter
import types

import corpus_launch
import truthlog
from vis2048.vec2 import Vec2
from vis2048.vis import GameVis, GameVisDemo

TITLE = "vis2048"
KEYS = {"Up": "up", "Down": "down", "Left": "left", "Right": "right"}


def board_of(vis):
    width = vis.game.width
    return [[vis.game.mat[Vec2(column, row)] or 0 for column in range(width)] for row in range(width)]


def reporting(vis, direction, handler):
    def on_key(event):
        before = board_of(vis)
        handler(event)  # skips a won or stuck game; else moves, adds a 2 if a cell is empty, redraws
        board = board_of(vis)
        truthlog.move(direction, board != before, board, vis.game.score)
    return on_key


def main():
    root = tkinter.Tk()
    root.title(TITLE)
    vis = GameVis(master=root)
    vis.grid()
    demo = types.SimpleNamespace(all_gamevis=[vis])  # the demo's handler walks `all_gamevis`
    for key, direction in KEYS.items():
        move = functools.partial(getattr(GameVisDemo, f"_{direction}"), demo)
        root.bind(f"<{key}>", reporting(vis, direction, GameVisDemo._key_down(demo, move)))
    truthlog.new_game(board_of(vis), vis.game.score)
    root.mainloop()


if __name__ == "__main__":
    corpus_launch.run(main)
