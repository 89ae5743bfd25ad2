"""Shooting one look on the live rig: load a board, take the picture, check the labelled rectangles against it, write the JSON truth."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from screen_conditions import BOARDS, EMPTY_BOARD, Condition, board_score

from screenbot.game.rules import Game, Grid, Move, apply_move, is_over, to_grid
from screenbot.geometry import Rect
from screenbot.practice.measure import Box, measure_fill
from screenbot.practice.rig import THEMES, Rig, RigError

PNG_FLAGS = [cv2.IMWRITE_PNG_COMPRESSION, 9]
# The 16 tile's fill, BGR (style.css): a flat colour, no glow, to find every tile in the picture.
FILL_16 = {"classic": (0x63, 0x95, 0xF5), "dark": (0xD2, 0x8B, 0x26), "lines": (0x3D, 0x46, 0xC9),
           "lines-light": (0x7E, 0x8A, 0xF0), "terminal": (0x00, 0x00, 0xCD)}
OVERHANG_CSS_PX = 3.0  # game.js OVERHANG, at size 500


class Recorder:
    """Takes the shots of one look (`cond`) on a running rig and writes each picture and its label to `out`."""

    def __init__(self, out: Path, cond: Condition, rig: Rig) -> None:
        self.out = out
        self.cond = cond
        self.rig = rig
        self.count = 0
        self.verified: dict[str, Any] | None = None
        self.theme = cond.rig.get("theme", "classic")
        self.family = THEMES[self.theme]
        self.other_look = bool(cond.subdir)
        self.last_click = 0.0

    # -- geometry ------------------------------------------------------------------------------
    def verify_rect(self) -> dict[str, Any]:
        """On an empty board (no glow), find the board's edges in the picture and compare; in the
        other looks also find every tile of a board of 16s (the terminal: only those)."""
        if self.other_look:
            self.rig.page_options["marks"] = None  # the marks would hide parts of the tiles measured
        self.verified = {}
        if self.family != "terminal":
            self.load(EMPTY_BOARD)
            img = self.rig.screenshot()
            box = self.rig.board_box()
            measured = self.rig.measure_board_edges(img)
            diffs = [abs(m - e) for m, e in zip(measured, edges(box)) if m is not None] if measured else [99.0]
            if max(diffs) > 1.01:
                raise RigError(f"{self.cond.name}: board rect {box.as_list()} does not match the picture "
                               f"(measured edges {measured}, expected {edges(box)})")
            self.verified = {"board_rect": box.as_list(), "measured_edges": measured,
                             "max_edge_error_px": round(max(diffs), 2),
                             "how": "edges of the board colour on an empty board in the same condition, "
                                    "left/top/right/bottom; null = off the visible viewport"
                                    + ("; the lines looks: the colour of the lines, along the outer frame"
                                       if self.family == "lines" else "")}
        if self.other_look:
            self.verified.update(self.verify_tiles())
            self.rig.page_options["marks"] = self.cond.rig.get("marks") or None
        return self.verified

    def verify_tiles(self) -> dict[str, Any]:
        """A board of 16s: each tile's fill measured in the picture against its labelled rectangle."""
        self.load(BOARDS["all_16"])
        img = self.rig.screenshot()
        over = self.overhang_px()
        worst = 0.0
        for i, cell in enumerate(self.rig.cell_boxes()):
            tile = Box(cell.x - over, cell.y - over, cell.w + 2 * over, cell.h + 2 * over)
            r = tile.rect()
            want = [r.x, r.y, r.x + r.w, r.y + r.h]
            got = measure_fill(img, tile, FILL_16[self.theme])
            if None in got:
                raise RigError(f"{self.cond.name}: tile {i} not found in the picture ({got})")
            err = max(abs(g - w) for g, w in zip(got, want))
            if err > 1:
                raise RigError(f"{self.cond.name}: tile {i} at {got}, labelled {want}")
            worst = max(worst, err)
        return {"board_rect": self.rig.board_box().as_list(), "tile_fill_max_error_px": worst,
                "tile_fill_how": "a board of 16s in the same condition (marks off): each tile's fill colour "
                                 "measured along a row and a column 15 % inside it, against tile_rects_px"}

    def overhang_px(self) -> float:
        """How far a tile reaches past its cell on every side, in screen px."""
        if not self.cond.rig.get("overhang"):
            return 0.0
        return OVERHANG_CSS_PX * float(self.cond.rig.get("size", 500)) / 500.0 * self.rig.css_to_screen()

    # -- page control ----------------------------------------------------------------------------
    def load(self, grid: Grid, keep: bool = False, seed: int = 1, score: int | None = None) -> None:
        self.rig.load(board=grid, keep=keep or None, seed=seed,
                      score=board_score(grid) if score is None else score)
        # Two clicks at one place within the double-click time would select the page's title.
        time.sleep(max(0.0, self.last_click + 0.7 - time.monotonic()))
        self.rig.focus_page()
        self.last_click = time.monotonic()
        self.rig.wait_still(still_ms=250)

    def overlay_wait(self) -> float:
        anim = self.cond.rig.get("anim", 1.0)
        return (1.2 + 0.8) * anim + 0.25

    # -- writing ---------------------------------------------------------------------------------
    def save(self, kind: str, img: np.ndarray, extra: dict[str, Any], origin: tuple[int, int] = (0, 0)) -> Path:
        st = self.rig.state()
        if self.verified and self.rig.board_box().as_list() != self.verified["board_rect"]:
            raise RigError(f"{self.cond.name}: the board moved since its rect was checked "
                           f"({self.verified['board_rect']} -> {self.rig.board_box().as_list()})")
        name = f"{self.cond.name}__{self.count:02d}_{kind}"
        self.count += 1
        png = self.out / f"{name}.png"
        cv2.imwrite(str(png), img, PNG_FLAGS)
        box = self.rig.board_box()
        cells = self.rig.cell_boxes()
        u = box.w / 500.0 if box.w else 1.0
        screen_w, screen_h = self.rig.screen_size
        buttons = {name: (b.as_list() if (b := self.rig.button_box(name)) else None)
                   for name in ("keep-going", "try-again", "new-game")}
        label = {
            "image": png.name,
            "image_origin": list(origin),
            "image_is": "whole screen" if img.shape[:2] == (screen_h, screen_w) else "crop of the screen",
            "target": "practice",
            "kind": kind,
            "state": {"static": "playing", "overlay-win": "won", "overlay-over": "over",
                      "overlay-fading-in": "fading-in", "mid-animation": "mid-animation",
                      "keep-going": "playing"}[kind],
            "condition": self.label_condition(),
            "grid": st["board"],
            "score": st["score"],
            "won": st["won"],
            "over": st["over"],
            "keep_going": st["keep_going"],
            "overlay": {"overlay-win": "win", "overlay-over": "over"}.get(kind),
            "board_rect": box.as_list(),
            "board_rect_px": box.rect().as_list(),
            "board_fully_on_screen": self.rig.board_fully_visible(),
            "visible_viewport_rect": self.rig.visible_box().as_list(),
            "grid_rect": Box(box.x + 15 * u, box.y + 15 * u, box.w - 30 * u, box.h - 30 * u).as_list(),
            "cell_rects": [c.as_list() for c in cells],
            "cell_rects_px": [c.rect().as_list() for c in cells],
            "score_rect": self.rig.score_box().as_list(),
            "button_rects": buttons,
            "window_rect": self.rig.window_rect().as_list(),
            "viewport_origin_on_screen": [round(v, 2) for v in self.rig.viewport_origin()],
            "css_px_to_screen_px": round(self.rig.css_to_screen(), 4),
            "screen_size": [screen_w, screen_h],
            "board_rect_check": self.verified,
        }
        if self.other_look:
            label.update(self.look_fields(img, cells))
        label.update(extra)
        (self.out / f"{name}.json").write_text(json.dumps(label, indent=1))
        print(f"  {png.name} ({png.stat().st_size // 1024} KB)", flush=True)
        return png

    def look_fields(self, img: np.ndarray, cells: list[Box]) -> dict[str, Any]:
        """The other looks' labels: the image's size, the look's options and its tiles' rectangles."""
        over = self.overhang_px()
        tiles = [Box(c.x - over, c.y - over, c.w + 2 * over, c.h + 2 * over) for c in cells]
        first, last = cells[0], cells[-1]
        st = self.rig.state(history=False)
        return {
            "image_size": [int(img.shape[1]), int(img.shape[0])],
            "condition": {
                **self.label_condition(),
                "family": self.family,
                "marks": bool(st["marks"]),
                "overhang": bool(st["overhang"]),
                "anim": st["anim"],
            },
            "grid_rect": Box(first.x, first.y, last.x + last.w - first.x, last.y + last.h - first.y).as_list(),
            "tile_rects": [t.as_list() for t in tiles],
            "tile_rects_px": [t.rect().as_list() for t in tiles],
            "tile_overhang_px": round(over, 2),
            "look": LOOK_NOTES[self.family],
        }

    def label_condition(self) -> dict[str, Any]:
        screen_w, screen_h = self.rig.screen_size
        return {
            "name": self.cond.name,
            "theme": self.theme,
            "zoom": round(self.rig.zoom, 4),
            "zoom_mode": "browser",
            "device_scale": self.rig.scale,
            "board_css_px": self.cond.rig.get("size", 500),
            "scroll_css_px": self.cond.rig.get("scroll", 0),
            "browser_chrome_visible": not self.rig.app,
            "window_pos": list(self.rig.window_pos),
            "window_size": list(self.rig.window_size),
            "screen": [screen_w, screen_h],
        }

    # -- shots ------------------------------------------------------------------------------------
    def static(self, grid: Grid) -> None:
        self.load(grid)
        self.save("static", self.rig.screenshot(), {})

    def win(self, fading: bool = False) -> None:
        self.load(BOARDS["win_next"], seed=5)
        before = self.rig.grid()
        self.rig.press(Move.LEFT)
        st = self.rig.wait_for(lambda s: s["won"], 5, "the win")
        if fading:
            time.sleep(1.2 * self.cond.rig.get("anim", 1.0) + 0.35)
            t_shot = time.time()
            img = self.rig.screenshot()
            self.save("overlay-fading-in", img, {"grid_before": [list(r) for r in before], "move": "left",
                                                 "ms_after_key": round((t_shot * 1000 - st["t_key"]), 1),
                                                 "overlay": "win", "overlay_opacity_approx": 0.4})
            return
        time.sleep(self.overlay_wait())
        self.rig.wait_still()
        self.save("overlay-win", self.rig.screenshot(), {})

    def keep_going(self) -> None:
        self.load(BOARDS["win_next"], seed=5)
        self.rig.press(Move.LEFT)
        self.rig.wait_for(lambda s: s["won"], 5, "the win")
        time.sleep(self.overlay_wait())
        keys = self.rig.state()["keys"]
        self.rig.press(Move.RIGHT)  # ignored: only the button dismisses the overlay
        st = self.rig.wait_for_keys(keys + 1)
        assert st["event"] == "ignored" and st["moves"] == 1, st["event"]
        self.rig.click_button("keep-going")
        self.rig.wait_for(lambda s: s["keep_going"], 5, "keep going")
        self.rig.wait_still()
        self.save("keep-going", self.rig.screenshot(), {})

    def over_by_move(self, start: Grid) -> None:
        """Play from `start` (seeded) until the game is over, with real keys; shoot the overlay."""
        seed = 11
        game = Game(seed=seed)
        game.reset(start=start)
        self.load(start, keep=True, seed=seed)
        moves = 0
        while not game.over:
            legal = [m for m in (Move.LEFT, Move.UP, Move.RIGHT, Move.DOWN)
                     if apply_move(game.grid, m)[0] != game.grid]
            move = legal[0]
            game.step(move)
            self.rig.press(move)
            moves += 1
            self.rig.wait_for_moves(moves)
            if moves > 3000:
                raise RigError("the game did not end")
        st = self.rig.wait_for(lambda s: s["over"], 5, "game over")
        if to_grid(st["board"]) != game.grid:
            raise RigError(f"page and engine disagree after {moves} moves")
        time.sleep(self.overlay_wait())
        self.rig.wait_still()
        self.save("overlay-over", self.rig.screenshot(), {"moves_played": moves})

    def over_load(self, grid: Grid) -> None:
        assert is_over(grid)
        self.load(grid)
        time.sleep(self.overlay_wait())
        self.rig.wait_still()
        self.save("overlay-over", self.rig.screenshot(), {})

    def mid(self, start: Grid, delays_ms: list[int]) -> None:
        """From `start`, press a legal key per delay and shoot about that many ms after sending it."""
        self.load(start, keep=True, seed=3)
        order = (Move.DOWN, Move.LEFT, Move.RIGHT, Move.UP)
        box = self.rig.board_box()
        margin = round(box.w * 0.08)
        region = box.rect().inset(-margin).intersection(Rect(0, 0, *self.rig.screen_size))
        assert region is not None
        for i, delay in enumerate(delays_ms):
            st0 = self.rig.state()
            before = to_grid(st0["board"])
            legal = [m for m in order if apply_move(before, m)[0] != before]
            if not legal:
                break
            move = legal[i % len(legal)]
            t_send = self.rig.press(move)
            wait = t_send + delay / 1000.0 - time.time()
            if wait > 0:
                time.sleep(wait)
            # Only the board and a margin: a small grab is quick, so the moment is well defined.
            t0 = time.time()
            img = self.rig.grab(region)
            t1 = time.time()
            st = self.rig.wait_for_moves(st0["moves"] + 1, 2)
            slid, _ = apply_move(before, move)
            self.save("mid-animation", img, origin=(region.x, region.y), extra={
                "move": move.key,
                "nominal_delay_ms": delay,
                "ms_after_key": round(t0 * 1000 - st["t_key"], 1),
                "ms_after_key_sent": round((t0 - t_send) * 1000, 1),
                "ms_after_key_grab_end": round(t1 * 1000 - st["t_key"], 1),
                "grab_ms": round((t1 - t0) * 1000, 1),
                "grid_before": [list(r) for r in before],
                "grid_after_slide": [list(r) for r in slid],
                "grid_note": "grid = the page's true state after the move (with the new tile); the picture "
                             "may show grid_before, an in-between state, or grid",
            })
            self.rig.wait_still()


LOOK_NOTES: dict[str, dict[str, Any]] = {
    "classic": {"family": "classic", "animates": True,
                "board": "the classic proportions: 15 px padding and gaps, 106.25 px cells (at size 500)"},
    "lines": {"family": "lines", "animates": True,
              "board": "2 px lines around 122 px square cells (498 px board at size 500); empty cells are "
                       "the page colour; tiles fill their cell; DejaVu Sans Bold digits"},
    "terminal": {"family": "terminal", "animates": False,
                 "board": "box-drawing characters on a 9 x 18 px character grid (at size 500); a cell is 7 "
                          "characters by 3 lines (63 x 54 px, not square); board_rect is the frame's "
                          "character cells (the lines run through their middles); DejaVu Sans Mono digits",
                 "empty_cell": "black with a dim middle dot",
                 "tiles_with_the_empty_background": [2, 4, 8],
                 "tiles_sharing_one_background": "4096 and above (grey)"},
}


def edges(box: Box) -> list[float]:
    return [box.x, box.y, box.x + box.w, box.y + box.h]
