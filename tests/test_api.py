"""The public Python API stays importable under its released names, and the layers import one way."""

from __future__ import annotations

import ast
from pathlib import Path

import scorepad

PACKAGE = Path(scorepad.__file__).resolve().parent
OUTSIDE_THE_ENGINES = ("store", "report", "cli", "app", "testing", "club", "players", "phone")


def test_the_released_names_import() -> None:
    from scorepad.cli import main
    from scorepad.record import audit, parse_record
    from scorepad.session import dump_session, parse_session
    from scorepad.store import Store

    session = parse_session(
        '{"format": "scorepad-session/1", "players": ["A", "B", "C"], "convention": "sochi",'
        ' "pool_target": 10}'
    )
    assert dump_session(session) == (
        '{\n  "format": "scorepad-session/1",\n  "players": [\n    "A",\n    "B",\n    "C"\n'
        '  ],\n  "convention": "sochi",\n  "pool_target": 10,\n  "deals": []\n}\n'
    )
    assert callable(main) and callable(audit) and callable(parse_record)
    assert Store.__module__ == "scorepad.store"


def test_the_docstring_names_every_released_name() -> None:
    doc = scorepad.__doc__ or ""
    for name in (
        "scorepad.session.parse_session",
        "scorepad.session.dump_session",
        "scorepad.store.Store",
        "scorepad.record.parse_record",
        "scorepad.record.audit",
        "scorepad.cli.main",
        "scorepad.scoring.pulya.legal",
    ):
        assert name in doc, name


def imported(path: Path) -> set[str]:
    """The absolute names of the scorepad modules a file imports (relative imports resolved)."""
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = module.rsplit(".", 1)[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                root = ".".join([*base, node.module] if node.module else base)
            else:
                root = node.module or ""
            names.add(root)
            names.update(f"{root}.{a.name}" for a in node.names)
    return {n for n in names if n.split(".")[0] == "scorepad"}


def test_the_engines_import_nothing_above_them() -> None:
    for engine in ("scoring", "play"):
        files = sorted((PACKAGE / engine).rglob("*.py"))
        assert files
        for path in files:
            for name in imported(path):
                parts = name.split(".")
                assert parts[1] not in OUTSIDE_THE_ENGINES, (path.name, name)
                if engine == "scoring":
                    assert parts[1] != "play", (path.name, name)
                if path.parent.name == "pulya":  # the ledger families stand beside the pulya
                    assert parts[2:3] != ["ledger"], (path.name, name)


def test_the_import_check_sees_relative_imports() -> None:
    names = imported(PACKAGE / "scoring" / "pulya" / "score.py")
    assert "scorepad.scoring.pulya.legal" in names and "scorepad.core.i18n" in names
    assert "scorepad.scoring.pulya.legal" in imported(PACKAGE / "play" / "record.py")
