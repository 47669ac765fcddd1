"""The device tokens a server issues, signed so that every worker of one database knows them.

A browser's device token (kept in its storage: what a PIN grant and a club table's "who am I"
are remembered for) is taken only if this server issued it; any other is replaced, so that a
device cannot pass itself off as one that was at the table before.  One process remembers the
tokens it issued; several workers (or one restarted) would not know each other's, and a phone
whose page reached another worker would get a new token and lose its grants.  So a server on a
shared database signs its tokens: 96 random bits and an HMAC-SHA256 of them (128 bits shown)
under a key kept in the database (``server_keys``, migration 12), made by the first worker that
asks and read by every other.  The key tells nothing of any grant (a grant is a SHA-256 of the
device's whole token, its PIN and its table): it only says "issued here".

The table is the schema's (:mod:`scorepad.store.schema`): nothing is created here.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading

from ...store import Store

KEYS = "server_keys"
_RANDOM = 16  # characters of token_urlsafe(12): 96 bits
_MAC = 22  # characters of the signature: 128 bits


def device_key(store: Store, lock: threading.RLock) -> bytes:
    """The database's key for device tokens (made once, by whichever worker asks first)."""
    with lock:
        store.backend.execute(
            f"INSERT INTO {KEYS} (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
            ["device", secrets.token_hex(32)],
        )
        row = store.backend.execute(
            f"SELECT value FROM {KEYS} WHERE name = ?", ["device"]
        ).fetchone()
    return bytes.fromhex(str(row[0]))


def _mac(key: bytes, random: str) -> str:
    digest = hmac.new(key, random.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:_MAC]


def signed_token(key: bytes) -> str:
    """A new device token signed with ``key`` (38 characters of the token alphabet)."""
    random = secrets.token_urlsafe(12)
    return random + _mac(key, random)


def issued(key: bytes, token: str) -> bool:
    """Whether ``token`` was signed with ``key`` (compared in constant time)."""
    if len(token) != _RANDOM + _MAC:
        return False
    return hmac.compare_digest(_mac(key, token[:_RANDOM]), token[_RANDOM:])


__all__ = ["KEYS", "device_key", "issued", "signed_token"]
