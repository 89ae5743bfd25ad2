"""Which keys move this game, learned from how its board answers the first move: the arrow keys, else
w a s d, h j k l, or (a game that reads its moves as lines) a letter and then Enter."""

from __future__ import annotations

# The key sets tried, in order, each after the one before left the board as it was. The arrows twice:
# a first key can be lost while the game's window takes the focus.
ORDER = ("arrows", "arrows", "wasd", "hjkl")
# A board written as text (a terminal game) may read its moves as lines: a letter, then Enter. Tried
# three times: the letters typed by the tries before may stand in the game's input line, making the
# first line one it refuses, and a refused line may wait for one more Enter.
LINE_ORDER = ("wasd+enter",) * 3
NAMES = {"arrows": "the arrow keys", "wasd": "w a s d", "hjkl": "h j k l", "wasd+enter": "w a s d, each followed by Enter"}


class KeyTrial:
    """The key sets left to try on the first move. Letters are tried only where the desktop tells
    which window has the focus (else only the arrows are pressed); a letter and Enter only on a board
    written as text."""

    def __init__(self, focus_known: bool, text_board: bool) -> None:
        order = ORDER if focus_known else ORDER[:2]
        if focus_known and text_board:
            order += LINE_ORDER
        self.order = order
        self.at = 0  # the key set in use: order[at]

    @property
    def keys(self) -> str:
        return self.order[self.at]

    def next_keys(self) -> str | None:
        """The next key set to press the move with, or None when every one has been tried."""
        if self.at + 1 >= len(self.order):
            return None
        self.at += 1
        return self.order[self.at]

    def tried(self) -> str:
        """The key sets tried so far, named for a message."""
        named = [NAMES[k] for k in dict.fromkeys(self.order[: self.at + 1])]
        return ", ".join(named)

    def rule(self) -> str | None:
        """The rule learned, for the summary ("moves with w a s d"): None when the arrow keys moved the board."""
        return None if self.keys == "arrows" else f"moves with {NAMES[self.keys]}"

    def learned_note(self) -> str | None:
        """What to say once the board answered: None when the arrow keys moved it (nothing learned)."""
        rule = self.rule()
        return rule and (f"screenbot: note: this game {rule} (the arrow keys moved nothing): pressing those; "
                         f"`--keys {self.keys}` skips the trial")
