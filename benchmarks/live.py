"""Live play speed on the rig: the practice page's own timing, then moves/s and misreads over a game.

    .venv/bin/python -m benchmarks.live [--seed S] [--max-moves N] [--anim A] [--theme T] [--zoom Z]
                                        [--board "..." [--score N]] [--keys K] [--player NAME] [--progress N] [--json]

Starts Xvfb + Chromium with the practice board (real animation speed unless --anim), measures
key -> first change -> board still for K keys, then calibrates and plays (to game over unless
--max-moves) with play's player (--player to choose another), and prints medians: read, think and
wait time per move, key-to-key time, moves/s, and misreads counted against the page's own record
of the game.
"""

from __future__ import annotations

import argparse
import json
import signal
import statistics
import sys
import time

import numpy as np

from screenbot.commands.player_args import add_player_argument, player_from_args


class MemoryPeaks:
    """This process's resident memory, sampled every `every_s` in a thread (Linux: /proc/self/status):
    the peaks of RssAnon (its own memory, which the OS cannot drop) and RssFile (pages of files, e.g.
    the mapped tables, which it can drop and read again), in MB."""

    FIELDS = ("RssAnon", "RssFile", "VmRSS")

    def __init__(self, every_s: float = 0.2) -> None:
        import threading

        self.peaks = {name: 0 for name in self.FIELDS}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(every_s,), daemon=True)
        self._thread.start()

    def sample(self) -> None:
        try:
            with open("/proc/self/status") as f:
                for line in f:
                    name, _, value = line.partition(":")
                    if name in self.peaks:
                        self.peaks[name] = max(self.peaks[name], int(value.split()[0]) // 1024)
        except OSError:
            pass

    def _run(self, every_s: float) -> None:
        while not self._stop.wait(every_s):
            self.sample()

    def stop(self) -> dict:
        self._stop.set()
        self._thread.join()
        self.sample()
        return {f"{name.lower()}_mb_peak": mb for name, mb in self.peaks.items()}


def page_timing(rig, screen, keyboard, board, keys: int) -> dict:
    """Key -> first changed frame -> last changed frame (board still), in ms, over `keys` real moves."""
    from screenbot.game.rules import legal_moves

    first, still = [], []
    for i in range(keys):
        legal = legal_moves(rig.grid())
        if not legal:
            break
        before = screen.grab(board).pixels
        previous, last_change, first_change = before, None, None
        t0 = time.perf_counter()
        keyboard.press(legal[i % len(legal)])
        while True:
            now = time.perf_counter() - t0
            pixels = screen.grab(board).pixels
            if not np.array_equal(pixels, previous):
                last_change = now
                if first_change is None:
                    first_change = now
                previous = pixels
            if now > 0.8 or (last_change is not None and now - last_change > 0.15):
                break
        if first_change is not None:
            first.append(first_change * 1000)
            still.append(last_change * 1000)
        time.sleep(0.05)
    med = lambda xs: round(statistics.median(xs), 1) if xs else None  # noqa: E731
    return {"keys": len(first), "first_change_ms": med(first), "still_ms": med(still),
            "first_change_ms_range": [round(min(first)), round(max(first))] if first else None,
            "still_ms_range": [round(min(still)), round(max(still))] if still else None}


class Progress:
    """Every `every` moves, one line on stderr: moves, max tile, and the last stretch's key-to-key
    and search medians (a full game takes a while)."""

    def __init__(self, every: int) -> None:
        self.every = every
        self.done = 0

    def __call__(self, player) -> None:
        moves = player.tracker.moves
        if not self.every or moves < self.done + self.every:
            return
        self.done = moves
        gaps = np.diff(player.stats.key_times[-self.every:]) * 1000
        search = [t.agent_ms for t in player.stats.timings[-self.every:]]
        print(f"  {moves} moves, max tile {max(max(r) for r in player.tracker.board)}: last {self.every} key to key "
              f"median {statistics.median(gaps):.1f} ms, search median {statistics.median(search):.1f} ms",
              file=sys.stderr, flush=True)


def _interrupt(signum, frame):
    # stop play cleanly (it prints its figures) when the run is ended from outside; once: a second
    # signal must not break the clean-up
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise KeyboardInterrupt


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2048)
    parser.add_argument("--max-moves", type=int, default=None, help="stop after N moves (default: a full game)")
    parser.add_argument("--anim", type=float, default=None, help="practice page animation multiplier (default 1)")
    parser.add_argument("--keys", type=int, default=20, help="keys used to measure the page's timing")
    parser.add_argument("--budget-ms", type=float, default=None)
    parser.add_argument("--depth-cap", help="cap the agent's adaptive depth: N or endgame (default: the agent's)")
    parser.add_argument("--deepen-gap", type=float, default=None, help="close calls deepen past the cap (default: the agent's; 0: off)")
    parser.add_argument("--deepen-ms", type=float, default=None, help="... within this long from the decision's start (default: the budget)")
    add_player_argument(parser)
    parser.add_argument("--theme", default="classic", help="practice page theme (classic or dark)")
    parser.add_argument("--zoom", type=float, default=1.0, help="browser zoom factor")
    parser.add_argument("--board", default=None, help='start from this board ("2 0 0 4 / ..."), e.g. a crowded late-game one')
    parser.add_argument("--score", type=int, default=None, help="the score shown with --board")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of the figures")
    parser.add_argument("--progress", type=int, default=500, help="a progress line every N moves (0: none)")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, _interrupt)

    from screenbot.control.keyboard import XTestKeyboard
    from screenbot.control.screen import MssScreen
    from screenbot.play.demo import misreads_against_page
    from screenbot.play.loop import PlaySettings, Player
    from screenbot.play.live_parts import open_live
    from screenbot.board_source import calibrate_live
    from screenbot.game.rules import parse_board
    from screenbot.practice.rig import Rig

    rig_options = dict(seed=args.seed, anim=args.anim, theme=args.theme, zoom=args.zoom, export_env=True)
    if args.zoom > 1.0:
        rig_options["screen"] = (1600, 1200)  # room for the zoomed board
    with Rig(**rig_options) as rig:
        with MssScreen() as screen:
            board = rig.board_rect()
            keyboard = XTestKeyboard(board)
            timing = page_timing(rig, screen, keyboard, board, args.keys)
            keyboard.close()
            start = None if args.board is None else [list(row) for row in parse_board(args.board)]
            # a fresh game for the play part; one that starts past 2048 has had its "Keep going"
            keep = 1 if start is not None and max(max(row) for row in start) >= 2048 else None
            rig.load(seed=args.seed, board=start, score=args.score, keep=keep)
            rig.wait_still()
            profile = calibrate_live(screen)
        # as `screenbot play --player NAME` makes it: its tables (if any) come in the background
        memory = MemoryPeaks()
        agent = player_from_args(args, background=True, depth_cap=args.depth_cap, deepen_gap=args.deepen_gap,
                                 deepen_ms=args.deepen_ms)
        later = getattr(agent, "later", None)
        from screenbot.agent.corner import CornerAgent

        player_name = args.player if isinstance(agent, CornerAgent) or args.player == "plain" else "plain"  # fell back
        taken_at = []
        status = Progress(args.progress)

        def after_move(player) -> None:
            status(player)
            if later is not None and not taken_at and agent.block is not None:
                taken_at.append(player.tracker.moves)
        parts = open_live(profile=profile)
        try:
            player = Player(parts.eyes, parts.keyboard, PlaySettings(max_moves=args.max_moves, budget_ms=args.budget_ms,
                                                                  depth_cap=args.depth_cap, deepen_gap=args.deepen_gap,
                                                                  deepen_ms=args.deepen_ms, player=player_name),
                            agent, focus_watch=parts.focus_watch, status=after_move)
            summary = player.play()
        finally:
            parts.close()
            peaks = memory.stop()
        state = rig.state()
        if summary.reason.startswith("interrupted") and len(state.get("history", [])) == player.tracker.moves + 1:
            state["history"] = state["history"][:-1]  # the key pressed just before the interrupt: not watched
        page_misreads = misreads_against_page(player.tracker.history, state)

    stats = player.stats
    gaps = np.diff(stats.key_times) * 1000
    thinks = np.array([t.think_ms for t in stats.timings]) if stats.timings else np.zeros(0)
    waited = thinks[thinks > 1.0]  # moves where play waited for the agent after the board was read
    elapsed_s = stats.key_times[-1] - stats.key_times[0] if len(stats.key_times) > 1 else 0.0
    thinker = player.thinker
    key_gaps = [round(float(np.percentile(gaps, q)), 1) for q in (10, 90)] if len(gaps) else None
    figures = {
        "page": timing,
        "theme": args.theme,
        "depth_cap": args.depth_cap,
        "deepen_gap": args.deepen_gap,
        "deepen_ms": args.deepen_ms,
        "search_threads": player.agent.threads,
        "player": player_name,
        "zoom": args.zoom,
        "moves": summary.moves,
        "reason": summary.reason,
        "score": summary.score,
        "max_tile": summary.max_tile,
        "moves_per_s": summary.moves_per_s,
        "misreads_vs_page": page_misreads,
        "rereads": summary.misreads,
        "read_ms_median": summary.read_ms_median,
        "think_ms_median": summary.think_ms_median,
        "search_ms_median": summary.agent_ms_median,
        "search_ms_max": summary.agent_ms_max,
        "wait_ms_median": summary.wait_ms_median,
        "key_to_key_ms_median": summary.move_ms_median,
        "key_to_key_ms_p10_p90": key_gaps,
        "read_while_growing": summary.early_reads,
        "moves_waiting_for_agent": int(len(waited)),
        "agent_wait_s": round(float(waited.sum()) / 1000, 1),
        "play_s": round(elapsed_s, 1),
        "guesses_cancelled": getattr(thinker, "cancelled", 0),
        "decisions_ready_ahead": getattr(thinker, "ahead", 0),
        "depths": summary.depths,  # the depth of each move's search: depth -> moves
        **peaks,
        # play's tables: the move they were taken at (None: not taken), and how they came
        "tables_taken_at_move": taken_at[0] if taken_at else None,
        "tables_load_s": round(later.load_seconds, 2) if later is not None and later.load_seconds else None,
        "tables_note_at_end": later.note() if later is not None else None,
    }
    print(f"page timing over {timing['keys']} keys: first change {timing['first_change_ms']} ms "
          f"(range {timing['first_change_ms_range']}), still {timing['still_ms']} ms (range {timing['still_ms_range']})")
    cap = "the agent's default depth" if args.depth_cap is None else f"depth capped at {args.depth_cap}"
    print(f"played {summary.moves} moves ({summary.reason}): score {summary.score}, max tile {summary.max_tile}  "
          f"[{cap}, {figures['search_threads']} search thread(s)]")
    print(f"moves/s {summary.moves_per_s}  (key to key median {summary.move_ms_median} ms, 10%-90% {key_gaps}; "
          f"target >= 6 moves/s, <= ~165 ms)")
    print(f"per move, median: read {summary.read_ms_median} ms  think {summary.think_ms_median} ms  "
          f"wait {summary.wait_ms_median} ms   (the agent's own search: median {summary.agent_ms_median} ms, "
          f"longest {summary.agent_ms_max} ms, mostly while the tiles moved)")
    print(f"new tiles read while growing: {summary.early_reads} of {summary.moves}")
    if summary.depths:
        print("search depth of the moves played: " + ", ".join(f"{d}: {n}" for d, n in summary.depths.items()))
    print(f"waited for the agent after the board was read: {len(waited)} moves, {waited.sum() / 1000:.1f} s of "
          f"{elapsed_s:.1f} s of play; decisions ready (or under way) before asked: {figures['decisions_ready_ahead']}, "
          f"guesses cancelled half-way: {figures['guesses_cancelled']}")
    print(f"misreads against the page's record: {page_misreads} (target 0); boards re-read: {summary.misreads}")
    print(f"memory, peak: RssAnon {peaks['rssanon_mb_peak']} MB, RssFile {peaks['rssfile_mb_peak']} MB; tables taken at "
          f"move {figures['tables_taken_at_move']} ({figures['tables_note_at_end'] or 'no note at the end'})")
    if args.json:
        print(json.dumps(figures))
    return 0 if page_misreads == 0 and summary.ok else 1


if __name__ == "__main__":
    sys.exit(main())
