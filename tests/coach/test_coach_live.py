"""The live coach's logic on recorded frames: real vision over drawn classic boards, a frame source that
plays back pictures look by look (a slow player, a fast one, a cut, a game over), and a quick judge."""

from __future__ import annotations

import time

import numpy as np
import pytest
from coach_render import AT, SIZE, page, seeded_game

from screenbot.agent.base import Decision
from screenbot.calibration import calibrate
from screenbot.coach.evaluate import Judge
from screenbot.coach.live import Coach, CoachSettings
from screenbot.coach.rebuild import Rebuilder, Seen, explain, rebuild
from screenbot.control.screen import Frame, Screen
from screenbot.game.rules import Grid, Move, apply_move, legal_moves
from screenbot.geometry import Rect
from screenbot.play.eyes import ScreenEyes

LOOK_MS = 20  # between two looks (a board is believed once it stood still for 50 ms: four looks)
ORDER = (Move.LEFT, Move.DOWN, Move.RIGHT, Move.UP)  # the quick judge's taste: the first legal one is best


def quick_choose(board: Grid) -> Decision:
    """A deterministic stand-in for the search: values fall along ORDER."""
    legal = [m for m in ORDER if m in legal_moves(board)]
    values = {m: 1000.0 - 100 * k for k, m in enumerate(legal)}
    return Decision(legal[0] if legal else None, values)


class PlaybackScreen(Screen):
    """Pictures shown one after another, each for a number of grabs (the screen a person plays on)."""

    def __init__(self, shows: list[tuple[object, int]]) -> None:
        self.shows = [(p, n) for p, n in shows if n > 0]
        self.grabs = 0
        self.whole_grabs = 0  # grabs of the whole screen (a search for a moved board)
        self._k, self._left = 0, self.shows[0][1]

    def grab(self, region: Rect | None = None) -> Frame:
        self.grabs += 1
        if self._left == 0 and self._k + 1 < len(self.shows):
            self._k += 1
            self._left = self.shows[self._k][1]
        self._left = max(0, self._left - 1)
        pixels = self.shows[self._k][0]
        if region is None or (region.w, region.h) == pixels.shape[1::-1]:
            self.whole_grabs += 1
        if region is None:
            return Frame(pixels)
        return Frame(pixels[region.y:region.y + region.h, region.x:region.x + region.w].copy(), region.x, region.y)

    @property
    def done(self) -> bool:
        return self._k + 1 >= len(self.shows) and self._left == 0

    def monitors(self) -> list[Rect]:
        h, w = self.shows[0][0].shape[:2]
        return [Rect(0, 0, w, h), Rect(0, 0, w, h)]


def mid_move(board: Grid) -> object:
    """A frame caught mid-slide: one tile of the board half a cell off its place."""
    for r in range(4):
        for c in range(4):
            if board[r][c]:
                return page(board, shift=(r, c, 0.5))
    return page(board)


def run_coach(shows, settings: CoachSettings | None = None, choose=quick_choose, stop_when_done: bool = True,
              screen: PlaybackScreen | None = None):
    screen = screen or PlaybackScreen(shows)
    profile = calibrate(Frame(shows[0][0]))
    eyes = ScreenEyes(screen, profile)
    lines: list[str] = []
    now = [0.0]  # the looks' clock: LOOK_MS of it pass between two looks

    def sleep(_s: float) -> None:
        if stop_when_done and screen.done:
            raise KeyboardInterrupt  # the person stops the coach once the last picture is shown
        if screen.done and screen.grabs > sum(n for _, n in shows) + 100:
            raise AssertionError("the coach did not stop by itself")
        now[0] += LOOK_MS / 1000
        time.sleep(0.0005)

    coach = Coach(eyes, Judge(choose=choose), settings or CoachSettings(), say=lines.append,
                  clock=lambda: now[0], sleep=sleep)
    result = coach.run()
    return result, lines


