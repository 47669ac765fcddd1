"""Issue #37 (round two), item 1: a rejection at a club table carries a reason of its own, in
the rejecting player's words.  Kept by the store (migration 7, on SQLite and on PostgreSQL),
required and checked as every reason a player writes is, said in the director's Disputes, by
``scorepad club`` (``confirm --reject --reason``, ``tables``), in the PDF protocol (pdftotext)
and in the club file (exported, imported into another database and exported again the same;
a file from before the reasons still imports)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import test_store_contract
from support.club_nights import RASP, SIX, drawn_night

from conftest import cli_out, run_cli
from scorepad.club.disputes import change_rejection, deal_disputes
from scorepad.club.errors import ClubError
from scorepad.club.pdf import night_pdf
from scorepad.club.store import ClubStore
from scorepad.core.i18n import catalog
from scorepad.store import Store, open_store
from scorepad.store.schema import schema_version

WHY = "Vera took 4 tricks, not 3"
# Each store test runs on both backends (a SQLite file, a PostgreSQL database), as the store's
# contract tests do: their fixtures.
store = test_store_contract.store


def _table(club: ClubStore) -> tuple[int, int, tuple[int, ...], list[int]]:
    """A night of six, tour 1 drawn, table 1 with three deals written by its first player (the
    first confirmed): the night, the session, the seats and the deals' ids."""
    nid = drawn_night(club, deals=4)
    seats = club.load(nid).tour(1).table(1).players
    sid = club.session_of(nid, 1, 1)
    for deal in (SIX, RASP, RASP):
        club.write_deal(nid, 1, 1, deal, by=seats[0], seen=club.store.load(sid).revision)
    ids = [e.deal_id for e in club.store.load(sid).journal.live]
    club.confirm(nid, 1, 1, ids[0], by=seats[1])
    return nid, sid, seats, ids


def _said(exc: pytest.ExceptionInfo[ClubError], lang: str = "en") -> str:
    return catalog(lang).render(exc.value.message)


def _state(club: ClubStore, sid: int) -> tuple[Any, ...]:
    """What a refused rejection must leave as it was: the journal and every mark."""
    return (club.store.load(sid).revision, club.marks(sid), club.changes(sid))


# --- the store ----------------------------------------------------------------------------------


def test_a_rejection_needs_its_reason_checked_as_every_reason_is(store: Store) -> None:
    club = ClubStore(store)
    nid, sid, (a, b, c), ids = _table(club)
    before = _state(club, sid)
    for reason, en, ru in (
        (
            "   ",
            "deal 2: a rejection needs a reason (what is wrong with it)",
            "сдача 2: для отклонения нужна причина (что не так)",
        ),
        (
            "wrong\u202etricks",
            "deal 2: a reason must not contain the character U+202E",
            None,
        ),
        ("x" * 201, "deal 2: a reason is at most 200 characters", None),
    ):
        with pytest.raises(ClubError) as refused:
            club.reject(nid, 1, 1, ids[1], by=b, reason=reason)
        assert _said(refused) == en
        if ru is not None:
            assert _said(refused, "ru") == ru
    assert _state(club, sid) == before  # nothing written
    mark = club.reject(nid, 1, 1, ids[1], by=b, reason=f"  {WHY} ")
    assert (mark.number, mark.state, mark.written_by, mark.decided_by, mark.rejection) == (
        2,
        "disputed",
        a,
        b,
        WHY,
    )
    assert club.marks(sid)[1].rejection == WHY
    # The director's words (the Disputes, `club tables`): which deal, who, and why.
    [view] = [v for v in club.tables(nid) if v.table == 1]
    names = dict(zip(view.players, store.load(sid).session.players, strict=True))
    assert [(n, catalog("en").render(m)) for n, m in deal_disputes(club, view)] == [
        (
            2,
            f"Table 1, deal 2 (All pass): written by #{a} {names[a]}, rejected by #{b} "
            f"{names[b]}: {WHY}",
        )
    ]
    # Written again, the rejection is answered: provisional, no reason left on it.
    club.rewrite_deal(
        nid, 1, 1, ids[1], RASP, by=a, reason="checked", seen=store.load(sid).revision
    )
    assert (club.marks(sid)[1].state, club.marks(sid)[1].rejection) == ("provisional", None)
    assert club.confirm(nid, 1, 1, ids[1], by=c).rejection is None


