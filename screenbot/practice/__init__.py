"""The built-in practice board: a 2048 page served on 127.0.0.1 that reports its true state."""
