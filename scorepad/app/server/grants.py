"""What the table remembers across server restarts: which devices gave the PIN, and each
session's join link.

Both live in small tables of the Scorepad database itself (the store's own connection, through
its seam: :mod:`scorepad.store.backend`; the tables are the schema's): ``table_grants`` holds a SHA-256 of each grant (:func:`grant_key`: the kind of
grant, the PIN it was given for and the device token; a stolen database names no device, and
without the device's token no PIN can be tried against it), ``table_links`` the random token of each session's join link,
``table_next`` the sessions whose phones the host lets start the next pulka, ``table_moves``
which pulka a table went on to (its link followed).
A device token and a link token are both ``secrets.token_urlsafe`` values of 128 bits or more,
so a hash without salt is enough: there is nothing small to guess.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time

from sqlite_utils import Database

from ...store import Store
from ...store.actions import WRITTEN
from ...store.backend import Backend, SqliteBackend

LINK_BYTES = 16  # 128 bits: a join link cannot be guessed nor walked like /join/1, /join/2...
GRANTS = "table_grants"
LINKS = "table_links"
NEXT = "table_next"  # the sessions whose phones may start the next pulka (the host's switch)
MOVES = "table_moves"  # a table's pulka → the next one started at it (its link went there)


def grant_key(device: str, pin: str, sid: int | None = None) -> str:
    """What a device that gave ``pin`` is remembered as: the server's PIN (``sid`` None) or
    session ``sid``'s own (a club table's).  Each kind in its own namespace (a table's grant
    never reads as the server's, whatever a device token holds), and tied to the PIN it was
    given for: with another PIN after a restart, nothing old matches."""
    kind = "server" if sid is None else f"table {sid}"
    return hashlib.sha256("\0".join((kind, pin, device)).encode()).hexdigest()


def _backend(db: Database | Backend | Store) -> Backend:
    """The store's seam, whatever the caller holds: the store, its seam, or (as the callers
    written before the seam do) its sqlite-utils database."""
    if isinstance(db, Database):
        return SqliteBackend(db.conn)
    if isinstance(db, Store):
        return db.backend
    return db


class Grants:
    """The PIN grants and join links of one database (one per server).  Their tables are the
    schema's (:mod:`scorepad.store.schema`): nothing is created here."""

    def __init__(self, db: Database | Backend | Store, lock: threading.RLock) -> None:
        self.db = _backend(db)
        self.lock = lock

    # --- the PIN ----------------------------------------------------------------------------

    def granted(self) -> set[str]:
        """Every grant's key (:func:`grant_key`; read once, when the server starts)."""
        with self.lock:
            return {str(r[0]) for r in self.db.execute(f"SELECT device FROM {GRANTS}")}

    def grant(self, key: str) -> None:
        """Remember a grant by its key (:func:`grant_key`)."""
        with self.lock:
            self.db.upsert(GRANTS, {"device": key, "granted": time.time()}, ("device",))

    def has(self, key: str) -> bool:
        """Whether a grant is remembered (asked of the database: another worker may have made
        it, or forgotten every grant, since this one started)."""
        with self.lock:
            row = self.db.execute(f"SELECT 1 FROM {GRANTS} WHERE device = ?", [key]).fetchone()
        return row is not None

    def revoke_all(self) -> int:
        """Forget every device's PIN: each must type it again to write."""
        with self.lock:
            return self.db.execute(f"DELETE FROM {GRANTS}").rowcount

    # --- join links ------------------------------------------------------------------------

    def link(self, sid: int) -> str:
        """The token of session ``sid``'s join link (made the first time it is asked for)."""
        with self.lock:
            # One statement makes it or keeps the one there: two askers get the same link.
            self.db.execute(
                f"INSERT INTO {LINKS} (session, token) VALUES (?, ?) "
                "ON CONFLICT (session) DO NOTHING",
                [sid, secrets.token_urlsafe(LINK_BYTES)],
            )
            row = self.db.execute(f"SELECT token FROM {LINKS} WHERE session = ?", [sid]).fetchone()
            return str(row[0])

    def renew(self, sid: int) -> str:
        """A new link for ``sid``: the old one opens nothing from now on."""
        token = secrets.token_urlsafe(LINK_BYTES)
        with self.lock:
            self.db.upsert(LINKS, {"session": sid, "token": token}, ("session",))
            # The other workers shut their pages of the old link (listen.py; once committed).
            self.db.notify(WRITTEN, f"link {sid}")
        return token

    def followed(self, sid: int, token: str) -> int | None:
        """The pulka the table of ``sid`` plays now, when ``token`` opens it: a link or a tab of
        an earlier pulka of the same table lands on the game being played.  None otherwise (a
        link names nothing it does not open: another session's number with this token is no
        way in)."""
        seen: set[int] = set()
        with self.lock:
            while sid not in seen:
                seen.add(sid)
                row = self.db.execute(
                    f"SELECT next FROM {MOVES} WHERE session = ?", [sid]
                ).fetchone()
                if row is None:
                    return None
                sid = int(row[0])
                if self.opens(sid, token):
                    return sid
        return None

    # --- the next pulka ----------------------------------------------------------------------

    def next_allowed(self, sid: int) -> bool:
        """Whether the host lets the phones of session ``sid`` start the next pulka (off unless
        the host turned it on)."""
        with self.lock:
            row = self.db.execute(f"SELECT 1 FROM {NEXT} WHERE session = ?", [sid]).fetchone()
        return row is not None

    def allow_next(self, sid: int, allowed: bool) -> None:
        with self.lock:
            if allowed:
                self.db.execute(
                    f"INSERT INTO {NEXT} (session) VALUES (?) ON CONFLICT (session) DO NOTHING",
                    [sid],
                )
            else:
                self.db.execute(f"DELETE FROM {NEXT} WHERE session = ?", [sid])

    def move_table(self, old: int, new: int) -> None:
        """The table plays on in session ``new``: it takes ``old``'s join link and switch.

        The link moves rather than a new one being made: the code on the host's screen (or on
        paper on the table) keeps opening the game being played, a phone that reloads lands on
        it, and nobody has to scan again between two pulkas.  ``old`` gets a fresh token that
        nobody holds: its sheet stays with the host, who may share it again."""
        with self.lock:
            token = self.link(old)
            # One transaction: the link, the move and the switch, or none of them.
            self.db.begin()
            try:
                for sid, value in ((old, secrets.token_urlsafe(LINK_BYTES)), (new, token)):
                    self.db.upsert(LINKS, {"session": sid, "token": value}, ("session",))
                self.db.upsert(MOVES, {"session": old, "next": new}, ("session",))
                self.db.execute(
                    f"INSERT INTO {NEXT} (session) "
                    f"SELECT ? WHERE EXISTS (SELECT 1 FROM {NEXT} WHERE session = ?) "
                    "ON CONFLICT (session) DO NOTHING",
                    [new, old],
                )
                self.db.notify(WRITTEN, f"moved {old} {new}")  # the other workers' phones follow
                self.db.commit()
            except BaseException:
                self.db.rollback()
                raise

    def opens(self, sid: int, token: str) -> bool:
        with self.lock:
            row = self.db.execute(f"SELECT token FROM {LINKS} WHERE session = ?", [sid]).fetchone()
        return row is not None and hmac.compare_digest(str(row[0]).encode(), token.encode())
