"""The one-command demo: the practice board in a browser (a virtual display when there is no screen), played live."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from screenbot.agent.players import DEMO_PLAYER
from screenbot.board_state import BoardState
from screenbot.errors import ScreenbotError
from screenbot.game.rules import to_grid
from screenbot.play.loop import PlaySettings, Player, Summary
from screenbot.play.record import LOG_NAME, MoveLog, Recording, write_gif

GIF_FRAMES = 72  # ~6 s at 12 frames/s: a short look at the whole game
GIF_FPS = 12
GIF_WIDTH = 200


class DemoError(ScreenbotError):
    """The demo could not start its browser or board."""


def page_boards(state: dict) -> list:
    """The boards the practice page reports for its current game: the start, then one per move."""
    start = state.get("start")
    return ([to_grid(start)] if start else []) + [to_grid(b) for b in state.get("history", [])]


def misreads_against_page(believed: list, state: dict) -> int:
    """How many boards the bot believed differ from the page's own record of the same game."""
    truth = page_boards(state)
    if not truth:
        return len(believed)
    n = min(len(believed), len(truth))
    wrong = sum(1 for a, b in zip(believed[:n], truth[:n]) if a != b)
    return wrong + abs(len(believed) - len(truth))


@dataclass
class FrameKeeper:
    """Keeps a small copy of the board after every move, for the animated GIF."""

    width: int = GIF_WIDTH
    frames: list = field(default_factory=list)

    def keep(self, pixels: np.ndarray) -> None:
        import cv2

        h, w = pixels.shape[:2]
        small = cv2.resize(pixels, (self.width, max(1, round(h * self.width / w))), interpolation=cv2.INTER_AREA)
        self.frames.append(small)

    def chosen(self, count: int = GIF_FRAMES, hold: int = GIF_FPS) -> list:
        if not self.frames:
            return []
        idx = np.linspace(0, len(self.frames) - 1, min(count, len(self.frames))).round().astype(int)
        picked = [self.frames[i] for i in idx]
        return picked + [picked[-1]] * hold


@dataclass
class DemoResult:
    summary: Summary
    out: Path
    gif: Path | None
    log: Path
    page_misreads: int
    where: str


def _browser_on_screen(url: str, tmp: Path) -> subprocess.Popen:
    """A fresh Chrome, Chromium or Edge window (its own profile) showing `url` on the user's screen,
    in a process group of its own."""
    from screenbot.practice.browser import find_browser
    from screenbot.practice.launch import browser_args
    from screenbot.practice.processes import own_group

    # the user's own screen scale: nothing forced
    args = browser_args(find_browser(), tmp / "profile", url, (40, 40), (720, 960), None, app=True)
    return subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, **own_group())


def _end(proc: subprocess.Popen | None) -> None:
    """End a browser this demo started, with every process under it (its tree, and on POSIX its group)."""
    from screenbot.practice.processes import end_tree

    end_tree(proc)


def _still_sight(eyes, timeout_s: float = 1.5):
    """The board once its last animation has ended (two looks 50 ms apart, pixel for pixel the
    same, and read as a board), for final.png; None if that does not happen in time."""
    import numpy as np

    deadline = time.monotonic() + timeout_s
    previous = None
    while time.monotonic() < deadline:
        try:
            sight = eyes.look()
        except Exception:  # the final picture is a nicety: never fail the demo over it
            return None
        if (previous is not None and sight.state != BoardState.UNSETTLED
                and np.array_equal(previous.frame.pixels, sight.frame.pixels)):
            return sight
        previous = sight
        time.sleep(0.05)
    return None


def _play(settings: PlaySettings, out: Path, keeper: FrameKeeper, status, wait_still, agent=None
          ) -> tuple[Summary, Player]:
    from screenbot.board_source import calibrate_live
    from screenbot.play.live_parts import open_live
    from screenbot.control.screen import MssScreen

    wait_still()
    with MssScreen() as screen:
        profile = calibrate_live(screen, out / "profile.json")
    parts = open_live(profile=profile)
    log = MoveLog(out / LOG_NAME)

    def after_move(player: Player) -> None:
        if player.last_sight is not None:
            keeper.keep(player.last_sight.frame.pixels)
        if status is not None:
            status(player)

    try:
        from screenbot.play.warm import QuickCorner

        # as play: the first moves do not wait for the search's compile on a fresh install
        player = Player(parts.eyes, parts.keyboard, settings, agent, focus_watch=parts.focus_watch,
                        record=Recording(log, stop_dir=out / "stop"), status=after_move, first_moves=QuickCorner())
        summary = player.play()
        final = _still_sight(parts.eyes) or player.last_sight
        if final is not None:
            final.frame.save(out / "final.png")
    finally:
        log.close()
        parts.close()
    return summary, player


def run_demo(moves: int | None, out: str | Path, seed: int | None = None, theme: str = "classic",
             status=None, force_virtual: bool = False, agent=None) -> DemoResult:
    """Play the practice board: on this screen when there is one, else on a virtual display. `agent`:
    the player (default: DEMO_PLAYER, which shows a game at once)."""
    from screenbot.control.desktop import desktop_problem

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    settings = PlaySettings(max_moves=moves, player=DEMO_PLAYER)
    keeper = FrameKeeper()
    seed = int(time.time()) % 100000 if seed is None else seed
    if desktop_problem() is None and not force_virtual:
        summary, player, state, where = _demo_on_screen(settings, out, keeper, status, seed, theme, agent)
    else:
        summary, player, state, where = _demo_virtual(settings, out, keeper, status, seed, theme, agent)
    page_misreads = misreads_against_page(player.tracker.history, state)
    gif = write_gif(keeper.chosen(), out / "demo.gif", fps=GIF_FPS, width=GIF_WIDTH)
    report = summary.as_dict() | {"page_misreads": page_misreads, "where": where, "seed": seed, "theme": theme}
    (out / "summary.json").write_text(json.dumps(report, indent=1) + "\n")
    return DemoResult(summary, out, gif, out / LOG_NAME, page_misreads, where)


def _demo_on_screen(settings, out, keeper, status, seed, theme, agent):
    from screenbot.practice.server import PracticeServer

    tmp = Path(tempfile.mkdtemp(prefix="screenbot-demo-"))
    browser = None
    try:
        with PracticeServer() as server:
            browser = _browser_on_screen(server.url(theme=theme, seed=seed), tmp)
            if server.state.wait_for(lambda s: s["ready"], 30) is None:
                raise DemoError("the browser did not show the practice board within 30 s")
            summary, player = _play(settings, out, keeper, status, lambda: time.sleep(1.0), agent)
            state = server.state.snapshot()
    finally:
        _end(browser)
        shutil.rmtree(tmp, ignore_errors=True)
    return summary, player, state, f"this screen ({os.environ.get('DISPLAY', 'desktop')})"


def _demo_virtual(settings, out, keeper, status, seed, theme, agent):
    from screenbot.practice.rig import Rig

    with Rig(seed=seed, theme=theme, export_env=True) as rig:
        summary, player = _play(settings, out, keeper, status, rig.wait_still, agent)
        state = rig.state()
    return summary, player, state, "a virtual display (Xvfb + Chromium)"
