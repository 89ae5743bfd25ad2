"""`screenbot coach`: follows the game a person plays on the screen, says how good each move was, presses nothing."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path

from screenbot.commands.ocr_args import add_tesseract_argument, need_tesseract
from screenbot.commands.review import add_judge_options, judge_from, judge_options
from screenbot.errors import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "coach",
        help="watch a person play the game on the screen: each move judged as it lands",
        description="Follows the 2048 game on the screen while you play it, infers each move from the boards "
                    "(several moves between two looks too, where the rules allow only one way), and prints one "
                    "line per move: your move, play's player's, and the share of the best move's expected value "
                    "given up. Ends at game over or Ctrl-C and writes the review (report.html, loss.png, "
                    "review.json). Never presses a key or clicks.",
    )
    p.add_argument("--profile", metavar="PATH", help="calibration profile (default: the saved one, or find the board now)")
    p.add_argument("--advise", action="store_true", help="also say the best move for the board on screen before you move")
    p.add_argument("--out", metavar="DIR",
                   help="write review.json, report.html and loss.png here (default: a new folder under the user "
                        "data folder, named by the time)")
    p.add_argument("--json", metavar="FILE", help="also write the review's JSON object to FILE")
    p.add_argument("--max-moves", type=int, metavar="N", help="end after following N moves")
    p.add_argument("--seconds", type=float, metavar="S", help="end after S seconds")
    add_judge_options(p)
    add_tesseract_argument(p)
    p.set_defaults(func=run)


def default_out_dir() -> Path:
    """platformdirs' user data dir for screenbot / coach / <date-time>."""
    import platformdirs

    return Path(platformdirs.user_data_dir("screenbot")) / "coach" / datetime.now().strftime("%Y%m%d-%H%M%S")


def _write(review, out: Path, json_path: str | None) -> list[str]:
    """Write the review; lines saying where. The report's plot needs matplotlib (the `plot` extra)."""
    from screenbot.coach.report import write_json, write_report

    lines = [f"json: {write_json(review, out / 'review.json')}"]
    if json_path:
        lines.append(f"json: {write_json(review, json_path)}")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        lines.append("report: not drawn (pip install 'screenbot[plot]' for report.html and loss.png)")
        return lines
    page, _ = write_report(review, out)
    lines.append(f"report: {page}")
    return lines


def run(args: argparse.Namespace) -> int:
    options = judge_options(args)
    if args.max_moves is not None and args.max_moves < 1:
        raise UsageError("--max-moves must be 1 or more")
    if args.seconds is not None and args.seconds <= 0:
        raise UsageError("--seconds must be more than 0")
    need_tesseract(args)  # before the board is searched
    out = Path(args.out).expanduser() if args.out else default_out_dir()
    if args.out:
        from screenbot.coach.report import check_plotting

        check_plotting()
    from screenbot.coach.evaluate import percent
    from screenbot.coach.live import Coach, CoachSettings
    from screenbot.control.desktop import check_desktop
    from screenbot.play.eyes import ScreenEyes
    from screenbot.board_source import open_session

    check_desktop(keys=False)  # the coach only looks
    with open_session(profile=args.profile, keep_new=True) as session:  # no board: one line, before any search
        judge = judge_from(args, options, session.profile.shape)
        if judge.agent is not None:
            judge.agent.warm_up()
        eyes = ScreenEyes(session.screen, session.profile)
        rect = session.profile.board_rect
        print(f"coach: the board is at {rect.x},{rect.y} ({rect.w}x{rect.h}); reading it...", flush=True)
        settings = CoachSettings(advise=args.advise, max_moves=args.max_moves, seconds=args.seconds)
        # said once the first board is read still: a move played before that could not be followed
        ready = "coach: following the board; play when you like. It presses nothing. Ctrl-C ends and writes the review."
        coach = Coach(eyes, judge, settings, say=lambda line: print(line, flush=True), ready=ready)
        coach.stats.calibrated_on = "found now" if session.found_now else str(session.profile_path or "profile")
        coach.stats.board_rect = rect.as_list()
        result = coach.run()
        session.save_learned()
    if judge.agent is not None:
        judge.agent.close()
    review = result.review
    gaps = len(review.game.gaps)
    print(f"{result.ended}: {len(review.moves)} moves followed in {result.seconds:.0f} s, {gaps} gap{'s' if gaps != 1 else ''}, "
          f"accuracy {percent(review.accuracy)} (the agent's move played)")
    print("\n".join(review.summary_lines()))
    for line in _write(review, out, args.json):
        print(line)
    sys.stdout.flush()
    return 0
