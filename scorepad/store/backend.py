"""The store's seam to its database: the few primitives the store's logic is written on, and the
two backends behind them (SQLite, the embedded default, and PostgreSQL for a server).

Everything above this seam (sessions, the journal, the directory, club nights, join links) is
written once, in portable SQL with ``?`` parameters; a backend differs only here and in the
schema's dialect functions (:mod:`scorepad.store.schema`, the one owner of every table).

- :meth:`Backend.begin` opens a write transaction that waits for every other writer of the
  database (SQLite's ``BEGIN IMMEDIATE``; on PostgreSQL a transaction-scoped advisory lock), so
  a write reads the revision and writes the action with nobody in between, as on SQLite;
- :meth:`Backend.execute` runs one statement (tuples back), :meth:`Backend.query` gives dicts;
- :meth:`Backend.insert` returns the new row's id; :meth:`Backend.upsert` writes or updates by key;
- :meth:`Backend.notify` / :meth:`Backend.listen`: a write announced to other processes (a no-op
  on SQLite, whose readers poll ``data_version``; PostgreSQL's LISTEN/NOTIFY).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable
from urllib.parse import urlsplit, urlunsplit

if TYPE_CHECKING:
    from psycopg import Connection as PgConnection

Dialect = Literal["sqlite", "postgresql"]

#: The address schemes of a PostgreSQL database (``--db postgresql://USER@HOST/DB``).
POSTGRES_SCHEMES = ("postgresql://", "postgres://")

#: The key of the advisory lock every PostgreSQL writer takes ("SCPD", as SQLite's header).
WRITE_LOCK = 0x53435044


def is_postgres(target: object) -> bool:
    """Whether a ``--db`` value names a PostgreSQL database (an address, not a path)."""
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


def redacted(url: str) -> str:
    """The address as a sentence may show it: never its password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[-1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}@{host}" if user else host))


@runtime_checkable
class Rows(Protocol):
    """What a statement gives back (a DB-API cursor)."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Backend(Protocol):
    """The seam: the smallest set of primitives the store's logic needs."""

    dialect: Dialect

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        """One statement, ``?`` for each parameter; rows as tuples."""
        ...

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """One statement's rows as dicts (column name → value)."""
        ...

    def insert(self, table: str, row: dict[str, Any]) -> int | None:
        """Insert one row; the new row's ``id`` (None for a table keyed otherwise)."""
        ...

    def upsert(self, table: str, row: dict[str, Any], pk: Sequence[str]) -> None:
        """Insert one row, or update the given columns of the row with the same key."""
        ...

    def begin(self) -> None:
        """Open a write transaction, waiting (up to the lock timeout) for every other writer."""
        ...

    def commit(self) -> None: ...

    def rollback(self) -> None: ...

    @property
    def in_transaction(self) -> bool: ...

    def tables(self) -> dict[str, str]:
        """Every table (and view) of the database: name → ``table`` or ``view``."""
        ...

    def columns(self, table: str) -> set[str]: ...

    def notify(self, channel: str, payload: str) -> None:
        """Tell other processes something changed (sent when the transaction commits)."""
        ...

    def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """Be told (``callback(payload)``) of another process's :meth:`notify`."""
        ...

    def close(self) -> None: ...


def _insert_sql(table: str, row: dict[str, Any]) -> str:
    cols = ", ".join(f'"{c}"' for c in row)
    marks = ", ".join("?" for _ in row)
    return f'INSERT INTO "{table}" ({cols}) VALUES ({marks})'


def _upsert_sql(table: str, row: dict[str, Any], pk: Sequence[str]) -> str:
    rest = [c for c in row if c not in pk]
    keys = ", ".join(f'"{c}"' for c in pk)
    update = (
        "DO UPDATE SET " + ", ".join(f'"{c}" = excluded."{c}"' for c in rest)
        if rest
        else "DO NOTHING"
    )
    return f"{_insert_sql(table, row)} ON CONFLICT ({keys}) {update}"