def test_a_slow_player_every_move_followed_and_judged_in_order():
    boards, moves = seeded_game(3, 12)
    shows = []
    for board in boards:
        shows += [(mid_move(board), 1), (page(board), 5)]
    result, lines = run_coach(shows)
    review = result.review
    assert [(j.board, j.move) for j in review.moves] == list(zip(boards, moves))
    assert review.game.gaps == []
    move_lines = [line for line in lines if line.startswith("move")]
    assert len(move_lines) == len(moves)
    for j, line in zip(review.moves, move_lines):
        assert line.startswith(f"move {j.i + 1:>4}: you {j.move.key:<5}")
        best = quick_choose(j.board).move
        assert j.best == best and f"agent {best.key:<5}" in line
        assert ("best move" in line) == (j.move == best)
        if j.move != best:
            assert f"loss" in line and j.loss > 0 and j.band in line
    assert result.ended == "stopped (Ctrl-C)"
    assert review.stats.unchanged > 0  # a still board is read once, then its pixels only compared


def test_a_fast_player_two_moves_between_looks_rebuilt_a_longer_jump_is_a_gap():
    boards, moves = seeded_game(2, 40)
    k = next(k for k in range(2, 20) if explain(boards[k], boards[k + 2]).kind == "two")
    j = next(j for j in range(k + 4, 30) if explain(boards[j], boards[j + 7]).kind == "none")
    shown = list(range(k + 1)) + list(range(k + 2, j + 1)) + list(range(j + 7, j + 10))
    shows = [(page(boards[n]), 4) for n in shown]
    result, lines = run_coach(shows)
    review = result.review
    rebuilt = [(j.board, j.move) for j in review.moves]
    truth = dict(zip(boards, moves))
    assert all(truth[b] == m for b, m in rebuilt)  # never a made-up move
    assert rebuilt == list(zip(boards[:j], moves[:j])) + list(zip(boards[j + 7:j + 9], moves[j + 7:j + 9]))
    assert review.game.two_move_jumps == 1  # the board between k and k + 2 rebuilt from the rules
    assert len(review.game.gaps) == 1 and review.game.gaps[0].moves_before == j
    assert any(line.startswith(f"gap after move {j}:") for line in lines)


def test_a_board_seen_for_less_than_still_s_is_not_believed():
    boards, moves = next(g for g in (seeded_game(seed, 4) for seed in range(20))
                         if explain(g[0][0], g[0][1]).kind == explain(g[0][1], g[0][2]).kind == "one")
    r, c = next((r, c) for r in range(4) for c in range(4) if boards[1][r][c] == 0)
    wrong = tuple(tuple(8 if (i, k) == (r, c) else v for k, v in enumerate(row)) for i, row in enumerate(boards[1]))
    shows = [(page(boards[0]), 4), (page(wrong), 2), (page(boards[1]), 4), (page(boards[2]), 4)]
    result, _ = run_coach(shows)
    assert [(j.board, j.move) for j in result.review.moves] == list(zip(boards[:2], moves[:2]))
    assert result.review.game.gaps == [] and result.review.game.dropped == []


def test_advice_names_the_best_move_for_the_board_before_the_person_moves():
    boards, moves = seeded_game(6, 6)
    shows = []
    for board in boards:
        shows += [(page(board), 40)]
    result, lines = run_coach(shows, CoachSettings(advise=True))
    advice = [line for line in lines if line.startswith("advice:")]
    assert len(advice) == len(boards)  # every board, the last one too (the person could still move)
    for board, line in zip(boards, advice):
        assert line.startswith(f"advice: {quick_choose(board).move.key}")
    first_move_line = next(k for k, line in enumerate(lines) if line.startswith("move"))
    assert lines[0].startswith("advice:") and first_move_line > 0
    assert result.advice == len(boards)


def game_over_page(board: Grid) -> np.ndarray:
    """The classic "Game over!" wash (#eee4da at half strength) over the board."""
    pixels = page(board).copy()
    x, y = AT
    region = pixels[y:y + SIZE, x:x + SIZE].astype(float)
    pixels[y:y + SIZE, x:x + SIZE] = (0.5 * region + 0.5 * np.array([218, 228, 238])).astype(np.uint8)
    return pixels


