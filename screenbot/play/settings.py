"""How long play waits for what: every wait and threshold of the play loop, named."""

from __future__ import annotations

from dataclasses import dataclass

from screenbot.agent.players import DEFAULT_PLAYER


@dataclass
class PlaySettings:
    """The defaults fit the classic game's timings (measured on the rig by benchmarks/live.py): a key
    shows 40-75 ms later, the board is still ~300 ms after the key, the win/over overlay fades in
    1.2-2.0 s after the last move."""

    max_moves: int | None = None
    player: str = DEFAULT_PLAYER  # the agent when none is given (screenbot.agent.players)
    budget_ms: float | None = None
    depth_cap: int | str | None = None  # cap on the agent's adaptive depth (None: the agent's default)
    deepen_gap: float | None = None  # decisions deepen past the cap (None: the agent's default, every decision; 0: off)
    deepen_ms: float | None = None  # ... within this long from the decision's start (None: the budget)
    dry_run: bool = False
    # a new board is believed once its new tile has stopped changing: the same pixels in two grabs
    # at least this far apart (Chromium draws at 60 Hz: a tile still over 20 ms has finished growing;
    # a growing tile's colour is a blend that can pass for another value)
    still_gap_s: float = 0.02
    # a board that disagrees with the prediction this long after the key is a misread (it is read again)
    misread_after_s: float = 0.45
    # after this long without the predicted board, stop
    settle_timeout_s: float = 2.0
    # learning the game's keys (play.keys_trial): the first move's key left the board as it was for
    # this long, so it is pressed again in the next key set
    key_try_s: float = 0.6
    # the slid board with no new tile, seen without a pixel changing for this long (watched from
    # misread_after_s after the key on), is the move's board: this game adds no tile after some moves
    # (said once, counted in the summary)
    no_spawn_still_s: float = 1.0
    # the win overlay: wait this long for it after the first 2048
    overlay_wait_s: float = 3.5
    # the board covered, moved or without focus: re-check this long before stopping
    safety_wait_s: float = 5.0
    # pause between two grabs while watching (0 = as fast as grab + read allow)
    poll_gap_s: float = 0.0
    # read the new tile while it grows in (see play.spawn), when this game's colours allow it
    early_spawn: bool = True
    # give up reading the new tile while it grows this long after the key (then wait for the still board)
    early_give_up_s: float = 0.3
    # search the boards that may come next while the animation plays (see play.thinker)
    think_ahead: bool = True
    # the X focus/stacking check made while watching counts for a key pressed within this time;
    # while the new tile has not shown yet it is made again when older than focus_recheck_s
    focus_check_fresh_s: float = 0.06
    focus_recheck_s: float = 0.03
    # between two looks: at the first board, while paused, waiting for the win overlay, while the
    # overlay fades in, and after "Keep going" until the board is back
    first_look_gap_s: float = 0.02
    pause_look_gap_s: float = 0.1
    overlay_look_gap_s: float = 0.05
    fade_look_gap_s: float = 0.1
    resume_look_gap_s: float = 0.03
    # after the focusing click, let the window manager hand over focus before it is remembered
    focus_settle_s: float = 0.05
    # the board found at another place: look at least this long more to see it there again
    refound_grace_s: float = 1.0
