"""The thinker: the agent's own answers, searched ahead in a background thread, one board at a time."""

import threading
import time

import pytest

from screenbot.agent import Agent
from screenbot.game.rules import Move, parse_board
from screenbot.play.thinker import Thinker


@pytest.fixture(scope="module")
def expectimax():
    """These tests compare values exactly: with one thread a search is repeatable to the last bit
    (with more, table entries may be found in another order, which moves values slightly)."""
    from screenbot.agent import ExpectimaxAgent

    agent = ExpectimaxAgent(threads=1)
    yield agent
    agent.close()

A = parse_board("2 . . . / . . . . / . . . . / . . . 2")
B = parse_board("2 . . . / . . . . / . . . . / . . 2 2")
C = parse_board("2 . . . / . . . . / . . . . / . 4 . 2")


class CountingAgent(Agent):
    """Answers for every board after `delay_s` and cannot be stopped half-way; records the boards and
    any overlap of calls."""

    can_cancel = False

    def __init__(self, delay_s=0.01, fail_on=None):
        self.delay_s = delay_s
        self.fail_on = fail_on
        self.boards = []
        self.running = 0
        self.overlapped = False
        self.lock = threading.Lock()

    def cancel(self):
        raise AssertionError("an agent that cannot cancel was asked to")

    def allow(self):
        raise AssertionError("an agent that cannot cancel was asked to")

    def choose(self, board, budget_ms=None):
        with self.lock:
            self.running += 1
            self.overlapped |= self.running > 1
            self.boards.append(board)
        time.sleep(self.delay_s)
        with self.lock:
            self.running -= 1
        if board == self.fail_on:
            raise ValueError("no move for this board")
        return ("decision for", board, budget_ms)


def wait_until(condition, timeout=5.0):
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.002)


def test_decide_returns_the_agents_answer_for_that_board():
    agent = CountingAgent()
    thinker = Thinker(agent, budget_ms=123)
    try:
        decision, ms = thinker.decide(A)
        assert decision == ("decision for", A, 123)
        assert ms >= 10 * 0.5
        assert agent.boards == [A]
    finally:
        thinker.close()


def test_expected_boards_are_searched_before_they_are_asked_for():
    agent = CountingAgent()
    thinker = Thinker(agent)
    try:
        thinker.expect([A, B])
        wait_until(lambda: len(agent.boards) == 2)
        decision, _ = thinker.decide(B)
        assert decision[1] == B
        assert agent.boards == [A, B]  # nothing searched again
        assert thinker.ahead == 1
    finally:
        thinker.close()


def test_a_board_that_was_not_expected_goes_first_and_nothing_runs_twice_at_once():
    agent = CountingAgent(delay_s=0.02)
    thinker = Thinker(agent)
    try:
        thinker.expect([A, B])
        decision, _ = thinker.decide(C)  # the guesses were wrong
        assert decision[1] == C
        assert agent.boards.index(C) <= 1  # at most the search under way ran first
        assert not agent.overlapped
    finally:
        thinker.close()


def test_a_new_guess_replaces_the_old_ones_not_yet_searched():
    agent = CountingAgent(delay_s=0.03)
    thinker = Thinker(agent)
    try:
        thinker.expect([A, B])
        wait_until(lambda: agent.boards)  # A under way
        thinker.expect([C])
        thinker.decide(C)
        assert B not in agent.boards
    finally:
        thinker.close()


def test_the_agents_error_reaches_the_caller():
    thinker = Thinker(CountingAgent(fail_on=A))
    try:
        with pytest.raises(ValueError, match="no move"):
            thinker.decide(A)
        assert thinker.decide(B)[0][1] == B  # and the thinker goes on
    finally:
        thinker.close()


def test_close_ends_the_thread():
    thinker = Thinker(CountingAgent())
    thinker.close()
    assert not thinker._thread.is_alive()


class FixedDepth(Agent):
    """The expectimax agent searching every board to one fixed depth."""

    def __init__(self, agent, depth):
        self.agent, self.depth = agent, depth

    def choose(self, board, budget_ms=None):
        return self.agent.choose(board, depth=self.depth)

    def cancel(self):
        self.agent.cancel()

    def allow(self):
        self.agent.allow()


def test_the_real_agent_gives_the_same_move_ahead_or_not(expectimax):
    board = parse_board("2 4 8 16 / 4 8 16 32 / 2 . . . / . . . 2")
    direct = expectimax.choose(board, depth=2)
    thinker = Thinker(FixedDepth(expectimax, 2))
    try:
        thinker.expect([board])
        ahead, _ = thinker.decide(board)
    finally:
        thinker.close()
    assert ahead.move == direct.move and ahead.values == direct.values
    assert isinstance(ahead.move, Move)


def test_a_guess_that_did_not_come_is_stopped_half_way_and_the_board_that_came_searched_at_once(expectimax):
    slow_guess = parse_board("2 16 4 2 / 32 8 64 4 / 128 256 512 1024 / . 2 . 8")  # seconds at depth 14
    came = parse_board("2 16 4 2 / 32 8 64 4 / 128 256 512 1024 / 2 2 . 8")
    direct = expectimax.choose(came, depth=14)
    thinker = Thinker(FixedDepth(expectimax, 14))
    try:
        thinker.expect([slow_guess])
        wait_until(lambda: thinker._busy == slow_guess)
        decision, _ = thinker.decide(came)
        assert thinker.cancelled == 1 and thinker.searched == 1  # the guess was dropped, not kept
        assert decision.move == direct.move and decision.values == direct.values
        # a later guess is searched in full again (the cancel does not stick)
        small = parse_board("2 . . . / . . . . / . . . . / . . . 2")
        thinker.expect([small])
        assert thinker.decide(small)[0].move == expectimax.choose(small, depth=14).move
    finally:
        thinker.close()
