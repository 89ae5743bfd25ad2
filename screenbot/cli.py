"""The `screenbot` command line: one subcommand per module in screenbot.commands."""

from __future__ import annotations

import argparse
import importlib
import sys

from screenbot import __version__
from screenbot.errors import ScreenbotError, UsageError

# Each name is a module screenbot.commands.<name> with register(subparsers) and run(args) -> int.
# A subcommand is listed here only once it works.
COMMANDS: list[str] = ["practice", "calibrate", "read", "play", "replay", "review", "coach", "demo", "hint", "bench"]


class _Parser(argparse.ArgumentParser):
    """argparse that reports a bad argument as one line and exit code 2."""

    def error(self, message: str) -> None:  # noqa: D401 - argparse API
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="screenbot",
        description="Plays 2048 by looking at the screen: grab -> read -> decide -> press.",
    )
    parser.add_argument("--version", action="version", version=f"screenbot {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        importlib.import_module(f"screenbot.commands.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 0
        return int(args.func(args) or 0)
    except ScreenbotError as exc:
        print(f"screenbot: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("screenbot: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
