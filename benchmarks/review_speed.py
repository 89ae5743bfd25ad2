#!/usr/bin/env python3
"""Review speed: how long `screenbot review` takes on a long screen video, against the video's own length.

    .venv/bin/python -m benchmarks.review_speed [--minutes M] [--fps F] [--pace S] [--seed S] [--keep DIR]
                                                [--no-decode-pass] [--json FILE]
    .venv/bin/python -m benchmarks.review_speed --video FILE [--json FILE]

Without --video it first records one: Xvfb + Chromium with the practice board at its real animation
speed, a scripted player at a human pace (--pace s a move, +-10 % from a seeded RNG; the depth-2
agent's move, every 7th move the legal move it values least), the board and a margin filmed at
--fps for --minutes; a game that ends is followed by a new one (the next seed): a cut the review
counts as a gap. The video (and, with --keep, the page's record of the games beside it as
VIDEO.page.json, so a later `--video VIDEO` is checked too) goes to --keep DIR or a temp folder.

Then it times `review()` on the video, the code `screenbot review VIDEO` runs, at its defaults
(play's player, --player to choose another; adaptive depth, no time limit; the player's tables and
search kernel loaded before the clock starts), and prints the video's length, the review's wall time and its ratio
to the video's time (the issue's target: below 1), frames read and skipped as unchanged, distinct
boards searched, moves rebuilt, gaps, the moves checked against the page's own history, and the
time split: vision reading, search, and the rest (decoding, the unchanged-frame test, calibration,
rebuilding); a second pass that only decodes the video gives decoding's own share.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from screenbot.agent.players import DEFAULT_PLAYER, PLAYERS

BAD_EVERY = 7  # moves 7, 14, 21, ...: the legal move the player's agent values least
JITTER = 0.1  # the pace varies by up to +-10 %
MARGIN = 8  # px of page around the board in the video (calibration sees the board's edge)


def record(args, video: Path) -> dict:
    """Play and film for args.minutes; returns the recorder's figures and the page's record of every game."""
    from screenbot.agent.search import ExpectimaxAgent
    from screenbot.game.rules import legal_moves
    from screenbot.play.demo import page_boards
    from screenbot.practice.recorder import VideoRecorder
    from screenbot.practice.rig import Rig

    rng = random.Random(args.seed)
    agent = ExpectimaxAgent(threads=1)
    games, played, bad = [], 0, 0
    seed = args.seed

    def keep_game(state: dict) -> None:
        boards = page_boards(state)
        games.append({"seed": seed, "boards": [[list(r) for r in b] for b in boards],
                      "moves": list(state["history_moves"])})

    with Rig(seed=seed, keep=True) as rig:
        region = rig.board_rect().inset(-MARGIN)
        recorder = VideoRecorder(rig.display, region, video, args.fps)
        recorder.start()
        in_game = 0
        end = time.monotonic() + args.minutes * 60
        try:
            time.sleep(0.5)  # the first board on film
            while time.monotonic() < end and recorder.is_alive():
                board = rig.grid()
                if not legal_moves(board):  # game over: a new game, a cut in the video
                    keep_game(rig.state())
                    time.sleep(1.0)  # the "Game over" overlay on film
                    seed += 1
                    rig.load(seed=seed, board=None, score=None)
                    rig.wait_still()
                    if rig.board_rect().inset(-MARGIN) != region:
                        print(f"warning: the new game's board is not where it was filmed ({rig.board_rect()})",
                              file=sys.stderr)
                    in_game = 0
                    continue
                decision = agent.choose(board, depth=2)
                move = decision.move
                played += 1
                if played % BAD_EVERY == 0 and len(decision.values) > 1:
                    move = min(decision.values, key=decision.values.get)
                    bad += 1
                pressed = time.monotonic()
                rig.press(move)
                in_game += 1
                rig.wait_for_moves(in_game)
                pace = args.pace * (1 + rng.uniform(-JITTER, JITTER))
                time.sleep(max(0.0, pressed + pace - time.monotonic()))
            time.sleep(0.5)  # the last board on film
        finally:
            recorder.stop()
        keep_game(rig.state())
    if recorder.error is not None:
        raise SystemExit(f"the recorder failed: {recorder.error}")
    return {"moves_played": played, "bad_moves": bad, "games": games,
            "recorder": {"frames": recorder.frames, "repeated": recorder.repeated, "grabbed": recorder.grabbed,
                         "grabbed_per_s": round(recorder.grabbed / recorder.seconds, 2) if recorder.seconds else None,
                         "wall_s": round(recorder.seconds, 2), "region": region.as_list()}}


def check_against_page(moves: list, games: list) -> dict:
    """The rebuilt moves against the page's history: those played on a board the page showed with the
    move the page made there; and the page's moves found among the rebuilt ones."""
    from screenbot.coach.rebuild import explain
    from screenbot.game.rules import to_grid

    page = Counter()
    ambiguous = 0  # page moves that leave a board another move could also have left: a gap for anyone
    for game in games:
        boards = [to_grid(b) for b in game["boards"]]
        page.update(zip(boards, game["moves"]))
        ambiguous += sum(1 for a, b in zip(boards, boards[1:]) if explain(a, b).kind != "one")
    shown = {board for board, _ in page}
    rebuilt = Counter((j.board, j.move.key) for j in moves)
    matching = sum(n for pair, n in rebuilt.items() if pair in page)
    wrong_move = sum(n for (board, key), n in rebuilt.items() if (board, key) not in page and board in shown)
    found = sum(min(n, rebuilt[pair]) for pair, n in page.items())
    return {"page_moves": sum(page.values()), "page_moves_found": found, "rebuilt_matching": matching,
            "rebuilt_wrong_move": wrong_move, "rebuilt_on_unseen_board": len(moves) - matching - wrong_move,
            "page_moves_ambiguous": ambiguous, "games": len(games)}


