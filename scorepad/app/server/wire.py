"""The app's WebSocket: Flet's own connection, with who is calling decided from the socket and
what one connection may cost bounded.

- **Who:** the peer address is the transport's (the ASGI scope's ``client``), taken when the
  socket connects, before any frame is read; ``X-Forwarded-For`` or ``Forwarded`` counts only
  when the peer is a proxy the host named (``--trusted-proxy``), and through it a request that
  does not say whom it forwards, or garbles it, is a stranger's (:func:`peer_of`).  It reaches the app's ``main`` through a context
  variable (:data:`PEER`) that every task of the connection inherits; Flet's ``page.client_ip``,
  which the client can overwrite with a property update, is never read for access.
- **Cost:** the first frame must register within :attr:`Limits.register_within` seconds;
  a frame that is not Flet's protocol closes the connection (1007); events for control ids the
  page does not hold are dropped before Flet searches its whole page tree for them; frames are
  paced per connection (a token bucket) and no more than :attr:`Limits.queue` event handlers
  of one connection run at once, so one page cannot starve the others.
- **No traceback reaches a client:** Flet sends a crashed handler's traceback to the page
  (``SESSION_CRASHED``); here the traceback goes to the log and the page gets a sentence.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import time
import weakref
from collections import Counter, OrderedDict
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgpack
from fastapi import WebSocket, WebSocketDisconnect
from flet.controls.base_control import BaseControl
from flet.messaging.protocol import (
    Message,
    MessageAction,
    SessionCrashedBody,
    configure_encode_object_for_msgpack,
)
from flet_web.fastapi.flet_app import FletApp, app_manager
from starlette.datastructures import Address
from uvicorn.protocols.utils import ClientDisconnected

from ...core.i18n import N_, catalog, msg

log = logging.getLogger(__name__)

#: The peer address of the connection the current task serves ("" outside one).
PEER: ContextVar[str] = ContextVar("scorepad_peer", default="")

_ACTIONS = {
    MessageAction.REGISTER_CLIENT.value: {"session_id", "page_name", "page"},
    MessageAction.CONTROL_EVENT.value: {"target", "name", "data"},
    MessageAction.UPDATE_CONTROL_PROPS.value: {"id", "props"},
    MessageAction.INVOKE_METHOD.value: {"control_id", "call_id", "result", "error"},
}


@dataclass(frozen=True)
class Limits:
    """What one connection may cost (figures in docs/safety.md)."""

    register_within: float = 15.0  # s: a socket that never registers is closed
    frame_max: int = 256 * 1024  # bytes: the largest frame a page sends (a typed session file)
    rate: float = 40.0  # frames a second, sustained
    burst: int = 200  # frames at once (a page's start, a fast typist)
    queue: int = 8  # event handlers of one connection running at once
    left_after: int = 300  # s: a page that left is freed (its session closed) after this
    left_per_address: int = 16  # pages that left kept for one address; the oldest freed first
    live_per_address: int = 64  # pages (WebSockets) open at once from one address
    # Before the app reads anything (transport.py):
    header_within: float = 10.0  # s: a request's headers, from its first byte
    incomplete_per_address: int = 32  # requests from one address whose headers are not in
    frame_within: float = 20.0  # s: a WebSocket frame (or fragmented message) in progress
    ping_every: float = 20.0  # s: the server pings each WebSocket...
    ping_timeout: float = 20.0  # s: ... and closes it when no pong came within this


#: The peer of a request through a trusted proxy that does not say, or garbles, whom it forwards:
#: a stranger (RFC 7239's own word), never the proxy's address nor this computer.
UNKNOWN = "unknown"


def _address(text: str) -> str | None:
    """One forwarded hop as an address: ``1.2.3.4``, ``1.2.3.4:5678``, ``::1``, ``[::1]``,
    ``[::1]:5678``; None for anything else (``unknown``, an obfuscated ``_name``, garbage)."""
    text = text.strip()
    if text.startswith("["):
        end = text.find("]")
        if end < 0 or (text[end + 1 :] and not _port(text[end + 1 :])):
            return None
        text = text[1:end]
        if ":" not in text:  # brackets hold an IPv6 address only
            return None
    elif text.count(":") == 1:  # IPv4 with a port (a bare IPv6 address has two or more)
        text, port = text.split(":")
        if not _port(":" + port) or "." not in text:
            return None
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return str(ip)


def _port(text: str) -> bool:
    """``:8080``, or RFC 7239's obfuscated port (``:_abc``): the address before it is known."""
    port = text[1:]
    if not (text.startswith(":") and port.isascii() and 0 < len(port) <= 32):
        return False
    if port.isdigit():
        return len(port) <= 5
    return port[0] == "_" and all(c.isalnum() or c in "._-" for c in port)


