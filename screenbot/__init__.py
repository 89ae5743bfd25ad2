"""screenbot: plays 2048 by looking at the screen, the way a person does."""

__version__ = "0.1.0"
