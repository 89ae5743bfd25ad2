"""The sdist and the wheel build from a clone, pass twine's check, hold the package and nothing else,
and the wheel installed into a fresh venv runs: `screenbot --version` and reading a recorded screen."""

import json
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import screenbot

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
NOT_SHIPPED = ("research/", "benchmarks/", "tests/", "docs/", "scripts/")
# A recorded screen of the practice board with tiles 2 … 65536: reading it needs OpenCV, numpy and
# (for the tiles above 2048, which share one colour) tesseract, all from the wheel's own dependencies.
SCREEN = REPO / "tests" / "fixtures" / "screens" / "classic_z100_s1_p0__03_static"


def run(cmd: list, timeout: float, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=timeout, **kwargs)
    assert done.returncode == 0, f"{cmd} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


def tracked(under: str | None = None) -> list[str]:
    """The files git tracks (under a folder), as a clone has them; those deleted in the work tree left out."""
    names = run(["git", "ls-files", "-z", *([under] if under else [])], 60, cwd=REPO).stdout.split("\0")
    return sorted(name for name in names if name and (REPO / name).is_file())


@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> dict[str, Path]:
    """The sdist and the wheel, built (wheel from the sdist, as `python -m build` does) from a copy of
    the tracked files: what `git clone` gives a user, and nothing is written into the work tree."""
    top = tmp_path_factory.mktemp("package")
    src, out = top / "src", top / "dist"
    for name in tracked():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_bytes((REPO / name).read_bytes())
    run([sys.executable, "-m", "build", "--outdir", out, src], 600)
    wheels, sdists = sorted(out.glob("*.whl")), sorted(out.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, sorted(p.name for p in out.iterdir())
    return {"wheel": wheels[0], "sdist": sdists[0]}


def clean_env(home: Path) -> dict[str, str]:
    """This environment without anything that would import screenbot from the repo, and with the
    user's config and cache dirs inside the test's folder."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    for var in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"):
        env[var] = str(home / var.lower())
    return env


@pytest.fixture(scope="module")
def venv(dists, tmp_path_factory) -> dict:
    """A fresh venv with only the wheel installed (its dependencies from the package index)."""
    top = tmp_path_factory.mktemp("venv")
    env = clean_env(top / "home")
    run([sys.executable, "-m", "venv", top / "venv"], 300, cwd=top, env=env)
    bin_dir = top / "venv" / ("Scripts" if os.name == "nt" else "bin")
    run([bin_dir / "python", "-m", "pip", "install", "-q", dists["wheel"]], 900, cwd=top, env=env)
    return {"bin": bin_dir, "cwd": top, "env": env, "root": top / "venv"}


def test_wheel_and_sdist_are_named_with_the_package_version(dists):
    assert dists["wheel"].name == f"screenbot-{screenbot.__version__}-py3-none-any.whl"
    assert dists["sdist"].name == f"screenbot-{screenbot.__version__}.tar.gz"


def test_twine_check_passes_both(dists):
    done = run([sys.executable, "-m", "twine", "check", "--strict", dists["sdist"], dists["wheel"]], 120)
    assert done.stdout.count("PASSED") == 2, done.stdout


def test_wheel_holds_every_tracked_file_of_the_package_and_nothing_else(dists):
    with zipfile.ZipFile(dists["wheel"]) as wheel:
        names = wheel.namelist()
    dist_info = f"screenbot-{screenbot.__version__}.dist-info/"
    assert sorted(n for n in names if not n.startswith(dist_info)) == tracked("screenbot")
    assert any(n.startswith("screenbot/practice/static/") for n in names)  # the practice page
    assert f"{dist_info}entry_points.txt" in names and f"{dist_info}licenses/LICENSE" in names


def test_sdist_holds_the_package_and_no_research_benchmarks_or_tests(dists):
    with tarfile.open(dists["sdist"]) as sdist:
        names = [m.name.split("/", 1)[1] for m in sdist.getmembers() if m.isfile()]
    assert not [n for n in names if n.startswith(NOT_SHIPPED)]
    assert sorted(n for n in names if n.startswith("screenbot/")) == tracked("screenbot")
    assert {"pyproject.toml", "README.md", "LICENSE"} <= set(names)


def test_installed_wheel_prints_its_version(venv):
    done = run([venv["bin"] / "screenbot", "--version"], 120, cwd=venv["cwd"], env=venv["env"])
    assert done.stdout.strip() == f"screenbot {screenbot.__version__}"


def test_installed_package_runs_from_the_venv_and_finds_the_practice_page(venv):
    probe = ("import json, screenbot\nfrom screenbot.practice.server import STATIC_DIR, STATIC_FILES\n"
             "print(json.dumps([screenbot.__file__, [(STATIC_DIR / f).is_file() for f, _ in STATIC_FILES.values()]]))")
    done = run([venv["bin"] / "python", "-c", probe], 120, cwd=venv["cwd"], env=venv["env"])
    module_file, found = json.loads(done.stdout)
    assert Path(module_file).resolve().is_relative_to(venv["root"].resolve())
    assert found and all(found)


def test_installed_wheel_reads_a_recorded_screen(venv):
    done = run([venv["bin"] / "screenbot", "read", "--json", "--image", SCREEN.with_suffix(".png")], 300,
               cwd=venv["cwd"], env=venv["env"])
    truth = json.loads(SCREEN.with_suffix(".json").read_text())
    assert json.loads(done.stdout)["board"] == truth["grid"]
