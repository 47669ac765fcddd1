"""One owner of the schema (issue 34, item 2): every table is made and altered by the store's
named migrations (scorepad/store/schema.py) and nowhere else; a read never creates a table; a
database made by an older Scorepad (its club and join-link tables made by their own modules)
migrates with its rows kept, after a backup."""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
import threading
from pathlib import Path

import pytest

from scorepad.app.server.grants import Grants
from scorepad.club.store import ClubStore, seat_of, table_pin
from scorepad.store import NeedsMigration, Store, schema_version
from scorepad.store.schema import MIGRATIONS, TABLES

PACKAGE = Path(__file__).resolve().parent.parent / "scorepad"
OWNER = PACKAGE / "store" / "schema.py"


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_a_new_database_has_every_table_when_it_opens(tmp_path: Path) -> None:
    with Store(tmp_path / "new.db") as store:
        tables = set(store.db.table_names())
        assert store.version() == schema_version() == MIGRATIONS[-1][0]
    assert tables == {*TABLES, "_migrations"}
    assert {
        "sessions",
        "actions",
        "players",
        "nights",
        "night_tables",
        "night_phones",
        "night_changes",
        "table_links",
        "table_grants",
    } <= tables


def test_a_club_link_read_on_a_new_database_creates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "host.db"
    with Store(db) as store:
        sid = store.create_session(["Anna", "Boris", "Vera"])
    before = files_of(tmp_path)
    # What an anonymous visit to /club/<token> and a session's page read, read-only.
    with Store(db, read_only=True) as store:
        looking = ClubStore(store, create=False)
        assert looking.night_of_token("A" * 22) is None
        assert looking.nights() == []
        assert seat_of(store, sid) is None and table_pin(store, sid) is None
        assert looking.phone_claims(sid) == [] and looking.changes(sid) == []
        assert not Grants(store, threading.RLock()).opens(sid, "x" * 22)
    assert files_of(tmp_path) == before
    # The same reads on the server's own (writable) connection write nothing either.
    with Store(db) as store:
        changes = store.conn.total_changes
        looking = ClubStore(store)
        assert looking.night_of_token("B" * 22) is None and seat_of(store, sid) is None
        assert store.conn.total_changes == changes