def test_a_rejected_change_keeps_its_reason_and_without_one_nothing_is_taken_back(
    store: Store,
) -> None:
    club = ClubStore(store)
    nid, sid, (a, b, _), ids = _table(club)
    void = club.void_deal(nid, 1, 1, ids[0], by=a, reason="misdeal")
    assert void.seq is not None
    before = _state(club, sid)
    with pytest.raises(ClubError) as refused:
        club.decide_change(nid, 1, 1, void.seq, by=b, confirmed=False, reason="")
    # Named as the player reads it on his phone (no journal's change number: issue #37).
    assert _said(refused) == (
        "the void of deal 1 (misdeal): a rejection needs a reason (what is wrong with it)"
    )
    assert _state(club, sid) == before  # not taken back, not marked
    rejected = club.decide_change(nid, 1, 1, void.seq, by=b, confirmed=False, reason="we played")
    assert (rejected.state, rejected.rejection, rejected.reversed_by) == (
        "disputed",
        "we played",
        void.seq + 1,
    )
    [view] = [v for v in club.tables(nid) if v.table == 1]
    assert catalog("en").render(change_rejection(1, view.rejected[0])) == (
        f"Table 1: change {void.seq}, the void of deal 1 (misdeal), by #{a}, rejected by #{b} "
        "(we played): taken back"
    )
    # A confirmation has no reason to give.
    undo = club.undo(nid, 1, 1, by=a)
    assert club.decide_change(nid, 1, 1, undo.seq or 0, by=b, confirmed=True).rejection is None


#: The tables the migrations after 7 make (dropped to go back to an older schema; made again
#: on opening).
LATER_TABLES = (
    "table_owners",
    "table_pin_grants",
    "table_creations",
    "night_owners",
    "wrong_tries",
    "server_keys",
    # The league's (10, 11): a table before the one it references.
    "league_nights",
    "league_clubs",
    "league_links",
    "league_merges",
    "league_claims",
    "league_player_keys",
    "league_member_links",
    "league_players",
)


def test_migration_7_gives_the_rejections_their_column_and_keeps_every_row(target: str) -> None:
    """A database of schema 6 (the columns dropped, its record back to 6) is migrated on
    opening, on either backend: its disputes stay, said as before (no reason was kept)."""
    with open_store(target) as store:
        club = ClubStore(store)
        nid, sid, (a, b, _), ids = _table(club)
        club.reject(nid, 1, 1, ids[1], by=b, reason=WHY)
        void = club.void_deal(nid, 1, 1, ids[2], by=a, reason="misdeal")
        club.decide_change(nid, 1, 1, void.seq or 0, by=b, confirmed=False, reason="no")
        with store._write():
            for table in ("night_deals", "night_changes"):
                store.backend.execute(f"ALTER TABLE {table} DROP COLUMN rejection")
            # Back to 6: the later migrations' tables go too (they are made again on opening).
            for table in LATER_TABLES:
                store.backend.execute(f"DROP TABLE {table}")
                if store.backend.dialect == "postgresql":  # an append-only table's function
                    store.backend.execute(f"DROP FUNCTION IF EXISTS {table}_append_only()")
            store.backend.execute("DELETE FROM _migrations WHERE version >= 7")
    with open_store(target) as store:
        assert store.version() == schema_version() and store.migrated is not None
        assert store.migrated[0] == 6
        assert "rejection" in store.backend.columns("night_deals")
        assert "rejection" in store.backend.columns("night_changes")
        names = {
            int(r[0]): str(r[1])
            for r in store.backend.execute(
                "SELECT version, name FROM _migrations ORDER BY version"
            ).fetchall()
        }
        assert names[7] == "a club table's rejection, with its reason"
        club = ClubStore(store)
        marks = club.marks(sid)
        assert [(m.state, m.rejection) for m in marks] == [
            ("confirmed", None),
            ("disputed", None),
            ("provisional", None),
        ]
        [change] = club.changes(sid)
        assert (change.state, change.rejection) == ("disputed", None)
        [view] = [v for v in club.tables(nid) if v.table == 1]
        [(_, line)] = deal_disputes(club, view)
        assert catalog("en").render(line).endswith(f"rejected by #{b} Player {b}")
        assert (
            catalog("en")
            .render(change_rejection(1, change))
            .endswith(f"rejected by #{b}: taken back")
        )
        # A rejection made now keeps its reason in the migrated database.
        club.rewrite_deal(nid, 1, 1, ids[1], RASP, by=a, reason="ok", seen=store.load(sid).revision)
        assert club.reject(nid, 1, 1, ids[1], by=b, reason=WHY).rejection == WHY


