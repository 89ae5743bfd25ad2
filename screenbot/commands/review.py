"""`screenbot review SOURCE`: rebuilds a recorded game move by move and judges each move against the agent."""

from __future__ import annotations

import argparse

from screenbot.agent.limits import MAX_FIXED_DEPTH, check_budget, check_depth, check_depth_cap
from screenbot.commands.ocr_args import add_tesseract_argument, need_tesseract
from screenbot.commands.player_args import add_player_argument, player_tables
from screenbot.errors import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "review",
        help="review a recorded game: every move judged against play's player",
        description="Rebuilds a game from a video (MP4/WebM/AVI), a folder of screenshots or a "
                    "`screenbot play --record` folder, infers each move from the boards on the frames, and "
                    "judges it against the player `screenbot play` plays: the loss is the share of the best "
                    "move's expected value the move gave up. Presses nothing.",
    )
    p.add_argument("source", metavar="SOURCE", help="a video file, a folder of screenshots, or a recording folder")
    p.add_argument("--json", metavar="FILE", help="write the review as one JSON object")
    p.add_argument("--out", metavar="DIR", help="write report.html (the worst moves drawn) and loss.png in DIR")
    add_judge_options(p)
    p.add_argument("--still-frames", type=int, metavar="N",
                   help="frames in a row that must show a board before it is believed (default: 2 in a video, "
                        "1 for screenshots and recordings)")
    p.add_argument("--frames-only", action="store_true",
                   help="a recording: rebuild from its frames alone, not the boards its log holds")
    add_tesseract_argument(p)
    p.set_defaults(func=run)


def add_judge_options(p: argparse.ArgumentParser) -> None:
    """The player and the search that judge the moves (review and coach)."""
    add_player_argument(p)
    p.set_defaults(player=None)  # none named: the one play plays on the game's board size
    p.add_argument("--depth", metavar="D", default="adaptive",
                   help=f"search depth 0..{MAX_FIXED_DEPTH}, or 'adaptive' (default: what `play` uses, no time limit)")
    p.add_argument("--depth-cap", metavar="D", help="cap the adaptive depth at D (default 6; 'endgame': 6 until a 16384 is on the board, no cap after)")
    p.add_argument("--budget-ms", type=float, metavar="B",
                   help="think at most B ms per board (faster, but the losses then depend on the machine's load)")


def judge_options(args: argparse.Namespace) -> dict:
    """--player, --depth, --depth-cap and --budget-ms, checked, as Judge's keyword arguments (the player's
    name and tables are worked out when the judge is made: `judge_from`)."""
    return {"player": args.player, "depth": check_depth(args.depth, "--depth"),
            "depth_cap": check_depth_cap(args.depth_cap, "--depth-cap"),
            "budget_ms": check_budget(args.budget_ms, "--budget-ms")}


def judge_from(args: argparse.Namespace, options: dict, shape: tuple[int, int] = (4, 4)):
    """The Judge of these options for boards of `shape`: --player, or the one play plays on that size
    (a named player of another size: one line); on 4x4 its tables loaded (built first with a progress bar)."""
    from screenbot.agent.players import player_for
    from screenbot.coach.evaluate import Judge

    args.player = player_for(args.player, shape)
    if tuple(shape) != (4, 4):  # the corner tables are 4x4's
        return Judge(**{**options, "player": args.player}, shape=tuple(shape))
    name, tables = player_tables(args)
    return Judge(**{**options, "player": name}, tables=tables)


def run(args: argparse.Namespace) -> int:
    options = judge_options(args)
    if args.still_frames is not None and args.still_frames < 1:
        raise UsageError("--still-frames must be 1 or more")
    need_tesseract(args)  # every source's frames are read, a long video's too: not to stop part way
    from screenbot.coach.evaluate import percent
    from screenbot.coach.report import check_plotting, write_json, write_report
    from screenbot.coach.review import review

    if args.out:
        check_plotting()
    result = review(args.source, lambda shape: judge_from(args, options, shape), args.still_frames,
                    use_log=not args.frames_only)
    print(f"{len(result.moves)} moves rebuilt, {len(result.game.gaps)} gap{'s' if len(result.game.gaps) != 1 else ''}, "
          f"accuracy {percent(result.accuracy)} (the agent's move played)")
    print("\n".join(result.summary_lines()))
    if args.json:
        print(f"json: {write_json(result, args.json)}")
    if args.out:
        page, _ = write_report(result, args.out)
        print(f"report: {page}")
    return 0
