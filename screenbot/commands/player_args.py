"""`--player NAME` for every command that plays or judges, and the agent it names, made by `make_player`."""

from __future__ import annotations

import argparse
import sys

from screenbot.agent.players import DEFAULT_PLAYER, PLAYER_HELP, PLAYERS, WITHOUT_TABLES, make_player, player_spec
from screenbot.errors import UsageError

# What judges and hints play while play's tables are not made yet: play's own search, as play plays
# until they are ready.
UNTIL_TABLES = "corner-eval"


def add_player_argument(parser: argparse.ArgumentParser, default: str = DEFAULT_PLAYER, why: str = "") -> None:
    """`--player NAME`; `why`: the reason a command's default is not play's."""
    help = PLAYER_HELP if default == DEFAULT_PLAYER else PLAYER_HELP.replace(
        f"default {DEFAULT_PLAYER!r}, what play plays", f"default here {default!r}: {why}")
    parser.add_argument("--player", default=default, choices=tuple(PLAYERS), metavar="NAME", help=help)


def say(message: str) -> None:
    print(f"screenbot: note: {message}", file=sys.stderr, flush=True)


def player_from_args(args: argparse.Namespace, *, background: bool = False, fall_back: bool = True, **search):
    """The agent of `args.player`. Its tables, when it has any: `background` (play): never waited for;
    they are mapped from the user cache dir in a thread, or made there by a background job, and taken
    between two moves once ready. Else: as `player_tables`. When they cannot be had (memory or disk
    short), one line says so and WITHOUT_TABLES plays (`fall_back`), or a one-line error.
    `search`: the search's settings (make_player's)."""
    if not background:
        name, tables = player_tables(args, fall_back=fall_back)
        return make_player(name, tables=tables, **search)
    if not player_spec(args.player).tables:
        return make_player(args.player, **search)
    from screenbot.agent.table_supply import TableSupply

    supply = TableSupply().start()
    if supply.unavailable is not None:
        if not fall_back:
            raise UsageError(f"{supply.unavailable}: try --player {WITHOUT_TABLES}")
        say(f"{supply.unavailable}: playing {WITHOUT_TABLES!r} instead (--player {WITHOUT_TABLES} skips the "
            "tables and this note)")
        return make_player(WITHOUT_TABLES, **search)
    if supply.job is not None:
        say(f"the corner tables are being made in the background into {supply.path} (once; about 11 minutes "
            "from nothing): the search plays alone until they are ready")
    return make_player(args.player, tables=supply, **search)


def player_tables(args: argparse.Namespace, *, fall_back: bool = True):
    """(the player's name, its tables or None) for a command that judges or hints: `args.player`, its
    tables mapped from the user cache dir (waited for: seconds). Tables not made yet are not made here:
    one line says so and UNTIL_TABLES judges (`fall_back`), or a one-line error."""
    name = args.player
    if not player_spec(name).tables:
        return name, None
    from screenbot.agent.table_supply import TableSupply

    supply = TableSupply(build=False)
    tables = supply.wait()
    if tables is not None:
        return name, tables
    why = f"the corner tables are not made yet ({supply.path}; `screenbot play` makes them in the background)"
    if not fall_back:
        raise UsageError(f"{why}: try --player {UNTIL_TABLES}")
    say(f"{why}: {UNTIL_TABLES!r} answers instead, as play does until they are ready")
    return UNTIL_TABLES, None
