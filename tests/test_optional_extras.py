"""Optional parts (pip extras): without matplotlib `bench --plot` says which extra to install before playing;
without rich `bench` prints plain progress lines."""

import sys

import pytest

import screenbot.bench.games
from screenbot.cli import main


def hide(monkeypatch, package: str) -> None:
    """Make `import package` (and its submodules) fail as if it were not installed."""
    for name in [n for n in sys.modules if n == package or n.startswith(package + ".")] + [package]:
        monkeypatch.setitem(sys.modules, name, None)


def test_plot_without_matplotlib_names_the_extra_before_any_game(monkeypatch, tmp_path, capsys):
    hide(monkeypatch, "matplotlib")

    def no_games(*args, **kwargs):
        pytest.fail("games were played although the plot cannot be drawn")

    monkeypatch.setattr(screenbot.bench.games, "run_games", no_games)
    code = main(["bench", "--player", "plain", "--games", "1", "--depth", "0", "--plot", str(tmp_path / "reach.png")])
    err = capsys.readouterr().err.strip()
    assert code != 0
    assert err.startswith("screenbot: error: ") and "\n" not in err
    assert "pip install 'screenbot[plot]'" in err
    assert not (tmp_path / "reach.png").exists()


def test_bench_without_rich_prints_one_plain_line_per_game(monkeypatch, capsys):
    hide(monkeypatch, "rich")
    assert main(["bench", "--player", "plain", "--games", "2", "--depth", "0", "--stop-at", "16"]) == 0
    err = capsys.readouterr().err
    assert "game 1/2: max tile" in err and "game 2/2: max tile" in err
