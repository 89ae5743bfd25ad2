"""The one place that makes players (screenbot.agent.players): its players, and every call site going through it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from screenbot.agent.corner import CornerAgent
from screenbot.agent.players import DEFAULT_PLAYER, DEMO_PLAYER, PLAY_SOLVE_BUDGET, PLAYERS, make_player, player_spec
from screenbot.agent.search import ExpectimaxAgent
from screenbot.errors import UsageError

PACKAGE = Path(__file__).resolve().parents[2] / "screenbot"
AGENT_CLASSES = {"ExpectimaxAgent", "CornerAgent"}
# The only places that construct an agent class directly: the factory itself, and the table build,
# which plays one game on the tables it is building (an agent no command plays).
MAKERS = {"agent/players.py": None, "agent/corner.py": "_play_build_game"}


def _constructions(path: Path) -> list[tuple[str, str]]:
    """(class, enclosing function) for each call of an agent class in the module."""
    found = []

    def walk(node, where):
        for child in ast.iter_child_nodes(node):
            inside = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else where
            if isinstance(child, ast.Call):
                name = getattr(child.func, "id", None) or getattr(child.func, "attr", None)
                if name in AGENT_CLASSES:
                    found.append((name, where))
            walk(child, inside)

    walk(ast.parse(path.read_text()), "<module>")
    return found


def test_no_module_but_the_factory_makes_an_agent():
    stray = {}
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE).as_posix()
        for cls, where in _constructions(path):
            if rel in MAKERS and (MAKERS[rel] is None or MAKERS[rel] == where):
                continue
            stray.setdefault(rel, []).append(f"{cls} in {where}")
    assert stray == {}
    assert _constructions(PACKAGE / "agent" / "players.py")  # the walk does find constructions


@pytest.mark.parametrize("module,through", [
    ("commands/play.py", "player_from_args"), ("commands/demo.py", "player_from_args"),
    ("commands/hint.py", "player_from_args"), ("commands/bench.py", "run_games"),
    ("commands/coach.py", "judge_from"), ("commands/review.py", "judge_from"),
    ("commands/player_args.py", "make_player"), ("bench/games.py", "make_player"),
    ("coach/evaluate.py", "make_player"), ("play/loop.py", "make_player"),
])
def test_every_command_that_plays_or_judges_gets_its_agent_from_the_factory(module, through):
    source = (PACKAGE / module).read_text()
    assert through in source
    assert not AGENT_CLASSES & _imported(source)  # it never names an agent class


def _imported(source: str) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            names |= {alias.name for alias in node.names}
    return names


def test_the_players_and_their_defaults():
    assert set(PLAYERS) == {"corner-v4", "corner-eval", "plain", "exact-3x3", "any-size"}
    assert DEFAULT_PLAYER == "corner-v4" and player_spec(DEFAULT_PLAYER).tables
    assert DEMO_PLAYER == "plain"
    plain = make_player("plain", threads=1, depth_cap=4)
    assert type(plain) is ExpectimaxAgent and plain.depth_cap == 4 and plain.threads == 1
    corner = make_player("corner-eval", threads=1, deepen_gap=0.5)
    assert type(corner) is CornerAgent and corner.block is None and corner.deepen_gap == 0.5


def test_each_size_gets_its_own_player_and_a_player_of_another_size_is_one_line():
    from screenbot.agent.any_size import AnySizeAgent
    from screenbot.agent.exact3 import Exact3Agent
    from screenbot.agent.players import default_player, player_for
    from screenbot.errors import UsageError

    assert default_player((4, 4)) == DEFAULT_PLAYER and default_player((3, 3)) == "exact-3x3"
    assert default_player((5, 5)) == default_player((4, 6)) == default_player((3, 4)) == "any-size"
    assert type(make_player(None, shape=(5, 5))) is AnySizeAgent
    assert type(make_player("any-size", shape=(3, 3))) is AnySizeAgent  # a search on 3x3 too, when asked for
    assert type(make_player(None, shape=(3, 3))) is Exact3Agent  # (its solution is made or mapped when it first plays)
    for name, shape in (("corner-v4", (5, 5)), ("plain", (3, 3)), ("exact-3x3", (4, 4)), ("any-size", (4, 4))):
        with pytest.raises(UsageError, match=f"the player '{name}' plays .* boards, not {shape[0]}x{shape[1]}"):
            player_for(name, shape)


def test_the_default_player_plays_plays_tables_with_plays_budget(monkeypatch, tmp_path):
    from screenbot.agent.block_tables import BlockTables, default_table_path

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    BlockTables.empty_compact().save(default_table_path())
    agent = make_player(threads=1)  # mapped from the user cache dir in a thread, taken at a decision
    assert type(agent) is CornerAgent and agent.block is None and agent.solve_budget == PLAY_SOLVE_BUDGET
    assert agent.later.path == default_table_path() and agent.later.job is None
    waited = make_player(threads=1, wait=True)
    assert waited.block is not None and waited.block.tables[0].bits.size * 64 == BlockTables().tables[0].keys
    given = BlockTables.empty_compact()
    assert make_player("corner-v4", tables=given, threads=1).block is given


def test_a_wrong_name_or_tables_for_a_player_without_them_is_refused():
    with pytest.raises(UsageError, match="no player named 'best': one of corner-v4, corner-eval, plain"):
        make_player("best")
    with pytest.raises(ValueError, match="plays no tables"):
        make_player("plain", tables=object())
