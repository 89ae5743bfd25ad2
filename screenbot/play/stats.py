"""What play measures as it goes (timings per move, key times, how new tiles were read) and the summary it ends with."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import asdict, dataclass

from screenbot.game.rules import Grid, max_tile


@dataclass
class MoveTiming:
    read_ms: float  # the look that was believed: grab and read
    think_ms: float  # waiting for the agent's decision, after the board was believed
    wait_ms: float  # from the key to the look that was believed (the animation)
    agent_ms: float = 0.0  # the agent's own search time for the board (mostly while the animation played)


@dataclass
class Summary:
    moves: int = 0
    score: int = 0
    max_tile: int = 0
    duration_s: float = 0.0
    misreads: int = 0
    reason: str = ""
    ok: bool = True
    board: list | None = None
    moves_per_s: float = 0.0
    read_ms_median: float = 0.0
    think_ms_median: float = 0.0
    agent_ms_median: float = 0.0
    agent_ms_max: float = 0.0
    wait_ms_median: float = 0.0
    move_ms_median: float = 0.0
    diagnostics: str | None = None
    advice: dict | None = None
    early_reads: int = 0
    read_still: dict | None = None  # why new tiles were read only once still: reason -> moves
    relocations: int = 0  # times the board was found again at another place (a moved window)
    no_spawn_moves: int = 0  # moves after which the game added no new tile (a rule of that game)
    rules: list | None = None  # this game's rules as seen on screen, in the order seen ("win message at 4096")
    depths: dict | None = None  # the depths of the searches whose moves were played: depth -> moves
    fallback_moves: int = 0  # moves the quick player made while the agent's search was made ready (warm.py)
    start_s: dict | None = None  # seconds from play's start: first_board, first_key; warm_up: how long it took

    def as_dict(self) -> dict:
        return asdict(self)

    def text(self) -> str:
        lines = [
            f"stopped: {self.reason}",
            f"moves {self.moves}  score {self.score}  max tile {self.max_tile}  "
            f"{self.duration_s:.1f} s  {self.moves_per_s:.1f} moves/s  misreads re-read {self.misreads}  "
            f"new tiles read while growing {self.early_reads}",
        ]
        if self.moves:
            lines.append(
                f"per move (median): read {self.read_ms_median:.1f} ms, think {self.think_ms_median:.1f} ms "
                f"(search {self.agent_ms_median:.1f} ms, mostly while the tiles moved; longest {self.agent_ms_max:.0f} ms), "
                f"wait {self.wait_ms_median:.1f} ms, key to key {self.move_ms_median:.1f} ms"
            )
        if self.depths:
            lines.append("search depth of the moves played: " + ", ".join(f"{d}: {n}" for d, n in self.depths.items()))
        if self.fallback_moves:
            lines.append(f"the first {self.fallback_moves} move{'s were' if self.fallback_moves > 1 else ' was'} "
                         "a quick corner player's while the search was made ready (a first start compiles it)")
        if self.no_spawn_moves:
            lines.append(f"the game added no new tile after {self.no_spawn_moves} move{'s' if self.no_spawn_moves > 1 else ''} (its rule)")
        if self.rules:
            lines.append("rules seen: " + "; ".join(self.rules))
        if self.relocations:
            lines.append(f"the board moved {self.relocations} time{'s' if self.relocations > 1 else ''}: found again, played on")
        if self.read_still:
            lines.append("read only once still: " + ", ".join(f"{n} ({why})" for why, n in self.read_still.items()))
        if self.diagnostics:
            lines.append(f"diagnostic frames: {self.diagnostics}")
        return "\n".join(lines)


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 2) if values else 0.0


class Stats:
    """The figures of one game: per-move timings, key times (seconds from the start), new tiles read
    while growing, why others were read only once still, relocations, and the rules seen."""

    def __init__(self) -> None:
        self.started = 0.0
        self.timings: list[MoveTiming] = []
        self.key_times: list[float] = []
        self.early_reads = 0
        self.read_still: Counter = Counter()  # why a new tile was not read while it grew
        self.relocations = 0
        self.last_read_ms = 0.0  # the grab and read of the last board believed
        self.rules: list[str] = []  # what this game's rules were seen to be, once each
        self.depths: Counter = Counter()  # the depth of each decision played (an agent that says it)
        self.fallback_moves = 0  # moves the quick player made before the agent was ready
        self.start: dict[str, float] = {}  # how the start went (Summary.start_s)

    def note_rule(self, rule: str) -> bool:
        """Keep a rule seen on screen (once); True when it is new."""
        if rule in self.rules:
            return False
        self.rules.append(rule)
        return True

    @property
    def moves_per_s(self) -> float:
        if len(self.key_times) < 2:
            return 0.0
        span = self.key_times[-1] - self.key_times[0]
        return (len(self.key_times) - 1) / span if span > 0 else 0.0

    def summary(self, now: float, board: Grid | None, moves: int, score: int, misreads: int, reason: str,
                ok: bool, diagnostics: str | None = None, advice: dict | None = None, no_spawn_moves: int = 0) -> Summary:
        timings = self.timings
        gaps = [b - a for a, b in zip(self.key_times, self.key_times[1:])]
        return Summary(
            moves=moves,
            score=score,
            max_tile=max_tile(board) if board else 0,
            duration_s=round(now - self.started, 3),
            misreads=misreads,
            reason=reason,
            ok=ok,
            board=[list(r) for r in board] if board else None,
            moves_per_s=round(self.moves_per_s, 2),
            read_ms_median=_median([t.read_ms for t in timings]),
            think_ms_median=_median([t.think_ms for t in timings]),
            agent_ms_median=_median([t.agent_ms for t in timings]),
            agent_ms_max=round(max((t.agent_ms for t in timings), default=0.0), 1),
            wait_ms_median=_median([t.wait_ms for t in timings]),
            move_ms_median=_median([g * 1000 for g in gaps]),
            diagnostics=diagnostics,
            advice=advice,
            early_reads=self.early_reads,
            read_still=dict(self.read_still.most_common()) or None,
            relocations=self.relocations,
            no_spawn_moves=no_spawn_moves,
            rules=list(self.rules) or None,
            depths=dict(sorted(self.depths.items())) or None,
            fallback_moves=self.fallback_moves,
            start_s=dict(self.start) or None,
        )
