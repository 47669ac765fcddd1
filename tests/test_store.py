"""The store, on real SQLite files: round trips, histories, migrations, refusals."""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from support.uids import without_ids

from conftest import run_cli, session, typed
from scorepad.scoring.pulya.score import replay
from scorepad.scoring.pulya.session import SessionInvalid, dump_session, parse_session
from scorepad.store import (
    InvalidEntry,
    NotScorepad,
    SchemaTooNew,
    StaleRevision,
    Store,
    StoreError,
    schema_version,
)
from scorepad.store import schema as store_schema
from scorepad.testing.generate import RandomChooser, random_session

FIXTURES = Path(__file__).resolve().parent / "fixtures"
GAME = {
    "type": "game",
    "declarer": 1,
    "contract": "7S",
    "calls": ["whist", "pass"],
    "tricks": {"1": 7, "2": 2, "0": 1},
}


def rasp(a: int, b: int, c: int) -> dict[str, Any]:
    return {"type": "raspasy", "tricks": {"0": a, "1": b, "2": c}}


def sheet_of(deals: list[dict[str, Any]], **kw: Any) -> Any:
    return replay(parse_session(session(deals, **kw))).sheet


# --- round trips ---------------------------------------------------------------------------


def test_import_export_import_export_is_byte_identical(store: Store) -> None:
    raw = random_session(RandomChooser(7), convention="leningrad", players=4, deals=60)
    first = store.export_session(store.import_session(json.dumps(raw)))
    second = store.export_session(store.import_session(first))
    assert first == second
    assert without_ids(first) == dump_session(parse_session(raw))


def test_overrides_survive_the_round_trip_and_settings_are_frozen(store: Store) -> None:
    sid = store.import_session(json.dumps(session([GAME], overrides={"whist_style": "gentleman"})))
    stored = store.load(sid)
    assert stored.settings.whist_style == "gentleman"
    assert json.loads(store.export_session(sid))["overrides"] == {"whist_style": "gentleman"}


def test_a_stored_session_settles_like_its_file(store: Store, db_path: Path) -> None:
    raw = random_session(RandomChooser(11), deals=40)
    sid = store.import_session(json.dumps(raw))
    from_db = run_cli("settle", "--db", str(db_path), str(sid), "--json")
    from_file = run_cli("settle", "-", "--json", stdin=json.dumps(raw))
    assert from_db.returncode == 0, from_db.stderr
    assert from_db.stdout == from_file.stdout


# --- the history recomputes the sheet --------------------------------------------------------


def test_edit_void_undo_redo_recompute_the_sheet(store: Store) -> None:
    sid = store.create_session(["Anna", "Boris", "Vera"])
    r = 0
    for d in (GAME, rasp(1, 3, 6), rasp(2, 2, 6)):
        r = store.add_deal(sid, typed(store, sid, d), seen=r).revision
    edited = {**GAME, "calls": ["whist", "whist"]}
    s = store.edit_deal(sid, 1, typed(store, sid, edited), reason="Anna whisted too", seen=r)
    assert s.scored.sheet == sheet_of([edited, rasp(1, 3, 6), rasp(2, 2, 6)])
    s = store.void_deal(sid, 2, reason="misdeal", seen=s.revision)
    assert s.scored.sheet == sheet_of([edited, rasp(2, 2, 6)])
    s = store.undo(sid, seen=s.revision)
    assert s.scored.sheet == sheet_of([edited, rasp(1, 3, 6), rasp(2, 2, 6)])
    s = store.undo(sid, seen=s.revision)
    assert s.scored.sheet == sheet_of([GAME, rasp(1, 3, 6), rasp(2, 2, 6)])
    s = store.redo(sid, seen=s.revision)
    assert s.scored.sheet == sheet_of([edited, rasp(1, 3, 6), rasp(2, 2, 6)])
    kinds = [a.kind for a in store.history(sid)]
    assert kinds == ["add", "add", "add", "edit", "void", "undo", "undo", "redo"]
    assert [a.reason for a in store.history(sid)][3:5] == ["Anna whisted too", "misdeal"]
    entry = s.journal.entries[1]
    assert [a.kind for a in entry.revisions] == ["add", "edit"]


