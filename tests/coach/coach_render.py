"""Boards and games drawn for the coach's tests: classic boards (tests/vision/vision_render.py) on a page,
written as screenshots, a video or a `play --record` folder."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vision"))
import vision_render as render  # noqa: E402

from screenbot.game.rules import Game, Grid, Move, legal_moves  # noqa: E402
from screenbot.palette import CLASSIC  # noqa: E402

PAGE = (560, 460)  # w, h of a screenshot
AT = (40, 30)  # where the board sits on it
SIZE = 400


def seeded_game(seed: int, moves: int, start: Grid | None = None,
                shape: tuple[int, int] = (4, 4)) -> tuple[list[Grid], list[Move]]:
    """The boards (start first) and moves of a game of random legal moves on a board of `shape`."""
    game = Game(seed=seed, size=shape)
    game.reset(start=start)
    rng = random.Random(seed)
    boards, played = [game.grid], []
    for _ in range(moves):
        options = legal_moves(game.grid)
        if not options:
            break
        move = rng.choice(options)
        game.step(move)
        boards.append(game.grid)
        played.append(move)
    return boards, played


def page(board: Grid, shift: tuple[int, int, float] | None = None) -> np.ndarray:
    """A screenshot: the board drawn on a plain page (`shift`: one tile caught mid-slide; 4x4 only)."""
    canvas = np.full((PAGE[1], PAGE[0], 3), 248, np.uint8)
    if (len(board), len(board[0])) != (4, 4):
        return render.paste(canvas, board_of_any_size(board), *AT)
    return render.paste(canvas, render.render_board(board, SIZE, shift=shift), *AT)


def board_of_any_size(board: Grid, size: int = SIZE, theme=CLASSIC) -> np.ndarray:
    """A board of any rows x cols in the classic look, its longer side `size` px: the cells share it with
    gaps of 15/106.25 of a cell (the classic proportions), the shorter side in proportion."""
    from PIL import Image, ImageDraw

    rows, cols = len(board), len(board[0])
    cell = size / (max(rows, cols) + (max(rows, cols) + 1) * 15 / 106.25)
    gap = cell * 15 / 106.25
    w, h = int(round(cols * cell + (cols + 1) * gap)), int(round(rows * cell + (rows + 1) * gap))
    img = Image.new("RGB", (w, h), render.rgb(theme.gap))
    draw = ImageDraw.Draw(img)
    for r in range(rows):
        for c in range(cols):
            x, y = gap + c * (cell + gap), gap + r * (cell + gap)
            draw.rounded_rectangle([x, y, x + cell - 1, y + cell - 1], max(1, int(3 * cell / 106.25)),
                                   fill=render.rgb(theme.empty))
            if board[r][c]:
                render.draw_tile(draw, x, y, cell, board[r][c], theme)
    return cv2.cvtColor(np.asarray(img), cv2.COLOR_RGB2BGR)


def write_screenshots(folder: Path, boards, name: str = "shot{:d}.png") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i, board in enumerate(boards):
        assert cv2.imwrite(str(folder / name.format(i)), page(board))
    return folder


def write_video(path: Path, pictures, fps: int = 10, fourcc: str = "MJPG") -> Path:
    h, w = pictures[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*fourcc), fps, (w, h))
    assert writer.isOpened()
    for pixels in pictures:
        writer.write(pixels)
    writer.release()
    return path


def write_recording(folder: Path, boards, moves, origin=(300, 120), pictures=None) -> Path:
    """A folder as `screenbot play --record` leaves it: profile.json (screen coordinates), frames/ (board
    crops, as play grabs them: boards[i] for moves[i]; `pictures[i]` instead when given) and log.jsonl
    (each key's board, move and frame origin, then a summary with the last board)."""
    from screenbot.calibration import calibrate
    from screenbot.control.screen import Frame

    ox, oy = origin
    screen = Frame(page(boards[0]), ox - AT[0], oy - AT[1])  # the page as it sat on the screen
    profile = calibrate(screen)
    rect = profile.board_rect
    (folder / "frames").mkdir(parents=True, exist_ok=True)
    profile.save(folder / "profile.json")
    lines = []
    for i, (board, move) in enumerate(zip(boards, moves)):
        pixels = pictures[i] if pictures is not None else page(board)
        x, y = rect.x - screen.left, rect.y - screen.top
        crop = pixels[y:y + rect.h, x:x + rect.w]
        name = f"frames/{i:06d}.png"
        assert cv2.imwrite(str(folder / name), crop)
        lines.append(json.dumps({"i": i, "board": [list(r) for r in board], "move": move.key, "frame": name,
                                 "origin": [rect.x, rect.y]}))
    lines.append(json.dumps({"summary": {"moves": len(moves), "board": [list(r) for r in boards[len(moves)]]}}))
    (folder / "log.jsonl").write_text("\n".join(lines) + "\n")
    return folder