# The schema an older Scorepad made: store/schema.py's versions 1 to 3 (sqlite-utils), and the
# tables club/store.py and app/server/grants.py made themselves on first use, before the
# changes, the phones' claims and the standings link (nights without "token").
OLD_DDL = """
CREATE TABLE "_migrations" ("version" INTEGER PRIMARY KEY, "name" TEXT, "applied_at" TEXT);
CREATE TABLE "players" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL,
   "created_at" TEXT NOT NULL, "merged_into" INTEGER);
CREATE UNIQUE INDEX players_name ON players(name COLLATE NOCASE);
CREATE TABLE "sessions" ("id" INTEGER PRIMARY KEY, "players" TEXT NOT NULL,
   "convention" TEXT NOT NULL, "overrides" TEXT DEFAULT '{}', "settings" TEXT NOT NULL,
   "pool_target" INTEGER NOT NULL, "first_dealer" INTEGER DEFAULT 0, "whist_price" TEXT,
   "currency" TEXT, "created_at" TEXT NOT NULL, "finished_at" TEXT, "deleted_at" TEXT,
   "revision" INTEGER NOT NULL DEFAULT 0, "deals" INTEGER DEFAULT 0,
   "family" TEXT NOT NULL DEFAULT 'pulya', "record" TEXT);
CREATE TABLE "session_players" ("session_id" INTEGER REFERENCES "sessions"("id"),
   "seat" INTEGER, "player_id" INTEGER REFERENCES "players"("id"),
   PRIMARY KEY ("session_id", "seat"));
CREATE TABLE "actions" ("id" INTEGER PRIMARY KEY,
   "session_id" INTEGER NOT NULL REFERENCES "sessions"("id"), "seq" INTEGER NOT NULL,
   "kind" TEXT NOT NULL, "deal_id" INTEGER, "deal" TEXT, "reason" TEXT, "target" INTEGER,
   "at" TEXT NOT NULL);
CREATE UNIQUE INDEX actions_seq ON actions(session_id, seq);
CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
   BEGIN SELECT RAISE(ABORT, 'the actions of a session are append-only'); END;
CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
   BEGIN SELECT RAISE(ABORT, 'the actions of a session are append-only'); END;
CREATE TABLE "player_actions" ("id" INTEGER PRIMARY KEY, "kind" TEXT NOT NULL,
   "player_id" INTEGER, "other_id" INTEGER, "name" TEXT, "old_name" TEXT, "moved" TEXT,
   "amount" INTEGER, "currency" TEXT, "reason" TEXT, "at" TEXT NOT NULL);
CREATE TABLE "seasons" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "since" TEXT NOT NULL,
   "until" TEXT NOT NULL, "players" TEXT NOT NULL, "created_at" TEXT NOT NULL);
CREATE TABLE "nights" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "date" TEXT NOT NULL,
   "convention" TEXT NOT NULL, "settings" TEXT NOT NULL, "pool_target" INTEGER,
   "deals_per_tour" INTEGER, "tours" INTEGER NOT NULL, "scoring" TEXT NOT NULL,
   "seats" INTEGER, "seed" INTEGER NOT NULL, "created_at" TEXT);
CREATE TABLE "night_players" ("night_id" INTEGER REFERENCES "nights"("id"), "number" INTEGER,
   "player_id" INTEGER REFERENCES "players"("id"), "first_tour" INTEGER, "last_tour" INTEGER,
   PRIMARY KEY ("night_id", "number"));
CREATE TABLE "night_tours" ("night_id" INTEGER REFERENCES "nights"("id"), "tour" INTEGER,
   "state" TEXT, "byes" TEXT, "redraws" INTEGER, PRIMARY KEY ("night_id", "tour"));
CREATE TABLE "night_tables" ("night_id" INTEGER REFERENCES "nights"("id"), "tour" INTEGER,
   "table_no" INTEGER, "session_id" INTEGER REFERENCES "sessions"("id"), "players" TEXT,
   PRIMARY KEY ("night_id", "tour", "table_no"));
CREATE TABLE "night_deals" ("session_id" INTEGER REFERENCES "sessions"("id"),
   "deal_id" INTEGER, "state" TEXT, "written_by" INTEGER, "decided_by" INTEGER, "at" TEXT,
   PRIMARY KEY ("session_id", "deal_id"));
CREATE TABLE "night_corrections" ("id" INTEGER PRIMARY KEY,
   "night_id" INTEGER REFERENCES "nights"("id"), "tour" INTEGER, "table_no" INTEGER,
   "deal_id" INTEGER, "reason" TEXT, "at" TEXT);
CREATE TABLE "night_pins" ("session_id" INTEGER PRIMARY KEY REFERENCES "sessions"("id"),
   "pin" TEXT);
CREATE TABLE "night_announcements" ("id" INTEGER PRIMARY KEY,
   "night_id" INTEGER REFERENCES "nights"("id"), "text" TEXT, "at" TEXT);
CREATE TABLE "table_grants" ("device" TEXT PRIMARY KEY, "granted" FLOAT);
CREATE TABLE "table_links" ("session" INTEGER PRIMARY KEY, "token" TEXT);
"""


