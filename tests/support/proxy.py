"""A small reverse proxy, as a host puts one in front of Scorepad: it forwards every connection to
the server and says who the client is the way nginx's ``proxy_add_x_forwarded_for`` does (the
client's ``X-Forwarded-For`` kept, the peer's address appended as the last hop), or with RFC 7239
``Forwarded`` (``for=`` of the peer appended), or both.

It reads each request's head, adds its header and passes the rest of the connection through
untouched in both directions, so a WebSocket upgrade works through it.  It runs in a thread of
the test process, on its own event loop; the peer address it appends is the socket's, so a client
in another network namespace (tests/netns.py) is named by its real address.
"""

from __future__ import annotations

import asyncio
import ssl
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress

HEAD_MAX = 65536


def _add_forwarding(head: bytes, peer: str, spellings: tuple[str, ...]) -> bytes:
    lines = head.split(b"\r\n")
    out = [lines[0]]
    xff: list[bytes] = []
    fwd: list[bytes] = []
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        key = name.strip().lower()
        if key == b"x-forwarded-for" and "xff" in spellings:
            xff.append(value.strip())  # every line, one list (RFC 9110), as nginx joins them
            continue
        if key == b"forwarded" and "forwarded" in spellings:
            fwd.append(value.strip())
            continue
        out.append(line)
    bracketed = f"[{peer}]" if ":" in peer else peer
    if "xff" in spellings:
        out.append(b"X-Forwarded-For: " + b", ".join([*xff, peer.encode()]))
    if "forwarded" in spellings:
        out.append(b"Forwarded: " + b", ".join([*fwd, f'for="{bracketed}"'.encode()]))
    return b"\r\n".join(out)


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        with suppress(Exception):
            writer.close()


class Proxy:
    #: TLS on the proxy's side (tests/support/tls.py), or none.
    tls: ssl.SSLContext | None = None

    def __init__(self, upstream: tuple[str, int], spellings: tuple[str, ...]) -> None:
        self.upstream = upstream
        self.spellings = spellings
        self.loop = asyncio.new_event_loop()
        self.port = 0

    async def _serve_one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = str(writer.get_extra_info("peername")[0])
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            writer.close()
            return
        up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        up_writer.write(_add_forwarding(head[:-4], peer, self.spellings) + b"\r\n\r\n")
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))

    def serve(self, host: str) -> None:
        ready = threading.Event()

        async def main() -> None:
            server = await asyncio.start_server(
                self._serve_one, host, 0, limit=HEAD_MAX, ssl=self.tls
            )
            self.port = server.sockets[0].getsockname()[1]
            ready.set()
            async with server:
                await server.serve_forever()

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            with suppress(asyncio.CancelledError):
                self.loop.run_until_complete(main())

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        assert ready.wait(10), "the proxy did not start"

    def close(self) -> None:
        for task in asyncio.all_tasks(self.loop):
            self.loop.call_soon_threadsafe(task.cancel)
        self.thread.join(10)


@contextmanager
def reverse_proxy(
    listen: str, upstream: tuple[str, int], spellings: tuple[str, ...] = ("xff",)
) -> Iterator[int]:
    """A proxy on ``listen`` (a port chosen for it) in front of ``upstream``; yields its port."""
    proxy = Proxy(upstream, spellings)
    proxy.serve(listen)
    try:
        yield proxy.port
    finally:
        proxy.close()
