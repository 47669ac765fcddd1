"""What the ``scorepad`` commands share: reading an input file, opening the database (and
forgetting one a refused command created), writing an export beside it, and saying a refusal.

Every command module imports these from here, never from another command module, so the
package has no import circle: ``scorepad.cli`` (the parser and ``main``) imports the command
groups, and they import this module.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sqlite3
import stat
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.i18n import N_, ScorepadError, msg

if TYPE_CHECKING:
    from ..store import Store


EXIT_INVALID = 2


#: The largest input file read: a session of the longest evening is well under 1 MB.
MAX_INPUT = 16 * 1024 * 1024


def fail(lines: Sequence[str]) -> int:
    for line in lines:
        print(line, file=sys.stderr)
    return EXIT_INVALID


class Refused(ScorepadError):
    """A command cannot run: ``message`` says why (exit status 2, nothing on stdout)."""


def _too_big(path: str) -> Refused:
    return Refused(
        msg(
            N_("{path} is larger than {limit} MB: it is not a Scorepad file"),
            path=path,
            limit=MAX_INPUT // (1024 * 1024),
        )
    )


def read_input(path: str) -> bytes:
    """An input file, read whole: only a regular file (or standard input) of at most 16 MB."""
    shown = path if path.isprintable() else repr(path)[1:-1]  # a path never drives the terminal
    if path == "-":
        data = sys.stdin.buffer.read(MAX_INPUT + 1)
        if len(data) > MAX_INPUT:
            raise _too_big("-")
        return _as_utf8(data, "-")
    try:
        # Non-blocking, so a FIFO is refused at once instead of waiting for a writer.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise Refused(
            msg(N_("cannot read {path}: {reason}"), path=shown, reason=exc.strerror or str(exc))
        ) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):  # a folder, a device, a FIFO: before fdopen refuses it
        os.close(fd)
        if stat.S_ISDIR(info.st_mode):
            raise Refused(msg(N_("{path} is a folder, not a file"), path=shown))
        raise Refused(msg(N_("{path} is not a regular file"), path=shown))
    with os.fdopen(fd, "rb") as f:
        if info.st_size > MAX_INPUT:
            raise _too_big(path)
        try:
            data = f.read(MAX_INPUT + 1)
        except OSError as exc:
            raise Refused(
                msg(N_("cannot read {path}: {reason}"), path=path, reason=exc.strerror or str(exc))
            ) from None
    if len(data) > MAX_INPUT:  # it grew while we looked
        raise _too_big(path)
    return _as_utf8(data, shown)


def _as_utf8(data: bytes, shown: str) -> bytes:
    """Every input as UTF-8: one saved with a BOM, or as UTF-16 or UTF-32 (as some editors on
    Windows save), is decoded by its BOM or its zero bytes (JSON's own rule, which the club
    file's reader follows too), whatever the locale."""
    encoding = json.detect_encoding(data)
    if encoding == "utf-8":
        return data
    try:
        return data.decode(encoding).encode("utf-8")
    except UnicodeError:
        raise Refused(
            msg(
                N_(
                    "{path} is not text in UTF-8 (nor in the {encoding} it starts like): save it as UTF-8"
                ),
                path=shown,
                encoding=encoding.upper().removesuffix("-SIG"),
            )
        ) from None


#: The database a command opened (the last-resort sentence names it).
opened: list[Path | str] = []


#: A database a write command is about to create, and the folders it makes for it: a refused
#: command leaves neither behind (see :func:`forget_created`).
creating: list[tuple[Path, list[Path]]] = []


def note_creation(path: Path) -> None:
    if path.exists() or path.is_symlink():
        return
    missing = [p for p in (path.parent, *path.parent.parents) if not p.exists()]
    creating.append((path, missing))


def forget_created() -> None:
    """A refused write command created the database (and its folders) only to refuse: they are
    removed, if nothing was written to them meanwhile (every table empty)."""
    while creating:
        path, folders = creating.pop()
        if not path.is_file() or not _holds_nothing(path):
            continue
        for end in ("", "-wal", "-shm", "-journal"):
            with contextlib.suppress(OSError):
                Path(str(path) + end).unlink()
        for folder in folders:  # the deepest first; one that holds anything stays
            with contextlib.suppress(OSError):
                folder.rmdir()


def _holds_nothing(path: Path) -> bool:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        return False
    try:
        tables = [
            r[0]
            for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if r[0] != "_migrations" and not r[0].startswith("sqlite_")
        ]
        return all(conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] == 0 for t in tables)
    except sqlite3.Error:
        return False
    finally:
        conn.close()


