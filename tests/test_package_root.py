"""The package's root holds its face and the released names, nothing loose (issue 34, item 4).

Every other module lives in the package it belongs to (the shared vocabulary in ``core/``, the
reports in ``report/``, the journal in ``store/``, the generator in ``testing/``), so a reader
who opens ``scorepad/`` sees the folders, not a drawer of odds and ends.
"""

from __future__ import annotations

import ast
from pathlib import Path

import scorepad

PACKAGE = Path(scorepad.__file__).resolve().parent
#: The face, ``python -m scorepad``, and the released names the package docstring documents
#: (``scorepad.session``, ``scorepad.record``, ``scorepad.i18n.ScorepadError``): shims only.
ROOT_MODULES = {"__init__.py", "__main__.py", "session.py", "record.py", "i18n.py"}
SHIMS = {"session.py", "record.py", "i18n.py"}


def test_the_root_holds_only_the_allowed_modules() -> None:
    assert {p.name for p in PACKAGE.glob("*.py")} == ROOT_MODULES


def test_the_released_names_are_shims_that_define_nothing() -> None:
    """A shim only hands on names from the package that owns them: no code grows at the root."""
    for name in SHIMS:
        body = ast.parse((PACKAGE / name).read_text(encoding="utf-8")).body
        docstring, *rest = body
        assert isinstance(docstring, ast.Expr) and isinstance(docstring.value, ast.Constant)
        kinds = [type(node).__name__ for node in rest]
        assert kinds == ["ImportFrom", "Assign"], (name, kinds)  # the import and its __all__
        assert ast.unparse(rest[1].targets[0]) == "__all__"  # type: ignore[attr-defined]


def test_record_stats_and_registry_each_mean_one_thing() -> None:
    """Three ``record.py``, two ``stats.py`` and two ``registry.py`` meant different things: the
    players' results of a session are ``scoring/results.py``, the pulkas' totals
    ``players/pulkas.py``, the club's check-in at the door ``app/club/checkin.py``.  What keeps
    the name: the deal record (``play/record.py``, and the root's released name for it), the
    players' statistics (``players/stats.py``), the screens' registry (``app/frame/registry.py``)."""
    where = {
        stem: sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob(f"{stem}.py"))
        for stem in ("record", "stats", "registry")
    }
    assert where == {
        "record": ["play/record.py", "record.py"],
        "stats": ["players/stats.py"],
        "registry": ["app/frame/registry.py"],
    }
    assert "from .play.record import" in (PACKAGE / "record.py").read_text(encoding="utf-8")
