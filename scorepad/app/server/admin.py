"""The operator's admin page of the hosted server (``scorepad serve --admin-secret-file F``).

With no secret configured there is no admin page: ``/admin`` is what a stranger gets (the front
page).  With one, the operator types the secret at ``/admin``; it is compared in constant time
(both sides hashed first, so its length tells nothing), and wrong ones are throttled as PINs
are (per device: 5 tries, then 30 s doubling with every miss; per source address: 20 misses,
then 60 s doubling; at most an hour).  The right secret gets a **server-issued** token (128+
bits, kept in the browser); the database keeps only its hash, in its own namespace
(:func:`admin_key`: ``admin``, the secret's hash and the token), so that

- no table's PIN grant (grants.grant_key: ``server``/``table N``, a PIN, a device) ever reads as
  an admin grant, nor an admin grant as a table's: the admin page gives no PIN right at any
  table, and a phone that writes at a table has no admin page;
- a new secret (the server restarted with another file) opens nothing of the old one's grants.

Being on loopback, or behind the proxy, gives nothing here either: the secret is the only way.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ...core.i18n import N_, Msg, msg
from ...store import Store
from .access import (
    ADDRESS_TRIES,
    ADDRESS_WAIT,
    TRIES,
    WAIT,
    WAIT_MAX,
    valid_token,
)
from .grants import GRANTS, Grants
from .owners import Owners
from .throttle import Throttle

TOKEN_BYTES = 24  # 192 bits
#: Where the browser keeps its admin token (Flet's client storage).
ADMIN_KEY = "scorepad-admin"
#: The longest secret a page may send (the check hashes it: a megabyte would be hashed too).
SECRET_MAX = 1024


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def admin_key(token: str, secret: str) -> str:
    """What an admin grant is remembered as: its own namespace (``admin``), tied to the secret
    that opened it (a new secret, nothing old matches)."""
    return _sha("\0".join(("admin", _sha(secret), token)))


@dataclass
class Admin:
    """The admin secret, its throttle and its grants (one per server)."""

    secret: str
    grants: Grants
    lock: threading.RLock
    clock: Callable[[], float] = time.monotonic
    tries: int = TRIES
    wait: float = WAIT
    address_tries: int = ADDRESS_TRIES
    address_wait: float = ADDRESS_WAIT
    #: The misses of each device and address (throttle.py: the database's on a server, which
    #: every worker shares; this process's memory otherwise).
    throttle: Throttle = field(default_factory=Throttle)
    _guard: threading.Lock = field(default_factory=threading.Lock)

    def enter(self, device: str, entered: object, address: str) -> tuple[str | None, Msg | None]:
        """Check a secret typed on ``device`` from ``address``: a new admin token (the grant),
        or a refusal.  A device or address that waits is refused before any comparison."""
        if not isinstance(entered, str) or not entered.strip():
            return None, msg(N_("Type the server's admin secret: the operator configured it."))
        text = entered.strip()
        now = self.clock()
        with (
            self._guard,
            self.throttle.counting(now, f"admin device\0{device}", f"admin address\0{address}") as (
                misses,
                place,
            ),
        ):
            waits = max(misses.until, place.until)
            if waits > now:
                return None, self._waiting(waits - now)
            if len(text) <= SECRET_MAX and hmac.compare_digest(
                _sha(text).encode(), _sha(self.secret).encode()
            ):
                misses.clear()
                token = secrets.token_urlsafe(TOKEN_BYTES)
                self.grants.grant(admin_key(token, self.secret))
                return token, None
            misses.count += 1
            place.count += 1
            if place.count >= self.address_tries:
                place.until = now + min(
                    WAIT_MAX, self.address_wait * 2 ** (place.count - self.address_tries)
                )
            if misses.count >= self.tries:
                misses.until = now + min(WAIT_MAX, self.wait * 2 ** (misses.count - self.tries))
                return None, self._waiting(misses.until - now)
            return None, msg(
                N_("That is not the admin secret. Tries left on this device: {left}."),
                left=self.tries - misses.count,
            )

    def opens(self, token: object) -> bool:
        """Whether ``token`` (what a browser sent: any value) is an admin grant of this
        secret (checked in the database at every use: any worker's grant, none forged)."""
        if not valid_token(token):
            return False
        assert isinstance(token, str)
        key = admin_key(token, self.secret)
        with self.lock:
            row = self.grants.db.execute(
                f"SELECT 1 FROM {GRANTS} WHERE device = ?", [key]
            ).fetchone()
        return row is not None

    def leave(self, token: str) -> None:
        """The operator signed out on this browser: its grant is forgotten."""
        with self.lock:
            self.grants.db.execute(
                f"DELETE FROM {GRANTS} WHERE device = ?", [admin_key(token, self.secret)]
            )

    @staticmethod
    def _waiting(seconds: float) -> Msg:
        return msg(
            N_("Too many wrong secrets from this device or network: wait {s} s, then try again."),
            s=max(1, math.ceil(seconds)),
        )


def admin_delete(
    store: Store, owners: Owners, grants: Grants, sid: int, *, seen: int | None = None
) -> None:
    """A hosted game's delete (the operator's: the admin page's and ``scorepad delete``'s; and
    its owner's, on the revision ``seen`` his page showed): one transaction, the game hidden
    from every list, its owner, PIN and hand-over code forgotten, its link renewed (the phones'
    opens nothing); its record is kept."""
    with store._write():
        if seen is None:
            seen = store.load(sid).revision
        store.delete_session(sid, seen=seen)
        owners.forget(sid)
        grants.renew(sid)
