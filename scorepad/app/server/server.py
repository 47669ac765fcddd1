"""The web server: Flet's app behind a guard that trusts no stranger, stopped cleanly.

- Only the server's own host names and origins (the addresses it prints) are answered; a foreign
  ``Host`` or ``Origin`` (DNS rebinding, a cross-site WebSocket) gets 403.
- FastAPI's ``/docs``, ``/redoc`` and ``/openapi.json`` are not served.
- SIGTERM or Ctrl-C: connections are closed within a second, then the database is closed.
- The listening socket is bound before anything starts: a second server on a busy port is told
  so in a sentence.
"""

from __future__ import annotations

import asyncio
import errno
import signal
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from ...core.i18n import N_, msg
from .access import ServeRefused
from .share import Sharing, url_host
from .transport import guarded_http, guarded_websocket
from .wire import Limits, endpoint

Scope = MutableMapping[str, Any]
ASGI = Callable[
    [Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]
]
HIDDEN = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json"})
#: The header of a page's WebSocket handshake that names the worker holding the page (one of
#: several: workers.py), so that an operator's proxy log or a test can tell how the pages are
#: spread.  Its number (1 to N), never its pid; none with one worker.
WORKER_HEADER = b"x-scorepad-worker"
_WORKER: list[bytes] = []


def name_worker(number: int) -> None:
    """This process is worker ``number`` of several (workers.py, after the fork)."""
    _WORKER[:] = [str(number).encode()]


def _naming(send: Any, worker: bytes) -> Any:
    async def named(message: dict[str, Any]) -> None:
        if message.get("type") == "websocket.accept":
            headers = [*message.get("headers", []), (WORKER_HEADER, worker)]
            message = {**message, "headers": headers}
        await send(message)

    return named


class Guard:
    """ASGI middleware: answer only our own host names and origins; hide the API pages."""

    def __init__(self, app: ASGI, sharing: Callable[[], Sharing]) -> None:
        self.app = app
        self.sharing = sharing

    def allows(self, headers: dict[bytes, bytes]) -> bool:
        s = self.sharing()
        host = headers.get(b"host", b"").decode("latin-1").lower()
        if host not in s.allowed_hosts():
            return False
        origin = headers.get(b"origin")
        return origin is None or origin.decode("latin-1").lower() in s.allowed_origins()

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        if not self.allows(headers):
            await _refuse(kind, receive, send, 403, b"Forbidden: unknown host or origin\n")
            return
        if scope.get("path") in HIDDEN:
            await _refuse(kind, receive, send, 404, b"Not Found\n")
            return
        if kind == "websocket" and _WORKER:
            send = _naming(send, _WORKER[0])
        await self.app(scope, receive, send)


async def _refuse(kind: str, receive: Any, send: Any, status: int, body: bytes) -> None:
    if kind == "websocket":
        await receive()  # websocket.connect
        # Closing before accepting makes the server answer the upgrade with 403.
        await send({"type": "websocket.close", "code": 1008})
        return
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def flet_asgi(
    main: Callable[..., Any],
    assets: Path,
    *,
    lang: str = "en",
    limits: Limits | None = None,
    trusted: frozenset[str] = frozenset(),
) -> tuple[ASGI, Any]:
    """Flet's web app (offline: no CDN) with the bounded WebSocket of wire.py, in an app with
    no API pages; and Flet's static files (what serve.StaticTuning resolves paths with)."""
    import flet_web.fastapi as flet_fastapi
    from flet_web.fastapi.flet_static_files import FletStaticFiles

    from ...phone.build import DESCRIPTION, NAME

    inner = flet_fastapi.app(
        main,
        assets_dir=str(assets),
        no_cdn=True,
        app_name=NAME,
        app_short_name=NAME,
        app_description=DESCRIPTION,
    )
    inner.router.routes = [
        r for r in inner.router.routes if getattr(r, "path", None) not in (*HIDDEN, "/ws")
    ]
    static = next(
        r.app for r in inner.router.routes if isinstance(getattr(r, "app", None), FletStaticFiles)
    )
    outer = flet_fastapi.FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    outer.add_api_websocket_route("/ws", endpoint(main, lang, limits or Limits(), trusted))
    outer.mount("/", inner)
    return outer, static


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ServeRefused(
                msg(
                    N_(
                        "port {port} on {host} is already in use (another Scorepad?): stop it, or choose another port with --port"
                    ),
                    port=port,
                    host=url_host(host),
                )
            ) from None
        raise ServeRefused(
            msg(
                N_("cannot listen on {host}:{port}: {reason}"),
                host=url_host(host),
                port=port,
                reason=exc.strerror or str(exc),
            )
        ) from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


