"""What a win message asks to press: the key its text names to continue ("Press Enter to keep going"), and the key play presses for it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from screenbot.control.keyboard import DISMISS_KEYS
from screenbot.game.rules import Move

ANY_KEY = "any key"

# The words a message may use for a key, and the dismiss key (control.keyboard) each one means.
KEY_WORDS = {
    "enter": "enter", "return": "enter",
    "space": "space", "spacebar": "space", "space bar": "space",
    "escape": "escape", "esc": "escape",
    "any key": ANY_KEY, "any button": ANY_KEY,
}
# "press|hit|tap <key> [key] to continue|keep going|keep playing|play on|go on|resume": a key named
# for anything else (restart, quit, new game, undo) is never taken.
_HINT = re.compile(
    r"\b(?:press|hit|tap)\s+(?:the\s+)?[\"'\u2018\u2019\u201c\u201d\[<(]?\s*"
    r"(any\s+key|any\s+button|space\s*bar|space|enter|return|escape|esc|[a-z])"
    r"\s*[\"'\u2018\u2019\u201c\u201d\]>)]?\s*(?:key\s+|button\s+)?to\s+"
    r"(continue|keep\s+going|keep\s+playing|play\s+on|go\s+on|resume)\b"
)


@dataclass(frozen=True)
class KeyHint:
    """A key a message names to continue: `key` is a dismiss key name (enter, space, escape, a
    letter) or ANY_KEY; `words` is what the message says, as read."""

    key: str
    words: str

    @property
    def name(self) -> str:
        """How the log names the key: Enter, Space, Escape, C, any key."""
        return self.key if self.key == ANY_KEY else self.key.capitalize() if len(self.key) > 1 else self.key.upper()


def key_hint(text: str) -> KeyHint | None:
    """The key the text names to continue, or None when it names none (read text, any case and
    line breaks)."""
    flat = " ".join(text.lower().split())
    found = _HINT.search(flat)
    if found is None:
        return None
    word = " ".join(found.group(1).split())
    key = KEY_WORDS.get(word, KEY_WORDS.get(word.replace(" ", ""), word))
    return KeyHint(key, found.group(0))


def key_to_press(hint: KeyHint, intended: Move | None) -> str | Move | None:
    """The key play presses for a hint: the named dismiss key; for "any key" the move play was going
    to press anyway (`intended`). None: a key screenbot never presses (a letter games bind to quit,
    restart or undo), or "any key" with no move to press."""
    if hint.key == ANY_KEY:
        return intended
    return hint.key if hint.key in DISMISS_KEYS else None
