"""The rules of the game on screen, as learned from its boards.

Play starts from the classic rules: a move slides every line (each tile merges at most once) and
one new 2 or 4 comes on an empty cell. Real programs differ: some merge a merged tile again in
the same move, some spawn tiles of 8 or 512. When a board that stood still does not follow by the
rules known so far, the rule book tries the variants it knows (`screenbot.game.variants`): another
way of merging, a new tile of another value, or both. A board one of them explains is believed and
the variant is kept (and said once); a board none explains still stops play.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field

from screenbot.game.rules import FOUR_SHARE, Grid, Move, apply_move
from screenbot.game.variants import LINE_RULES, slide_with
from screenbot.play.tracker import Check, Prediction, SeenGrid, compare

CLASSIC_SPAWNS = (2, 4)
# The share of 4s among new tiles is believed once this many new tiles were seen (before that, the
# classic 10 %, rules.FOUR_SHARE).
SPAWNS_FOR_SHARE = 30
# The moves kept to check another line rule against: it must make each of them as the game did.
STEPS_KEPT = 256


@dataclass(frozen=True)
class Explanation:
    """A board that follows from the last one by a rule variant: `check` (a match, with the board and
    its new tile), the `prediction` it matches and the `line_rule` that made it."""

    check: Check
    prediction: Prediction
    line_rule: str


@dataclass
class RuleBook:
    """The rules seen so far: how lines merge (a key of LINE_RULES) and the values of the new tiles
    with how often each came."""

    line_rule: str = "classic"
    spawn_counts: Counter = field(default_factory=Counter)
    steps: deque = field(default_factory=lambda: deque(maxlen=STEPS_KEPT))  # (before, move, slid board)
    _alts: tuple | None = field(default=None, repr=False)

    def predict(self, before: Grid, move: Move, line_rule: str | None = None) -> Prediction:
        """The board `move` makes from `before` (before its new tile) by `line_rule`, by default the
        one known so far."""
        move, line_rule = Move(move), line_rule or self.line_rule
        if line_rule == "classic":
            after, gain = apply_move(before, move)
        else:
            after, gain = slide_with(before, move, LINE_RULES[line_rule][0])
        return Prediction(before, move, after, gain)

    def follows(self, seen: SeenGrid, prediction: Prediction) -> tuple[Check, Explanation | None]:
        """How `seen` compares with `prediction` (see tracker.compare) and, for a mismatch that a variant
        explains, the explanation (its check is then the one returned)."""
        check = compare(seen, prediction)
        explained = self.explain(seen, prediction) if check.verdict == "mismatch" else None
        return (check if explained is None else explained.check), explained

    def explain(self, seen: SeenGrid, prediction: Prediction) -> Explanation | None:
        """The first variant under which `seen` follows from `prediction.before` by its move and one new
        tile (any power of two), or None. The rules known so far come first, then each other line rule."""
        for name, alt in self._alternatives(prediction):
            check = compare(seen, alt, any_value=True)
            if check.matched:
                return Explanation(check, alt, name)
        return None

    def _alternatives(self, prediction: Prediction) -> list[tuple[str, Prediction]]:
        """The rules known so far, then each other line rule that makes the moves seen and slides this
        one differently (kept for the last prediction: a move's frames are compared one after another)."""
        if self._alts is not None and self._alts[0] is prediction:
            return self._alts[1]
        alts, made = [(self.line_rule, prediction)], {prediction.after}
        for name in LINE_RULES:
            if name == self.line_rule:
                continue
            alt = self.predict(prediction.before, prediction.move, name)
            if alt.after != alt.before and alt.after not in made and self.makes_the_moves_seen(name):
                alts.append((name, alt))
                made.add(alt.after)
        self._alts = (prediction, alts)
        return alts

    def makes_the_moves_seen(self, name: str) -> bool:
        """Line rule `name` slides every kept move as the game did."""
        rule = LINE_RULES[name][0]
        return all(slide_with(before, move, rule)[0] == after for before, move, after in self.steps)

    def saw_move(self, prediction: Prediction) -> None:
        """A move believed: `prediction.after` is how the game slid it."""
        self.steps.append((prediction.before, prediction.move, prediction.after))

    def adopt(self, explanation: Explanation) -> list[str]:
        """Keep what `explanation` shows; the rules it adds, in words (empty when nothing is new)."""
        notes = []
        self._alts = None
        if explanation.line_rule != self.line_rule:
            self.line_rule = explanation.line_rule
            notes.append(f"merges: {LINE_RULES[self.line_rule][1]}")
        if explanation.check.spawn is not None:
            value = explanation.check.spawn[2]
            if value not in CLASSIC_SPAWNS and value not in self.spawn_counts:
                notes.append(f"new tiles of {value}")
        return notes

    def saw_spawn(self, value: int) -> None:
        self.spawn_counts[value] += 1

    def four_share(self) -> float:
        """The share of 4s among the new 2s and 4s: the classic 10 % until SPAWNS_FOR_SHARE were seen."""
        twos, fours = self.spawn_counts[2], self.spawn_counts[4]
        if twos + fours < SPAWNS_FOR_SHARE:
            return FOUR_SHARE
        return fours / (twos + fours)

    def spawn_note(self) -> str | None:
        """How the new tiles came, once they differ from the classic game's: "new tiles: 2 61 %, 4 39 %"."""
        total = sum(self.spawn_counts.values())
        if total < SPAWNS_FOR_SHARE:
            return None
        odd = any(v not in CLASSIC_SPAWNS for v in self.spawn_counts)
        if not odd and abs(self.four_share() - FOUR_SHARE) < 0.1:
            return None
        shares = ", ".join(f"{v} {100 * n / total:.0f} %" for v, n in sorted(self.spawn_counts.items()))
        return f"new tiles: {shares}"
