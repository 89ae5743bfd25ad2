"""The packages of screenbot import each other without a circle (imports inside functions included)."""

from __future__ import annotations

import ast
from pathlib import Path

import screenbot

ROOT = Path(screenbot.__file__).resolve().parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def unit(module: str) -> str:
    """The package-level unit a module belongs to: screenbot.<package> (or the top-level module)."""
    return ".".join(module.split(".")[:2])


def imported_modules(path: Path) -> set[str]:
    """Every screenbot module `path` imports, anywhere in the file."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            found.add(source)
            found.update(f"{source}.{alias.name}" for alias in node.names)  # `from screenbot import vision`
    known = {module_name(p) for p in ROOT.rglob("*.py")}
    return {m for m in found if m in known}


def import_graph() -> dict[str, dict[str, str]]:
    """unit -> {imported unit: one module that makes the import, for the message}."""
    graph: dict[str, dict[str, str]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        here = module_name(path)
        edges = graph.setdefault(unit(here), {})
        for target in sorted(imported_modules(path)):
            if unit(target) != unit(here) and unit(target) != "screenbot":
                edges.setdefault(unit(target), f"{here} imports {target}")
    return graph


def find_cycle(graph: dict[str, dict[str, str]]) -> list[str] | None:
    """One cycle as a list of units (first == last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, {})):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            cycle = visit(start)
            if cycle:
                return cycle
    return None


def test_the_package_import_graph_has_no_cycle():
    graph = import_graph()
    assert "screenbot.vision" in graph and "screenbot.calibration" in graph  # the walk found the packages
    cycle = find_cycle(graph)
    if cycle:
        steps = [f"  {graph[a][b]}" for a, b in zip(cycle, cycle[1:])]
        raise AssertionError("import cycle between packages: " + " -> ".join(cycle) + "\n" + "\n".join(steps))


def test_the_walk_sees_imports_inside_functions():
    graph = {"a": {"b": "a imports b"}, "b": {"a": "b imports a"}}
    assert find_cycle(graph) == ["a", "b", "a"]
    imports = imported_modules(ROOT / "commands" / "hint.py")
    assert "screenbot.control.desktop" in imports  # imported inside grid_from_args


# What may press a key or click: the keyboard module, and what drives it (play's guard and loop).
INPUT_MODULES = {"screenbot.control.keyboard", "screenbot.play.guard", "screenbot.play.loop", "screenbot.play.live_parts"}


def reachable(start: set[str]) -> dict[str, str]:
    """Every screenbot module the `start` modules import, directly or not: module -> the module importing it."""
    paths = {module_name(p): p for p in ROOT.rglob("*.py")}
    seen: dict[str, str] = {}
    todo = sorted(start)
    while todo:
        here = todo.pop()
        for target in imported_modules(paths[here]):
            if target in paths and target not in seen and target not in start:
                seen[target] = here
                todo.append(target)
    return seen


def test_the_coach_cannot_reach_the_keyboard():
    """`screenbot coach` and `review` press nothing: no module they import, at any depth, can send input."""
    coach = {module_name(p) for p in (ROOT / "coach").rglob("*.py")}
    coach |= {"screenbot.commands.coach", "screenbot.commands.review"}
    found = reachable(coach)
    assert "screenbot.vision.reader" in found and "screenbot.control.desktop" in found  # the walk goes deep
    assert not INPUT_MODULES & set(found), {m: found[m] for m in INPUT_MODULES & set(found)}
    for path in (ROOT / "coach").rglob("*.py"):
        assert "pyautogui" not in path.read_text()


def test_reading_a_board_never_reaches_calibration():
    """Vision reads with the profile calibration made (screenbot.profile) and the image primitives both
    share (screenbot.imaging): no vision module reaches calibration's board search, at any depth."""
    vision = {module_name(p) for p in (ROOT / "vision").rglob("*.py")}
    found = reachable(vision)
    assert {"screenbot.profile", "screenbot.palette", "screenbot.imaging", "screenbot.control.screen"} <= set(found)
    calibration = {m: found[m] for m in found if unit(m) == "screenbot.calibration"}
    assert not calibration, calibration


def module_cycle(modules: set[str]) -> list[str] | None:
    """One circle of imports among `modules` and what they reach (a package's __init__ left out), or None."""
    paths = {module_name(p): p for p in ROOT.rglob("*.py")}
    inits = {m for m, p in paths.items() if p.name == "__init__.py"}
    nodes = (modules | set(reachable(modules))) - inits
    graph = {m: {t: f"{m} imports {t}" for t in imported_modules(paths[m]) if t in nodes and t != m} for m in nodes}
    return find_cycle(graph)


def test_finding_and_reading_a_board_import_no_module_through_itself():
    """Within and between calibration and vision no module imports itself through others (imports
    inside functions included): reader dispatches to text, never the other way round."""
    start = {module_name(p) for package in ("vision", "calibration") for p in (ROOT / package).rglob("*.py")}
    assert module_cycle(start) is None, module_cycle(start)
    assert module_cycle({"screenbot.vision.reader"}) is None
    assert "screenbot.vision.text" in reachable({"screenbot.vision.reader"})  # the walk sees the dispatch
