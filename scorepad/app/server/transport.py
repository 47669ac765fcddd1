"""What a socket may cost before the app reads anything: uvicorn's protocols with time limits and
a bound per address (figures in wire.Limits and docs/safety.md).

- **Request headers** must arrive within :attr:`~scorepad.app.server.wire.Limits.header_within` seconds and in at most
  :data:`HEADER_BYTES`; a request still incomplete then is closed.  uvicorn times out only an
  idle kept-alive connection, never a request whose headers trickle in (a slow half-open
  request holds a descriptor for ever).
- **Incomplete requests per address:** at most :attr:`~scorepad.app.server.wire.Limits.incomplete_per_address` at once
  from one peer address; another connection from it is closed at once (a proxy the host named
  is exempt: every phone comes from its address, with whole requests).
- **A WebSocket frame** larger than :attr:`~scorepad.app.server.wire.Limits.frame_max` is refused from its header by
  uvicorn itself (``ws_max_size``, close 1009), before its payload is buffered; a frame (or a
  fragmented message) in progress must end within :attr:`~scorepad.app.server.wire.Limits.frame_within` seconds.
- **Descriptors:** the soft limit is raised to the hard one at start (:func:`more_descriptors`):
  1,024 (a common desktop default) is a few hundred phones' worth of connections.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from collections import Counter
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

log = logging.getLogger(__name__)

HEADER_BYTES = 64 * 1024  # a request line and headers: a browser's are a few KB


def more_descriptors() -> tuple[int, int] | None:
    """Raise the soft limit on open files to the hard limit (allowed without privileges);
    the limits after, or None where there are none (Windows)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # An unlimited hard limit: the kernel's own (nr_open) caps what may be asked.
    target = hard if hard != resource.RLIM_INFINITY else 1 << 20
    if soft != resource.RLIM_INFINITY and soft < target:
        for want in (target, 1 << 16):
            if soft < want <= target:
                try:
                    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
                    break
                except (ValueError, OSError):
                    continue
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def guarded_http(
    header_within: float, per_address: int, trusted: frozenset[str]
) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools or h11, whichever it chose) with the header time
    limit and the bound on incomplete requests per address; one count shared by the server."""

    class Guarded(_GuardedHTTP):
        _header_within = header_within
        _incomplete = _Incomplete(per_address, trusted)

    return Guarded


class _Incomplete:
    """One server's incomplete requests counted by peer address (a proxy the host trusts is
    exempt); every connection of the server shares it."""

    def __init__(self, per_address: int, trusted: frozenset[str]) -> None:
        self.per_address = per_address
        self._exempt = {_canonical(t) for t in trusted}
        self._counts: Counter[str] = Counter()

    def counts(self, peer: str) -> bool:
        """Whether this peer's requests are counted (a known address, not exempt)."""
        return bool(peer) and peer not in self._exempt

    def full(self, peer: str) -> bool:
        return self._counts[peer] >= self.per_address

    def add(self, peer: str) -> None:
        self._counts[peer] += 1

    def remove(self, peer: str) -> None:
        self._counts[peer] -= 1
        if self._counts[peer] <= 0:
            del self._counts[peer]


class _GuardedHTTP(AutoHTTPProtocol):  # type: ignore[valid-type]
    """The guarded protocol's behaviour; :func:`guarded_http` gives it its limits and count."""

    _header_within: float
    _incomplete: _Incomplete
    _peer = ""
    _pending = False
    _counted = False
    _header_bytes = 0
    _timer: asyncio.TimerHandle | None = None
    _cycle: Any = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        client = self.client
        self._peer = _canonical(str(client[0])) if client else ""
        self._begin()

    def _begin(self) -> None:
        """A request begins (the connection's first, or the next on a kept-alive one)."""
        incomplete = self._incomplete
        if incomplete.counts(self._peer):
            if incomplete.full(self._peer):
                log.warning(
                    "closed a connection from %s: %d incomplete requests from that address",
                    self._peer,
                    incomplete.per_address,
                )
                self.transport.close()
                return
            incomplete.add(self._peer)
            self._counted = True
        self._pending = True
        self._header_bytes = 0
        self._cycle = self.cycle
        self._timer = self.loop.call_later(self._header_within, self._too_slow)

    def _end(self) -> None:
        self._pending = False
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._counted:
            self._counted = False
            self._incomplete.remove(self._peer)

    def _too_slow(self) -> None:
        self._timer = None
        if self._pending and not self.transport.is_closing():
            log.warning(
                "closed a connection from %s: its request headers took over %g s",
                self._peer,
                self._header_within,
            )
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():
            return
        if not self._pending and (self.cycle is None or self.cycle.response_complete):
            self._begin()  # the next request on a kept-alive connection
            if not self._pending:
                return
        if self._pending:
            self._header_bytes += len(data)
            if self._header_bytes > HEADER_BYTES:
                log.warning(
                    "closed a connection from %s: request headers over %d bytes",
                    self._peer,
                    HEADER_BYTES,
                )
                self.transport.close()
                return
        super().data_received(data)
        # The headers are in once the request is handed to the app (a new cycle) or the
        # connection became a WebSocket (the transport has another protocol).
        if self._pending and (
            self.cycle is not self._cycle or self.transport.get_protocol() is not self
        ):
            self._end()

    def connection_lost(self, exc: Exception | None) -> None:
        self._end()
        super().connection_lost(exc)


def _canonical(address: str) -> str:
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return address


def guarded_websocket(frame_within: float) -> type[asyncio.Protocol]:
    """uvicorn's sans-I/O WebSocket protocol with a time limit on a frame in progress."""

    class Guarded(WebSocketsSansIOProtocol):
        _frame_timer: asyncio.TimerHandle | None = None

        def _in_progress(self) -> bool:
            return bool(self.conn.reader.buffer) or bool(self.frames)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if not self._in_progress():
                if self._frame_timer is not None:
                    self._frame_timer.cancel()
                    self._frame_timer = None
            elif self._frame_timer is None and not self.transport.is_closing():
                self._frame_timer = self.loop.call_later(frame_within, self._too_slow)

        def _too_slow(self) -> None:
            self._frame_timer = None
            if self.close_sent or self.transport.is_closing() or not self._in_progress():
                return
            if self.read_paused:  # the server stopped reading, not the client sending
                self._frame_timer = self.loop.call_later(frame_within, self._too_slow)
                return
            peer = self.client[0] if self.client else ""
            log.warning("closed a connection from %s: a frame took over %g s", peer, frame_within)
            self.conn.fail(1008, "frame too slow")
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
            self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._frame_timer is not None:
                self._frame_timer.cancel()
                self._frame_timer = None
            super().connection_lost(exc)

    return Guarded
