"""What the store refuses, in words: nothing was written (the errors and their sentences)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..core.i18n import N_, Msg, ScorepadError, msg
from ..scoring.pulya.session import (
    Problem,
    quote,
)


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


class NeedsMigration(StoreError):
    """A read met a database of an older schema: it is not migrated by a read."""


class Damaged(NotScorepad):
    """The database is damaged: it is not written to; the message points to the latest backup."""


class DamagedSession(StoreError):
    """One session's rows do not pass the checks (hand-edited, scribbled): it is not read or
    written; the database's other sessions are."""


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

    def said(self, lang: str = "en") -> str:
        """The refusal as the player who tried the write reads it on his screen: each deal by
        its number and each field in words, never a field's name in the file (issue 38 item 2;
        ``render`` keeps the file's names for the command line)."""
        head = self.message.render(lang)
        return "\n".join([head, *(p.said().render(lang) for p in self.problems)])


def os_error(exc: OSError, path: Path) -> StoreError:
    return Unavailable(
        msg(
            N_("cannot use {path} for the database: {reason}"),
            path=str(exc.filename or path),
            reason=exc.strerror or type(exc).__name__,
        )
    )


def latest_backup(path: Path | str) -> Path | None:
    """The newest backup Scorepad wrote of ``path`` (``NAME.*.bak`` beside it), if any (none
    of a PostgreSQL database, named by its address: its backups are its operator's)."""
    if not isinstance(path, Path):
        return None
    try:
        found = [p for p in path.parent.glob(f"{path.name}.*.bak") if p.is_file()]
    except OSError:
        return None
    return max(found, key=lambda p: p.stat().st_mtime, default=None)


def damaged(path: Path | str, detail: str) -> Damaged:
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


def damaged_session(path: Path | str, sid: int, detail: Msg, seq: object = None) -> DamagedSession:
    """A sentence naming the database, the session and, where known, the action that fails.

    ``seq`` is read from the damaged row: what is not a whole number is quoted short and
    escaped (a bidi override written there never reaches the terminal as it is)."""
    if seq is None:
        head = msg(
            N_("{path}: session {id} is damaged ({detail}); nothing was written"),
            path=str(path),
            id=sid,
            detail=detail,
        )
    else:
        head = msg(
            N_("{path}: session {id} is damaged at action {seq} ({detail}); nothing was written"),
            path=str(path),
            id=sid,
            seq=seq if type(seq) is int else quote(str(seq)),
            detail=detail,
        )
    backup = latest_backup(path)
    if backup is None:
        return DamagedSession(head)
    return DamagedSession(
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
        return damaged(path, str(exc))
    if name.startswith("SQLITE_CANTOPEN"):
        return Unavailable(msg(N_("cannot open {path}"), path=where))
    return Unavailable(
        msg(
            N_("the database {path} failed ({reason}); nothing was written"),
            path=where,
            reason=_sqlite_reason(name),
        )
    )


#: What SQLite's result codes mean, in words (a code like SQLITE_IOERR_SHMSIZE is no sentence).
_SQLITE_REASONS = (
    ("SQLITE_IOERR", N_("a read or write of the disk failed")),
    ("SQLITE_NOMEM", N_("out of memory")),
    ("SQLITE_INTERRUPT", N_("interrupted")),
    ("SQLITE_TOOBIG", N_("a value too large for the database")),
    ("SQLITE_CONSTRAINT", N_("a rule of the database refused it")),
    ("SQLITE_PROTOCOL", N_("another program's lock got in the way")),
)


def _sqlite_reason(name: str) -> Msg:
    for prefix, words in _SQLITE_REASONS:
        if name.startswith(prefix):
            return msg(words)
    return msg(N_("an error inside SQLite"))


def postgres_error(exc: BaseException, where: str, timeout: float) -> StoreError:
    """A sentence for what PostgreSQL (or the way to it) refused; nothing was written: the
    transaction is gone.  ``where`` is the address without its password."""
    import psycopg
    from psycopg import errors as pg

    if isinstance(exc, pg.LockNotAvailable | pg.QueryCanceled):  # the writer's lock_timeout
        return Unavailable(
            msg(
                N_(
                    "{path} is locked by another program (waited {seconds} s); nothing was written: try again"
                ),
                path=where,
                seconds=int(timeout) if timeout >= 1 else round(timeout, 1),
            )
        )
    if isinstance(exc, pg.DiskFull):
        return Unavailable(msg(N_("the disk is full: nothing was written to {path}"), path=where))
    if isinstance(exc, pg.ReadOnlySqlTransaction | pg.InsufficientPrivilege):
        return Unavailable(msg(N_("{path} is read-only: nothing was written"), path=where))
    if isinstance(exc, psycopg.IntegrityError):
        reason = msg(N_("a rule of the database refused it"))
    elif isinstance(exc, psycopg.OperationalError):  # the server gone, or never reached
        return Unavailable(msg(N_("cannot open {path}"), path=where))
    else:
        reason = msg(N_("an error inside the database server"))
    return Unavailable(
        msg(
            N_("the database {path} failed ({reason}); nothing was written"),
            path=where,
            reason=reason,
        )
    )
