"""The database file: opening it privately, its schema and migrations (a backup first), and one
transaction per write."""

from __future__ import annotations

import os
import sqlite3
import stat
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Self
from urllib.parse import quote

from platformdirs import user_data_path
from sqlite_utils import Database

from ..i18n import N_, msg

if TYPE_CHECKING:
    from .reading import _Live

from .errors import (
    Damaged,
    NeedsMigration,
    NotFound,
    NotScorepad,
    SchemaTooNew,
    Unavailable,
    _damaged,
    _os_error,
    database_error,
)

APPLICATION_ID = 0x53435044  # "SCPD" in the database header: this file is Scorepad's


#: Seconds a write waits for another program's lock before it is refused.
LOCK_TIMEOUT = 30.0


def default_path() -> Path:
    """``SCOREPAD_DB``, else ``scorepad.db`` in the user's data directory."""
    env = os.environ.get("SCOREPAD_DB")
    if env:
        return Path(env)
    return user_data_path("scorepad", appauthor=False) / "scorepad.db"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


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


def _v3(db: Database) -> None:
    # One directory of players (issue: players across every night and every family): a rename,
    # a merge, a delete and a season's "settled" are actions of their own, append-only like the
    # deals'; a merged entry points at the one it joined.  Each session keeps a record of its
    # seats (money, result, counts), rewritten with every action, for the statistics.
    db.table("players").add_column("merged_into", int)
    db.table("sessions").add_column("record", str)
    db.table("player_actions").create(
        {
            "id": int,
            "kind": str,  # rename, merge, unmerge, delete, settle
            "player_id": int,
            "other_id": int,
            "name": str,  # a rename: the new name; a delete: the name deleted
            "old_name": str,
            "moved": str,  # a merge: JSON [[session, seat], …] moved to the other entry
            "amount": int,  # a settle: minor units paid by player_id to other_id
            "currency": str,
            "reason": str,
            "at": str,
        },
        pk="id",
        not_null={"kind", "at"},
    )
    db.table("seasons").create(
        {"id": int, "name": str, "since": str, "until": str, "players": str, "created_at": str},
        pk="id",
        not_null={"name", "since", "until", "players", "created_at"},
    )
    for verb in ("UPDATE", "DELETE"):
        db.execute(
            f"CREATE TRIGGER player_actions_no_{verb.lower()} BEFORE {verb} ON player_actions "
            "BEGIN SELECT RAISE(ABORT, 'the directory actions are append-only'); END"
        )


def new_uid() -> str:
    """A stable id: a random 128-bit UUID's text, given once, kept in every file and store."""
    return str(uuid.uuid4())


def _v4(db: Database) -> None:
    # Stable ids (issue #36): a session, a player and a deal keep one id in every store and file,
    # so that a file imported twice, or a store copied twice, makes one of each.  Portable SQL (it
    # runs on PostgreSQL too); a deal's id is a row of its own, since the actions table refuses
    # an UPDATE and a deal is named by its add action.
    db.execute("ALTER TABLE sessions ADD COLUMN uid TEXT")
    db.execute("ALTER TABLE players ADD COLUMN uid TEXT")
    db.execute(
        "CREATE TABLE deal_uids (session_id INTEGER NOT NULL REFERENCES sessions(id), "
        "deal_id INTEGER NOT NULL, uid TEXT NOT NULL, PRIMARY KEY (session_id, deal_id))"
    )
    for table in ("sessions", "players"):
        for (rid,) in db.execute(f"SELECT id FROM {table} ORDER BY id").fetchall():
            db.execute(f"UPDATE {table} SET uid = ? WHERE id = ?", (new_uid(), rid))
    for sid, seq in db.execute(
        "SELECT session_id, seq FROM actions WHERE kind = 'add' ORDER BY session_id, seq"
    ).fetchall():
        db.execute(
            "INSERT INTO deal_uids (session_id, deal_id, uid) VALUES (?, ?, ?)",
            (sid, seq, new_uid()),
        )
    db.execute("CREATE UNIQUE INDEX sessions_uid ON sessions(uid)")
    db.execute("CREATE UNIQUE INDEX players_uid ON players(uid)")
    db.execute("CREATE UNIQUE INDEX deal_uids_uid ON deal_uids(uid)")


#: Every schema version, in order.  A released version is never changed: add the next one.
MIGRATIONS: list[tuple[int, str, Callable[[Database], None]]] = [
    (1, "players, sessions, append-only actions", _v1),
    (2, "the scoring family of a session", _v2),
    (3, "one directory of players, seasons, each session's record", _v3),
    (4, "stable ids of sessions, players and deals", _v4),
]