def database_of(args: argparse.Namespace) -> Path | str:
    """The database: --db, else SCOREPAD_DB (a path or a PostgreSQL address), else the user's."""
    from ..store import default_path

    env = os.environ.get("SCOREPAD_DB")
    if args.db is None and env and is_postgres(env):
        return env
    return args.db or default_path()


def open_database(
    args: argparse.Namespace, *, create: bool = True, read_only: bool | None = None
) -> Store:
    """The database; a command that only reads passes ``create=False``: it creates nothing (no
    file, no folder), SQLite opens the file read-only (no migration, no checkpoint) and leaves
    it byte for byte as it was.  ``read_only=False`` with it: a command that writes only to a
    database that exists (``club pdf`` mints a table's link)."""
    from ..store import Store

    path = database_of(args)
    if not isinstance(path, Path):  # a server's database: named without its password
        from ..store.backend import redacted

        opened.append(redacted(str(path)))
        return Store(
            str(path), create=create, read_only=not create if read_only is None else read_only
        )
    opened.append(path)
    if create:
        note_creation(path)
    return Store(path, create=create, read_only=not create if read_only is None else read_only)


def is_postgres(value: object) -> bool:
    """A PostgreSQL address (as :func:`scorepad.store.backend.is_postgres`, without importing
    the store before a command needs it)."""
    return isinstance(value, str) and value.startswith(("postgresql://", "postgres://"))


def _database_files(db: Path) -> list[Path]:
    """The database, its SQLite companions and Scorepad's backups of it."""
    names = [db.name, *(db.name + end for end in ("-wal", "-shm", "-journal"))]
    files = [db.with_name(n) for n in names]
    with contextlib.suppress(OSError):
        files += sorted(db.parent.glob(f"{db.name}.*.bak"))
    return files


def is_database_file(target: Path, db: Path | str) -> bool:
    # Compare resolved paths (symlinks, "..") and the inode (hard links) of what exists.
    if not isinstance(db, Path):  # a PostgreSQL database has no file an export could hit
        return False
    try:
        resolved = target.resolve()
        real_db = db.resolve()
    except (OSError, RuntimeError):  # a symlink loop: it is no file, and writing it fails
        return False
    name = resolved.name
    if (
        resolved.parent == real_db.parent
        and name.startswith(real_db.name + ".")
        and name.endswith(".bak")
    ):
        return True
    for f in _database_files(db):
        if resolved == f.resolve():
            return True
        try:
            if os.path.samefile(target, f):
                return True
        except OSError:
            continue
    return False


def write_export(target: Path, text: str | bytes, *, db: Path | str, force: bool) -> None:
    if is_database_file(target, db):
        raise Refused(
            msg(
                N_("{path} is the database or one of its files: the export was not written"),
                path=str(target),
            )
        )
    data = text.encode("utf-8") if isinstance(text, str) else text  # a PDF is bytes already
    try:
        if not force:
            # O_EXCL: an existing file is never overwritten, even one created a moment ago.
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            return
        if target.is_dir():
            raise IsADirectoryError(21, os.strerror(21), str(target))
        # --force: a whole new file takes the old one's place, never half of one.
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except FileExistsError:
        raise Refused(
            msg(N_("{path} exists: add --force to overwrite it"), path=str(target))
        ) from None
    except OSError as exc:
        raise Refused(
            msg(
                N_("cannot write {path}: {reason}"),
                path=str(target),
                reason=exc.strerror or str(exc),
            )
        ) from None