def old_database(tmp_path: Path) -> tuple[Path, int, int, str]:
    """A schema-3 file with the old DDL, holding a night of two tours' draw with a deal written
    and a join link: its rows made by today's code in another file, copied column by column."""
    source = tmp_path / "made-today.db"
    with Store(source) as store:
        club = ClubStore(store)
        nid = club.create_night(
            "Friday", date=dt.date(2026, 12, 4), tours=2, pool_target=10, seed=7
        )
        for name in ("Anna", "Boris", "Vera", "Gleb", "Dina", "Egor"):
            club.check_in(nid, name)
        club.draw(nid)
        sid = club.session_of(nid, 1, 1)
        seats = club.tables(nid, 1)[0].players
        deal = {"type": "raspasy", "tricks": {"0": 4, "1": 3, "2": 3}}
        club.write_deal(nid, 1, 1, deal, by=seats[0], seen=0)
        token = Grants(store, threading.RLock()).link(sid)
    old = tmp_path / "old.db"
    conn = sqlite3.connect(old)
    conn.executescript(OLD_DDL)
    conn.execute("PRAGMA application_id=1396920388")  # "SCPD"
    new = sqlite3.connect(source)
    for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        if table == "_migrations":
            continue
        cols = [r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')]
        names = ", ".join(f'"{c}"' for c in cols)
        rows = new.execute(f'SELECT {names} FROM "{table}"').fetchall()
        marks = ", ".join("?" for _ in cols)
        conn.executemany(f'INSERT INTO "{table}" ({names}) VALUES ({marks})', rows)
    for version, name, _ in MIGRATIONS[:3]:
        conn.execute("INSERT INTO _migrations VALUES (?, ?, '2026-11-01')", (version, name))
    conn.commit()
    conn.close()
    new.close()
    source.unlink()
    return old, nid, sid, token


def test_an_old_database_with_the_club_tables_of_old_migrates_and_keeps_its_rows(
    tmp_path: Path,
) -> None:
    old, nid, sid, token = old_database(tmp_path)
    before = old.read_bytes()
    with pytest.raises(NeedsMigration, match=rf"schema 3, this one uses {schema_version()}"):
        Store(old, read_only=True)
    assert old.read_bytes() == before  # a read migrates nothing
    with Store(old) as store:
        assert store.migrated is not None and store.migrated[0] == 3
        assert store.version() == schema_version()
        tables = set(store.db.table_names())
        assert {"night_changes", "night_phones", "table_next", "table_moves"} <= tables
        assert "token" in store.db.table("nights").columns_dict
        club = ClubStore(store)
        night = club.load(nid)
        assert (night.name, len(night.players), len(night.drawn)) == ("Friday", 6, 1)
        assert [m.state for m in club.marks(sid)] == ["provisional"]
        assert store.load(sid).scored.sheet.gora != [0, 0, 0]
        assert Grants(store, threading.RLock()).opens(sid, token)
        # The tables made by the migration take writes: a phone's claim, a standings link.
        seats = club.tables(nid, 1)[0].players
        club.claim_phone(nid, 1, 1, seats[1], device="phone-1")
        assert club.phone_number(sid, "phone-1") == seats[1]
        assert club.night_of_token(club.standings_token(nid)) == nid
    backup = tmp_path / "old.db.schema-3.bak"
    with sqlite3.connect(backup) as conn:  # the backup is the file as schema 3 left it
        assert conn.execute("SELECT max(version) FROM _migrations").fetchone() == (3,)
        assert conn.execute("SELECT count(*) FROM nights").fetchone() == (1,)
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        assert "night_changes" not in names and "table_moves" not in names


#: What creates or alters a table: DDL, or sqlite-utils' helpers that issue it.
DDL = re.compile(
    r"\b(CREATE\s+(UNIQUE\s+)?(TABLE|INDEX|TRIGGER|VIEW|COLLATION|FUNCTION)|ALTER\s+TABLE|"
    r"DROP\s+(TABLE|INDEX|TRIGGER))\b|if_not_exists|\.create\(|add_column|create_index|"
    r"\.transform\(",
    re.IGNORECASE,
)


def test_no_module_but_the_schema_owner_creates_or_alters_a_table() -> None:
    offenders = [
        f"{path.relative_to(PACKAGE.parent)}:{n}: {line.strip()}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != OWNER
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if DDL.search(line)
    ]
    assert offenders == []
    assert DDL.search(OWNER.read_text(encoding="utf-8"))  # the pattern finds DDL where it is