def test_game_over_ends_the_session_with_the_last_move_rebuilt():
    full = ((2, 4, 8, 16), (32, 64, 128, 256), (2, 4, 8, 16), (32, 64, 128, 0))
    after, _ = apply_move(full, Move.RIGHT)
    last = tuple(tuple(4 if (r, c) == (3, 0) else v for c, v in enumerate(row)) for r, row in enumerate(after))
    assert not legal_moves(last)
    shows = [(page(full), 4), (page(last), 1), (game_over_page(last), 4), (page(full), 50)]
    result, _ = run_coach(shows, stop_when_done=False)
    assert result.ended == "game over"
    assert [(j.board, j.move) for j in result.review.moves] == [(full, Move.RIGHT)]


def test_max_moves_ends_the_session():
    boards, moves = seeded_game(8, 10)
    result, _ = run_coach([(page(b), 4) for b in boards], CoachSettings(max_moves=4))
    assert len(result.review.moves) == 4 and result.ended == "4 moves followed"


def test_the_rebuilder_fed_board_by_board_gives_what_rebuild_gives():
    for seed in range(6):
        boards, _ = seeded_game(seed, 50)
        seen = [Seen(b, f"b{i}", sure=(i % 7 != 3)) for i, b in enumerate(boards)]
        seen.insert(20, Seen(boards[0], "cut"))  # a board from elsewhere: dropped or a gap
        batch = rebuild(seen)
        live = Rebuilder()
        glimpses: list[Seen] = []
        steps, gaps = [], []
        for s in seen:
            if s.sure:
                new_steps, new_gaps = live.add(s, glimpses)
                steps += new_steps
                gaps += new_gaps
                glimpses = []
            else:
                glimpses.append(s)
        game = live.finish()
        assert game.steps == batch.steps == steps
        assert game.gaps == batch.gaps and gaps == batch.gaps[:len(gaps)]
        assert game.dropped == batch.dropped


@pytest.mark.parametrize("look_s", [0.0])
def test_the_agent_never_holds_up_looking(look_s):
    """A slow agent: the looks go on, the moves wait for it, and every one is judged at the end."""
    boards, moves = seeded_game(9, 8)

    def slow(board):
        time.sleep(0.05)
        return quick_choose(board)

    shows = [(page(b), 4) for b in boards]
    result, _ = run_coach(shows, CoachSettings(look_s=look_s), choose=slow)
    assert [j.move for j in result.review.moves] == moves
    assert result.behind_max >= 3  # moves were waiting for the agent while the coach kept looking


def test_a_board_dragged_elsewhere_is_found_again_and_followed_there():
    """The window is dragged: the board leaves its place, shows up 60 px right and 20 px down with
    the same game on it, and the person plays on there."""
    boards, moves = next(g for g in (seeded_game(seed, 4) for seed in range(20))
                         if all(explain(a, b).kind == "one" for a, b in zip(g[0], g[0][1:])))

    def dragged(board):
        return np.roll(page(board), (20, 60), axis=(0, 1))  # the page's plain background rolls in

    shows = [(page(boards[0]), 4), (page(boards[1]), 4), (dragged(boards[1]), 60),
             (dragged(boards[2]), 4), (dragged(boards[3]), 4)]
    result, lines = run_coach(shows)
    assert [(j.board, j.move) for j in result.review.moves] == list(zip(boards[:3], moves[:3]))
    assert result.review.source["relocations"] == 1 and result.review.game.gaps == []
    assert any(line.startswith("the board moved to 100,50") for line in lines)


def test_a_long_slide_is_waited_out_where_the_board_is_not_searched_for_elsewhere():
    """Each move's slide and pop read mid-move for 0.4 s (slow animations): the board is where it was,
    so the looks go on there (a search of the whole screen would stop them), and every move is followed."""
    boards, moves = next(g for g in (seeded_game(seed, 8) for seed in range(20))
                         if all(explain(a, b).kind == "one" for a, b in zip(g[0], g[0][1:])))
    shows = []
    for board in boards:
        shows += [(mid_move(board), 20), (page(board), 4)]
    screen = PlaybackScreen(shows)
    result, _ = run_coach(shows, screen=screen)
    assert [(j.board, j.move) for j in result.review.moves] == list(zip(boards, moves))
    assert screen.whole_grabs == 0 and result.review.source["relocations"] == 0
