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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from platformdirs import user_data_path
from pydantic import TypeAdapter, ValidationError
from sqlite_utils import Database

from .i18n import N_, Msg, ScorepadError, msg
from .journal import Action, ActionKind, Journal, JournalError, deal_numbers, replay_journal
from .scoring.convention import ConventionError, Settings, settings_for
from .scoring.score import Replay, Scored, batch, replay
from .scoring.session import (
    FORMAT,
    Deal,
    Problem,
    Session,
    SessionInvalid,
    deal_data,
    dump_session,
    parse_session,
    player_name,
    pydantic_problem,
)

APPLICATION_ID = 0x53435044  # "SCPD" in the database header: this file is Scorepad's
SQLITE_HEADER = b"SQLite format 3\x00"
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


#: Every schema version, in order.  A released version is never changed: add the next one.
MIGRATIONS: list[tuple[int, str, Callable[[Database], None]]] = [
    (1, "players, sessions, append-only actions", _v1),
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


@dataclass(slots=True)
class _Live:
    """The last replay of a session, at ``revision``: an added deal is written onto it alone."""

    revision: int
    journal: Journal
    replay: Replay


class Store:
    """A Scorepad database.  Use as a context manager, or call :meth:`close`."""

    def __init__(
        self, path: str | Path, *, timeout: float = 30.0, check_same_thread: bool = True
    ) -> None:
        self.path = Path(path)
        _check_file(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = sqlite3.connect(
                self.path,
                isolation_level=None,
                timeout=timeout,
                check_same_thread=check_same_thread,
            )
            conn.execute("PRAGMA schema_version").fetchone()
        except sqlite3.DatabaseError as exc:
            raise NotScorepad(
                msg(
                    N_("{path} is not a Scorepad database ({reason})"),
                    path=str(self.path),
                    reason=str(exc),
                )
            ) from None
        self.conn = conn
        self.db = Database(conn)
        # Actions are append-only, so a session at the same revision has the same actions:
        # the replay kept here is exact until the revision moves.
        self._live: dict[int, _Live] = {}
        try:
            self._migrate()
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")  # an action that returned is on the disk
            conn.execute("PRAGMA foreign_keys=ON")
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
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

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
        """A consistent copy of the database (SQLite's online backup)."""
        dest = sqlite3.connect(target)
        try:
            self.conn.backup(dest)
        finally:
            dest.close()
        return target

    # --- players ---------------------------------------------------------------------------

    def players(self) -> list[str]:
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
        """A new session with no deals; the convention's settings are frozen now."""
        data = {
            "format": FORMAT,
            "players": players,
            "convention": convention,
            "overrides": overrides or {},
            "pool_target": pool_target,
            "first_dealer": first_dealer,
            "whist_price": whist_price,
            "currency": currency,
            "deals": [],
        }
        session = parse_session(data)
        scored = _score(session, None)
        with self._write():
            return self._insert_session(session, scored.settings)

    def import_session(self, text: str | bytes) -> int:
        """A session file, validated in full before anything is written; returns its id."""
        session = parse_session(text)
        scored = _score(session, None)
        deals = [_canonical_deal(d) for d in session.deals]
        with self._write():
            sid = self._insert_session(session, scored.settings)
            at = now()
            for seq, deal in enumerate(deals, start=1):
                self._insert_action(sid, Action(seq, "add", at, deal=deal))
            self._update_cache(sid, len(deals), len(deals), scored)
        return sid

    def _insert_session(self, session: Session, settings: Settings) -> int:
        names = [_clean_name(n) for n in session.players]
        sid = self._insert(
            "sessions",
            {
                "players": json.dumps(names, ensure_ascii=False),
                "convention": session.convention,
                "overrides": json.dumps(session.overrides, ensure_ascii=False, sort_keys=True),
                "settings": settings.model_dump_json(),
                "pool_target": session.pool_target,
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
        rows = self.conn.execute(
            "SELECT id, players, convention, pool_target, created_at, finished_at, revision, deals "
            f"FROM sessions {where} ORDER BY id DESC"
        ).fetchall()
        return [
            SessionSummary(r[0], json.loads(r[1]), r[2], r[3], r[4], r[5], r[6], r[7]) for r in rows
        ]

    def _row(self, sid: int) -> dict[str, Any]:
        rows = list(self.db.query("SELECT * FROM sessions WHERE id = ?", [sid]))
        if not rows:
            raise NotFound(msg(N_("there is no session {id}"), id=sid))
        return rows[0]

    def _actions(self, sid: int) -> list[Action]:
        out = []
        for r in self.conn.execute(
            "SELECT seq, kind, at, deal_id, deal, reason, target FROM actions WHERE session_id = ? ORDER BY seq",
            (sid,),
        ):
            out.append(
                Action(
                    r[0], r[1], r[2], r[3], _DEAL.validate_json(r[4]) if r[4] else None, r[5], r[6]
                )
            )
        return out

    def load(self, sid: int) -> Stored:
        row = self._row(sid)
        live = self._live.get(sid)
        if live is None or live.revision != row["revision"]:
            live = self._replay(row, replay_journal(self._actions(sid)))
        return self._stored(row, live)

    def _replay(self, row: dict[str, Any], journal: Journal) -> _Live:
        """Replay the whole session (and keep it for the next added deal)."""
        session, settings = _session_of(row, journal.deals)
        r = Replay(session, settings)
        with batch():
            for index, deal in enumerate(session.deals):
                r.add(index, deal)
        if r.problems:
            raise SessionInvalid(r.problems)
        live = _Live(journal.revision, journal, r)
        self._live[row["id"]] = live
        return live

    def _stored(self, row: dict[str, Any], live: _Live) -> Stored:
        r = live.replay
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
        self._row(sid)
        return self._actions(sid)

    def export_session(self, sid: int) -> str:
        """The session file of a stored session (canonical form)."""
        stored = self.load(sid)
        return dump_session(stored.session)

    def delete_session(self, sid: int, *, seen: int) -> None:
        """Hide a session from the list; its journal is kept (nothing is ever lost)."""
        with self._write():
            row = self._row(sid)
            self._check_seen(sid, row, seen)
            self.conn.execute("UPDATE sessions SET deleted_at = ? WHERE id = ?", (now(), sid))

    # --- actions -----------------------------------------------------------------------------

    def add_deal(self, sid: int, deal: dict[str, Any], *, seen: int) -> Stored:
        return self._act(
            sid, seen, lambda j, seq, at: Action(seq, "add", at, deal=_canonical_deal(deal))
        )

    def edit_deal(
        self, sid: int, deal_id: int, deal: dict[str, Any], *, reason: str, seen: int
    ) -> Stored:
        why = _reason(reason)
        return self._act(
            sid,
            seen,
            lambda j, seq, at: Action(seq, "edit", at, deal_id, _canonical_deal(deal), why),
        )

    def void_deal(self, sid: int, deal_id: int, *, reason: str, seen: int) -> Stored:
        why = _reason(reason)
        return self._act(sid, seen, lambda j, seq, at: Action(seq, "void", at, deal_id, reason=why))

    def restore_deal(self, sid: int, deal_id: int, *, seen: int) -> Stored:
        """Take a void back: the deal returns to its place, as it was written before the void."""
        return self._act(sid, seen, lambda j, seq, at: Action(seq, "restore", at, deal_id))

    def undo(self, sid: int, *, seen: int) -> Stored:
        return self._act(
            sid, seen, lambda j, seq, at: Action(seq, "undo", at, target=_journal(j.next_undo).seq)
        )

    def redo(self, sid: int, *, seen: int) -> Stored:
        return self._act(
            sid, seen, lambda j, seq, at: Action(seq, "redo", at, target=_journal(j.next_redo).seq)
        )

    def _act(self, sid: int, seen: int, make: Callable[[Journal, int, str], Action]) -> Stored:
        try:
            with self._write():
                row = self._row(sid)
                self._check_seen(sid, row, seen)
                live = self._live.pop(sid, None)
                if live is not None and live.revision != row["revision"]:
                    live = None
                # A fork: snapshots already handed out keep their journal (and their revision).
                journal = (
                    live.journal.fork() if live is not None else replay_journal(self._actions(sid))
                )
                action = make(journal, journal.revision + 1, now())
                try:
                    journal.apply(action)
                except JournalError as exc:
                    raise StoreError(exc.message) from None
                if live is not None and action.kind == "add":
                    live = self._append(live, journal, action)
                else:
                    try:
                        live = self._replay(row, journal)
                    except SessionInvalid as exc:
                        raise InvalidEntry(exc.problems) from None
                self._insert_action(sid, action)
                stored = self._stored(row, live)
                self._update_cache(sid, journal.revision, len(journal.live), stored.scored)
        except BaseException:
            self._live.pop(sid, None)  # whatever failed, the next action starts from the file
            raise
        self._live[sid] = live
        return stored

    def _append(self, live: _Live, journal: Journal, action: Action) -> _Live:
        """Write one added deal onto the kept replay."""
        r = live.replay
        model = action.deal
        assert model is not None
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
        actions = self._actions(sid)
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

    def _update_cache(self, sid: int, revision: int, deals: int, scored: Scored) -> None:
        self.conn.execute(
            "UPDATE sessions SET revision = ?, deals = ?, "
            "finished_at = CASE WHEN ? THEN coalesce(finished_at, ?) ELSE NULL END WHERE id = ?",
            (revision, deals, scored.finished, now(), sid),
        )


# --- helpers ---------------------------------------------------------------------------------


def _journal(step: Callable[[], Action]) -> Action:
    try:
        return step()
    except JournalError as exc:
        raise StoreError(exc.message) from None


def _check_file(path: Path) -> None:
    """A file that exists must start as a SQLite database does: refuse anything else untouched."""
    if not path.exists() or path.stat().st_size == 0:
        return
    with path.open("rb") as f:
        head = f.read(len(SQLITE_HEADER))
    if head != SQLITE_HEADER:
        raise NotScorepad(
            msg(
                N_("{path} is not a Scorepad database (not a SQLite file, or corrupt)"),
                path=str(path),
            )
        )


def _clean_name(name: str) -> str:
    try:
        return player_name(name)
    except ValueError as exc:
        raise StoreError(Msg("{detail}", {"detail": str(exc)})) from None


def _reason(reason: str) -> str:
    text = (reason or "").strip()
    if not text:
        raise StoreError(msg(N_("an edit or a void needs a reason")))
    return text


def _canonical_deal(deal: Any) -> Deal:
    """A deal in its canonical form (as exported); a malformed deal is refused here."""
    try:
        model: Deal = _DEAL.validate_python(
            deal.model_dump(mode="json") if hasattr(deal, "model_dump") else deal
        )
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
    settings = Settings.model_validate_json(row["settings"])
    return Session.model_validate(data), settings


def _export_overrides(row: dict[str, Any]) -> dict[str, Any]:
    """The frozen settings, written as overrides of today's preset, so the file scores the same."""
    frozen: dict[str, Any] = json.loads(row["settings"])
    try:
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
    "InvalidEntry",
    "NotFound",
    "NotScorepad",
    "SchemaTooNew",
    "StaleRevision",
    "Store",
    "StoreError",
    "Stored",
    "default_path",
]