def test_an_edit_that_breaks_a_later_deal_is_refused_and_nothing_is_written(store: Store) -> None:
    sid = store.create_session(["Anna", "Boris", "Vera"], convention="piter")
    r = store.add_deal(sid, typed(store, sid, rasp(1, 3, 6)), seen=0).revision
    r = store.add_deal(sid, typed(store, sid, {**GAME, "contract": "7S"}), seen=r).revision
    with pytest.raises(InvalidEntry) as exc:
        store.edit_deal(
            sid,
            2,
            typed(store, sid, {**GAME, "contract": "6S", "tricks": {"1": 6, "2": 3, "0": 1}}),
            reason="x",
            seen=r,
        )
    assert (
        exc.value.render()
        == "the entry was refused:\ndeal 2: contract: after 1 all-passes the lowest contract is 7"
    )
    assert store.load(sid).revision == r and len(store.history(sid)) == 2


def test_stale_write_is_refused_with_what_changed(store: Store) -> None:
    sid = store.create_session(["Anna", "Boris", "Vera"])
    store.add_deal(sid, typed(store, sid, GAME), seen=0)
    store.void_deal(sid, 1, reason="wrong table", seen=1)
    store.add_deal(
        sid, typed(store, sid, GAME), seen=2
    )  # journal id 3: deal 2 as said at the table (deal 1, voided, keeps its number)
    store.edit_deal(sid, 3, typed(store, sid, rasp(3, 3, 4)), reason="it was an all-pass", seen=3)
    with pytest.raises(StaleRevision) as exc:
        store.add_deal(sid, typed(store, sid, rasp(3, 3, 4)), seen=0)
    lines = exc.value.render().splitlines()
    assert (
        lines[0] == "session 1 changed since you looked (revision 0, now 4); nothing was written:"
    )
    # every deal by the number the player saw, from 1 (never its id in the journal)
    assert [line[10:] for line in lines[1:]] == [
        "deal 1 was written",
        "deal 1 was voided (wrong table)",
        "deal 2 was written",
        "deal 2 was edited (it was an all-pass)",
    ]
    assert store.load(sid).revision == 4


def test_edit_and_void_need_a_reason(store: Store) -> None:
    sid = store.create_session(["Anna", "Boris", "Vera"])
    store.add_deal(sid, typed(store, sid, GAME), seen=0)
    with pytest.raises(StoreError, match="needs a reason"):
        store.void_deal(sid, 1, reason="  ", seen=1)


