"""`python -m screenbot` runs the command-line interface."""

from screenbot.cli import main

raise SystemExit(main())
