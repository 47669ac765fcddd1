"""The store: every session and every action kept in SQLite, forever (sqlite-utils), or in a
PostgreSQL database for a server (the same logic behind one seam: :mod:`.backend`).

- The journal of actions (:mod:`scorepad.store.journal`) is the only source of truth; the sheet is
  always derived from it by the scoring engine.  The ``actions`` table is append-only, and the
  database itself refuses an UPDATE or DELETE of it.
- One transaction per action (``BEGIN IMMEDIATE``), WAL journal, synchronous commits: an action
  whose call returned survives a crash, a kill or a power loss; a half action never exists.
- Every write names the revision it saw; a stale write is refused with what changed since.
- The schema version is recorded in the database (``_migrations``); a backup copy is written
  before any migration; a database newer than the code is refused, as is a non-Scorepad file.
"""

from __future__ import annotations

from pathlib import Path

from ..scoring.pulya.session import MAX_REASON
from .actions import AnyDeal, describe_action
from .errors import (
    Damaged,
    DamagedSession,
    InvalidEntry,
    NeedsMigration,
    NotFound,
    NotScorepad,
    SchemaTooNew,
    StaleRevision,
    StoreError,
    Unavailable,
    database_error,
    latest_backup,
)
from .files import Files
from .journal import ActionKind
from .reading import AnyStored, LedgerStored, PulyaStored, SessionSummary, Stored
from .schema import APPLICATION_ID, LOCK_TIMEOUT, MIGRATIONS, default_path, now, schema_version


class Store(Files):
    """A Scorepad database.  Use as a context manager, or call :meth:`close`."""


def open_store(
    target: str | Path,
    *,
    create: bool = True,
    read_only: bool = False,
    timeout: float | None = None,
) -> Store:
    """The store at ``target``: a SQLite file's path (the embedded default) or a PostgreSQL
    address (``postgresql://USER@HOST/DB``); the same store either way."""
    return Store(target, create=create, read_only=read_only, timeout=timeout)


__all__ = [
    "APPLICATION_ID",
    "LOCK_TIMEOUT",
    "MAX_REASON",
    "MIGRATIONS",
    "ActionKind",
    "AnyDeal",
    "AnyStored",
    "Damaged",
    "DamagedSession",
    "InvalidEntry",
    "LedgerStored",
    "NeedsMigration",
    "NotFound",
    "NotScorepad",
    "PulyaStored",
    "SchemaTooNew",
    "SessionSummary",
    "StaleRevision",
    "Store",
    "StoreError",
    "Stored",
    "Unavailable",
    "database_error",
    "default_path",
    "describe_action",
    "latest_backup",
    "now",
    "open_store",
    "schema_version",
]
