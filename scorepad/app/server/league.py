"""The league's door on ``scorepad serve`` (issue #39): ``POST /league/publish``, where a club
sends an ended night, and ``POST /league/claim-code``, where a club's director asks for the code
one of his players claims his place in the league with (docs/league.md).

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
  The count is the server's throttle's (:mod:`.throttle`): in the database when several workers
  share it, so ``serve --workers N`` gives a guesser the same 20 tries and not N times them; under
  a key of its own (:data:`KEY`), so a league miss never counts against a PIN, nor one against it.
- A claim code's request is ``{"player": UID}``, the club player's stable id (at most
  :data:`CLAIM_MAX` bytes, the same time limit): the league gives a code only for a player of
  the club's own published nights, under the name he played there last; ``201 {"code", "name"}``.
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
from typing import Any, TypeVar
from urllib.parse import parse_qs

from ...club.file import MAX_FILE
from ...core.i18n import LANGUAGES, N_, Msg, catalog, msg
from ...league.store import LeagueError, LeagueStore
from ...store import Store, StoreError
from .access import ADDRESS_TRIES, ADDRESS_WAIT, WAIT_MAX
from .installable import answer
from .throttle import Throttle
from .wire import peer_of

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Any]]
Send = Callable[[Any], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
T = TypeVar("T")

PUBLISH = "/league/publish"
CLAIM_CODE = "/league/claim-code"
#: Bytes a claim code's request may have: one player's id in a line of JSON.
CLAIM_MAX = 4096
#: Seconds the whole body of a publication may take to arrive (a 16 MB night on a slow line).
READ_WITHIN = 60.0
#: Addresses whose wrong secrets one process counts in its memory, at most (then those not
#: waiting go; the database's count forgets a row untouched for a day).
MISSES_KEPT = 10_000
#: The throttle's key of an address's wrong league secrets (the PINs' are "pin address\0...").
KEY = "league address\0"
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
        throttle: Throttle | None = None,
    ) -> None:
        """``throttle``: the server's (shared by its workers through the database, with the wall
        clock as ``clock``); by default this process's memory."""
        self.app = app
        self.store = store
        self.league = LeagueStore(store, lock)  # the lock held for the database's steps only
        self.lang = lang
        self.trusted = trusted  # the reverse proxy whose header names the club's address
        self.clock = clock
        self.throttle = throttle if throttle is not None else Throttle()

    def _waits(self, address: str) -> float:
        """Seconds the address still waits after its wrong secrets (0: none)."""
        now = self.clock()
        with self.throttle.counting(now, KEY + address) as [misses]:
            return max(0.0, misses.until - now)

    def _missed(self, address: str) -> None:
        now = self.clock()
        self.throttle.forget_idle(now, MISSES_KEPT)
        with self.throttle.counting(now, KEY + address) as [misses]:
            misses.count += 1
            if misses.count >= ADDRESS_TRIES:
                extra = misses.count - ADDRESS_TRIES
                misses.until = now + min(WAIT_MAX, ADDRESS_WAIT * 2**extra)

    def _forgiven(self, address: str) -> None:
        """The right secret: the address's misses are forgotten."""
        with self.throttle.counting(self.clock(), KEY + address) as [misses]:
            misses.clear()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] not in (PUBLISH, CLAIM_CODE):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        lang = language(headers, self.lang)
        publishing = scope["path"] == PUBLISH

        async def refuse(status: int, said: Msg) -> None:
            await _json(send, status, {"refused": catalog(lang).render(said)})

        if scope["method"] != "POST":
            await refuse(
                405,
                msg(N_("the league takes a night with POST"))
                if publishing
                else msg(N_("the league gives a claim code for a POST only")),
            )
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
            await refuse(
                411,
                msg(N_("the league needs the night's size before its body"))
                if publishing
                else msg(N_("the league needs the request's size before its body")),
            )
            return
        limit = MAX_FILE if publishing else CLAIM_MAX
        if int(size) > limit:
            await refuse(
                413,
                msg(N_("a club file is at most {limit} MB"), limit=MAX_FILE >> 20)
                if publishing
                else msg(N_("a claim code's request is at most {limit} kB"), limit=limit >> 10),
            )
            return
        try:
            body = await asyncio.wait_for(_read(receive, int(size)), READ_WITHIN)
        except TimeoutError:
            await refuse(
                408,
                msg(N_("the night took too long to arrive: send it again"))
                if publishing
                else msg(N_("the request took too long to arrive: send it again")),
            )
            return
        except _Disconnected:
            return
        if body is None:
            await refuse(
                400,
                msg(N_("the night's body is not the size it said"))
                if publishing
                else msg(N_("the request's body is not the size it said")),
            )
            return
        if publishing:
            await self._publish(scope, send, refuse, address, secret.strip(), body)
        else:
            await self._claim_code(send, refuse, address, secret.strip(), body)

    async def _publish(
        self,
        scope: Scope,
        send: Send,
        refuse: Callable[[int, Msg], Awaitable[None]],
        address: str,
        secret: str,
        body: bytes,
    ) -> None:
        try:
            query = parse_qs(scope.get("query_string", b"").decode("latin-1"), max_num_fields=4)
        except ValueError:  # more fields than a publication has
            query = {"change": [""], "": ["", ""]}
        if set(query) - {"change"} or len(query.get("change", [])) > 1:
            await refuse(400, msg(N_("the league takes a night with one change at most")))
            return
        change = query.get("change", [None])[0]

        # The database lost (503): the club's outbox keeps the night.
        taken = await self._thread(refuse, address, 503, self.league.take, secret, body, change)
        if taken is None:
            return
        await _json(
            send,
            201 if taken.new else 200,
            {"night": taken.night.night, "version": taken.night.version, "new": taken.new},
        )

    async def _claim_code(
        self,
        send: Send,
        refuse: Callable[[int, Msg], Awaitable[None]],
        address: str,
        secret: str,
        body: bytes,
    ) -> None:
        try:
            data = json.loads(body)
            player = data["player"] if isinstance(data, dict) and len(data) == 1 else None
        except (ValueError, KeyError):
            player = None
        if not isinstance(player, str) or not 0 < len(player) <= 64:
            said = N_("the request names no player of the club: {form}")
            await refuse(400, msg(said, form='{"player": ID}'))
            return
        # A StoreError: the player is linked already (said in the sentence).
        got = await self._thread(refuse, address, 422, self._issue, secret, player)
        if got is None:
            return
        name, code = got
        await _json(send, 201, {"code": code, "name": name})

    async def _thread(
        self,
        refuse: Callable[[int, Msg], Awaitable[None]],
        address: str,
        store_status: int,
        call: Callable[..., T],
        *args: Any,
    ) -> T | None:
        """``call(*args)`` in a thread (the server's loop keeps serving): its result, or None
        once its refusal is sent; a wrong secret is counted, the right one forgets the
        address's misses."""
        try:
            got = await asyncio.to_thread(call, *args)
        except LeagueError as exc:
            if exc.kind == "secret":
                self._missed(address)
            await refuse(STATUS.get(exc.kind, 422), exc.message)
            return None
        except StoreError as exc:
            await refuse(store_status, exc.message)
            return None
        self._forgiven(address)
        return got

    def _issue(self, secret: str, player: str) -> tuple[str, str]:
        """A claim code for the club's player (the club the secret names): only a player of the
        club's own published nights (their current versions), under his name there last."""
        from ...league.players import LeaguePlayers
        from ...league.season import read_night

        club = self.league.club_of(secret)
        name = None
        for n in self.league.nights(current=True):
            if n.club == club.id:
                for p in read_night(n).players:
                    if p.uid == player:
                        name = p.name
        if name is None:
            raise LeagueError(
                msg(
                    N_(
                        "{player} plays in none of this club's nights in the league: publish one of his nights first"
                    ),
                    player=player,
                ),
                "night",
            )
        with self.league.lock:
            return name, LeaguePlayers(self.store).issue_claim_code(club.id, player, name)


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
    await answer(send, status, body, "application/json; charset=utf-8")


__all__ = ["CLAIM_CODE", "PUBLISH", "LeagueDoor", "language"]
