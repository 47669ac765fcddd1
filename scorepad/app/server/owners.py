"""Who owns a table on the hosted server (``scorepad serve``): what the database keeps of it.

A phone that starts a game there is its **owner**: the server issues a secret of 128 random bits
(``secrets.token_urlsafe(16)``), the browser keeps it, and the database keeps only its SHA-256
(``table_owners.secret``: a stolen database names no owner, and 128 random bits leave nothing to
guess, so no salt is needed).  A value the browser sends is only ever compared with that hash
(in constant time); the browser never chooses a secret.  Each table has its own PIN, which its
phones type to write (``table_owners.pin``, shown to the owner).

Handing the table (or a club night: ``night_owners``, the same way) over: the owner asks for a
one-time code (kept hashed, ``handover``); the browser that opens it gets a new secret, and the
old owner's stops working.

The tables are the schema's (migrations 8, 9 and 12, :mod:`scorepad.store.schema`): nothing is
created here.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import threading
import time

from ...store import Store
from ...store.backend import Backend
from .access import generate_pin
from .grants import GRANTS

SECRET_BYTES = 16  # 128 bits
OWNERS = "table_owners"
PIN_GRANTS = "table_pin_grants"
CREATIONS = "table_creations"
NIGHTS = "night_owners"
#: What a browser may own, by kind: the table that holds its owner's secret, and its key.
_OWNED = {"table": (OWNERS, "session"), "night": (NIGHTS, "night")}
#: Tables one address may start within an hour (docs/safety.md).
CREATIONS_PER_HOUR = 10
HOUR = 3600.0


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def address_key(address: str) -> str:
    """What the creation limit counts: an IPv4 address, or an IPv6 address's /64 (one phone's
    network hands it a whole /64), hashed (the database keeps no address)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return digest("unknown:" + address)
    if isinstance(ip, ipaddress.IPv6Address):
        mapped = ip.ipv4_mapped
        if mapped is not None:
            ip = mapped
        else:
            return digest(str(ipaddress.ip_network(f"{ip}/64", strict=False)))
    return digest(str(ip))


