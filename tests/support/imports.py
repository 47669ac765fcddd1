"""The package's import graph, read from the source (nothing is imported): which module imports
which, at run time (every import but those under ``if TYPE_CHECKING:``, a function's too) or
for the type checker as well; its circles; the layers and what runs up them.

``python tests/support/imports.py`` prints the graph between the package's parts, as
docs/architecture.md draws it.
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "scorepad"

#: The layers, bottom first: a module imports its own layer or those below it.  The package's
#: face (``scorepad/__init__.py``: its version, nothing imported) is the ground; the released
#: names (session, record, i18n shims) and ``python -m scorepad`` stand on top.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("scorepad", "core"),
    ("scoring",),
    ("play",),
    ("store",),
    ("players", "report", "testing"),
    ("club",),
    ("league",),
    ("app", "cli", "phone"),
    ("__main__", "session", "record", "i18n"),
)


def module_of(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_of(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _type_only(tree: ast.AST) -> set[int]:
    """The nodes under an ``if TYPE_CHECKING:`` (what only the type checker reads)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                found |= {id(n) for n in ast.walk(child)}
    return found


def imported(path: Path, *, run_time: bool) -> set[str]:
    """The scorepad modules ``path`` imports (``from . import x`` names module x)."""
    here = module_of(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_only(tree) if run_time else set()
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "scorepad"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - (node.level - 1)])
                target = f"{base}.{node.module}" if node.module else base
            elif node.module and node.module.split(".")[0] == "scorepad":
                target = node.module
            else:
                continue
            subs = {f"{target}.{a.name}" for a in node.names} & MODULES.keys()
            found |= subs or {target}
    return (found & MODULES.keys()) - {here}


def graph(*, run_time: bool) -> dict[str, set[str]]:
    return {name: imported(path, run_time=run_time) for name, path in MODULES.items()}


def circles(g: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return sorted(out)


def part(module: str) -> str:
    """The part of the package a module belongs to: its folder, or its own name at the root."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def layer(module: str) -> int:
    name = part(module)
    return next(i for i, names in enumerate(LAYERS) if name in names)


def upward(g: dict[str, set[str]]) -> list[str]:
    """Every import from a lower layer to a higher one, ``a -> b``."""
    return sorted(f"{a} -> {b}" for a, targets in g.items() for b in targets if layer(b) > layer(a))


def parts_text(g: dict[str, set[str]]) -> str:
    """The graph between the package's parts, top layer first: ``part -> other (imports)``."""
    edges = Counter((part(a), part(b)) for a, ts in g.items() for b in ts if part(a) != part(b))
    lines = []
    for names in reversed(LAYERS):
        for name in names:
            out = sorted((b, n) for (a, b), n in edges.items() if a == name)
            if out:
                up = {b for b, _ in out if layer(f"scorepad.{b}") > layer(f"scorepad.{name}")}
                said = ", ".join(f"{b} {n}" + (" (UP)" if b in up else "") for b, n in out)
                lines.append(f"{name:<9} -> {said}")
    return "\n".join(lines)


if __name__ == "__main__":
    g = graph(run_time=True)
    sys.stdout.write(parts_text(g) + "\n")
    for c in circles(g):
        sys.stdout.write("circle at run time: " + " ".join(c) + "\n")
    for c in circles(graph(run_time=False)):
        sys.stdout.write("circle with the type checker's imports: " + " ".join(c) + "\n")
    for u in upward(g):
        sys.stdout.write("upward at run time: " + u + "\n")
