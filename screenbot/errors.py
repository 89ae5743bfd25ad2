"""Error types with messages a user can act on; the CLI turns each into one line and an exit code."""


class ScreenbotError(Exception):
    """Base of every error the CLI reports as one line (never a traceback)."""

    exit_code = 1


class UsageError(ScreenbotError):
    """Bad command-line input: a malformed board, an out-of-range argument."""

    exit_code = 2


class MissingExtraError(ScreenbotError):
    """A feature asked for needs an optional package that is not installed; the message names the pip extra."""


class BoardParseError(UsageError):
    """A typed-in board that is not 16 powers of two (or empty cells)."""


class TableError(ScreenbotError):
    """A table file that cannot be used (corrupt, another version, another shape): it is built again."""
