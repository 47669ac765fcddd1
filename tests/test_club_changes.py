"""Issue #25: a void, a restore, an undo or a redo at a club table is provisional until another
player at the table confirms it; a rejected one is taken back (the journal keeps both) and is
disputed, for the director.  Each refusal is a sentence, and nothing is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_club_rejections import LATER_TABLES
from test_club_store import DATE, RASP, SEVEN, SIX, _write

from scorepad.club.errors import ClubError
from scorepad.club.store import ClubStore
from scorepad.core.i18n import catalog
from scorepad.store import NeedsMigration, Store


@pytest.fixture
def club(store: Store) -> ClubStore:
    return ClubStore(store)


def _table(club: ClubStore) -> tuple[int, int, tuple[int, ...]]:
    """A night of six, tour 1 drawn, table 1 with two confirmed deals: night, session, seats."""
    nid = club.create_night("Friday", date=DATE, tours=2, deals_per_tour=4, seed=5)
    for i in range(1, 7):
        club.check_in(nid, f"Player {i}")
    club.draw(nid)
    seats = club.load(nid).tour(1).table(1).players
    for deal in (SIX, SEVEN):
        d = _write(club, nid, 1, deal, by=seats[0])
        club.confirm(nid, 1, 1, d, by=seats[1])
    return nid, club.session_of(nid, 1, 1), seats


def _play_out(club: ClubStore, nid: int, table: int) -> None:
    """Table ``table`` plays its four deals of tour 1, each confirmed."""
    seats = club.load(nid).tour(1).table(table).players
    for deal in (SIX, SEVEN, RASP, RASP):
        d = _write(club, nid, table, deal, by=seats[0])
        club.confirm(nid, 1, table, d, by=seats[1])


def _said(exc: pytest.ExceptionInfo[ClubError], lang: str = "en") -> str:
    return catalog(lang).render(exc.value.message)


def _unchanged(store: Store, sid: int) -> tuple[int, int]:
    """What a refusal must leave as it was: the session's revision, the club's change rows."""
    rows = store.conn.execute(
        "SELECT count(*) FROM night_changes WHERE session_id = ?", (sid,)
    ).fetchone()[0]
    return store.load(sid).revision, rows


def test_a_void_is_provisional_until_another_player_confirms(club: ClubStore, store: Store) -> None:
    nid, sid, (a, b, c) = _table(club)
    second = store.load(sid).journal.live[1].deal_id
    change = club.void_deal(nid, 1, 1, second, by=a, reason="dealt twice")
    assert (change.kind, change.deal, change.state, change.written_by) == (
        "void",
        2,
        "provisional",
        a,
    )
    assert (
        change.seq == store.load(sid).revision == 3
    )  # after the two adds (a confirmation is no action)
    assert len(store.load(sid).journal.live) == 1  # the void is in the journal at once
    view = club.tables(nid)[0]
    assert (view.provisional, view.disputed, view.state) == (1, 0, "playing")
    _play_out(club, nid, 2)
    for deal in (RASP, RASP, RASP):
        d = _write(club, nid, 1, deal, by=b)
        club.confirm(nid, 1, 1, d, by=c)
    with pytest.raises(ClubError) as exc:
        club.end_tour(nid, 1)
    assert _said(exc) == "tour 1 cannot end: table 1 has a change not confirmed"
    done = club.decide_change(nid, 1, 1, change.seq, by=c, confirmed=True)
    assert (done.state, done.decided_by, done.reversed_by) == ("confirmed", c, None)
    assert club.tables(nid)[0].provisional == 0
    assert len(store.load(sid).journal.live) == 4
    club.end_tour(nid, 1)


def test_the_writer_cannot_confirm_his_own_change_nor_an_outsider(
    club: ClubStore, store: Store
) -> None:
    nid, sid, (a, b, _) = _table(club)
    change = club.undo(nid, 1, 1, by=a)  # takes back deal 2's add
    assert (change.kind, change.deal) == ("undo", 2)
    before = _unchanged(store, sid)
    with pytest.raises(ClubError) as exc:
        club.decide_change(nid, 1, 1, change.seq, by=a, confirmed=True)
    assert _said(exc) == (
        f"change 3, an undo (deal 2) was made by number {a}: another player at the table confirms it"
    )
    assert _said(exc, "ru").startswith("изменение 3")
    outsider = club.load(nid).tour(1).table(2).players[0]
    with pytest.raises(ClubError) as exc:
        club.decide_change(nid, 1, 1, change.seq, by=outsider, confirmed=True)
    assert _said(exc) == f"number {outsider} does not sit at table 1 of tour 1"
    with pytest.raises(ClubError) as exc:
        club.decide_change(nid, 1, 1, 99, by=b, confirmed=True)
    assert _said(exc) == "there is no change 99 to confirm at this table"
    assert _unchanged(store, sid) == before
    assert club.changes(sid)[0].state == "provisional"
    club.decide_change(nid, 1, 1, change.seq, by=b, confirmed=True)
    with pytest.raises(ClubError) as exc:
        club.decide_change(nid, 1, 1, change.seq, by=b, confirmed=False, reason="it was not agreed")
    assert _said(exc) == "change 3, an undo (deal 2) is confirmed already"
    assert _unchanged(store, sid) == (before[0], 1)


def test_a_rejected_void_is_taken_back_the_deal_stands_again(club: ClubStore, store: Store) -> None:
    nid, sid, (a, b, c) = _table(club)
    first = store.load(sid).journal.live[0].deal_id
    whists = club.load(nid).tour(1).table(1).whists
    change = club.void_deal(nid, 1, 1, first, by=b, reason="misdeal")
    assert club.load(nid).tour(1).table(1).whists != whists
    rejected = club.decide_change(
        nid, 1, 1, change.seq, by=c, confirmed=False, reason="it was not agreed"
    )
    assert (rejected.state, rejected.decided_by, rejected.reversed_by) == ("disputed", c, 4)
    # The deal stands again, the journal keeps the void and its restore (nothing lost).
    assert club.load(nid).tour(1).table(1).whists == whists
    assert [x.kind for x in store.history(sid)][-2:] == ["void", "restore"]
    view = club.tables(nid)[0]
    assert (view.provisional, view.disputed, view.state) == (0, 0, "playing")
    assert [r.seq for r in view.rejected] == [3]
    # The table is back to what stood before: the tour may end; the director sees the dispute.
    for deal in (RASP, RASP):
        d = _write(club, nid, 1, deal, by=a)
        club.confirm(nid, 1, 1, d, by=b)
    _play_out(club, nid, 2)
    club.end_tour(nid, 1)


def test_a_rejected_restore_voids_the_deal_again_with_its_reason(
    club: ClubStore, store: Store
) -> None:
    nid, sid, (a, b, _c) = _table(club)
    first = store.load(sid).journal.live[0].deal_id
    void = club.void_deal(nid, 1, 1, first, by=a, reason="misdeal")
    club.decide_change(nid, 1, 1, void.seq, by=b, confirmed=True)
    restore = club.restore_deal(nid, 1, 1, first, by=b)
    assert (restore.kind, restore.deal) == ("restore", 1)
    club.decide_change(nid, 1, 1, restore.seq, by=a, confirmed=False, reason="it was not agreed")
    last = store.history(sid)[-1]
    assert (last.kind, last.deal_id, last.reason) == ("void", first, "misdeal")
    assert len(store.load(sid).journal.live) == 1


def test_a_rejected_undo_is_redone_and_a_rejected_redo_undone(
    club: ClubStore, store: Store
) -> None:
    nid, sid, (a, b, c) = _table(club)
    undo = club.undo(nid, 1, 1, by=a)
    assert len(store.load(sid).journal.live) == 1
    club.decide_change(nid, 1, 1, undo.seq, by=b, confirmed=False, reason="it was not agreed")
    assert store.history(sid)[-1].kind == "redo"
    assert len(store.load(sid).journal.live) == 2
    undo = club.undo(nid, 1, 1, by=a)
    club.decide_change(nid, 1, 1, undo.seq, by=b, confirmed=True)
    redo = club.redo(nid, 1, 1, by=c)
    assert (redo.kind, redo.deal) == ("redo", 2)
    club.decide_change(nid, 1, 1, redo.seq, by=a, confirmed=False, reason="it was not agreed")
    assert store.history(sid)[-1].kind == "undo"
    assert len(store.load(sid).journal.live) == 1


def test_an_undo_written_over_cannot_be_taken_back_by_the_table(
    club: ClubStore, store: Store
) -> None:
    nid, sid, (a, b, _c) = _table(club)
    undo = club.undo(nid, 1, 1, by=a)
    _write(club, nid, 1, RASP, by=a)  # a new deal: nothing left to redo
    before = _unchanged(store, sid)
    with pytest.raises(ClubError) as exc:
        club.decide_change(nid, 1, 1, undo.seq, by=b, confirmed=False, reason="it was not agreed")
    assert _said(exc) == (
        "change 3, an undo (deal 2) cannot be taken back by the table: deals were written "
        "after it; the director decides"
    )
    assert _unchanged(store, sid) == before
    assert club.changes(sid)[0].state == "provisional"


def test_no_change_and_no_confirmation_after_the_tour_ended(club: ClubStore, store: Store) -> None:
    nid, sid, (a, b, _c) = _table(club)
    first = store.load(sid).journal.live[0].deal_id
    void = club.void_deal(nid, 1, 1, first, by=a, reason="misdeal")
    club.store.conn.execute(  # the director ends the tour (as end_tour would, checks aside)
        "UPDATE night_tours SET state = 'ended' WHERE night_id = ? AND tour = 1", (nid,)
    )
    before = _unchanged(store, sid)
    ended = "tour 1 has ended: a deal at table 1 changes only by the director, with a reason"
    for step in (
        lambda: club.decide_change(nid, 1, 1, void.seq, by=b, confirmed=True),
        lambda: club.decide_change(
            nid, 1, 1, void.seq, by=b, confirmed=False, reason="it was not agreed"
        ),
        lambda: club.undo(nid, 1, 1, by=a),
        lambda: club.redo(nid, 1, 1, by=a),
        lambda: club.restore_deal(nid, 1, 1, first, by=b),
        lambda: club.void_deal(nid, 1, 1, first, by=b, reason="x"),
    ):
        with pytest.raises(ClubError) as exc:
            step()
        assert _said(exc) == ended
    assert _unchanged(store, sid) == before


def test_a_refused_change_writes_nothing(club: ClubStore, store: Store) -> None:
    nid, sid, (a, _b, _) = _table(club)
    first = store.load(sid).journal.live[0].deal_id
    before = _unchanged(store, sid)
    outsider = club.load(nid).tour(1).table(2).players[0]
    with pytest.raises(ClubError, match=f"number {outsider} does not sit at table 1 of tour 1"):
        club.void_deal(nid, 1, 1, first, by=outsider, reason="no")
    from scorepad.store import StoreError

    with pytest.raises(StoreError, match="an edit or a void needs a reason"):
        club.void_deal(nid, 1, 1, first, by=a, reason="  ")
    with pytest.raises(StoreError, match="there is nothing to redo"):
        club.redo(nid, 1, 1, by=a)
    assert _unchanged(store, sid) == before


def test_a_database_from_before_the_changes_reads_and_gets_the_table(
    tmp_path: Path,
) -> None:
    """A database from before the changes (schema 3, no night_changes): a read refuses to
    migrate it; the next writer's opening makes the table (schema 4 on), its night intact."""
    db = tmp_path / "old.db"
    with Store(db) as store:
        club = ClubStore(store)
        nid, sid, (a, _b, _) = _table(club)
        store.conn.execute("DROP TABLE night_changes")
        # What schemas 5, 6 and 7 added goes too: the file is as schema 3 left it.
        store.conn.execute("ALTER TABLE night_deals DROP COLUMN rejection")
        store.conn.execute("ALTER TABLE sessions DROP COLUMN closed_at")
        store.conn.execute("ALTER TABLE sessions DROP COLUMN closed_reason")
        for index in ("sessions_uid", "players_uid", "nights_uid", "deal_uids_uid"):
            store.conn.execute(f"DROP INDEX {index}")
        store.conn.execute("DROP TABLE deal_uids")
        for table in ("sessions", "players", "nights"):
            store.conn.execute(f"ALTER TABLE {table} DROP COLUMN uid")
        # ... and what the hosted server's schemas 8, 9 and 12 added.
        store.conn.execute("DROP INDEX table_creations_address")
        for table in LATER_TABLES:
            store.conn.execute(f"DROP TABLE {table}")
        store.conn.execute("DELETE FROM _migrations WHERE version >= 4")
    with pytest.raises(NeedsMigration):
        Store(db, read_only=True)
    with Store(db) as store:
        club = ClubStore(store)
        assert club.changes(sid) == [] and not club.empty
        assert club.tables(nid)[0].provisional == 0
        change = club.undo(nid, 1, 1, by=a)
        assert club.changes(sid) == [change]


