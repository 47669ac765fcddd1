"""The app's modules import one another one way: no screen imports another, no circle, and no
import hidden inside a function to break one."""

from __future__ import annotations

import ast
from graphlib import TopologicalSorter
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "scorepad" / "app"


def _name(path: Path) -> str:
    """A module's name inside the app: ``frame.shell``, ``bula.form``, ``families`` (a package)."""
    parts = list(path.relative_to(APP).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _target(here: str, is_package: bool, node: ast.ImportFrom) -> str | None:
    """The app module a relative import names, or None where it leaves the app."""
    base = here.split(".") if here else []
    if not is_package:
        base = base[:-1]
    up = node.level - 1
    if up > len(base):
        return None
    base = base[: len(base) - up]
    return ".".join([*base, node.module] if node.module else base)


def _imports(path: Path) -> tuple[set[str], list[int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here, is_package = _name(path), path.name == "__init__.py"
    modules = {_name(p) for p in APP.rglob("*.py")}
    found: set[str] = set()
    inside: list[int] = []
    typing_only = {
        id(n)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for n in ast.walk(node)
    }

    def in_app(node: ast.ImportFrom) -> list[str]:
        target = _target(here, is_package, node)
        if target is None:
            return []
        named = [f"{target}.{a.name}".lstrip(".") for a in node.names]
        subs = [n for n in named if n in modules]
        return subs or ([target] if target in modules else [])

    for func in ast.walk(tree):
        if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            inside += [
                n.lineno
                for n in ast.walk(func)
                if isinstance(n, ast.ImportFrom) and n.level and in_app(n)
            ]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level and id(node) not in typing_only:
            found.update(m for m in in_app(node) if m)
    return found, inside


def test_no_circle_and_no_import_inside_a_function() -> None:
    graph: dict[str, set[str]] = {}
    for path in sorted(APP.rglob("*.py")):
        found, inside = _imports(path)
        assert not inside, f"{path.name}: an app import inside a function, line {inside}"
        graph[_name(path)] = found - {_name(path)}
    assert "frame.nav" in graph["frame.shell"] and "pulya" in graph["frame.screens"]
    tuple(TopologicalSorter(graph).static_order())  # raises CycleError on a circle
    screens = {
        "pulya.entry",
        "pulya.sheet",
        "screens.history",
        "screens.cashout",
        "screens.chart",
        "screens.sessions",
        "screens.new_game",
    }
    for screen in screens:
        assert not (graph[screen] & screens), screen


def test_the_frame_imports_no_family() -> None:
    """Every family, the pulya included, plugs in through frame/family.py, and every screen
    through the registry: no frame module but the one that registers them all
    (frame/screens.py) imports a family's package or a screen."""
    families = ("pulya", "bula", "kassa", "pot", "families", "screens", "club", "dispute")
    for path in sorted((APP / "frame").glob("*.py")):
        if path.name == "screens.py":
            continue
        found, _ = _imports(path)
        wrong = {m for m in found if m.split(".")[0] in families}
        assert not wrong, f"{path.name} imports {sorted(wrong)}"
    found, _ = _imports(APP / "frame" / "screens.py")
    assert {"pulya", "bula", "kassa", "pot"} <= found  # where they register
