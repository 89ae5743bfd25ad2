"""Play's start with a quick player: the agent is made ready in a thread, the quick player moves until it is."""

import threading
import time

import pytest

from screenbot.play import loop
from screenbot.play.loop import PlaySettings, Player
from screenbot.play.record import MoveLog, Recording, read_log
from screenbot.play.warm import QuickCorner, WarmUp

from play_fakes import FirstLegalAgent, SimulatedScreen, VirtualClock


class SlowWarmAgent(FirstLegalAgent):
    """An agent whose warm-up lasts until `release` is set (a compile), and which notes whether each
    choose came after it."""

    def __init__(self, **options):
        super().__init__(**options)
        self.release = threading.Event()
        self.chosen_warm: list[bool] = []
        self.fail: BaseException | None = None

    def warm_up(self):
        self.release.wait(30)
        if self.fail is not None:
            raise self.fail
        self.warmed = True

    def choose(self, board, budget_ms=None):
        self.chosen_warm.append(self.warmed)
        return super().choose(board, budget_ms)


def start(tmp_path, agent, said=None, **settings):
    clock = VirtualClock()
    screen = SimulatedScreen(clock, seed=11)
    log = MoveLog(tmp_path / "log.jsonl")
    player = Player(screen, screen.keyboard, PlaySettings(**settings), agent, clock=clock,
                    record=Recording(log, stop_dir=tmp_path / "stop"), first_moves=QuickCorner(),
                    say=(said.append if said is not None else None))
    return player, screen, log


def after_key(screen, n: int, then) -> None:
    """`then()` right after the game's n-th key."""
    pressed = screen.keyboard.on_press

    def on_press(move):
        pressed(move)
        if len(screen.keyboard.moves) == n:
            then()

    screen.keyboard.on_press = on_press


def test_the_quick_player_moves_until_the_agent_is_warm_then_the_agent_plays(tmp_path, monkeypatch):
    monkeypatch.setattr(loop, "FIRST_MOVE_WAIT_S", 0.0)
    agent = SlowWarmAgent()
    player, screen, log = start(tmp_path, agent, max_moves=12)

    def compiled():  # the compile ends after the third key
        agent.release.set()
        assert player.warming.wait(10.0)

    after_key(screen, 3, compiled)
    summary = player.play()
    log.close()
    assert summary.ok and summary.moves == 12
    assert summary.fallback_moves == 3
    assert summary.depths == {1: 9}  # the agent's nine moves (its fake depth), not the quick player's
    assert "the first 3 moves were a quick corner player's" in summary.text()
    assert agent.chosen_warm and all(agent.chosen_warm)  # never asked before its warm-up was done
    assert player.thinker is not None  # thinking ahead from the swap on
    moves, logged = read_log(tmp_path / "log.jsonl")
    assert [m.get("fallback", False) for m in moves] == [True] * 3 + [False] * 9
    assert logged["fallback_moves"] == 3 and logged["start_s"]["warm_up"] > 0
    assert logged["start_s"]["first_board"] <= logged["start_s"]["first_key"]


def test_the_first_move_waits_for_a_warm_up_that_is_quick(tmp_path):
    agent = SlowWarmAgent()
    threading.Timer(0.05, agent.release.set).start()  # loaded from numba's cache: well within the wait
    player, _, log = start(tmp_path, agent, max_moves=5)
    summary = player.play()
    log.close()
    assert summary.ok and summary.fallback_moves == 0 and summary.depths == {1: 5}
    assert all(agent.chosen_warm)


def test_a_dry_run_gives_the_agents_move_not_the_quick_players(tmp_path):
    agent = SlowWarmAgent()
    threading.Timer(0.8, agent.release.set).start()  # longer than the first move's wait
    player, screen, log = start(tmp_path, agent, dry_run=True)
    summary = player.play()
    log.close()
    assert summary.fallback_moves == 0 and agent.chosen_warm == [True]
    assert summary.advice["move"] == "left"  # FirstLegalAgent's first choice
    assert screen.keyboard.moves == []


def test_a_game_that_ends_before_the_warm_up_lets_it_finish(tmp_path, monkeypatch):
    monkeypatch.setattr(loop, "FIRST_MOVE_WAIT_S", 0.0)
    agent = SlowWarmAgent()
    said = []
    player, _, log = start(tmp_path, agent, said, max_moves=1)
    threading.Timer(0.3, agent.release.set).start()
    summary = player.play()
    log.close()
    assert summary.fallback_moves == 1 and agent.warmed  # numba's cache is written before play returns
    assert summary.start_s["warm_up"] >= 0.25
    assert any("finishing the search's compile" in line for line in said)


def test_a_ctrl_c_does_not_wait_for_the_warm_up(tmp_path, monkeypatch):
    monkeypatch.setattr(loop, "FIRST_MOVE_WAIT_S", 0.0)
    agent = SlowWarmAgent()
    player, screen, log = start(tmp_path, agent, max_moves=20)

    def ctrl_c():
        raise KeyboardInterrupt

    after_key(screen, 2, ctrl_c)
    began = time.monotonic()
    summary = player.play()
    log.close()
    agent.release.set()
    assert summary.reason.startswith("interrupted") and time.monotonic() - began < 5
    assert not agent.warmed and agent.chosen_warm == []


def test_a_warm_up_that_fails_stops_play_with_its_error(tmp_path, monkeypatch):
    monkeypatch.setattr(loop, "FIRST_MOVE_WAIT_S", 0.0)
    agent = SlowWarmAgent()
    agent.fail = RuntimeError("the search cannot be compiled here")
    player, _, log = start(tmp_path, agent, max_moves=200)
    agent.release.set()
    with pytest.raises(RuntimeError, match="cannot be compiled"):  # seen between two moves
        player.play()
    log.close()
    assert agent.chosen_warm == []


def test_warm_up_gives_the_agent_once_ready_and_its_error_if_it_failed():
    agent = SlowWarmAgent()
    warming = WarmUp(agent)
    assert not warming.ready and not warming.wait(0.05)
    agent.release.set()
    assert warming.wait(5.0) and warming.take() is agent and warming.seconds > 0
    failing = SlowWarmAgent()
    failing.fail = ValueError("broken")
    failing.release.set()
    warming = WarmUp(failing)
    assert warming.wait(5.0)
    with pytest.raises(ValueError, match="broken"):
        warming.take()