def test_actions_are_append_only_in_the_database(store: Store, db_path: Path) -> None:
    sid = store.create_session(["Anna", "Boris", "Vera"])
    store.add_deal(sid, typed(store, sid, GAME), seen=0)
    conn = sqlite3.connect(db_path)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("UPDATE actions SET kind = 'void'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("DELETE FROM actions")
    finally:
        conn.close()


def test_deleting_a_session_hides_it_and_keeps_its_journal(store: Store) -> None:
    sid = store.create_session(["Anna", "Boris", "Vera"])
    store.add_deal(sid, typed(store, sid, GAME), seen=0)
    store.delete_session(sid, seen=1)
    assert store.sessions() == []
    assert [s.id for s in store.sessions(include_deleted=True)] == [sid]
    assert len(store.history(sid)) == 1


def test_the_roster_is_shared_and_names_unique(store: Store) -> None:
    store.create_session(["Anna", "Boris", "Vera"])
    store.create_session(["anna", "Gleb", "Vera", "Dima"])
    assert store.players() == ["Anna", "Boris", "Dima", "Gleb", "Vera"]


# --- bad input: a clear error, nothing written ----------------------------------------------


def test_a_corrupt_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "evening.db"
    path.write_bytes(b"this is the shopping list, not a database" * 10)
    before = path.read_bytes()
    with pytest.raises(NotScorepad, match="not a Scorepad database"):
        Store(path)
    assert path.read_bytes() == before


def test_a_truncated_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "half.db"
    data = (FIXTURES / "schema-1.db").read_bytes()
    path.write_bytes(data[:4096])
    with pytest.raises(NotScorepad), Store(path) as s:
        s.sessions()


def test_another_programs_sqlite_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(NotScorepad, match="a SQLite database, but not Scorepad's"):
        Store(path)


def test_a_schema_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    shutil.copy(FIXTURES / "schema-1.db", path)
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO _migrations VALUES (99, 'from the future', '2030-01-01')")
    conn.commit()
    conn.close()
    with pytest.raises(SchemaTooNew, match=rf"schema 99, this one knows {schema_version()}\b"):
        Store(path)


def test_an_import_with_one_bad_deal_among_100_writes_nothing(store: Store) -> None:
    raw = random_session(RandomChooser(3), deals=100, corrections=False)
    raw["deals"][57] = {**raw["deals"][57], "type": "raspasy", "tricks": {"0": 5, "1": 5, "2": 5}}
    raw["deals"][57].pop("declarer", None)
    for key in ("contract", "calls", "open", "shared_with_dealer", "talon_bonus", "conceded"):
        raw["deals"][57].pop(key, None)
    with pytest.raises(SessionInvalid) as exc:
        store.import_session(json.dumps(raw))
    assert exc.value.render() == ["deal 58: tricks: tricks sum to 15, must be 10"]
    assert store.sessions() == [] and store.players() == []


@pytest.mark.parametrize(
    ("name", "reason"), [("", "must not be empty"), ("x" * 500, "at most 40 characters")]
)
def test_bad_player_names(store: Store, name: str, reason: str) -> None:
    with pytest.raises(StoreError, match=reason):
        store.add_player(name)
    with pytest.raises(SessionInvalid, match=reason):
        store.create_session(["Anna", name, "Vera"])
    assert store.players() == [] and store.sessions() == []


def test_a_deal_built_past_its_checks_is_refused(store: Store) -> None:
    from scorepad.scoring.ledger.bula import BulaAllPass
    from scorepad.scoring.pulya.session import Game

    sid = store.create_session(["Anna", "Boris", "Vera"])
    with pytest.raises(InvalidEntry) as exc:
        store.add_deal(sid, Game.model_construct(type="game", declarer=1), seen=0)
    assert "contract: this field is required" in exc.value.render()
    with pytest.raises(InvalidEntry) as exc:
        store.add_deal(sid, BulaAllPass(type="allpass"), seen=0)
    assert (
        exc.value.render() == "the entry was refused:\ndeal 1: type: not a deal of the pulya family"
    )
    assert store.history(sid) == []


# --- schema versions and migrations ----------------------------------------------------------


def test_the_released_schema_1_fixture_opens_and_scores(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    shutil.copy(FIXTURES / "schema-1.db", path)
    with Store(path) as s:
        assert s.version() == schema_version()  # migrated on opening, a backup kept
        assert (tmp_path / "v1.db.schema-1.bak").exists()
        rows = s.sessions()
        assert [(r.convention, r.deals) for r in rows] == [
            ("leningrad", 1),
            ("sochi", 3),
        ]  # the void was undone
        stored = s.load(rows[1].id)
        assert stored.scored.sheet.pool == [4, 2, 0] and stored.scored.sheet.gora == [0, 3, 1]
        assert [a.kind for a in s.history(rows[1].id)] == [
            "add",
            "add",
            "add",
            "edit",
            "void",
            "undo",
        ]


def test_a_migration_writes_a_backup_first_and_is_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "v1.db"
    shutil.copy(FIXTURES / "schema-1.db", path)

    def venue(db: Any) -> None:
        db.execute("ALTER TABLE sessions ADD COLUMN venue TEXT")

    following = store_schema.MIGRATIONS[-1][0] + 1
    monkeypatch.setattr(
        store_schema,
        "MIGRATIONS",
        [*store_schema.MIGRATIONS, (following, "a venue per session", venue)],
    )
    with Store(path) as s:
        assert s.version() == following
        assert "venue" in s.db.table("sessions").columns_dict
        assert [r["name"] for r in s.db.query("SELECT name FROM _migrations ORDER BY version")] == [
            "players, sessions, append-only actions",
            "the scoring family of a session",
            "one directory of players, seasons, each session's record",
            "club nights, join links and grants, from one owner",
            "a session closed before its end, with the reason",
            "stable ids of sessions, players, deals and club nights",
            "a club table's rejection, with its reason",
            "the hosted server's table owners, PIN grants by table, creations",
            "the hosted server's club night owners",
            "a league's players, links, merges and splits, claim codes",
            "a venue per session",
        ]
        assert len(s.sessions()) == 2
        # Every session of schema 1 is a pulya, and still scores.
        assert {s.family(x.id) for x in s.sessions()} == {"pulya"}
        assert all(s.load(x.id).scored for x in s.sessions())
    backup = tmp_path / "v1.db.schema-1.bak"
    assert backup.exists()
    # The backup is the file as schema 1 left it (read as the code of schema 1 would).
    conn = sqlite3.connect(backup)
    assert conn.execute("SELECT max(version) FROM _migrations").fetchone() == (1,)
    assert conn.execute("SELECT count(*) FROM sessions").fetchone() == (2,)
    assert "family" not in [r[1] for r in conn.execute("PRAGMA table_info(sessions)")]
    conn.close()


def test_a_failed_migration_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "v1.db"
    shutil.copy(FIXTURES / "schema-1.db", path)

    def broken(db: Any) -> None:
        db.execute("ALTER TABLE sessions ADD COLUMN venue TEXT")
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(
        store_schema, "MIGRATIONS", [*store_schema.MIGRATIONS, (3, "broken", broken)]
    )
    with pytest.raises(RuntimeError):
        Store(path)
    # Schema 2 went back with the broken 3: one transaction. Read by plain SQLite, since a
    # Store of today's code refuses a schema-1 file whose migration it may not run.
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT max(version) FROM _migrations").fetchone()[0] == 1
        columns = {row[1] for row in conn.execute("PRAGMA table_info(sessions)")}
    finally:
        conn.close()
    assert "venue" not in columns and "family" not in columns
    monkeypatch.undo()
    with Store(path) as s:  # and the real migrations still run on it afterwards
        assert s.version() == store_schema.MIGRATIONS[-1][0] == store_schema.schema_version()
        assert "family" in s.db.table("sessions").columns_dict


def test_wal_and_synchronous_commits(store: Store) -> None:
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


# --- the CLI --------------------------------------------------------------------------------


def test_cli_import_sessions_history_export(tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    src = tmp_path / "in.json"
    src.write_text(json.dumps(session([GAME, rasp(3, 3, 4)])), encoding="utf-8")
    done = run_cli("--lang", "en", "import", str(src), "--db", str(db))
    assert (done.returncode, done.stdout.strip()) == (0, "1")
    listed = run_cli("--lang", "en", "sessions", "--db", str(db))
    assert (
        "sochi" in listed.stdout
        and "Anna, Boris, Vera" in listed.stdout
        and "2 deals, in play" in listed.stdout
    )
    history = run_cli("--lang", "en", "history", "1", "--db", str(db))
    lines = history.stdout.splitlines()
    assert [line[27:].split("  {")[0] for line in lines] == [
        "deal 1 was written",
        "deal 2 was written",
    ]
    out = tmp_path / "out.json"
    assert run_cli("export", "1", str(out), "--db", str(db)).returncode == 0
    assert without_ids(out.read_text(encoding="utf-8")) == dump_session(
        parse_session(src.read_bytes())
    )


def test_cli_refuses_a_bad_import_and_a_bad_database(tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(session([rasp(5, 5, 5)])), encoding="utf-8")
    done = run_cli("--lang", "en", "import", str(bad), "--db", str(db))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == ["deal 1: tricks: tricks sum to 15, must be 10"]
    junk = tmp_path / "junk.db"
    junk.write_text("not a database", encoding="utf-8")
    done = run_cli("--lang", "en", "sessions", "--db", str(junk))
    assert done.returncode == 2 and "is not a Scorepad database" in done.stderr


def test_the_kept_replay_equals_a_full_replay_from_the_file(db_path: Path) -> None:
    raw = random_session(RandomChooser(99), deals=80)
    with Store(db_path) as s:
        sid = s.create_session(
            raw["players"], pool_target=raw["pool_target"], first_dealer=raw["first_dealer"]
        )
        r = 0
        for deal in raw["deals"][:40]:
            r = s.add_deal(sid, typed(s, sid, deal), seen=r).revision
        r = s.void_deal(sid, 5, reason="x", seen=r).revision  # a full replay in between
        for deal in raw["deals"][40:60]:
            # The void moved the dealer: some later deals no longer fit and are refused whole.
            with contextlib.suppress(InvalidEntry):
                r = s.add_deal(sid, typed(s, sid, deal), seen=r).revision
        live = s.load(sid)
    with Store(db_path) as fresh:
        full = fresh.load(sid)
    assert live.revision == full.revision
    assert live.scored.sheet == full.scored.sheet
    assert [
        (d.index, d.writing.pool, d.writing.gora, d.writing.entries, d.writing.explain)
        for d in live.scored.deals
    ] == [
        (d.index, d.writing.pool, d.writing.gora, d.writing.entries, d.writing.explain)
        for d in full.scored.deals
    ]
    assert live.session.deals == full.session.deals