class Server:
    """uvicorn serving one app on one or more sockets; more can be added while it runs."""

    bind = staticmethod(bind)  # the sockets for add(), for a caller that imports only this class

    def __init__(
        self,
        app: ASGI,
        *,
        certfile: Path | None,
        keyfile: Path | None,
        limits: Limits | None = None,
        trusted: frozenset[str] = frozenset(),
    ) -> None:
        self.app = app
        self.limits = limits or Limits()
        limits = self.limits
        # One count of incomplete requests per address for every socket the server serves.
        self.http = guarded_http(limits.header_within, limits.incomplete_per_address, trusted)
        self.ws = guarded_websocket(limits.frame_within)
        self.certfile = certfile
        self.keyfile = keyfile
        self.servers: list[Any] = []
        self.loop: asyncio.AbstractEventLoop | None = None

    def _config(self) -> Any:
        import uvicorn

        return uvicorn.Config(
            self.app,
            log_level="warning",
            http=self.http,
            # The sans-I/O protocol (websockets' own parser), with a time limit on a frame in
            # progress (transport.py); a frame larger than the app takes is refused from its
            # header, before its payload is buffered (uvicorn's default waits for 16 MiB).
            ws=self.ws,
            ws_max_size=self.limits.frame_max,
            ws_ping_interval=self.limits.ping_every,
            ws_ping_timeout=self.limits.ping_timeout,
            timeout_keep_alive=5,  # s: an idle kept-alive connection (uvicorn's own)
            h11_max_incomplete_event_size=16 * 1024,  # if uvicorn parses with h11
            lifespan="on" if not self.servers else "off",
            timeout_graceful_shutdown=1,
            # The peer address decides who is the host (wire.py): uvicorn must not rewrite it
            # from X-Forwarded-For; a proxy the host names is trusted there, in wire.peer_of.
            proxy_headers=False,
            # No per-message compression: the table's messages are small patches sent to every
            # page on every write, where zlib cost the server CPU per page and saved a LAN little;
            # a compressed frame from a client could also inflate far beyond its wire size.
            ws_per_message_deflate=False,
            ssl_certfile=str(self.certfile) if self.certfile else None,
            ssl_keyfile=str(self.keyfile) if self.keyfile else None,
        )

    def run(self, sockets: list[socket.socket], on_ready: Callable[[], None]) -> None:
        """Serve until SIGTERM or Ctrl-C; returns once every connection is closed."""
        import uvicorn

        stop = {"asked": False}

        def asked(sig: int, frame: Any) -> None:
            stop["asked"] = True  # uvicorn re-raises the signal it handled: let that end here

        old = {s: signal.signal(s, asked) for s in (signal.SIGTERM, signal.SIGINT)}
        try:
            main = uvicorn.Server(self._config())
            self.servers.append(main)

            async def serve() -> None:
                self.loop = asyncio.get_running_loop()
                task = asyncio.create_task(main.serve(sockets=sockets))
                while not main.started and not task.done():
                    await asyncio.sleep(0.05)
                if main.started:
                    on_ready()
                await task
                for extra in self.servers[1:]:
                    extra.should_exit = True
                await asyncio.gather(
                    *(s.shutdown() for s in self.servers[1:] if s.started), return_exceptions=True
                )

            asyncio.run(serve())
        finally:
            for s, handler in old.items():
                signal.signal(s, handler)

    def add(self, sockets: list[socket.socket]) -> None:
        """Serve the same app on more sockets too (the host shares the table while it runs)."""
        import uvicorn

        assert self.loop is not None
        extra = uvicorn.Server(self._config())
        self.servers.append(extra)

        async def start() -> None:
            await extra._serve(sockets=sockets)

        asyncio.run_coroutine_threadsafe(start(), self.loop)
