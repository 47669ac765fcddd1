"""The store: every session and every action kept in SQLite, forever (sqlite-utils).

- The journal of actions (:mod:`scorepad.journal`) is the only source of truth; the sheet is
  always derived from it by the scoring engine.  The ``actions`` table is append-only, and the
  database itself refuses an UPDATE or DELETE of it.
- One transaction per action (``BEGIN IMMEDIATE``), WAL journal, synchronous commits: an action
  whose call returned survives a crash, a kill or a power loss; a half action never exists.
- Every write names the revision it saw; a stale write is refused with what changed since.
- The schema version is recorded in the database (``_migrations``); a backup copy is written
  before any migration; a database newer than the code is refused, as is a non-Scorepad file.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from platformdirs import user_data_path
from pydantic import TypeAdapter, ValidationError
from sqlite_utils import Database

from .i18n import N_, Msg, ScorepadError, msg
from .journal import Action, ActionKind, Journal, JournalError, deal_numbers, replay_journal
from .scoring.ledger.families import (
    AnySession,
    FamilyScored,
    FamilySettings,
    dump_family_session,
    family_deal_adapter,
    family_of,
    family_presets,
    parse_family_deal,
    parse_family_session,
    replay_family,
)
from .scoring.peek import peek_family
from .scoring.pulya.convention import ConventionError, Settings, settings_for
from .scoring.pulya.score import Replay, Scored, batch, replay
from .scoring.pulya.session import (
    FORMAT,
    MAX_DEALS,
    Deal,
    FieldRefused,
    Problem,
    Session,
    SessionInvalid,
    clean_text,
    deal_data,
    dump_session,
    look_alike,
    parse_session,
    player_name,
    pydantic_problem,
    quote,
    too_many_deals,
)

APPLICATION_ID = 0x53435044  # "SCPD" in the database header: this file is Scorepad's
#: Seconds a write waits for another program's lock before it is refused.
LOCK_TIMEOUT = 30.0
MAX_REASON = 200
_DEAL: TypeAdapter[Any] = TypeAdapter(Deal)


class StoreError(ScorepadError):
    """Something the store refuses; nothing was written.  ``message`` is a sentence to show."""

    def __init__(self, message: Msg, *details: Msg) -> None:
        self.message = message
        self.details = details
        super().__init__(message, self.render())

    def render(self, lang: str = "en") -> str:
        return "\n".join(m.render(lang) for m in (self.message, *self.details))


class NotScorepad(StoreError):
    """The file is not a Scorepad database (corrupt, not SQLite, or another program's)."""


class SchemaTooNew(StoreError):
    """The database was written by a newer Scorepad."""


class NotFound(StoreError):
    pass


class Damaged(NotScorepad):
    """The database is damaged: it is not written to; the message points to the latest backup."""


class Unavailable(StoreError):
    """The database cannot be used now: locked, read-only, the disk full, a path that is no file."""


class StaleRevision(StoreError):
    """The session changed after the writer looked at it."""


class InvalidEntry(StoreError):
    """The action would make the session invalid; ``problems`` say why."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__(
            msg(N_("the entry was refused:")), *(Msg("{p}", {"p": p.render()}) for p in problems)
        )

    def render(self, lang: str = "en") -> str:
        head = self.message.render(lang)
        return "\n".join([head, *(p.render(lang) for p in self.problems)])


def default_path() -> Path:
    """``SCOREPAD_DB``, else ``scorepad.db`` in the user's data directory."""
    env = os.environ.get("SCOREPAD_DB")
    if env:
        return Path(env)
    return user_data_path("scorepad", appauthor=False) / "scorepad.db"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


# --- schema and migrations ----------------------------------------------------------------


def _v1(db: Database) -> None:
    db.table("players").create(
        {"id": int, "name": str, "created_at": str}, pk="id", not_null={"name", "created_at"}
    )
    db.execute("CREATE UNIQUE INDEX players_name ON players(name COLLATE NOCASE)")
    db.table("sessions").create(
        {
            "id": int,
            "players": str,  # JSON list of names, in seating order (clockwise)
            "convention": str,
            "overrides": str,  # JSON, as given
            "settings": str,  # JSON, frozen when the session started
            "pool_target": int,
            "first_dealer": int,
            "whist_price": str,
            "currency": str,
            "created_at": str,
            "finished_at": str,
            "deleted_at": str,
            # Caches of what the actions add up to, updated in the same transaction:
            "revision": int,
            "deals": int,
        },
        pk="id",
        not_null={"players", "convention", "settings", "pool_target", "created_at", "revision"},
        defaults={"revision": 0, "deals": 0, "overrides": "{}", "first_dealer": 0},
    )
    db.table("session_players").create(
        {"session_id": int, "seat": int, "player_id": int},
        pk=("session_id", "seat"),
        foreign_keys=[("session_id", "sessions", "id"), ("player_id", "players", "id")],
    )
    db.table("actions").create(
        {
            "id": int,
            "session_id": int,
            "seq": int,
            "kind": str,
            "deal_id": int,
            "deal": str,
            "reason": str,
            "target": int,
            "at": str,
        },
        pk="id",
        foreign_keys=[("session_id", "sessions", "id")],
        not_null={"session_id", "seq", "kind", "at"},
    )
    db.execute("CREATE UNIQUE INDEX actions_seq ON actions(session_id, seq)")
    for verb in ("UPDATE", "DELETE"):
        db.execute(
            f"CREATE TRIGGER actions_no_{verb.lower()} BEFORE {verb} ON actions "
            "BEGIN SELECT RAISE(ABORT, 'the actions of a session are append-only'); END"
        )


def _v2(db: Database) -> None:
    # The scoring family of a session (central-european §9.1): the pulya for every older one.
    db.table("sessions").add_column("family", str, not_null_default="pulya")


#: Every schema version, in order.  A released version is never changed: add the next one.
MIGRATIONS: list[tuple[int, str, Callable[[Database], None]]] = [
    (1, "players, sessions, append-only actions", _v1),
    (2, "the scoring family of a session", _v2),
]


def schema_version() -> int:
    return MIGRATIONS[-1][0]


# --- results -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SessionSummary:
    id: int
    players: list[str]
    convention: str
    pool_target: int
    created_at: str
    finished_at: str | None
    revision: int
    deals: int
    family: str = "pulya"


@dataclass(frozen=True, slots=True)
class Stored:
    """A stored session as it stands: its file form, its journal and its scored sheet."""

    id: int
    session: Session
    settings: Settings
    journal: Journal
    scored: Scored
    created_at: str
    finished_at: str | None

    @property
    def revision(self) -> int:
        return self.journal.revision


@dataclass(frozen=True, slots=True)
class FamilyStored:
    """A stored session of a ledger family (bula, kassa, pot, direct), as it stands."""

    id: int
    family: str
    session: AnySession
    settings: FamilySettings
    journal: Journal
    scored: FamilyScored
    created_at: str
    finished_at: str | None

    @property
    def revision(self) -> int:
        return self.journal.revision


AnyStored = Stored | FamilyStored


@dataclass(slots=True)
class _Live:
    """The last replay of a session, at ``revision``: an added deal is written onto it alone
    (the pulya); a ledger family's session is replayed whole (``ledger``), it is short."""

    revision: int
    journal: Journal
    replay: Replay | None = None
    ledger: FamilyScored | None = None


class Store:
    """A Scorepad database.  Use as a context manager, or call :meth:`close`."""

    def __init__(
        self,
        path: str | Path,
        *,
        timeout: float | None = None,
        check_same_thread: bool = True,
    ) -> None:
        self.path = Path(path)
        self.timeout = LOCK_TIMEOUT if timeout is None else timeout
        _check_path(self.path)
        _make_private(self.path)
        try:
            conn = sqlite3.connect(
                self.path,
                isolation_level=None,
                timeout=self.timeout,
                check_same_thread=check_same_thread,
            )
        except sqlite3.Error as exc:
            raise database_error(exc, self.path, self.timeout) from None
        self.conn = conn
        self.db = Database(conn)
        # Actions are append-only, so a session at the same revision has the same actions:
        # the replay kept here is exact until the revision moves.
        self._live: dict[int, _Live] = {}
        #: Why the file is damaged (quick_check), or None: a damaged file is never written.
        self.damage: str | None = None
        try:
            # The header is read through SQLite: a Python open() and close() of the file would
            # drop every POSIX lock this process holds on it (another Store's, say).
            conn.execute("PRAGMA schema_version").fetchone()
            self.damage = _quick_check(conn)
            self._migrate()
            if self.damage is None:
                conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")  # an action that returned is on the disk
            conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as exc:
            conn.close()
            raise database_error(exc, self.path, self.timeout) from None
        except BaseException:
            conn.close()
            raise

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.conn.close()

    # --- transactions and migrations ------------------------------------------------------

    @contextmanager
    def _write(self) -> Iterator[None]:
        """One action, one transaction: all of it is written, or none."""
        if self.damage is not None:
            raise self._damaged(self.damage)
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise database_error(exc, self.path, self.timeout) from None
        try:
            yield
            self.conn.execute("COMMIT")
        except BaseException as exc:
            if self.conn.in_transaction:
                with suppress(sqlite3.Error):  # SQLite may have rolled back already
                    self.conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise database_error(exc, self.path, self.timeout) from None
            raise

    def _damaged(self, detail: str) -> Damaged:
        return _damaged(self.path, detail)

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """A read meets damage quick_check cannot see (a scribbled record): say so, in words."""
        try:
            yield
        except sqlite3.Error as exc:
            raise database_error(exc, self.path, self.timeout) from None

    def version(self) -> int:
        if "_migrations" not in self.db.table_names():
            return 0
        row = self.conn.execute("SELECT max(version) FROM _migrations").fetchone()
        return int(row[0] or 0)

    def _migrate(self) -> None:
        app_id = self.conn.execute("PRAGMA application_id").fetchone()[0]
        tables = self.db.table_names()
        if app_id != APPLICATION_ID and (tables or app_id != 0):
            raise NotScorepad(
                msg(N_("{path} is a SQLite database, but not Scorepad's"), path=str(self.path))
            )
        current = self.version()
        latest = schema_version()
        if current == 0 and [t for t in tables if t != "_migrations"]:
            # Scorepad's tables without the record of their schema: never guess, never rebuild.
            raise self._damaged("_migrations")
        if self.damage is not None and current != latest:
            raise self._damaged(self.damage)
        if current > latest:
            raise SchemaTooNew(
                msg(
                    N_(
                        "{path} was written by a newer Scorepad (schema {found}, this one knows {known}): update Scorepad"
                    ),
                    path=str(self.path),
                    found=current,
                    known=latest,
                )
            )
        if current == latest:
            return
        if current > 0:
            self.backup(self.path.with_name(f"{self.path.name}.schema-{current}.bak"))
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            if current == 0:
                self.conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
                self.db.table("_migrations").create(
                    {"version": int, "name": str, "applied_at": str},
                    pk="version",
                    if_not_exists=True,
                )
            for version, name, step in MIGRATIONS:
                if version > current:
                    step(self.db)
                    self.db.table("_migrations").insert(
                        {"version": version, "name": name, "applied_at": now()}
                    )
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def backup(self, target: Path) -> Path:
        """A consistent copy of the database (SQLite's online backup), private like it."""
        _make_private(target)
        dest = sqlite3.connect(target)
        try:
            self.conn.backup(dest)
        finally:
            dest.close()
        return target

    # --- players ---------------------------------------------------------------------------

    def players(self) -> list[str]:
        with self._reading():
            return [
                r["name"]
                for r in self.db.query("SELECT name FROM players ORDER BY name COLLATE NOCASE")
            ]

    def add_player(self, name: str) -> int:
        with self._write():
            return self._player_id(_clean_name(name))

    def _player_id(self, name: str) -> int:
        row = self.conn.execute(
            "SELECT id FROM players WHERE name = ? COLLATE NOCASE", (name,)
        ).fetchone()
        if row:
            return int(row[0])
        key = look_alike(name)
        for pid, other in self.conn.execute("SELECT id, name FROM players"):
            if look_alike(other) != key:
                continue
            if other.casefold() == name.casefold():
                return int(pid)  # the same name in another case (Анна, анна)
            raise StoreError(
                msg(
                    N_("the name {name} looks like {other}, already on the roster: use that one"),
                    name=repr(name),
                    other=repr(other),
                )
            )
        return self._insert("players", {"name": name, "created_at": now()})

    def _insert(self, table: str, row: dict[str, Any]) -> int:
        pk = self.db.table(table).insert(row).last_pk
        assert pk is not None
        return int(pk)

    # --- sessions --------------------------------------------------------------------------

    def create_session(
        self,
        players: list[str],
        *,
        convention: str = "sochi",
        overrides: dict[str, Any] | None = None,
        pool_target: int = 20,
        first_dealer: int = 0,
        whist_price: str = "1.00",
        currency: str = "RUB",
    ) -> int:
        """A new session with no deals; the convention's settings are frozen now.

        A preset of a ledger family (bula, kassa, pot, direct) makes a session of that family;
        ``pool_target`` is the pulya's alone and is ignored there.
        """
        data: dict[str, Any] = {
            "format": FORMAT,
            "players": players,
            "convention": convention,
            "overrides": overrides or {},
            "first_dealer": first_dealer,
            "whist_price": whist_price,
            "currency": currency,
            "deals": [],
        }
        if family_of(convention) != "pulya":
            ledger = replay_family(parse_family_session(data))
            with self._write():
                return self._insert_session(ledger.session, ledger.settings, ledger.family)
        session = parse_session(data | {"pool_target": pool_target})
        scored = _score(session, None)
        with self._write():
            return self._insert_session(session, scored.settings, "pulya")

    def import_session(self, text: str | bytes) -> int:
        """A session file, validated in full before anything is written; returns its id."""
        data = text.encode("utf-8") if isinstance(text, str) else text
        family = peek_family(data)
        session: Session | AnySession
        settings: Settings | FamilySettings
        if family != "pulya":
            ledger = replay_family(parse_family_session(data))
            session, settings, finished = ledger.session, ledger.settings, ledger.finished
        else:
            pulya = parse_session(text)
            scored = _score(pulya, None)
            session, settings, finished = pulya, scored.settings, scored.finished
        deals = [_canonical_deal(d, family) for d in session.deals]
        with self._write():
            sid = self._insert_session(session, settings, family)
            at = now()
            for seq, deal in enumerate(deals, start=1):
                self._insert_action(sid, Action(seq, "add", at, deal=deal))
            self._update_cache(sid, len(deals), len(deals), finished)
        return sid

    def _insert_session(
        self, session: Session | AnySession, settings: Settings | FamilySettings, family: str
    ) -> int:
        names = [_clean_name(n) for n in session.players]
        sid = self._insert(
            "sessions",
            {
                "players": json.dumps(names, ensure_ascii=False),
                "convention": session.convention,
                "overrides": json.dumps(session.overrides, ensure_ascii=False, sort_keys=True),
                "settings": settings.model_dump_json(),
                "pool_target": getattr(session, "pool_target", 0),
                "family": family,
                "first_dealer": session.first_dealer,
                "whist_price": session.whist_price,
                "currency": session.currency,
                "created_at": now(),
                "revision": 0,
                "deals": 0,
            },
        )
        for seat, name in enumerate(names):
            self.db.table("session_players").insert(
                {"session_id": sid, "seat": seat, "player_id": self._player_id(name)}
            )
        return sid

    def sessions(self, *, include_deleted: bool = False) -> list[SessionSummary]:
        """Every session, newest first."""
        where = "" if include_deleted else "WHERE deleted_at IS NULL"
        with self._reading():
            rows = self.conn.execute(
                "SELECT id, players, convention, pool_target, created_at, finished_at, revision, "
                f"deals, family FROM sessions {where} ORDER BY id DESC"
            ).fetchall()
        return [
            SessionSummary(
                r[0], _stored_json(r[1], self.path), r[2], r[3], r[4], r[5], r[6], r[7], r[8]
            )
            for r in rows
        ]

    def _row(self, sid: int) -> dict[str, Any]:
        with self._reading():
            rows = list(self.db.query("SELECT * FROM sessions WHERE id = ?", [sid]))
        if not rows:
            raise NotFound(msg(N_("there is no session {id}"), id=sid))
        return rows[0]

    def _actions(self, sid: int, family: str) -> list[Action]:
        out = []
        with self._reading():
            rows = self.conn.execute(
                "SELECT seq, kind, at, deal_id, deal, reason, target FROM actions "
                "WHERE session_id = ? ORDER BY seq",
                (sid,),
            ).fetchall()
        for r in rows:
            deal = _stored_deal(r[4], self.path, family) if r[4] else None
            out.append(Action(r[0], r[1], r[2], r[3], deal, r[5], r[6]))
        return out

    def family(self, sid: int) -> str:
        """The session's scoring family: ``pulya``, ``bula``, ``kassa``, ``pot`` or ``direct``."""
        return str(self._row(sid)["family"])

    def load(self, sid: int) -> Stored:
        """A pulya session as it stands (:meth:`load_family` for the other families)."""
        stored = self.load_any(sid)
        if isinstance(stored, FamilyStored):
            raise StoreError(
                msg(N_("session {id} is kept by the {family} family"), id=sid, family=stored.family)
            )
        return stored

    def load_family(self, sid: int) -> FamilyStored:
        """A session of a ledger family as it stands."""
        stored = self.load_any(sid)
        if not isinstance(stored, FamilyStored):
            raise StoreError(msg(N_("session {id} is a pulya"), id=sid))
        return stored

    def load_any(self, sid: int) -> AnyStored:
        row = self._row(sid)
        live = self._live.get(sid)
        if live is None or live.revision != row["revision"]:
            live = self._replay(row, replay_journal(self._actions(sid, row["family"])))
        return self._stored(row, live)

    def _replay(self, row: dict[str, Any], journal: Journal) -> _Live:
        """Replay the whole session (and keep it for the next added deal)."""
        if row["family"] != "pulya":
            ledger = replay_family(_family_session_of(row, journal.deals))
            live = _Live(journal.revision, journal, ledger=ledger)
            self._live[row["id"]] = live
            return live
        session, settings = _session_of(row, journal.deals)
        r = Replay(session, settings)
        with batch():
            for index, deal in enumerate(session.deals):
                r.add(index, deal)
        if r.problems:
            raise SessionInvalid(r.problems)
        live = _Live(journal.revision, journal, replay=r)
        self._live[row["id"]] = live
        return live

    def _stored(self, row: dict[str, Any], live: _Live) -> AnyStored:
        if live.ledger is not None:
            led = live.ledger
            return FamilyStored(
                row["id"],
                led.family,
                led.session,
                led.settings,
                live.journal,
                led,
                row["created_at"],
                row["finished_at"],
            )
        r = live.replay
        assert r is not None
        return Stored(
            row["id"],
            r.session,
            r.settings,
            live.journal,
            r.result(),
            row["created_at"],
            row["finished_at"],
        )

    def history(self, sid: int) -> list[Action]:
        return self._actions(sid, self._row(sid)["family"])

    def export_session(self, sid: int) -> str:
        """The session file of a stored session (canonical form)."""
        stored = self.load_any(sid)
        if isinstance(stored, FamilyStored):
            return dump_family_session(stored.session)
        return dump_session(stored.session)

    def delete_session(self, sid: int, *, seen: int) -> None:
        """Hide a session from the list; its journal is kept (nothing is ever lost)."""
        with self._write():
            row = self._row(sid)
            self._check_seen(sid, row, seen)
            self.conn.execute("UPDATE sessions SET deleted_at = ? WHERE id = ?", (now(), sid))

    # --- actions -----------------------------------------------------------------------------

    def add_deal(self, sid: int, deal: dict[str, Any], *, seen: int) -> AnyStored:
        family = self.family(sid)

        def make(j: Journal, seq: int, at: str) -> Action:
            if len(j.live) >= MAX_DEALS:
                raise StoreError(too_many_deals())
            return Action(seq, "add", at, deal=_canonical_deal(deal, family, len(j.live)))

        return self._act(sid, seen, make)

    def edit_deal(
        self, sid: int, deal_id: int, deal: dict[str, Any], *, reason: str, seen: int
    ) -> AnyStored:
        why = _reason(reason)
        family = self.family(sid)

        def make(j: Journal, seq: int, at: str) -> Action:
            model = _canonical_deal(deal, family, j.index_of(deal_id))
            return Action(seq, "edit", at, deal_id, model, why)

        return self._act(sid, seen, make)

    def void_deal(self, sid: int, deal_id: int, *, reason: str, seen: int) -> AnyStored:
        why = _reason(reason)
        return self._act(sid, seen, lambda j, seq, at: Action(seq, "void", at, deal_id, reason=why))

    def restore_deal(self, sid: int, deal_id: int, *, seen: int) -> AnyStored:
        """Take a void back: the deal returns to its place, as it was written before the void."""
        return self._act(sid, seen, lambda j, seq, at: Action(seq, "restore", at, deal_id))

    def undo(self, sid: int, *, seen: int) -> AnyStored:
        return self._act(
            sid, seen, lambda j, seq, at: Action(seq, "undo", at, target=_journal(j.next_undo).seq)
        )

    def redo(self, sid: int, *, seen: int) -> AnyStored:
        return self._act(
            sid, seen, lambda j, seq, at: Action(seq, "redo", at, target=_journal(j.next_redo).seq)
        )

    def _act(self, sid: int, seen: int, make: Callable[[Journal, int, str], Action]) -> AnyStored:
        try:
            with self._write():
                row = self._row(sid)
                self._check_seen(sid, row, seen)
                live = self._live.pop(sid, None)
                if live is not None and live.revision != row["revision"]:
                    live = None
                # A fork: snapshots already handed out keep their journal (and their revision).
                journal = (
                    live.journal.fork()
                    if live is not None
                    else replay_journal(self._actions(sid, row["family"]))
                )
                action = make(journal, journal.revision + 1, now())
                try:
                    journal.apply(action)
                except JournalError as exc:
                    raise StoreError(exc.message) from None
                if live is not None and live.replay is not None and action.kind == "add":
                    live = self._append(live, journal, action)
                else:
                    try:
                        live = self._replay(row, journal)
                    except SessionInvalid as exc:
                        raise InvalidEntry(exc.problems) from None
                self._insert_action(sid, action)
                stored = self._stored(row, live)
                self._update_cache(sid, journal.revision, len(journal.live), stored.scored.finished)
        except BaseException:
            self._live.pop(sid, None)  # whatever failed, the next action starts from the file
            raise
        self._live[sid] = live
        return stored

    def _append(self, live: _Live, journal: Journal, action: Action) -> _Live:
        """Write one added deal onto the kept replay."""
        r = live.replay
        model = action.deal
        assert model is not None and r is not None
        problems = r.add(len(r.session.deals), model)
        if problems:
            raise InvalidEntry(problems)
        r.session = r.session.model_copy(update={"deals": [*r.session.deals, model]})
        r.writer.session = r.session
        live.revision = action.seq
        live.journal = journal
        return live

    def _check_seen(self, sid: int, row: dict[str, Any], seen: int) -> None:
        revision = row["revision"]
        if revision == seen:
            return
        actions = self._actions(sid, row["family"])
        numbers = deal_numbers(actions)
        changes = [
            msg(N_("{at}: {what}"), at=a.at[11:19], what=describe_action(a, numbers.get(a.seq)))
            for a in actions
            if a.seq > seen
        ]
        raise StaleRevision(
            msg(
                N_(
                    "session {id} changed since you looked (revision {seen}, now {now}); nothing was written:"
                ),
                id=sid,
                seen=seen,
                now=revision,
            ),
            *changes,
        )

    def _insert_action(self, sid: int, a: Action) -> None:
        self.db.table("actions").insert(
            {
                "session_id": sid,
                "seq": a.seq,
                "kind": a.kind,
                "deal_id": a.deal_id,
                "deal": None
                if a.deal is None
                else json.dumps(deal_data(a.deal), ensure_ascii=False),
                "reason": a.reason,
                "target": a.target,
                "at": a.at,
            }
        )

    def _update_cache(self, sid: int, revision: int, deals: int, finished: bool) -> None:
        self.conn.execute(
            "UPDATE sessions SET revision = ?, deals = ?, "
            "finished_at = CASE WHEN ? THEN coalesce(finished_at, ?) ELSE NULL END WHERE id = ?",
            (revision, deals, finished, now(), sid),
        )


# --- helpers ---------------------------------------------------------------------------------


def _journal(step: Callable[[], Action]) -> Action:
    try:
        return step()
    except JournalError as exc:
        raise StoreError(exc.message) from None


def _check_path(path: Path) -> None:
    """The database path must be a regular file or nothing yet, in a folder (never opened here)."""
    try:
        info = path.stat()
    except FileNotFoundError:
        info = None
    except OSError as exc:  # a path under a file, a folder we may not enter...
        raise _os_error(exc, path) from None
    if info is None:
        return
    if stat.S_ISDIR(info.st_mode):
        raise Unavailable(msg(N_("{path} is a folder, not a database file"), path=str(path)))
    if not stat.S_ISREG(info.st_mode):
        raise Unavailable(msg(N_("{path} is not a regular file"), path=str(path)))


def _make_folder(folder: Path) -> None:
    """Create the missing folders of ``folder``, private (0700); existing ones are left alone."""
    missing = []
    for parent in (folder, *folder.parents):
        if parent.is_dir():
            break
        missing.append(parent)
    for parent in reversed(missing):
        try:
            parent.mkdir(mode=0o700)
        except FileExistsError:
            if not parent.is_dir():
                raise Unavailable(
                    msg(N_("{path} is a file, not a folder"), path=str(parent))
                ) from None
        except OSError as exc:
            raise _os_error(exc, parent) from None


def _make_private(path: Path) -> None:
    """A new database (or backup) file is created empty and private (0600) before SQLite opens it.

    SQLite gives the -wal and -shm files the permissions of the database file.
    """
    _make_folder(path.parent)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    except FileExistsError:
        return  # never opened here: closing it would drop this process's locks on it
    except OSError as exc:
        raise _os_error(exc, path) from None
    os.close(fd)


def _os_error(exc: OSError, path: Path) -> StoreError:
    return Unavailable(
        msg(
            N_("cannot use {path} for the database: {reason}"),
            path=str(exc.filename or path),
            reason=exc.strerror or type(exc).__name__,
        )
    )


def _quick_check(conn: sqlite3.Connection) -> str | None:
    """SQLite's quick_check: None when the file is sound, else its first complaint."""
    rows = conn.execute("PRAGMA quick_check").fetchall()
    first = str(rows[0][0]) if rows else "ok"
    return None if first == "ok" and len(rows) <= 1 else first


def latest_backup(path: Path) -> Path | None:
    """The newest backup Scorepad wrote of ``path`` (``NAME.*.bak`` beside it), if any."""
    try:
        found = [p for p in path.parent.glob(f"{path.name}.*.bak") if p.is_file()]
    except OSError:
        return None
    return max(found, key=lambda p: p.stat().st_mtime, default=None)


def _damaged(path: Path, detail: str) -> Damaged:
    backup = latest_backup(path)
    head = msg(
        N_("{path} is damaged ({detail}): Scorepad does not write to it; nothing was written"),
        path=str(path),
        detail=quote(detail, 60),
    )
    if backup is None:
        return Damaged(head, msg(N_("No backup of it was found.")))
    return Damaged(
        head, msg(N_("The latest backup is {backup}: copy it in its place."), backup=str(backup))
    )


def database_error(exc: sqlite3.Error, path: Path, timeout: float) -> StoreError:
    """A sentence for what SQLite refused (nothing was written: the transaction is gone)."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    where = str(path)
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return Unavailable(
            msg(
                N_(
                    "{path} is locked by another program (waited {seconds} s); nothing was written: try again"
                ),
                path=where,
                seconds=int(timeout) if timeout >= 1 else round(timeout, 1),
            )
        )
    if name == "SQLITE_FULL":
        return Unavailable(msg(N_("the disk is full: nothing was written to {path}"), path=where))
    if name.startswith(("SQLITE_READONLY", "SQLITE_PERM", "SQLITE_AUTH")):
        return Unavailable(msg(N_("{path} is read-only: nothing was written"), path=where))
    if name.startswith("SQLITE_NOTADB"):
        return NotScorepad(
            msg(
                N_("{path} is not a Scorepad database (not a SQLite file, or corrupt)"),
                path=where,
            )
        )
    if name.startswith("SQLITE_CORRUPT"):
        return _damaged(path, str(exc))
    if name.startswith("SQLITE_CANTOPEN"):
        return Unavailable(msg(N_("cannot open {path}"), path=where))
    return Unavailable(
        msg(
            N_("the database {path} failed ({reason}); nothing was written"),
            path=where,
            reason=quote(name or str(exc), 60),
        )
    )


def _stored_deal(text: str, path: Path, family: str = "pulya") -> Any:
    """A stored deal, as the journal keeps it; a row that no longer parses is damage, in words."""
    adapter = _DEAL if family == "pulya" else family_deal_adapter(family)
    try:
        return adapter.validate_json(text)
    except ValidationError as exc:
        raise _damaged(path, str(exc.errors()[0]["msg"])) from None


def _stored_json(text: str, path: Path) -> Any:
    try:
        return json.loads(text)
    except (ValueError, TypeError) as exc:
        raise _damaged(path, str(exc)) from None


def _clean_name(name: str) -> str:
    try:
        return player_name(name)
    except FieldRefused as exc:
        raise StoreError(exc.message) from None
    except ValueError as exc:
        raise StoreError(Msg("{detail}", {"detail": str(exc)})) from None


def _reason(reason: str) -> str:
    try:
        text = clean_text((reason or "").strip(), "reason", limit=MAX_REASON)
    except FieldRefused as exc:
        raise StoreError(exc.message) from None
    if not text:
        raise StoreError(msg(N_("an edit or a void needs a reason")))
    return text


def _canonical_deal(deal: Any, family: str = "pulya", index: int | None = None) -> Any:
    """A deal in its canonical form (as exported); a malformed deal is refused here."""
    data = deal.model_dump(mode="json") if hasattr(deal, "model_dump") else deal
    if family != "pulya":
        try:
            return parse_family_deal(family, data, index=index or 0)
        except SessionInvalid as exc:
            raise InvalidEntry(exc.problems) from None
    try:
        model: Deal = _DEAL.validate_python(data)
    except ValidationError as exc:
        raise InvalidEntry([pydantic_problem(e) for e in exc.errors()]) from None
    return model


def _session_of(row: dict[str, Any], deals: list[Deal]) -> tuple[Session, Settings]:
    data = {
        "format": FORMAT,
        "players": json.loads(row["players"]),
        "convention": row["convention"],
        "overrides": _export_overrides(row),
        "pool_target": row["pool_target"],
        "first_dealer": row["first_dealer"],
        "whist_price": row["whist_price"],
        "currency": row["currency"],
        "deals": deals,
    }
    try:
        settings = Settings.model_validate_json(row["settings"])
        return Session.model_validate(data), settings
    except ValidationError as exc:
        # Only a damaged or hand-edited row fails here: everything written was checked first.
        raise StoreError(
            msg(
                N_("session {id} in the database does not pass the checks ({detail})"),
                id=row["id"],
                detail=quote(str(exc.errors()[0]["msg"]), 60),
            )
        ) from None


def _family_session_of(row: dict[str, Any], deals: list[Any]) -> AnySession:
    data = {
        "format": FORMAT,
        "players": json.loads(row["players"]),
        "convention": row["convention"],
        "overrides": _export_overrides(row),
        "first_dealer": row["first_dealer"],
        "whist_price": row["whist_price"],
        "currency": row["currency"],
        "deals": [_deal_json(d) for d in deals],
    }
    try:
        return parse_family_session(data)
    except SessionInvalid as exc:
        # Only a damaged or hand-edited row fails here: everything written was checked first.
        raise StoreError(
            msg(
                N_("session {id} in the database does not pass the checks ({detail})"),
                id=row["id"],
                detail=quote(exc.render("en")[0], 60),
            )
        ) from None


def _deal_json(deal: Any) -> Any:
    return deal.model_dump(mode="json", exclude_defaults=True)


def _export_overrides(row: dict[str, Any]) -> dict[str, Any]:
    """The frozen settings, written as overrides of today's preset, so the file scores the same."""
    frozen: dict[str, Any] = json.loads(row["settings"])
    try:
        if row["family"] != "pulya":
            found = family_presets().get(row["convention"])
            if found is None:
                return frozen
            preset = found.resolve().model_dump(mode="json")
        else:
            preset = settings_for(row["convention"]).model_dump(mode="json")
    except ConventionError:
        return frozen  # the preset is gone: every setting is an override
    return {k: v for k, v in frozen.items() if preset.get(k) != v}


def _score(session: Session, settings: Settings | None) -> Scored:
    return replay(session, settings)


def describe_action(a: Action, number: int | None = None) -> Msg:
    """What an action did, in words (the history and the stale-write message).

    ``number`` is the deal's number as the player saw it (:func:`journal.deal_numbers`), never
    its id in the journal: the app, the sheet and the history count deals alike, from 1.
    """
    if a.kind == "add":
        if number is not None:
            return msg(N_("deal {deal} was written"), deal=number)
        return msg(N_("a deal was added"))
    deal = number if number is not None else "?"
    if a.kind == "edit":
        return msg(N_("deal {deal} was edited ({reason})"), deal=deal, reason=a.reason)
    if a.kind == "void":
        return msg(N_("deal {deal} was voided ({reason})"), deal=deal, reason=a.reason)
    if a.kind == "restore":
        return msg(N_("deal {deal} was restored"), deal=deal)
    if a.kind == "undo":
        return msg(N_("action {target} was undone"), target=a.target)
    return msg(N_("action {target} was redone"), target=a.target)


__all__ = [
    "MIGRATIONS",
    "ActionKind",
    "AnyStored",
    "Damaged",
    "FamilyStored",
    "InvalidEntry",
    "NotFound",
    "NotScorepad",
    "SchemaTooNew",
    "StaleRevision",
    "Store",
    "StoreError",
    "Stored",
    "Unavailable",
    "database_error",
    "default_path",
    "latest_backup",
]