def decode_only(video: Path) -> tuple[int, float]:
    """Frames and seconds to decode the whole video with OpenCV, nothing else."""
    import cv2

    capture = cv2.VideoCapture(str(video))
    t0 = time.perf_counter()
    n = 0
    try:
        while capture.read()[0]:
            n += 1
    finally:
        capture.release()
    return n, time.perf_counter() - t0


def timed_review(video: Path, judge) -> tuple[object, dict]:
    """review(video) with `judge` (`screenbot review`'s, see make_judge), vision's reads and the searches timed."""
    from screenbot.coach.review import review
    from screenbot.vision import read_board

    clock = {"read_s": 0.0, "search_s": 0.0, "searches_ms": judge.searches_ms}

    def read(frame, profile):
        t0 = time.perf_counter()
        try:
            return read_board(frame, profile)
        finally:
            clock["read_s"] += time.perf_counter() - t0

    t0 = time.perf_counter()
    result = review(video, judge, read=read)
    clock["total_s"] = time.perf_counter() - t0
    clock["search_s"] = sum(clock["searches_ms"]) / 1000
    return result, clock


def make_judge(player: str):
    """`screenbot review`'s judge with `player`, its tables loaded and its search kernel (numba) loaded in
    this process, so the review's time leaves both out whether or not this run recorded the video first;
    (judge, seconds that took)."""
    from screenbot.coach.evaluate import Judge

    class TimedJudge(Judge):
        """Keeps each new board's search time in `searches_ms`."""

        def __init__(self, **kwargs) -> None:
            super().__init__(**kwargs)
            self.searches_ms: list[float] = []

        def decision(self, board):
            new = board not in self.cache
            t0 = time.perf_counter()
            try:
                return super().decision(board)
            finally:
                if new:
                    self.searches_ms.append((time.perf_counter() - t0) * 1000)

    t0 = time.perf_counter()
    judge = TimedJudge(player=player)
    judge.agent.warm_up()
    return judge, time.perf_counter() - t0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--video", type=Path, help="review this video instead of recording one")
    parser.add_argument("--minutes", type=float, default=10.0, help="length of the recording (default 10)")
    parser.add_argument("--fps", type=float, default=30.0, help="frames a second of the recording (default 30)")
    parser.add_argument("--pace", type=float, default=0.5, help="seconds from one key to the next (default 0.5, +-10 %%)")
    parser.add_argument("--seed", type=int, default=7, help="the first game's seed and the pace's (default 7)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="record into DIR and keep the video (default: a temp folder)")
    parser.add_argument("--no-decode-pass", action="store_true", help="skip the second, decode-only pass over the video")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the figures as one JSON object to FILE")
    parser.add_argument("--player", default=DEFAULT_PLAYER, choices=tuple(PLAYERS),
                        help=f"the judging player (default {DEFAULT_PLAYER!r}, review's)")
    args = parser.parse_args(argv)

    import cv2

    figures: dict = {}
    games = None
    with tempfile.TemporaryDirectory(prefix="review-speed-") as tmp:
        if args.video is not None:
            video = args.video
            page_file = video.with_name(video.name + ".page.json")
            if page_file.is_file():
                games = json.loads(page_file.read_text())["games"]
        else:
            folder = args.keep or Path(tmp)
            folder.mkdir(parents=True, exist_ok=True)
            video = folder / f"review_speed_seed{args.seed}_{args.minutes:g}min_{args.fps:g}fps.mp4"
            print(f"recording {args.minutes:g} min at {args.fps:g} fps, a move every {args.pace:g} s -> {video}",
                  flush=True)
            recorded = record(args, video)
            games = recorded.pop("games")
            figures["recording"] = recorded
            if args.keep:
                page_file = video.with_name(video.name + ".page.json")
                page_file.write_text(json.dumps({"games": games}))
            rec = recorded["recorder"]
            print(f"recorded: {recorded['moves_played']} moves ({recorded['bad_moves']} deliberately bad) in "
                  f"{len(games)} game(s); {rec['frames']} frames over {rec['wall_s']} s of wall time, "
                  f"{rec['repeated']} of them repeated because a grab fell behind the clock "
                  f"({rec['grabbed_per_s']} pictures grabbed a second)")

        capture = cv2.VideoCapture(str(video))
        frames, fps = int(capture.get(cv2.CAP_PROP_FRAME_COUNT)), float(capture.get(cv2.CAP_PROP_FPS) or 0)
        capture.release()
        video_s = frames / fps if fps else None
        figures["video"] = {"path": str(video), "frames": frames, "fps": round(fps, 3),
                            "seconds": None if video_s is None else round(video_s, 2),
                            "bytes": video.stat().st_size}
        judge, figures["judge_load_s"] = make_judge(args.player)
        figures["judge_load_s"] = round(figures["judge_load_s"], 3)
        figures["load_average_before"] = [round(x, 2) for x in os.getloadavg()]

        result, clock = timed_review(video, judge)
        stats, searches = result.stats, clock["searches_ms"]
        total, read_s, search_s = clock["total_s"], clock["read_s"], clock["search_s"]
        gap_kinds = Counter(g.kind for g in result.game.gaps)
        figures["review"] = {
            "wall_s": round(total, 2), "ratio_to_video": None if not video_s else round(total / video_s, 4),
            "read_s": round(read_s, 2), "search_s": round(search_s, 2),
            "other_s": round(total - read_s - search_s, 2),
            "frames": stats.frames, "frames_read": stats.read, "frames_unchanged": stats.unchanged,
            "frames_not_still": stats.not_still, "calibration_tries": stats.calibration_tries,
            "boards_believed": result.game.boards, "boards_searched": result.search["searches"],
            "search_ms_median": round(sorted(searches)[len(searches) // 2], 2) if searches else None,
            "search_ms_max": round(max(searches), 2) if searches else None,
            "search_longest_is": searches.index(max(searches)) + 1 if searches else None,  # the Nth board searched
            "moves_rebuilt": len(result.moves), "gaps": len(result.game.gaps), "gap_kinds": dict(gap_kinds),
            "two_move_jumps": result.game.two_move_jumps, "bridged_jumps": result.game.bridged,
            "search_settings": {k: v for k, v in result.search.items() if k != "searches"},
        }
        figures["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
        if games is not None:
            figures["page"] = check_against_page(result.moves, games)
        if not args.no_decode_pass:
            decoded, decode_s = decode_only(video)
            figures["decode_only"] = {"frames": decoded, "seconds": round(decode_s, 2)}

    v, r = figures["video"], figures["review"]
    print(f"video: {v['frames']} frames at {v['fps']:g} fps = {v['seconds']} s ({v['bytes'] / 1e6:.1f} MB)")
    print(f"review: {r['wall_s']} s wall, {r['ratio_to_video']} of the video's time (target: below 1); "
          f"load average {figures['load_average_before'][0]} before, {figures['load_average_after'][0]} after")
    print(f"  frames: {r['frames']}, read {r['frames_read']}, skipped as unchanged {r['frames_unchanged']} "
          f"(not a still board: {r['frames_not_still']}; calibration tried on {r['calibration_tries']})")
    print(f"  boards: {r['boards_believed']} believed, {r['boards_searched']} distinct searched "
          f"(median {r['search_ms_median']} ms, longest {r['search_ms_max']} ms, "
          f"search no. {r['search_longest_is']})")
    print(f"  moves rebuilt {r['moves_rebuilt']}, gaps {r['gaps']} {r['gap_kinds'] or ''}, two-move jumps "
          f"{r['two_move_jumps']}, bridged {r['bridged_jumps']}")
    print(f"  time: vision reading {r['read_s']} s, search {r['search_s']} s, the rest {r['other_s']} s "
          f"(decoding, unchanged-frame test, calibration, rebuild)")
    if "decode_only" in figures:
        d = figures["decode_only"]
        print(f"  decoding alone (a second pass): {d['seconds']} s for {d['frames']} frames")
    if "page" in figures:
        p = figures["page"]
        print(f"against the page ({p['games']} game(s)): {p['page_moves_found']} of {p['page_moves']} page moves "
              f"rebuilt; of the rebuilt, {p['rebuilt_matching']} match the page, {p['rebuilt_wrong_move']} name "
              f"another move, {p['rebuilt_on_unseen_board']} stand on a board the page never showed; page moves "
              f"no picture can tell apart: {p['page_moves_ambiguous']}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
        print(f"json: {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