# --- the club file --------------------------------------------------------------------------------


def test_the_club_file_carries_the_rejections_and_imports_them_back(
    store: Store, tmp_path: Path
) -> None:
    club = ClubStore(store)
    nid, _sid, (a, b, c), ids = _table(club)
    club.reject(nid, 1, 1, ids[1], by=b, reason=WHY)
    void = club.void_deal(nid, 1, 1, ids[2], by=c, reason="misdeal")
    club.decide_change(nid, 1, 1, void.seq or 0, by=a, confirmed=False, reason="it was dealt once")
    text = club.export_night(nid)
    [table] = [s for s in json.loads(text)["sessions"] if s["table"] == 1]
    assert table["disputes"] == [{"deal": 2, "by": a, "decided_by": b, "reason": WHY}]
    assert table["changes"] == [
        {"kind": "void", "deal": 3, "reason": "misdeal", "state": "disputed", "by": c,
         "decided_by": a, "taken_back": True, "rejection": "it was dealt once"},
    ]  # fmt: skip
    with Store(tmp_path / "other.db") as other:
        there = ClubStore(other)
        nid2 = there.import_night(text)
        sid2 = there.session_of(nid2, 1, 1)
        # The disputed deal stays disputed there, with who and why: it is written again (or
        # corrected) there as it would have been here.
        assert [(m.state, m.written_by, m.decided_by, m.rejection) for m in there.marks(sid2)] == [
            ("confirmed", None, None, None),
            ("disputed", a, b, WHY),
            ("confirmed", None, None, None),
        ]
        assert [c.rejection for c in there.changes(sid2)] == ["it was dealt once"]
        assert there.export_night(nid2) == text  # the round trip
        assert there.import_night(text) == nid2  # the same night: nothing new
        [view] = [v for v in there.tables(nid2) if v.table == 1]
        assert (view.state, view.disputed_deals) == ("disputed", (2,))


