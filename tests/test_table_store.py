"""The store's side of the shared table: a snapshot keeps its revision, every stale write is refused."""

from __future__ import annotations

import pytest

from conftest import typed
from scorepad.store import StaleRevision, Store

GAME = {
    "type": "game",
    "declarer": 1,
    "contract": "7S",
    "calls": ["whist", "pass"],
    "tricks": {"1": 7, "2": 3, "0": 0},
}
PASSED = {"type": "game", "declarer": 1, "contract": "6S", "calls": ["pass", "pass"]}


def _session(store: Store, deals: int = 2) -> int:
    sid = store.create_session(["Anna", "Boris", "Vera"])
    for i in range(deals):
        store.add_deal(sid, typed(store, sid, PASSED if i % 2 else GAME), seen=i)
    return sid


def test_a_snapshot_keeps_its_revision_when_another_writer_voids(store: Store) -> None:
    sid = _session(store)
    a = store.load(sid)
    first = a.journal.live[0].deal_id
    store.void_deal(sid, first, reason="misdealt", seen=2)
    assert a.revision == 2
    assert [e.deal_id for e in a.journal.live] == [1, 2]
    assert a.journal.entries[first].voided is False
    assert store.load(sid).revision == 3


def test_a_snapshot_keeps_its_revision_when_another_writer_adds(store: Store) -> None:
    sid = _session(store)
    a = store.load(sid)
    store.add_deal(sid, typed(store, sid, GAME), seen=2)
    assert (a.revision, len(a.journal.live), len(a.session.deals)) == (2, 2, 2)
    assert store.load(sid).revision == 3


def test_a_snapshot_keeps_its_revision_through_edit_undo_and_redo(store: Store) -> None:
    sid = _session(store)
    a = store.load(sid)
    store.edit_deal(sid, 1, typed(store, sid, PASSED), reason="typo", seen=2)
    b = store.load(sid)
    store.undo(sid, seen=3)
    c = store.load(sid)
    store.redo(sid, seen=4)
    assert (a.revision, b.revision, c.revision, store.load(sid).revision) == (2, 3, 4, 5)
    assert a.journal.entries[1].deal.contract.code == "7S"
    assert b.journal.entries[1].deal.contract.code == "6S"
    assert c.journal.entries[1].deal.contract.code == "7S"
    assert [x.seq for x in a.journal.entries[1].revisions] == [1]


def test_two_writes_from_one_snapshot_write_once(store: Store) -> None:
    """Two phones held the same sheet: the second deal on the same basis is refused."""
    sid = _session(store, deals=0)
    basis = store.load(sid).revision
    store.add_deal(sid, typed(store, sid, PASSED), seen=basis)
    with pytest.raises(StaleRevision) as refused:
        store.add_deal(sid, typed(store, sid, PASSED), seen=basis)
    assert refused.value.render("en").splitlines()[0] == (
        f"session {sid} changed since you looked (revision 0, now 1); nothing was written:"
    )
    assert len(store.load(sid).session.deals) == 1


def test_a_second_edit_of_one_deal_does_not_replace_the_first(store: Store) -> None:
    sid = _session(store)
    snapshot = store.load(sid)
    store.edit_deal(sid, 1, typed(store, sid, PASSED), reason="first", seen=snapshot.revision)
    with pytest.raises(StaleRevision):
        store.edit_deal(sid, 1, typed(store, sid, GAME), reason="second", seen=snapshot.revision)
    entry = store.load(sid).journal.entries[1]
    assert (entry.deal.contract.code, [a.reason for a in entry.revisions]) == (
        "6S",
        [None, "first"],
    )


@pytest.mark.parametrize("kind", ["void", "undo", "redo", "restore", "edit", "delete"])
def test_every_write_on_an_old_basis_is_refused(store: Store, kind: str) -> None:
    sid = _session(store)
    store.void_deal(sid, 2, reason="misdealt", seen=2)  # something to restore
    store.add_deal(sid, typed(store, sid, PASSED), seen=3)
    store.undo(sid, seen=4)  # something to redo; the void still to undo
    old = 5  # where a history screen was drawn: every write was possible there
    store.void_deal(sid, 1, reason="torn card", seen=old)  # another device moved on
    before = store.history(sid)
    with pytest.raises(StaleRevision):
        if kind == "void":
            store.void_deal(sid, 1, reason="x", seen=old)
        elif kind == "restore":
            store.restore_deal(sid, 2, seen=old)
        elif kind == "edit":
            store.edit_deal(sid, 1, typed(store, sid, PASSED), reason="typo", seen=old)
        elif kind == "undo":
            store.undo(sid, seen=old)
        elif kind == "redo":
            store.redo(sid, seen=old)
        else:
            store.delete_session(sid, seen=old)
    assert store.history(sid) == before
    assert [s.id for s in store.sessions()] == [sid]