#: The columns of each table at the latest schema version (checked on opening).
TABLES: dict[str, set[str]] = {
    "players": {"id", "name", "created_at", "uid"},
    "sessions": {
        "id",
        "players",
        "convention",
        "overrides",
        "settings",
        "pool_target",
        "first_dealer",
        "whist_price",
        "currency",
        "created_at",
        "finished_at",
        "deleted_at",
        "revision",
        "deals",
        "family",
        "uid",
    },
    "session_players": {"session_id", "seat", "player_id"},
    "actions": {"id", "session_id", "seq", "kind", "deal_id", "deal", "reason", "target", "at"},
    "deal_uids": {"session_id", "deal_id", "uid"},
}


def schema_version() -> int:
    return MIGRATIONS[-1][0]


#: The smallest SQLite file (one page): anything shorter but not empty is not a database.
MIN_DATABASE = 512


def _check_path(path: Path) -> bool:
    """The database path must be a regular file or nothing yet, in a folder (never opened here).

    True when a database is there; False for a missing or empty file (only that becomes a new
    database: a file of a few bytes is somebody's, never re-initialised).
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        return False
    except OSError as exc:  # a path under a file, a folder we may not enter, a symlink loop
        raise _os_error(exc, path) from None
    if stat.S_ISDIR(info.st_mode):
        raise Unavailable(msg(N_("{path} is a folder, not a database file"), path=str(path)))
    if not stat.S_ISREG(info.st_mode):
        raise Unavailable(msg(N_("{path} is not a regular file"), path=str(path)))
    if 0 < info.st_size < MIN_DATABASE:
        raise NotScorepad(
            msg(
                N_("{path} is not a Scorepad database (not a SQLite file, or corrupt)"),
                path=str(path),
            )
        )
    return info.st_size > 0


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
        if not (path.is_symlink() and not path.exists()):
            return  # never opened here: closing it would drop this process's locks on it
        # A dangling symlink: SQLite would create its target with the umask's bits.
        try:
            fd = os.open(
                os.path.realpath(path), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600
            )
        except OSError as exc:
            raise _os_error(exc, path) from None
    except OSError as exc:
        raise _os_error(exc, path) from None
    os.close(fd)


def _quick_check(conn: sqlite3.Connection) -> str | None:
    """SQLite's quick_check: None when the file is sound, else its first complaint."""
    rows = conn.execute("PRAGMA quick_check").fetchall()
    first = str(rows[0][0]) if rows else "ok"
    return None if first == "ok" and len(rows) <= 1 else first


def _read_only_uri(path: Path) -> tuple[str, bool]:
    """How a read opens the database: SQLite's URI, and whether it is a plain connection made
    read-only by ``PRAGMA query_only`` instead.

    - A folder that cannot be written (a read-only mount): ``immutable``; nobody can change the
      file there, and a WAL database needs its -shm file, which a reader cannot create.
    - A WAL database with no -wal file beside it (closed cleanly): a plain connection with
      ``query_only``; SQLite makes its -wal and -shm files and removes them on closing (a
      ``mode=ro`` one would leave them behind), and there is nothing to fold into the file.
    - Otherwise ``mode=ro``: a rollback-journal file is left as it is, and a WAL left by a
      crash (or a writer at work) is read, never folded into the file by a read.
    """
    uri = "file:" + quote(str(path.absolute()))
    if not _writable(path.parent):
        return uri + "?mode=ro&immutable=1", False
    if _is_wal(path) and not Path(f"{path}-wal").exists():
        return uri, True
    return uri + "?mode=ro", False


def _is_wal(path: Path) -> bool:
    """The database header's write version: 2 for a WAL database.  Read by Python before
    SQLite opens the file: only a command that reads calls this, holding no other connection
    to it (whose POSIX locks a close here would drop)."""
    try:
        with path.open("rb") as f:
            header = f.read(20)
    except OSError:
        return False
    return len(header) == 20 and header[18] == 2


def _writable(folder: Path) -> bool:
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return False
    except OSError:
        return False
    return os.access(folder, os.W_OK)


