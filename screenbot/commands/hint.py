"""`screenbot hint`: the best move for a board, with the expected value of each of the four moves."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from screenbot.agent.limits import DEEPEN_GAP_HELP, DEFAULT_DEEPEN_MS, MAX_FIXED_DEPTH, check_budget, check_deepen_gap, check_depth, check_depth_cap
from screenbot.commands.ocr_args import add_tesseract_argument, need_tesseract
from screenbot.agent.players import player_for
from screenbot.commands.player_args import add_player_argument
from screenbot.commands.endgame_tables import TABLES_HELP, ensure_tables
from screenbot.errors import BoardParseError, UsageError
from screenbot.game.rules import Grid, Move, format_board, parse_board
from screenbot.game.sizes import CLASSIC, size_of

if TYPE_CHECKING:
    from screenbot.agent import Decision
    from screenbot.agent.endgame import Suggestion


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "hint",
        help="print the best move for a board, with the expected value of every move",
        description="Search a board with the expectimax agent and print the best move and the expected "
                    "heuristic value of each of the four moves (illegal ones marked). The board is typed in "
                    "(--board), read from a screenshot (--image), or read from the live screen (neither); "
                    "nothing is ever pressed.",
    )
    source = p.add_mutually_exclusive_group()
    source.add_argument("--board", metavar='"2 0 0 4 / 0 0 0 0 / ..."',
                        help="16 tile values row by row (0 or . for empty), rows split by '/'")
    source.add_argument("--image", metavar="PNG", help="read the board from this screenshot")
    p.add_argument("--profile", metavar="PATH",
                   help="calibration profile for --image or the screen (default: the saved one, or find the board now)")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--budget-ms", type=float, metavar="B", help="thinking time (default: what `play` uses)")
    how.add_argument("--depth", metavar="D", help=f"search depth 0..{MAX_FIXED_DEPTH}, or 'adaptive' (no time limit)")
    p.add_argument("--depth-cap", metavar="D", help="cap the adaptive depth at D (default 6, what `play` uses; 40: nneonneo's rule uncapped; "
                   "'endgame': 6 until a 16384 is on the board, no cap after: stronger, slower)")
    p.add_argument("--deepen-gap", metavar="G", help=DEEPEN_GAP_HELP)
    p.add_argument("--deepen-ms", type=float, metavar="MS",
                   help=f"the deepening past the cap stops this long after the decision's start (default "
                        f"{DEFAULT_DEEPEN_MS:g}, what `play` uses; more gives deeper advice, slower)")
    p.add_argument("--endgame-tables", action="store_true",
                   help="also print each move's chance of building the next big tile with the big tiles kept in place, "
                        "from exact endgame tables (" + TABLES_HELP + "; the best move stays the search's)")
    add_player_argument(p)
    p.set_defaults(player=None)  # none named: the size's own (play's on 4x4)
    add_tesseract_argument(p)
    p.set_defaults(func=run)


# A hint is one decision, not one of a game's thousands: it may solve this many table states (a few
# seconds) where play's decisions stop at PLAY_SOLVE_BUDGET, so a board the tables have not met yet
# still gets their answer.
HINT_SOLVE_BUDGET = 5_000_000


def grid_from_args(args: argparse.Namespace) -> Grid:
    """The board to advise on: typed in (--board), on a screenshot (--image), or on the live screen."""
    if args.board is not None:
        if args.profile is not None:
            raise UsageError("--profile goes with --image or the live screen, not with --board")
        try:
            grid = parse_board(args.board)
        except ValueError as exc:
            raise BoardParseError(f"--board: {exc}") from None
        return grid
    from screenbot.board_source import read_grid

    if args.image is None:
        from screenbot.control.desktop import check_desktop

        check_desktop()
    return read_grid(image=args.image, profile=args.profile)


def format_advice(grid: Grid, decision: Decision, suggestion: Suggestion | None = None) -> str:
    lines = [format_board(grid), ""]
    if decision.move is None:
        lines.append("no legal move: the game is over")
        return "\n".join(lines)
    if decision.chance is not None:
        lines.append(f"best move: {decision.move.key}  (corner block tables, {decision.ms:.1f} ms)")
        lines.append(f"(the tables' best chance of building the next tile beside the corner block without moving it: "
                     f"{100 * decision.chance:.1f} %)")
        return "\n".join(lines)
    lines.append(f"best move: {decision.move.key}  (depth {decision.depth}, {decision.ms:.1f} ms)")
    width = max(len(f"{v:,.0f}") for v in decision.values.values())
    for move in Move:
        if move in decision.values:
            text = f"{decision.values[move]:,.0f}".rjust(width)
            mark = "  <- best" if move == decision.move else ""
        else:
            text, mark = "illegal".rjust(width), ""
        lines.append(f"  {move.key:<6} {text}{mark}")
    lines.append("(expected heuristic value after each move; higher is better)")
    if suggestion is not None:
        chances = ", ".join(f"{m.key} {100 * p:.1f}%" for m, p in sorted(suggestion.chances.items()))
        lines.append(f"endgame tables ({suggestion.shape}): chance of building the next {suggestion.target} beside the "
                     f"big tiles without moving them, best play after: {chances}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from screenbot.commands.player_args import player_from_args

    depth_cap = check_depth_cap(args.depth_cap, "--depth-cap")
    deepen_gap = check_deepen_gap(args.deepen_gap, "--deepen-gap")
    budget_ms, depth = check_budget(args.budget_ms, "--budget-ms"), check_depth(args.depth, "--depth")
    deepen_ms = check_budget(args.deepen_ms, "--deepen-ms")
    if args.board is None:  # a board read from pixels: its big tiles may need OCR
        need_tesseract(args)
    grid = grid_from_args(args)
    shape = size_of(grid)
    if shape != CLASSIC:  # a board of another size: its own player (the 4x4 players' options do not apply)
        from screenbot.agent.players import make_player

        agent = make_player(player_for(args.player, shape), shape=shape, wait=True)
        agent.warm_up()  # compiling the search (or making the 3x3 solution, once) must not eat the budget
        decision = agent.choose(grid, budget_ms, depth)
        print(format_advice(grid, decision))
        return 0
    args.player = player_for(args.player)
    tables = ensure_tables() if args.endgame_tables else None
    agent = player_from_args(args, depth_cap=depth_cap, deepen_gap=deepen_gap, deepen_ms=deepen_ms,
                             solve_budget=HINT_SOLVE_BUDGET)
    agent.warm_up()  # loading the compiled search must not eat the time budget
    decision = agent.choose(grid, budget_ms, depth)
    print(format_advice(grid, decision, tables.suggest(grid) if tables is not None else None))
    return 0
