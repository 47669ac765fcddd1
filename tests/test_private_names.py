"""No private name crosses a module: what another module needs is public in its own.

A name with a leading underscore says "only this module uses me"; imported elsewhere, it is an
interface nobody wrote down, and a rename inside its module breaks a stranger.  The compiled
solver's module (``_dds``, an extension module's conventional name) and a third party's
internals that Scorepad patches on purpose (``flet``, app/frame/flet_diff.py) are not ours to
rename.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "scorepad"
# Not Scorepad's own names: the C extension module, and what the diff patch replaces in Flet.
FOREIGN = {"_dds", "_compiled", "_control_setattr"}


def crossings() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                for alias in node.names:
                    name = alias.name
                    if name.startswith("_") and not name.startswith("__"):
                        found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {name}")
    return found


def test_the_check_sees_an_import() -> None:
    assert any(c.endswith(" _dds") for c in crossings())  # it reads what it must


def test_no_private_name_is_imported_across_modules() -> None:
    names = {c.rsplit(" ", 1)[1] for c in crossings()}
    assert sorted(c for c in crossings() if c.rsplit(" ", 1)[1] not in FOREIGN) == []
    assert names <= FOREIGN  # the store's seams are public now: no allowlist of our own names
