"""`screenbot read`: print the board read from the live screen or a screenshot."""

from __future__ import annotations

import argparse
import json

from screenbot.board_state import BoardState
from screenbot.commands.ocr_args import add_tesseract_argument, need_tesseract
from screenbot.game.rules import format_board
from screenbot.paths import default_profile_path

EXIT_NO_BOARD = 3


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "read",
        help="read the board from the screen (or a screenshot) and print it",
        description="Read the 2048 board from the live screen or a screenshot with the saved profile "
                    "(found on the fly when there is none) and print it.",
    )
    p.add_argument("--image", metavar="PNG", help="read a saved screenshot instead of the live screen")
    p.add_argument("--profile", metavar="PATH", help=f"the calibration profile (default: {default_profile_path()})")
    p.add_argument("--json", action="store_true", help='print {"board": [[...]], "state": ..., "rect": [x, y, w, h]}')
    add_tesseract_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    need_tesseract(args)
    from screenbot.board_source import open_session, save_diagnostic

    with open_session(args.image, args.profile) as session:
        reading = session.read()
    if args.json:
        print(json.dumps(reading.as_json()))
    else:
        if reading.grid is not None:
            print(format_board(reading.grid))
        line = f"state: {reading.state}"
        if reading.detail:
            line += f" ({reading.detail})"
        if session.found_now:
            line += "; board found on the fly (run `screenbot calibrate` to save a profile)"
        print(line)
    if reading.state == BoardState.NO_BOARD:
        path = save_diagnostic(session.frame, BoardState.NO_BOARD)
        from screenbot.errors import ScreenbotError

        err = ScreenbotError(
            "no board where the profile says: run `screenbot calibrate` again"
            + (f" (the picture is kept at {path})" if path else "")
        )
        err.exit_code = EXIT_NO_BOARD
        raise err
    return 0