def _forwarded_for(value: str) -> str | None:
    """The ``for=`` of the last element of RFC 7239 ``Forwarded`` values (quoted or not, its
    parameters in any case), or None when the last element has none or two."""
    elements = _split(value, ",")
    if not elements:
        return None
    found = [
        v
        for pair in _split(elements[-1], ";")
        for k, sep, v in [pair.partition("=")]
        if sep and k.strip().lower() == "for"
    ]
    if len(found) != 1:
        return None
    text = found[0].strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    elif not text or any(c not in _TCHAR for c in text):  # unquoted: a token (no ":", "[")
        return None
    return text


_TCHAR = frozenset("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _split(value: str, sep: str) -> list[str]:
    """``value`` split at ``sep`` outside quoted strings; empty parts left out."""
    parts: list[str] = []
    part: list[str] = []
    quoted = escaped = False
    for ch in value:
        if escaped:
            escaped = False
        elif quoted and ch == "\\":
            escaped = True
        elif ch == '"':
            quoted = not quoted
        elif ch == sep and not quoted:
            parts.append("".join(part))
            part = []
            continue
        part.append(ch)
    parts.append("".join(part))
    return [p for p in (p.strip() for p in parts) if p]


def peer_of(scope: Any, trusted: frozenset[str] = frozenset()) -> str:
    """The address a connection comes from: the socket's; through a proxy the host named, the
    last hop that proxy added (``X-Forwarded-For``, every line of it, or RFC 7239
    ``Forwarded``), or :data:`UNKNOWN` when it added none, garbled it, or the two disagree.
    ``X-Real-IP`` is not read: a proxy that sets only it forwards strangers."""
    client = scope.get("client")
    host = str(client[0]) if client else ""
    if not _trusted(host, trusted):
        return host
    xff: list[str] = []
    fwd: list[str] = []
    for name, value in scope.get("headers") or []:
        name = name.lower()
        if name == b"x-forwarded-for":
            xff.append(value.decode("latin-1"))
        elif name == b"forwarded":
            fwd.append(value.decode("latin-1"))
    said: list[str | None] = []
    if xff:  # lines of one header are one comma-separated list (RFC 9110, 5.3)
        hops = [h for h in ",".join(xff).split(",") if h.strip()]
        said.append(_address(hops[-1]) if hops else None)
    if fwd:
        last = _forwarded_for(",".join(fwd))
        said.append(_address(last) if last is not None else None)
    if not said or None in said or len(set(said)) != 1:
        return UNKNOWN
    return str(said[0])


def _trusted(host: str, trusted: frozenset[str]) -> bool:
    if not trusted or not host:
        return False
    ip = _address(host)
    return ip is not None and any(ip == _address(t) for t in trusted)


class Refused(WebSocketDisconnect):
    """The connection is closed by the server (never registered, malformed frame)."""


class Bounded:
    """A Starlette WebSocket as Flet's FletApp uses it, with every received frame checked."""

    def __init__(self, ws: WebSocket, peer: str, limits: Limits, app: TableApp) -> None:
        self._ws = ws
        self._peer = peer
        self._limits = limits
        self._app = app
        self._registered = False
        self._tokens = float(limits.burst)
        self._at = time.monotonic()
        self.dropped = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ws, name)

    @property
    def client(self) -> Address:  # what Flet keys its reconnecting sessions on
        port = self._ws.client.port if self._ws.client else 0
        return Address(self._peer, port)

    async def receive_bytes(self) -> bytes:
        try:
            return await self._receive()
        except BaseException:
            if not self._registered:
                # Flet's send loop ends only once a session exists: end it here, or the
                # connection's task would wait for ever.
                self._app.stop_sending()
            raise

    async def _receive(self) -> bytes:
        while True:
            try:
                if self._registered:
                    message = await self._ws.receive()
                else:
                    message = await asyncio.wait_for(
                        self._ws.receive(), self._limits.register_within
                    )
            except TimeoutError:
                await self._close(1008)
                raise Refused(1008) from None
            if message["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(message.get("code", 1000))
            data = message.get("bytes")
            if data is None:  # a text frame: never Flet's
                await self._close(1003)
                raise Refused(1003)
            await self._pace()
            verdict = self._check(data)
            if verdict == "drop":
                self.dropped += 1
                continue
            if verdict == "bad":
                log.warning("closed a connection from %s: a frame that is not Flet's", self._peer)
                await self._close(1007)
                raise Refused(1007)
            return bytes(data)

    def _check(self, data: bytes) -> str:
        if len(data) > self._limits.frame_max:
            return "bad"
        if not data or data[0] != 0x00:  # data channels (0x01) are not used by the app
            return "drop"
        try:
            frame = msgpack.unpackb(data[1:], strict_map_key=False)
        except Exception:  # msgpack raises several kinds for bytes that are not msgpack
            return "bad"
        if not (isinstance(frame, list) and len(frame) == 2 and isinstance(frame[1], dict)):
            return "bad"
        action, body = frame
        keys = _ACTIONS.get(action) if isinstance(action, int) else None
        if keys is None or set(body) != keys:
            return "bad"
        if (action == MessageAction.REGISTER_CLIENT.value) == self._registered:
            return "bad"  # the first frame registers, and only the first
        if action == MessageAction.REGISTER_CLIENT.value:
            if not isinstance(body["page"], dict):
                return "bad"
            self._registered = True
        elif action == MessageAction.CONTROL_EVENT.value:
            if not (isinstance(body["target"], int) and isinstance(body["name"], str)):
                return "bad"
            if body["target"] not in self._app.controls():
                return "drop"  # Flet would walk the whole page looking for it
        elif action == MessageAction.UPDATE_CONTROL_PROPS.value and not (
            isinstance(body["id"], int) and isinstance(body["props"], dict)
        ):
            return "bad"
        return "ok"

    async def _pace(self) -> None:
        limits = self._limits
        now = time.monotonic()
        self._tokens = min(limits.burst, self._tokens + (now - self._at) * limits.rate)
        self._at = now
        if self._tokens < 1:
            await asyncio.sleep((1 - self._tokens) / limits.rate)
            self._tokens = 1.0
            self._at = time.monotonic()
        self._tokens -= 1
        while self._app.running() >= limits.queue:
            await asyncio.sleep(0.005)

    async def _close(self, code: int) -> None:
        with contextlib.suppress(RuntimeError):  # already closed
            await self._ws.close(code)


_ENCODE = configure_encode_object_for_msgpack(BaseControl)  # type: ignore[no-untyped-call]


class TableApp(FletApp):
    """Flet's connection, told the page's language for the one sentence a crash sends."""

    def __init__(self, *args: Any, lang: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lang = lang

    departed: Any = None  # the session of a connection that ended (wire.Departed)

    def dispose(self) -> None:
        self.departed = self._FletApp__session
        super().dispose()

    def controls(self) -> Any:
        session = self._FletApp__session
        return session.index if session is not None else {}

    def stop_sending(self) -> None:
        queue = self._FletApp__send_queue
        if queue is not None:
            queue.put_nowait(None)

    def running(self) -> int:
        return len(self._FletApp__running_tasks)

    def send_message(self, message: Message) -> None:
        if message.action == MessageAction.SESSION_CRASHED:
            log.error("a page's handler failed: %s", getattr(message.body, "message", message.body))
            sentence = catalog(self.lang).render(
                msg(N_("Something went wrong on the server; nothing was written. Reload the page."))
            )
            message = Message(MessageAction.SESSION_CRASHED, SessionCrashedBody(sentence))
        # Flet's own send formats the whole message into a debug line (an f-string, logged or
        # not): on a write, the repr of every control sent, for every page.  The same frame,
        # without it.
        queue = self._FletApp__send_queue
        body = msgpack.packb([message.action, message.body], default=_ENCODE)
        queue.put_nowait(b"\x00" + body)


class Departed:
    """The pages that left, per address: each is kept :attr:`Limits.left_after` seconds for a
    reload to reconnect to, but no more than :attr:`Limits.left_per_address` of one address
    (the oldest is freed first): 1,000 pages opened and dropped from one address cost about
    132 MB for five minutes."""

    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self.pages: dict[str, OrderedDict[str, Any]] = {}

    async def left(self, address: str, key: str, session: Any) -> None:
        pages = self.pages.setdefault(address, OrderedDict())
        pages.pop(key, None)
        pages[key] = weakref.ref(session)  # never what keeps a freed page in memory
        now = datetime.now(UTC)
        for k, ref in list(pages.items()):  # reconnected (a live page again) or freed already
            s = ref()
            if s is None or s.expires_at is None or s.expires_at < now:
                del pages[k]
        while len(pages) > self.per_address:
            oldest, _ = pages.popitem(last=False)
            await app_manager.delete_session(oldest)
        if not pages:
            del self.pages[address]


def endpoint(
    main: Callable[..., Any], lang: str, limits: Limits, trusted: frozenset[str]
) -> Callable[[WebSocket], Any]:
    """The ``/ws`` handler: one bounded Flet connection, its peer known before it is read."""
    departed = Departed(limits.left_per_address)
    live: Counter[str] = Counter()

    async def handle(websocket: WebSocket) -> None:
        peer = peer_of(websocket.scope, trusted)
        if live[peer] >= limits.live_per_address:
            # Closed before it is accepted: the upgrade is answered 403, nothing is kept.
            log.warning(
                "refused a connection from %s: %d pages open from that address",
                peer,
                limits.live_per_address,
            )
            await websocket.close(1008)
            return
        live[peer] += 1
        token = PEER.set(peer)  # every task this connection starts inherits it
        try:
            app = TableApp(
                loop=asyncio.get_running_loop(),
                executor=app_manager.executor,
                main=main,
                before_main=None,
                session_timeout_seconds=limits.left_after,
                lang=lang,
            )
            try:
                await app.handle(Bounded(websocket, peer, limits, app))
            except AttributeError:  # closed before it registered: Flet has no session to drop
                if app.controls():
                    raise
                log.debug("a connection from %s closed before it registered", peer)
                return
            except (WebSocketDisconnect, ClientDisconnected, ConnectionError) as exc:
                # The browser went away while Flet was sending to it (a phone locked, a tab
                # closed, the network lost): Flet's send loop raises, and its handler never
                # marks the page as left.  One line in the log, and the page left as Flet
                # would have it (kept for a reload, then freed).
                code = getattr(exc, "code", None)
                log.warning("a connection from %s dropped (%s)", peer, code or type(exc).__name__)
                session = app._FletApp__session
                if session is not None:
                    key = app._FletApp__get_unique_session_id(session.id)
                    await app_manager.disconnect_session(key, limits.left_after)
            session = app.departed  # Flet lets go of it when the connection ends
            if session is not None and session.expires_at is not None:
                key = app._FletApp__get_unique_session_id(session.id)
                await departed.left(peer, key, session)
        finally:
            PEER.reset(token)
            live[peer] -= 1
            if live[peer] <= 0:
                del live[peer]

    return handle