class Owners:
    """The owners, PINs and hand-over codes of one database's hosted tables."""

    def __init__(self, store: Store | Backend, lock: threading.RLock) -> None:
        self.db: Backend = store.backend if isinstance(store, Store) else store
        self.lock = lock

    # --- owning ------------------------------------------------------------------------------

    def issue(self, sid: int) -> tuple[str, str]:
        """Session ``sid`` gets an owner: its secret (for the browser alone) and its PIN."""
        secret = secrets.token_urlsafe(SECRET_BYTES)
        pin = generate_pin()
        with self.lock:
            self.db.execute(
                f"INSERT INTO {OWNERS} (session, secret, pin, created) VALUES (?, ?, ?, ?)",
                [sid, digest(secret), pin, time.time()],
            )
        return secret, pin

    def owns(self, sid: int, secret: object) -> bool:
        """Whether ``secret`` (what a browser sent: any value) is session ``sid``'s owner's."""
        return self._holds("table", sid, secret)

    def _holds(self, kind: str, key: int, secret: object) -> bool:
        """Whether ``secret`` is the owner's of table or night ``key`` (``kind``: _OWNED)."""
        if not isinstance(secret, str) or not 16 <= len(secret) <= 64:
            return False
        table, column = _OWNED[kind]
        with self.lock:
            row = self.db.execute(
                f"SELECT secret FROM {table} WHERE {column} = ?", [key]
            ).fetchone()
        return row is not None and hmac.compare_digest(str(row[0]), digest(secret))

    def pin(self, sid: int | None) -> str | None:
        """Session ``sid``'s own PIN; None for a session nobody owns (it opens to no phone)."""
        if sid is None:
            return None
        with self.lock:
            row = self.db.execute(f"SELECT pin FROM {OWNERS} WHERE session = ?", [sid]).fetchone()
        return None if row is None else str(row[0])

    def handover_code(self, key: int, secret: str, *, kind: str = "table") -> str | None:
        """A one-time code that hands table (or club night, ``kind``) ``key`` to the browser
        that opens it (None: not the owner).  A newer code replaces the one before."""
        if not self._holds(kind, key, secret):
            return None
        code = secrets.token_urlsafe(SECRET_BYTES)
        table, column = _OWNED[kind]
        with self.lock:
            self.db.execute(
                f"UPDATE {table} SET handover = ? WHERE {column} = ?", [digest(code), key]
            )
        return code

    def take(self, key: int, code: object, *, kind: str = "table") -> str | None:
        """The browser that opened the hand-over code becomes the owner: its new secret, or
        None when the code opens nothing (used, replaced, or never issued).  The old secret,
        and the code, stop working in the same statement."""
        if not isinstance(code, str) or not 16 <= len(code) <= 64:
            return None
        secret = secrets.token_urlsafe(SECRET_BYTES)
        table, column = _OWNED[kind]
        with self.lock:
            done = self.db.execute(
                f"UPDATE {table} SET secret = ?, handover = NULL "
                f"WHERE {column} = ? AND handover = ?",
                [digest(secret), key, digest(code)],
            ).rowcount
        return secret if done == 1 else None

    def forget(self, sid: int) -> None:
        """The table is gone (its owner deleted it): no secret, PIN or code opens it."""
        with self.lock:
            self.db.execute(f"DELETE FROM {OWNERS} WHERE session = ?", [sid])

    # --- club nights ---------------------------------------------------------------------------

    def issue_night(self, nid: int) -> str:
        """Club night ``nid`` gets an owner (its director): the secret, for the browser alone."""
        secret = secrets.token_urlsafe(SECRET_BYTES)
        with self.lock:
            self.db.execute(
                f"INSERT INTO {NIGHTS} (night, secret, created) VALUES (?, ?, ?)",
                [nid, digest(secret), time.time()],
            )
        return secret

    def directs(self, nid: int, secret: object) -> bool:
        """Whether ``secret`` (what a browser sent: any value) is night ``nid``'s owner's."""
        return self._holds("night", nid, secret)

    def night_of(self, sid: int) -> int | None:
        """The club night whose table session ``sid`` is (None: not a club table): its owner
        corrects the table's deals."""
        with self.lock:
            row = self.db.execute(
                "SELECT night_id FROM night_tables WHERE session_id = ?", [sid]
            ).fetchone()
        return None if row is None else int(row[0])

    # --- the table's phones ------------------------------------------------------------------

    def granted(self, key: str) -> bool:
        """Whether a PIN grant (grants.grant_key) is in the database (any worker's)."""
        with self.lock:
            row = self.db.execute(f"SELECT 1 FROM {GRANTS} WHERE device = ?", [key]).fetchone()
        return row is not None

    def note_grant(self, key: str, sid: int) -> None:
        with self.lock:
            self.db.upsert(PIN_GRANTS, {"device": key, "session": sid}, ("device",))

    def forget_phones(self, sid: int) -> set[str]:
        """Every phone of ``sid`` types its PIN again; the grants forgotten (the other tables'
        phones keep theirs)."""
        with self.lock:
            self.db.begin()
            try:
                keys = {
                    str(r[0])
                    for r in self.db.execute(
                        f"SELECT device FROM {PIN_GRANTS} WHERE session = ?", [sid]
                    )
                }
                for key in keys:
                    self.db.execute(f"DELETE FROM {GRANTS} WHERE device = ?", [key])
                self.db.execute(f"DELETE FROM {PIN_GRANTS} WHERE session = ?", [sid])
                self.db.commit()
            except BaseException:
                self.db.rollback()
                raise
        return keys

    # --- the creation limit ------------------------------------------------------------------

    def take_creation(
        self, address: str, *, limit: int = CREATIONS_PER_HOUR, now: float | None = None
    ) -> bool:
        """Count one new table for ``address``: False (nothing counted) when it has made
        ``limit`` within the hour.  One transaction: two workers cannot both take the last."""
        at = time.time() if now is None else now
        key = address_key(address)
        with self.lock:
            self.db.begin()
            try:
                self.db.execute(f"DELETE FROM {CREATIONS} WHERE at <= ?", [at - HOUR])
                made = self.db.execute(
                    f"SELECT count(*) FROM {CREATIONS} WHERE address = ?", [key]
                ).fetchone()[0]
                if int(made) >= limit:
                    self.db.commit()
                    return False
                self.db.execute(f"INSERT INTO {CREATIONS} (address, at) VALUES (?, ?)", [key, at])
                self.db.commit()
            except BaseException:
                self.db.rollback()
                raise
        return True
