"""`screenbot demo`: plays the built-in practice board live and writes a short animated recording."""

from __future__ import annotations

from screenbot.agent.players import DEMO_PLAYER
from screenbot.commands.ocr_args import add_tesseract_argument, need_tesseract
from screenbot.commands.player_args import add_player_argument
from screenbot.errors import UsageError

DEFAULT_MOVES = 300


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "demo",
        help="play the practice board live (a virtual display when there is no screen) and record it",
        description="With a screen, opens the practice board in a browser window and plays it. With no "
        "screen, starts a virtual display (Xvfb) and Chromium itself. Writes an animated GIF, the move log "
        "and a summary.",
    )
    how_long = p.add_mutually_exclusive_group()
    how_long.add_argument("--moves", type=int, metavar="N", help=f"moves to play (default {DEFAULT_MOVES})")
    how_long.add_argument("--to-end", action="store_true", help="play until the game is over")
    p.add_argument("--out", metavar="DIR", default="out/demo", help="where to write the recording (default out/demo)")
    p.add_argument("--seed", type=int, help="the practice board's seed (default: from the clock)")
    p.add_argument("--theme", choices=("classic", "dark"), default="classic", help="the practice board's look")
    p.add_argument("--virtual", action="store_true", help="use a virtual display even when there is a screen")
    add_player_argument(p, default=DEMO_PLAYER, why="a demo shows a game at once and the same on every "
                        "machine, with no tables to make or map")
    add_tesseract_argument(p)
    p.set_defaults(func=run)


def run(args) -> int:
    if args.moves is not None and args.moves < 1:
        raise UsageError("--moves must be 1 or more")
    need_tesseract(args)  # a game to its end reaches tiles that share a colour
    from screenbot.commands.player_args import player_from_args
    from screenbot.play.demo import run_demo
    from screenbot.play.status_line import StatusLine

    moves = None if args.to_end else (args.moves or DEFAULT_MOVES)
    agent = player_from_args(args)
    status = StatusLine()
    result = run_demo(moves, args.out, seed=args.seed, theme=args.theme, status=status, force_virtual=args.virtual,
                      agent=agent)
    status.end()
    print(f"played on {result.where}")
    print(result.summary.text())
    print(f"boards that differ from the page's own record: {result.page_misreads}")
    if result.gif is not None:
        print(f"animation: {result.gif}")
    print(f"log: {result.log}   summary: {result.out / 'summary.json'}")
    return 0 if result.summary.ok and result.page_misreads == 0 else 1