class Connection:
    def __init__(
        self,
        path: str | Path,
        *,
        timeout: float | None = None,
        check_same_thread: bool = True,
        create: bool = True,
        read_only: bool = False,
    ) -> None:
        """Open the database at ``path``; ``create=False`` refuses a missing or empty file
        instead of making a new database.  ``read_only`` (a command that only reads): SQLite
        opens the file read-only, nothing is created, migrated or written; a database that
        needs a migration says so (a write command, or ``scorepad migrate``, runs it)."""
        self.path = Path(path)
        self.timeout = LOCK_TIMEOUT if timeout is None else timeout
        self.read_only = read_only
        #: The backup written before this opening migrated the file (``scorepad migrate``).
        self.migrated: tuple[int, Path | None] | None = None
        if not _check_path(self.path) and (not create or read_only):
            raise NotFound(msg(N_("there is no database at {path}"), path=str(self.path)))
        if not read_only:
            _make_private(self.path)
        uri, query_only = _read_only_uri(self.path) if read_only else (str(self.path), False)
        try:
            conn = sqlite3.connect(
                uri,
                isolation_level=None,
                timeout=self.timeout,
                check_same_thread=check_same_thread,
                uri=read_only,
            )
            if query_only:
                conn.execute("PRAGMA query_only=ON")
        except sqlite3.Error as exc:
            raise database_error(exc, self.path, self.timeout) from None
        self.conn = conn
        self.db = Database(conn)
        # Actions are append-only, so a session at the same revision has the same actions:
        # the replay kept here is exact until the revision moves.
        self._live: dict[int, _Live] = {}
        #: Why the file is damaged (quick_check), or None: a damaged file is never written.
        self.damage: str | None = None
        self._wal = False
        self._depth = 0  # transactions of ours open (see _write): nested ones join the first
        try:
            # The header is read through SQLite: a Python open() and close() of the file would
            # drop every POSIX lock this process holds on it (another Store's, say).
            conn.execute("PRAGMA schema_version").fetchone()
            self.damage = _quick_check(conn)
            self._migrate()
            self._check_schema()
            conn.execute("PRAGMA synchronous=FULL")  # an action that returned is on the disk
            conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as exc:
            conn.close()
            raise database_error(exc, self.path, self.timeout) from None
        except BaseException:
            conn.close()
            raise

    def _to_wal(self) -> None:
        """The WAL journal, switched on just before the first write (after every check): a read
        leaves a rollback-journal file byte for byte as it was."""
        if self._wal:
            return
        mode = self.conn.execute("PRAGMA journal_mode").fetchone()[0]
        if str(mode).lower() != "wal":
            self.conn.execute("PRAGMA journal_mode=WAL")
        self._wal = True

    def _check_schema(self) -> None:
        """Scorepad's tables as its schema made them: a dropped or renamed column, or a view in
        a table's place, is damage, said before anything is read."""
        for table, columns in TABLES.items():
            kind = self.conn.execute(
                "SELECT type FROM sqlite_master WHERE name = ?", (table,)
            ).fetchone()
            if kind is None or kind[0] != "table":
                raise self._damaged(f"{table} is not a table")
            found = {r[1] for r in self.conn.execute(f"PRAGMA table_info({table})")}
            missing = sorted(columns - found)
            if missing:
                raise self._damaged(f"{table} lacks {', '.join(missing)}")

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.conn.close()

    @contextmanager
    def _write(self) -> Iterator[None]:
        """One action, one transaction: all of it is written, or none.

        Nested in another (a club table's deal and its "to confirm" mark), it joins the outer
        transaction: the two are committed together or not at all."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        if self.damage is not None:
            raise self._damaged(self.damage)
        try:
            self._to_wal()
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise database_error(exc, self.path, self.timeout) from None
        self._depth = 1
        try:
            yield
            self.conn.execute("COMMIT")
        except BaseException as exc:
            self._live.clear()  # replays kept inside the transaction may be rolled back
            if self.conn.in_transaction:
                with suppress(sqlite3.Error):  # SQLite may have rolled back already
                    self.conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise database_error(exc, self.path, self.timeout) from None
            raise
        finally:
            self._depth = 0

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
        if self.read_only and current == 0:  # an empty SQLite file: a read makes it nothing
            raise NotFound(
                msg(
                    N_("{path} holds no Scorepad data yet; nothing was written"),
                    path=str(self.path),
                )
            )
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
        if self.read_only:
            raise NeedsMigration(
                msg(
                    N_(
                        "{path} was written by an older Scorepad (schema {found}, this one uses {known}); a read changes nothing: a command that writes, or scorepad migrate, updates it after a backup"
                    ),
                    path=str(self.path),
                    found=current,
                    known=latest,
                )
            )
        backup = None
        if current > 0:
            backup = self.backup(self.path.with_name(f"{self.path.name}.schema-{current}.bak"))
        self.migrated = (current, backup)
        self._to_wal()
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
