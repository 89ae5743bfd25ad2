"""Error types with messages a user can act on; the CLI turns each into one line and an exit code."""


class ScreenbotError(Exception):
    """Base of every error the CLI reports as one line (never a traceback)."""

    exit_code = 1


class UsageError(ScreenbotError):
    """Bad command-line input: a malformed board, an out-of-range argument."""

    exit_code = 2


class BoardParseError(UsageError):
    """A typed-in board that is not 16 powers of two (or empty cells)."""
