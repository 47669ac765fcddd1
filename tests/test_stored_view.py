"""One stored view for every family, the pulya too, read by one ``load`` (issue #34, round
three): a part that needs what differs asks the view's family (``engine``) or the scored sheet,
never the view's type; the guard below keeps a branch on a family's own stored type from coming
back."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import scorepad
from conftest import typed
from scorepad.scoring.family import NAMES, family
from scorepad.scoring.peek import family_ids
from scorepad.scoring.pulya.settlement import balances
from scorepad.store import Store, Stored

PACKAGE = Path(scorepad.__file__).resolve().parent

PULYA_GAME = {
    "type": "game",
    "declarer": 1,
    "contract": "7S",
    "calls": ["whist", "pass"],
    "tricks": {"1": 7, "2": 2, "0": 1},
}
BULA_GAME = {
    "type": "game",
    "declarer": 2,
    "bid": 3,
    "defence": {"0": "follow", "1": "follow"},
    "tricks": {"2": 6, "0": 2, "1": 2},
}


def a_convention(name: str) -> str:
    """A preset of family ``name`` (the pulya's default is the store's)."""
    if name == "pulya":
        return "sochi"
    return sorted(c for c, f in family_ids().items() if f == name)[0]


@pytest.mark.parametrize("name", NAMES)
def test_every_family_is_one_view_read_by_one_load(store: Store, name: str) -> None:
    sid = store.create_session(["A", "B", "C"], convention=a_convention(name))
    stored = store.load(sid)
    assert type(stored) is Stored
    assert stored.family == name
    assert stored.engine is family(name)
    assert stored.revision == 0 and stored.id == sid
    assert stored.scored.next_dealer == 0
    assert stored.scored.results_over_deals() == []


def test_what_differed_by_the_view_type_is_the_family_s_own_answer(store: Store) -> None:
    """The chart, the next pulka's dealer and the card-play screens asked the view's type; each
    now asks the same question of every family, and the answers are the families' own."""
    pulya = store.create_session(["A", "B", "C"])
    written = store.add_deal(pulya, typed(store, pulya, PULYA_GAME), seen=0)
    assert written.family == "pulya" and written.engine.cards
    assert written.scored.next_dealer == 1
    [row] = written.scored.results_over_deals()
    assert row == tuple(balances(written.scored.sheet, written.settings))
    assert sum(row) == 0 and row != (0, 0, 0)

    bula = store.create_session(["A", "B", "C"], convention="balkan")
    written = store.add_deal(bula, typed(store, bula, BULA_GAME), seen=0)
    assert written.family == "bula" and not written.engine.cards
    assert written.scored.next_dealer == 1
    [row] = written.scored.results_over_deals()
    assert row == written.scored.results()
    assert sum(row) == 0 and row != (0, 0, 0)


# --- the guard ---------------------------------------------------------------------------------

#: The family's own types a view was told apart by (a branch on them is a family hard-wired).
FAMILY_TYPES = {"Scored", "FamilyScored"}


def _names(node: ast.expr) -> list[str]:
    """The class names an isinstance's second argument tests (a name, a tuple, an ``A | B``)."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.Tuple):
        return [n for e in node.elts for n in _names(e)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _names(node.left) + _names(node.right)
    return []


def _family_branches(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ClassDef)
            and node.name.endswith("Stored")
            and node.name != "Stored"
        ):
            found.append((node.lineno, f"class {node.name}"))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "isinstance"
            and len(node.args) == 2
        ):
            for name in _names(node.args[1]):
                if name in FAMILY_TYPES or (name.endswith("Stored") and name != "Stored"):
                    found.append((node.lineno, f"isinstance(…, {name})"))
    return found


def test_the_guard_finds_a_family_branch() -> None:
    """The guard would see the branches this round removed (their shapes, as they were)."""
    before = """
class FamilyStored: ...
if isinstance(stored, FamilyStored): ...
if isinstance(done, Stored | FamilyStored): ...
if not isinstance(scored, Scored): ...
if isinstance(scored, (store.FamilyScored, int)): ...
if isinstance(done, Stored): ...
"""
    assert sorted(line for line, _ in _family_branches(ast.parse(before))) == [2, 3, 4, 5, 6]


def test_no_module_branches_on_a_family_s_stored_type() -> None:
    """Every stored session is one ``Stored`` carrying its family; no module defines a stored
    view of its own family or tells the families apart by their stored or scored type."""
    found = [
        f"{path.relative_to(PACKAGE)}:{line}: {what}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line, what in _family_branches(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert found == []


def test_one_load() -> None:
    """The store reads every family by ``load``; the per-family loads are gone."""
    from scorepad.app.frame.shell import Shell
    from scorepad.app.session import TableSession

    for gone in ("load_family", "load_pulya"):
        assert not hasattr(Store, gone) and not hasattr(TableSession, gone)
    assert not hasattr(Shell, "family_stored")
    assert "FamilyStored" not in dir(scorepad.store)
