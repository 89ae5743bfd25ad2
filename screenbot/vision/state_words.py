"""The words a message or box drawn over the board uses to say the game is won or over."""

from __future__ import annotations

import re

from screenbot.board_state import BoardState

# The words of a message drawn over the board that name its state ("You win!", "Game over!", ...).
WON_WORDS = re.compile(r"\b(you win|win|won|winner|victory|keep going)\b")
OVER_WORDS = re.compile(r"\b(game over|over|lost|lose|loose|no more moves|no moves|ran out|out of moves|game ended|"
                        r"the end|failed|defeat|defeated)\b")  # "loose": a common misspelling


def state_of_words(text: str) -> BoardState | None:
    """WON or OVER when the words of a box over the board name one of them (and not the other), else None."""
    words = " ".join(re.findall(r"[a-z]+", text.lower()))
    won, over = bool(WON_WORDS.search(words)), bool(OVER_WORDS.search(words))
    return (BoardState.WON if won else BoardState.OVER) if won != over else None
