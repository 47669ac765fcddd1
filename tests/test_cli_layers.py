"""The command line is one package on top: its modules import one another one way, and nothing
else in Scorepad imports it (issue 34, item 4).

Every import counts, at run time and at type-check time, at a module's top and inside a
function: the old ``cli.py`` and ``club/cli.py`` imported each other from inside functions to
dodge the circle, which hid it from Python but not from a reader (or from mypy).
"""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "scorepad"
CLI = PACKAGE / "cli"


def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module(p): p for p in PACKAGE.rglob("*.py")}


def imported(path: Path) -> set[str]:
    """Every scorepad module ``path`` imports, wherever the import stands."""
    here = _module(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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
            # `from . import common` names a module; `from .common import x` names a value.
            subs = {f"{target}.{a.name}" for a in node.names} & MODULES.keys()
            found |= subs or {target}
    return found


def test_the_checks_see_what_they_look_for() -> None:
    """The import reader resolves each form a module of the package uses (no check below passes
    because it saw nothing)."""
    assert "scorepad.cli.common" in imported(CLI / "club.py")  # from . import common
    assert "scorepad.cli.club" in imported(CLI / "__init__.py")  # from .club import add_parser
    assert "scorepad.club.store" in imported(CLI / "club.py")  # from ..club.store import …
    assert "scorepad.cli" in imported(CLI / "__main__.py")  # from . import main


def test_no_circle_in_the_cli_package() -> None:
    inside = {name: path for name, path in MODULES.items() if name.startswith("scorepad.cli")}
    graph = {name: imported(path) & inside.keys() - {name} for name, path in inside.items()}
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as exc:  # pragma: no cover - the failure says which modules
        raise AssertionError(f"an import circle in scorepad/cli: {exc.args[1]}") from None
    assert order[0] == "scorepad.cli.common"
    # A command group never reaches back into the package that registers it.
    back = sorted(
        name
        for name, targets in graph.items()
        if name not in ("scorepad.cli", "scorepad.cli.__main__") and "scorepad.cli" in targets
    )
    assert back == []


def test_nothing_outside_the_cli_imports_it() -> None:
    """The command line is a front end: no library module, and not the app, imports it (the
    Players screen's CSV rows live in ``scorepad/players/rows.py`` for both).  Only
    ``python -m scorepad`` (``scorepad/__main__.py``) starts it."""
    upward = sorted(
        f"{name} -> {target}"
        for name, path in MODULES.items()
        if not name.startswith("scorepad.cli") and name != "scorepad.__main__"
        for target in imported(path)
        if target == "scorepad.cli" or target.startswith("scorepad.cli.")
    )
    assert upward == []


def test_every_way_to_start_the_command_runs_the_same_main() -> None:
    """``python -m scorepad``, ``python -m scorepad.cli`` and the installed script's target
    (``scorepad.cli:main``): the process is the point here, so each is a real one."""
    import subprocess
    import sys
    import tomllib

    from scorepad import __version__

    scripts = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"scorepad": "scorepad.cli:main"}
    for module in ("scorepad", "scorepad.cli"):
        done = subprocess.run(
            [sys.executable, "-m", module, "--version"],
            capture_output=True,
            text=True,
            cwd=PACKAGE.parent,
            timeout=60,
        )
        assert (done.returncode, done.stderr) == (0, ""), module
        assert done.stdout.splitlines()[0] == f"scorepad {__version__}", module
