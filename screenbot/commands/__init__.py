"""One module per CLI subcommand; each has register(subparsers) and run(args) -> int."""