def test_a_club_file_from_before_the_reasons_imports_and_a_wrong_one_is_refused(
    store: Store, tmp_path: Path
) -> None:
    club = ClubStore(store)
    nid, _sid, (a, b, c), ids = _table(club)
    void = club.void_deal(nid, 1, 1, ids[2], by=c, reason="misdeal")
    club.decide_change(nid, 1, 1, void.seq or 0, by=a, confirmed=False, reason="dealt once")
    data = json.loads(club.export_night(nid))
    [table] = [s for s in data["sessions"] if s["table"] == 1]
    # As an older Scorepad wrote it: no rejection's reason, no disputes.
    del table["changes"][0]["rejection"]
    old = json.dumps(data)
    with Store(tmp_path / "old.db") as other:
        there = ClubStore(other)
        nid2 = there.import_night(old)
        [change] = there.changes(there.session_of(nid2, 1, 1))
        assert (change.state, change.rejection) == ("disputed", None)

    def refused(edit: Any) -> str:
        wrong = json.loads(old)
        edit(next(s for s in wrong["sessions"] if s["table"] == 1))
        with Store(tmp_path / "refused.db") as other, pytest.raises(ClubError) as exc:
            ClubStore(other).import_night(json.dumps(wrong))
        with Store(tmp_path / "refused.db") as other:
            assert ClubStore(other).nights() == []  # nothing written
        return _said(exc)

    def confirmed_with_reason(t: dict[str, Any]) -> None:
        t["changes"][0].update(state="confirmed", taken_back=False, rejection="why")

    assert refused(confirmed_with_reason) == (
        "tour 1, table 1: change 1 has a rejection's reason but was not rejected"
    )
    assert refused(lambda t: t.update(disputes=[{"deal": 7, "by": a, "decided_by": b}])) == (
        "tour 1, table 1: the disputed deal 7 is not a deal the table counts, once"
    )
    twice = [{"deal": 2, "by": a, "decided_by": b}] * 2
    assert refused(lambda t: t.update(disputes=twice)) == (
        "tour 1, table 1: the disputed deal 2 is not a deal the table counts, once"
    )
    assert refused(lambda t: t.update(disputes=[{"deal": 2, "by": a, "decided_by": a}])) == (
        "tour 1, table 1: deal 2 is rejected by another player of the table than its writer"
    )
    reason = "bad\u202e"
    said = refused(lambda t: t.update(disputes=[{"deal": 2, "decided_by": b, "reason": reason}]))
    assert said.startswith("the club file is refused at sessions") and "U+202E" in said


# --- the command line and the protocol -------------------------------------------------------------


def test_the_cli_rejects_with_a_reason_and_says_it(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    with Store(db) as store:
        nid, sid, (a, b, _), _ids = _table(ClubStore(store))
        names = dict(zip((a, b), store.load(sid).session.players, strict=False))

    def club(*args: str, lang: str = "en") -> Any:
        return run_cli("club", *args, "--db", str(db), "--lang", lang)

    where = (str(nid), "1", "1")
    for args, said in (
        (("2", "--reject", "--by", str(b)), "deal 2: a rejection needs a reason (what is wrong with it)"),
        (("2", "--by", str(b), "--reason", WHY), "--reason says why a deal or a change is rejected (--reject)"),
    ):  # fmt: skip
        done = club("confirm", *where, *args)
        assert (done.returncode, done.stdout, done.stderr.strip()) == (2, "", said)
    done = club("confirm", *where, "2", "--reject", "--by", str(b), "--reason", WHY)
    assert (done.returncode, done.stdout) == (0, f"deal 2: disputed ({WHY})\n")
    out = cli_out("club", "tables", str(nid), "--db", str(db), "--lang", "en")
    assert (
        f"  Table 1, deal 2 (All pass): written by #{a} {names[a]}, rejected by #{b} "
        f"{names[b]}: {WHY}\n"
    ) in out
    ru = club("tables", str(nid), lang="ru").stdout
    assert f"отклонено №{b} {names[b]}: {WHY}" in ru


def test_the_protocol_says_who_rejected_a_deal_and_why(tmp_path: Path) -> None:
    with Store(tmp_path / "club.db") as store:
        club = ClubStore(store)
        nid, _sid, (a, b, c), ids = _table(club)
        club.reject(nid, 1, 1, ids[1], by=b, reason=WHY)
        void = club.void_deal(nid, 1, 1, ids[2], by=a, reason="misdeal")
        club.decide_change(nid, 1, 1, void.seq or 0, by=c, confirmed=False, reason="dealt once")
        pdf = tmp_path / "night.pdf"
        pdf.write_bytes(night_pdf(club.load(nid), club.protocols(nid, 1), lang="en", tour=1))
    text = subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    page = " ".join(
        text[text.index("Tour 1, table 1: protocol") : text.index("Tour 1, table 2")].split()
    )
    assert f"2. All pass — disputed; written by #{a}, rejected by #{b}: {WHY}" in page
    assert (
        f"• change {void.seq}, the void of deal 3 (misdeal): disputed; made by #{a}, rejected by "
        f"#{c}: dealt once (taken back)"
    ) in page
