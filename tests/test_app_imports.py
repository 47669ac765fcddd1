"""The app's modules import one another one way: no screen imports another, no circle, and no
import hidden inside a function to break one."""

from __future__ import annotations

import ast
from graphlib import TopologicalSorter
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "scorepad" / "app"


def _imports(path: Path) -> tuple[set[str], list[int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    inside: list[int] = []
    typing_only = {
        id(n)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for n in ast.walk(node)
    }
    for func in ast.walk(tree):
        if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            inside += [
                n.lineno for n in ast.walk(func) if isinstance(n, ast.ImportFrom) and n.level == 1
            ]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and id(node) not in typing_only:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(a.name for a in node.names)
    return found, inside


def test_no_circle_and_no_import_inside_a_function() -> None:
    graph: dict[str, set[str]] = {}
    for path in sorted(APP.glob("*.py")):
        found, inside = _imports(path)
        assert not inside, f"{path.name}: an app import inside a function, line {inside}"
        graph[path.stem] = found
    assert "nav" in graph["shell"] and "entry" in graph["screens"]  # the reader sees imports
    tuple(TopologicalSorter(graph).static_order())  # raises CycleError on a circle
    screens = {"entry", "sheet", "history", "settle", "chart", "sessions", "newsession"}
    for screen in screens:
        assert not (graph[screen] & screens), screen
