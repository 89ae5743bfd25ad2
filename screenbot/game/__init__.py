"""The 2048 rules, in one place: plain grids, the bitboard form, seeded games."""

from screenbot.game.rules import (  # noqa: F401
    EMPTY,
    Game,
    Grid,
    Move,
    Rng,
    apply_move,
    empty_cells,
    format_board,
    is_over,
    legal_moves,
    max_tile,
    parse_board,
    spawn,
    spawn_outcomes,
    to_grid,
)
