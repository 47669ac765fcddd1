"""The table session (app/session.py): every write a page makes, on a real store, without Flet.

Each write returns the session as it stands after it (or the new game's id) or a refusal in
the player's language that wrote nothing; a write naming an old revision is refused as stale.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import typed
from scorepad.app.server.access import Access, Gate
from scorepad.app.session import NewGame, Refused, TableSession
from scorepad.store import AnyStored, Store

PASSED = {"type": "game", "declarer": 1, "contract": "6S", "calls": ["pass", "pass"]}
SEVEN = {"type": "game", "declarer": 0, "contract": "7H", "calls": ["pass", "pass"]}


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Store]:
    with Store(tmp_path / "t.db", check_same_thread=False) as store:
        yield store


def opened(store: Store, *, lang: str = "en", access: Access | None = None) -> TableSession:
    session = TableSession(store, threading.RLock(), lang=lang, access=access)
    session.open(store.create_session(["Anna", "Boris", "Vera"]))
    return session


def written(done: object) -> AnyStored:
    assert not isinstance(done, Refused), done
    return done  # type: ignore[return-value]


def test_the_session_module_imports_no_flet() -> None:
    """A page draws; the session writes: it runs where no Flet is installed (a CLI, a worker)."""
    code = "import sys, scorepad.app.session; print('flet' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_deal_added_returns_the_stored_view_and_becomes_the_basis(db: Store) -> None:
    s = opened(db)
    assert s.family == "pulya"
    stored = written(s.add(typed(db, s.sid, PASSED), seen=0))
    assert stored.revision == 1 and s.basis == 1
    assert [e.deal for e in stored.journal.live] == [typed(db, s.sid, PASSED)]
    assert s.load().revision == 1
    assert [a.kind for a in s.history()] == ["add"]


def test_a_stale_revision_is_refused_in_the_players_language_and_writes_nothing(
    db: Store,
) -> None:
    s = opened(db, lang="de")
    written(s.add(typed(db, s.sid, PASSED), seen=0))
    refused = s.add(typed(db, s.sid, SEVEN), seen=0)  # drawn before the first deal
    assert isinstance(refused, Refused) and refused.stale
    assert refused.said.startswith(
        "Partie 1 hat sich geändert, seit du sie angesehen hast (Revision 0, jetzt 1)"
    )
    assert s.load().revision == 1 and len(s.load().journal.live) == 1


def test_edit_void_restore_undo_redo_each_return_the_session_as_it_stands(db: Store) -> None:
    s = opened(db)
    first = written(s.add(typed(db, s.sid, PASSED), seen=0)).journal.live[0].deal_id
    edited = written(s.edit(first, typed(db, s.sid, SEVEN), reason="misheard", seen=1))
    assert edited.revision == 2 and edited.journal.live[0].deal == typed(db, s.sid, SEVEN)
    voided = written(s.void(first, reason="misdeal", seen=2))
    assert voided.journal.live == []
    restored = written(s.restore(first, seen=3))
    assert [e.deal_id for e in restored.journal.live] == [first]
    undone = written(s.undo(seen=4))
    assert undone.journal.live == [] and undone.revision == 5
    redone = written(s.redo(seen=5))
    assert [e.deal_id for e in redone.journal.live] == [first] and s.basis == 6
    assert [a.kind for a in s.history()] == ["add", "edit", "void", "restore", "undo", "redo"]


def test_a_refusal_says_why_in_words_and_changes_nothing(db: Store) -> None:
    s = opened(db, lang="de")
    first = written(s.add(typed(db, s.sid, PASSED), seen=0)).journal.live[0].deal_id
    assert s.void(first, reason=" ", seen=1) == Refused(
        "eine Änderung oder ein Streichen braucht einen Grund"
    )
    assert s.redo(seen=1) == Refused("es gibt nichts zu wiederholen")
    assert s.close("") == Refused("zum Schließen einer Partie braucht es einen Grund")
    assert s.load().revision == 1 and s.basis == 1


def test_a_viewer_may_read_and_may_not_write(db: Store) -> None:
    viewer = Access(Gate("4821"), "phone", loopback=False)
    s = opened(db, access=viewer)
    refused = s.add(typed(db, s.sid, PASSED), seen=0)
    assert refused == Refused(
        "This device may only look at the sheet: enter the table PIN to write."
    )
    assert s.new_game(NewGame(players=("A", "B", "C"))) == Refused(
        "Only the host's computer may do that."
    )
    assert s.load().revision == 0 and len(s.sessions()) == 1


def test_a_new_game_a_next_pulka_and_a_closed_game(db: Store) -> None:
    s = TableSession(db, threading.RLock())
    game = NewGame(
        players=("Anna", "Boris", "Vera", "Gleb"),
        convention="sochi",
        pool_target=30,
        first_dealer=2,
        whist_price="0.50",
        currency="EUR",
    )
    sid = s.new_game(game)
    assert isinstance(sid, int)
    s.open(sid)
    made = s.load().session
    assert list(made.players) == ["Anna", "Boris", "Vera", "Gleb"]
    assert (made.pool_target, made.first_dealer, made.whist_price, made.currency) == (
        30,
        2,
        "0.50",
        "EUR",
    )
    nxt = s.next_pulka(sid, 3)
    assert isinstance(nxt, int) and nxt != sid
    again = s.load(nxt).session
    assert (list(again.players), again.first_dealer, again.pool_target, again.currency) == (
        list(made.players),
        3,
        30,
        "EUR",
    )
    assert s.close("the night ended") is None and sid in s.closed()
    assert s.reopen() is None and sid not in s.closed()


def test_delete_names_the_revision_seen_and_import_makes_a_game(db: Store) -> None:
    s = opened(db)
    sid = s.sid
    assert sid is not None
    written(s.add(typed(db, sid, PASSED), seen=0))
    text = s.export(sid)
    assert isinstance(s.delete(sid, seen=0), Refused)  # it changed since the list was drawn
    assert [r.id for r in s.sessions()] == [sid]
    assert s.delete(sid, seen=1) is None and s.sessions() == []
    imported = s.import_game(text)
    assert isinstance(imported, int)
    assert json.loads(s.export(imported))["deals"] == json.loads(text)["deals"]


def test_a_write_waits_for_a_read_holding_the_lock(db: Store) -> None:
    """One database connection, handlers on several threads: a write never runs inside a read."""
    s = opened(db)
    done: list[object] = []
    with s.locked() as store:
        before = store.load(s.sid or 0).revision
        t = threading.Thread(target=lambda: done.append(s.add(typed(db, s.sid, PASSED), seen=0)))
        t.start()
        t.join(0.2)
        assert done == [] and store.load(s.sid or 0).revision == before
    t.join(5)
    assert written(done[0]).revision == 1 and s.basis == 1


# A write is one of these, named by the revision the page drew (maybe an old one).
OPS = st.lists(
    st.tuples(st.sampled_from(["add", "void", "restore", "undo", "redo"]), st.integers(0, 3)),
    max_size=12,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OPS)
def test_every_write_is_written_whole_or_refused_with_nothing_changed(
    ops: list[tuple[str, int]],
) -> None:
    with tempfile.TemporaryDirectory() as d, Store(Path(d) / "h.db") as store:
        s = opened(store)
        sid = s.sid
        assert sid is not None
        for op, back in ops:
            before = store.load(sid)
            seen = max(0, before.revision - back)
            ids = [e.deal_id for e in before.journal.entries.values()]
            target = ids[back % len(ids)] if ids else 1
            if op == "add":
                done = s.add(typed(store, sid, PASSED), seen=seen)
            elif op == "void":
                done = s.void(target, reason="misdeal", seen=seen)
            elif op == "restore":
                done = s.restore(target, seen=seen)
            elif op == "undo":
                done = s.undo(seen=seen)
            else:
                done = s.redo(seen=seen)
            after = store.load(sid)
            if isinstance(done, Refused):
                assert done.said and "Traceback" not in done.said
                assert after.revision == before.revision
                assert done.stale == (seen != before.revision)
            else:
                assert seen == before.revision  # a stale write is never written
                assert done.revision == after.revision == before.revision + 1 == s.basis
