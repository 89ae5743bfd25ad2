"""`--player NAME` for every command that plays or judges, and the agent it names, made by `make_player`."""

from __future__ import annotations

import argparse
import sys

from screenbot.agent.players import DEFAULT_PLAYER, PLAYER_HELP, PLAYERS, WITHOUT_TABLES, make_player, player_spec
from screenbot.errors import UsageError


def add_player_argument(parser: argparse.ArgumentParser, default: str = DEFAULT_PLAYER, why: str = "") -> None:
    """`--player NAME`; `why`: the reason a command's default is not play's."""
    help = PLAYER_HELP if default == DEFAULT_PLAYER else PLAYER_HELP.replace(
        f"default {DEFAULT_PLAYER!r}, what play plays", f"default here {default!r}: {why}")
    parser.add_argument("--player", default=default, choices=tuple(PLAYERS), metavar="NAME", help=help)


def player_from_args(args: argparse.Namespace, *, fall_back: bool = True, **search):
    """The agent of `args.player`, its tables loaded (built first with a progress bar, when need be).
    `fall_back`: when memory is short for the tables, say so in one line and play WITHOUT_TABLES;
    else a one-line error. `search`: the search's settings (make_player's)."""
    name, tables = player_tables(args, fall_back=fall_back)
    return make_player(name, tables=tables, **search)


def player_tables(args: argparse.Namespace, *, fall_back: bool = True):
    """(the player's name, its tables or None): `args.player`, its tables loaded (built first with a
    progress bar, when need be); see player_from_args."""
    name = player_name(args, fall_back=fall_back)
    if not player_spec(name).tables:
        return name, None
    from screenbot.commands.corner_tables import ensure_corner_tables

    return name, ensure_corner_tables()


def player_name(args: argparse.Namespace, *, fall_back: bool = True) -> str:
    """`args.player`, or WITHOUT_TABLES (with a note on stderr) when its tables cannot be had now."""
    name = args.player
    if not player_spec(name).tables:
        return name
    from screenbot.agent.corner import default_table_path
    from screenbot.commands.corner_tables import memory_shortfall

    short = memory_shortfall(default_table_path())
    if short is None:
        return name
    if not fall_back:
        raise UsageError(f"{short}: try --player {WITHOUT_TABLES}")
    print(f"screenbot: note: {short}: playing {WITHOUT_TABLES!r} instead (--player {WITHOUT_TABLES} skips the "
          "tables and this note)", file=sys.stderr, flush=True)
    return WITHOUT_TABLES