def test_the_club_file_keeps_the_voided_deals_and_the_changes(
    club: ClubStore, store: Store, tmp_path: Path
) -> None:
    nid, sid, (a, b, c) = _table(club)
    first = store.load(sid).journal.live[0].deal_id
    void = club.void_deal(nid, 1, 1, first, by=a, reason="misdeal")
    club.decide_change(nid, 1, 1, void.seq, by=b, confirmed=True)
    undo = club.undo(nid, 1, 1, by=c)
    # Taken back: a redo.
    club.decide_change(nid, 1, 1, undo.seq, by=a, confirmed=False, reason="it was not agreed")
    d = _write(club, nid, 1, RASP, by=a)
    club.confirm(nid, 1, 1, d, by=b)
    second = store.load(sid).journal.live[0].deal_id
    club.void_deal(nid, 1, 1, second, by=b, reason="twice")  # to confirm when the file is written
    text = club.export_night(nid)
    data = json.loads(text)
    [table] = [s for s in data["sessions"] if s["table"] == 1]
    # Voided deals in their places, with their reasons (docs/session-format.md).
    assert [d.get("voided") for d in table["session"]["deals"]] == ["misdeal", "twice", None]
    assert table["changes"] == [
        {"kind": "void", "deal": 1, "reason": "misdeal", "state": "confirmed", "by": a,
         "decided_by": b, "taken_back": False},
        {"kind": "undo", "deal": 1, "state": "disputed", "by": c, "decided_by": a,
         "taken_back": True, "rejection": "it was not agreed"},
        {"kind": "void", "deal": 2, "reason": "twice", "state": "provisional", "by": b,
         "taken_back": False},
    ]  # fmt: skip
    with Store(tmp_path / "other.db") as other:
        back = ClubStore(other)
        nid2 = back.import_night(text)
        sid2 = back.session_of(nid2, 1, 1)
        # The voided deal is there, struck, with its reason; the record of the changes too
        # (the one still to confirm counts as confirmed, as an imported deal does).
        assert [e.voided for e in other.load(sid2).journal.entries.values()] == [
            True,
            True,
            False,
        ]
        assert [(x.kind, x.deal, x.state, x.written_by, x.seq) for x in back.changes(sid2)] == [
            ("void", 1, "confirmed", a, None),
            ("undo", 1, "disputed", c, None),
            ("void", 2, "confirmed", b, None),
        ]
        assert back.load(nid2).tour(1).table(1).whists == club.load(nid).tour(1).table(1).whists
        assert json.loads(back.export_night(nid2))["sessions"][0]["changes"][1]["taken_back"]


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"by": 99}, "change 1 names a player of another table"),
        ({"decided_by": "by"}, "change 1 is decided by another player, once"),
        ({"state": "provisional"}, "change 1 is decided by another player, once"),
        ({"deal": 9}, "change 1 names no deal of the table, or a void lacks its reason"),
        ({"reason": None}, "change 1 names no deal of the table, or a void lacks its reason"),
    ],
)
def test_a_club_file_with_a_wrong_change_is_refused_and_nothing_written(
    club: ClubStore, store: Store, tmp_path: Path, change: dict[str, object], said: str
) -> None:
    nid, sid, (a, b, _) = _table(club)
    void = club.void_deal(nid, 1, 1, store.load(sid).journal.live[0].deal_id, by=a, reason="x")
    club.decide_change(nid, 1, 1, void.seq, by=b, confirmed=True)
    data = json.loads(club.export_night(nid))
    [table] = [s for s in data["sessions"] if s["table"] == 1]
    wrong = {k: (table["changes"][0]["by"] if v == "by" else v) for k, v in change.items()}
    table["changes"][0].update(wrong)
    table["changes"][0] = {k: v for k, v in table["changes"][0].items() if v is not None}
    with Store(tmp_path / "other.db") as other:
        back = ClubStore(other)
        with pytest.raises(ClubError) as exc:
            back.import_night(json.dumps(data))
        assert _said(exc) == f"tour 1, table 1: {said}"
        assert back.nights() == [] and other.sessions() == []