class SqliteBackend:
    """SQLite through the standard library's connection (sqlite-utils on top for the callers
    that use it): the embedded default, a file on the player's own computer."""

    dialect: Dialect = "sqlite"

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        return self.conn.execute(sql, tuple(params))

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        cur = self.conn.execute(sql, tuple(params))
        names = [d[0] for d in cur.description or ()]
        return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]

    def insert(self, table: str, row: dict[str, Any]) -> int | None:
        cur = self.conn.execute(_insert_sql(table, row), tuple(row.values()))
        return cur.lastrowid

    def upsert(self, table: str, row: dict[str, Any], pk: Sequence[str]) -> None:
        self.conn.execute(_upsert_sql(table, row, pk), tuple(row.values()))

    def begin(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def commit(self) -> None:
        self.conn.execute("COMMIT")

    def rollback(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")

    @property
    def in_transaction(self) -> bool:
        return self.conn.in_transaction

    def tables(self) -> dict[str, str]:
        rows = self.conn.execute(
            "SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view')"
        ).fetchall()
        return {str(r[0]): str(r[1]) for r in rows}

    def columns(self, table: str) -> set[str]:
        return {str(r[1]) for r in self.conn.execute(f'PRAGMA table_info("{table}")')}

    def notify(self, channel: str, payload: str) -> None:
        """Nothing to send: SQLite's readers see a commit by ``PRAGMA data_version``."""

    def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """Nothing to listen to on SQLite (see :meth:`notify`)."""

    def close(self) -> None:
        self.conn.close()


class PostgresBackend:
    """PostgreSQL through psycopg 3: one connection, in autocommit outside the store's own
    transactions (a read sees every committed write), ``?`` parameters rewritten as ``%s``.

    A connection the server dropped (a restart, a failover, an idle timeout) is opened again
    for the next read or the next write's ``begin``, once, where nothing can be half done: a
    transaction it cut short is refused in words and rolled back by the server."""

    dialect: Dialect = "postgresql"

    def __init__(
        self,
        url: str,
        *,
        timeout: float,
        read_only: bool,
        identity: frozenset[str],
        connect_timeout: float = 10,
    ) -> None:
        self.url = url
        #: The tables whose insert returns its row's id (the schema's ``IDENTITY_TABLES``: the
        #: schema owns every table, so it says, and the backend never imports it).
        self.identity = identity
        self.timeout = timeout
        self.read_only = read_only
        self.connect_timeout = max(1, int(connect_timeout))
        self._listeners: dict[str, Callable[[str], None]] = {}
        self._writing = False  # inside begin() ... commit()/rollback()
        self.conn: PgConnection[Any] = self._connect()

    def _connect(self) -> PgConnection[Any]:
        import psycopg
        from psycopg import sql

        conn = psycopg.connect(self.url, autocommit=True, connect_timeout=self.connect_timeout)
        if self.read_only:  # a command that reads: the server itself refuses any write
            conn.execute(b"SET default_transaction_read_only = on")
        for channel in self._listeners:
            conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
        return conn

    def _again(self, step: Callable[[], Any]) -> Any:
        """``step``, and once more on a new connection if the old one was dropped (never inside
        a write: its transaction is gone, and the caller says so)."""
        import psycopg

        try:
            return step()
        except psycopg.OperationalError:
            if self._writing or not self.conn.broken:
                raise
        self.conn.close()
        self.conn = self._connect()
        return step()

    @staticmethod
    def _sql(sql: str) -> str:
        # The store's SQL holds no literal "?" or "%": each "?" is a parameter.
        return sql.replace("%", "%%").replace("?", "%s")

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        if not params:
            return self._again(lambda: self.conn.execute(sql.encode()))  # type: ignore[no-any-return]
        text = self._sql(sql).encode()
        return self._again(lambda: self.conn.execute(text, tuple(params)))  # type: ignore[no-any-return]

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        from psycopg.rows import dict_row

        def run() -> list[dict[str, Any]]:
            with self.conn.cursor(row_factory=dict_row) as cur:
                if params:
                    cur.execute(self._sql(sql).encode(), tuple(params))
                else:
                    cur.execute(sql.encode())
                return list(cur.fetchall())

        return self._again(run)  # type: ignore[no-any-return]

    def insert(self, table: str, row: dict[str, Any]) -> int | None:
        sql = _insert_sql(table, row)
        if table not in self.identity:
            self.execute(sql, tuple(row.values()))
            return None
        found = self.execute(sql + ' RETURNING "id"', tuple(row.values())).fetchone()
        return int(found[0])

    def upsert(self, table: str, row: dict[str, Any], pk: Sequence[str]) -> None:
        self.execute(_upsert_sql(table, row, pk), tuple(row.values()))

    def begin(self) -> None:
        self._again(lambda: self.conn.execute(b"BEGIN"))
        self._writing = True
        try:
            # Waits for the writer before it, as SQLite's BEGIN IMMEDIATE does, as long as
            # SQLite would (LOCK_TIMEOUT); then refused in words, nothing written.
            self.conn.execute(f"SET LOCAL lock_timeout = {int(self.timeout * 1000)}".encode())
            self.conn.execute(f"SELECT pg_advisory_xact_lock({WRITE_LOCK})".encode())
        except BaseException:
            self.rollback()
            raise

    def commit(self) -> None:
        try:
            self.conn.execute(b"COMMIT")
        finally:
            self._writing = False

    def rollback(self) -> None:
        self._writing = False
        if self.in_transaction and not self.conn.broken:
            self.conn.execute(b"ROLLBACK")

    @property
    def in_transaction(self) -> bool:
        from psycopg.pq import TransactionStatus

        return self.conn.info.transaction_status != TransactionStatus.IDLE

    def tables(self) -> dict[str, str]:
        rows = self.conn.execute(
            b"SELECT table_name, table_type FROM information_schema.tables "
            b"WHERE table_schema = current_schema()"
        ).fetchall()
        return {str(r[0]): "view" if r[1] == "VIEW" else "table" for r in rows}

    def columns(self, table: str) -> set[str]:
        rows = self.conn.execute(
            b"SELECT column_name FROM information_schema.columns "
            b"WHERE table_schema = current_schema() AND table_name = %s",
            (table,),
        ).fetchall()
        return {str(r[0]) for r in rows}

    def notify(self, channel: str, payload: str) -> None:
        self.conn.execute(b"SELECT pg_notify(%s, %s)", (channel, payload))

    def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """Registers ``callback``; :meth:`poll` delivers what arrived (a server's worker calls
        it from its own loop; this connection stays the store's)."""
        from psycopg import sql

        self.conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
        self._listeners[channel] = callback

    def poll(self, timeout: float = 0.05) -> int:
        """Deliver the notifications that arrived (waiting up to ``timeout`` seconds for them);
        how many were delivered."""
        n = 0
        for note in self.conn.notifies(timeout=timeout):
            handler = self._listeners.get(note.channel)
            if handler is not None:
                handler(note.payload)
                n += 1
        return n

    def close(self) -> None:
        self.conn.close()
