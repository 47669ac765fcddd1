"""The league's door on ``scorepad serve`` (issue #39): ``POST /league/publish``, where a club
sends an ended night (docs/league.md).

- The club's secret is the bearer token (``Authorization: Bearer SECRET``); the league keeps
  only its hash (:class:`scorepad.league.store.LeagueStore`).
- The body is the ``scorepad-club/1`` document itself, byte for byte; the club's words for a
  correction are the ``change`` query parameter (percent-encoded UTF-8).
- The body's size is checked before it is read: a ``Content-Length`` is required, at most a club
  file's limit (:data:`scorepad.club.file.MAX_FILE`), and no more than it said is read.  The
  whole body must arrive within :data:`READ_WITHIN` seconds.
- Wrong secrets are throttled per source address as wrong PINs are (docs/safety.md): 20, then
  the address waits 60 s, doubled with every further miss, at most an hour (``429``, which a
  club's outbox takes as "try again later"); while it waits even the right secret is refused.
- The night is checked in full and taken in one transaction, in a thread (the server's loop
  keeps serving its pages); the answer is JSON: ``{"night", "version", "new"}``, or
  ``{"refused": SENTENCE}`` in the language the club asked for (``Accept-Language``).
"""

from __future__ import annotations

import asyncio
import json
import math
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

from ...club.file import MAX_FILE
from ...core.i18n import LANGUAGES, N_, Msg, catalog, msg
from ...league.store import LeagueError, LeagueStore
from ...store import Store, StoreError
from .access import ADDRESS_TRIES, ADDRESS_WAIT, WAIT_MAX
from .installable import _answer
from .throttle import Misses
from .wire import peer_of

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Any]]
Send = Callable[[Any], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

PUBLISH = "/league/publish"
#: Seconds the whole body of a publication may take to arrive (a 16 MB night on a slow line).
READ_WITHIN = 60.0
#: Addresses whose wrong secrets are counted at once, at most (then those not waiting go).
MISSES_KEPT = 10_000
#: The HTTP status of each kind of refusal.
STATUS = {"secret": 401, "night": 422, "input": 400}


def language(headers: dict[bytes, bytes], default: str) -> str:
    """The first language of ``Accept-Language`` that Scorepad speaks, else the server's."""
    for part in headers.get(b"accept-language", b"").decode("latin-1").split(","):
        tag = part.split(";")[0].strip().replace("-", "_")
        if tag in LANGUAGES:  # sr_Latn, sr_Cyrl: the script said
            return tag
        for code in LANGUAGES:  # el_GR, de_AT, sr: the language's first catalog
            if tag and code.split("_")[0] == tag.split("_")[0].lower():
                return code
    return default


class LeagueDoor:
    """ASGI middleware: ``POST /league/publish``; everything else goes to the app."""

    def __init__(
        self,
        app: ASGIApp,
        store: Store,
        lock: threading.RLock,
        lang: str,
        *,
        trusted: frozenset[str] = frozenset(),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.league = LeagueStore(store, lock)  # the lock held for the database's steps only
        self.lang = lang
        self.trusted = trusted  # the reverse proxy whose header names the club's address
        self.clock = clock
        self._misses: dict[str, Misses] = {}

    def _waits(self, address: str) -> float:
        """Seconds the address still waits after its wrong secrets (0: none)."""
        misses = self._misses.get(address)
        return 0.0 if misses is None else max(0.0, misses.until - self.clock())

    def _missed(self, address: str) -> None:
        if len(self._misses) >= MISSES_KEPT:  # many addresses: those not waiting are forgotten
            now = self.clock()
            self._misses = {a: m for a, m in self._misses.items() if m.until > now}
        misses = self._misses.setdefault(address, Misses())
        misses.count += 1
        if misses.count >= ADDRESS_TRIES:
            extra = misses.count - ADDRESS_TRIES
            misses.until = self.clock() + min(WAIT_MAX, ADDRESS_WAIT * 2**extra)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != PUBLISH:
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        lang = language(headers, self.lang)

        async def refuse(status: int, said: Msg) -> None:
            await _json(send, status, {"refused": catalog(lang).render(said)})

        if scope["method"] != "POST":
            await refuse(405, msg(N_("the league takes a night with POST")))
            return
        address = peer_of(scope, self.trusted)
        waits = self._waits(address)
        if waits:
            await refuse(
                429,
                msg(
                    N_("Too many wrong secrets from this network: wait {s} s, then try again."),
                    s=max(1, math.ceil(waits)),
                ),
            )
            return
        auth = headers.get(b"authorization", b"").decode("latin-1")
        scheme, _, secret = auth.partition(" ")
        if scheme.lower() != "bearer" or not secret.strip():
            self._missed(address)
            await refuse(401, msg(N_("the league does not know this club's secret, or revoked it")))
            return
        size = headers.get(b"content-length", b"").decode("latin-1")
        if not (size.isascii() and size.isdigit()):
            await refuse(411, msg(N_("the league needs the night's size before its body")))
            return
        if int(size) > MAX_FILE:
            await refuse(413, msg(N_("a club file is at most {limit} MB"), limit=MAX_FILE >> 20))
            return
        try:
            body = await asyncio.wait_for(_read(receive, int(size)), READ_WITHIN)
        except TimeoutError:
            await refuse(408, msg(N_("the night took too long to arrive: send it again")))
            return
        except _Disconnected:
            return
        if body is None:
            await refuse(400, msg(N_("the night's body is not the size it said")))
            return
        try:
            query = parse_qs(scope.get("query_string", b"").decode("latin-1"), max_num_fields=4)
        except ValueError:  # more fields than a publication has
            query = {"change": [""], "": ["", ""]}
        if set(query) - {"change"} or len(query.get("change", [])) > 1:
            await refuse(400, msg(N_("the league takes a night with one change at most")))
            return
        change = query.get("change", [None])[0]

        try:
            taken = await asyncio.to_thread(self.league.take, secret.strip(), body, change)
        except LeagueError as exc:
            if exc.kind == "secret":
                self._missed(address)
            await refuse(STATUS.get(exc.kind, 422), exc.message)
            return
        except StoreError as exc:  # the database is lost: the club's outbox keeps the night
            await refuse(503, exc.message)
            return
        self._misses.pop(address, None)
        await _json(
            send,
            201 if taken.new else 200,
            {"night": taken.night.night, "version": taken.night.version, "new": taken.new},
        )


class _Disconnected(Exception):
    pass


async def _read(receive: Receive, size: int) -> bytes | None:
    """The body, never more than ``size`` bytes kept (None: it was longer or shorter)."""
    chunks: list[bytes] = []
    got = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise _Disconnected
        chunk = message.get("body", b"")
        got += len(chunk)
        if got > size:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks) if got == size else None


async def _json(send: Send, status: int, data: dict[str, Any]) -> None:
    body = json.dumps(data, ensure_ascii=False).encode()
    await _answer(send, status, body, "application/json; charset=utf-8")


__all__ = ["PUBLISH", "LeagueDoor", "language"]
