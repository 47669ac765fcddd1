"""The web server around Flet's: the engine files compressed once and cached by the browser.

Flet's own server sends the Flutter engine (about 16 MB: the wasm renderer, the compiled app,
the fonts) uncompressed and without a caching policy, so every visit asks for each file again.
Here each large static file is gzip-compressed once per server run (a wasm file shrinks to about
a third) and marked cacheable for a day; the page itself and its bootstrap are revalidated on
every visit, so a new version of the app is picked up.  ``SCOREPAD_WEB_TUNING=0`` serves exactly
what Flet serves (the benchmark compares both).

The cache is keyed on the file a path resolves to (its real path, size and modification time,
as Flet's static files find it), so the many spellings of one path (``//a.js``, ``/x/../a.js``,
an unknown path answered with ``index.html``) cost one compression; it holds at most
:data:`CACHE_BYTES` of compressed bodies, the least recently used dropped first.
"""

from __future__ import annotations

import gzip
import os
import posixpath
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

COMPRESSED = (".wasm", ".js", ".mjs", ".ttf", ".otf", ".json", ".symbols")
REVALIDATED = ("/", "/index.html", "/flutter_bootstrap.js", "/manifest.json", "/version.json")
MAX_AGE = 86_400  # s: the engine changes only with the pinned Flet version
MIN_SIZE = 2_048
CACHE_BYTES = 48 * 1024 * 1024  # the whole engine compressed is about 6 MB
Resolve = Callable[[str], "tuple[str, int, int] | None"]


def tuning_wanted() -> bool:
    return os.environ.get("SCOREPAD_WEB_TUNING", "1") != "0"


class StaticTuning:
    """ASGI middleware: caching headers on every static file, gzip on the large ones."""

    def __init__(self, app: ASGIApp, resolve: Resolve | None = None) -> None:
        self.app = app
        self.resolve = resolve or _normalised
        # (real path, size, mtime) → gzip body, least recently used first
        self.cache: OrderedDict[tuple[str, int, int], bytes] = OrderedDict()
        self.size = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        policy = (
            "no-cache"
            if path in REVALIDATED or path.endswith(".html")
            else f"public, max-age={MAX_AGE}"
        )
        headers = {k.decode().lower(): v.decode() for k, v in scope.get("headers", [])}
        gzip_ok = "gzip" in headers.get("accept-encoding", "")
        if not (gzip_ok and path.endswith(COMPRESSED)):
            await self.app(scope, receive, _with_headers(send, {"cache-control": policy}))
            return
        await self._compressed(scope, receive, send, path, policy)

    async def _compressed(
        self, scope: Scope, receive: Receive, send: Send, path: str, policy: str
    ) -> None:
        start: Message = {}
        body: list[bytes] = []

        async def collect(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                body.append(message.get("body", b""))

        await self.app(scope, receive, collect)
        raw = b"".join(body)
        response_headers = [
            (k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"
        ]
        key = self.resolve(path)
        if start.get("status") != 200 or len(raw) < MIN_SIZE or key is None:
            await send(
                {**start, "headers": [*response_headers, _header("content-length", str(len(raw)))]}
            )
            await send({"type": "http.response.body", "body": raw})
            return
        packed = self.cache.get(key)
        if packed is None:
            packed = gzip.compress(raw, compresslevel=6, mtime=0)
            self.cache[key] = packed
            self.size += len(packed)
            while self.size > CACHE_BYTES and len(self.cache) > 1:
                self.size -= len(self.cache.popitem(last=False)[1])
        else:
            self.cache.move_to_end(key)
        response_headers += [
            _header("content-encoding", "gzip"),
            _header("content-length", str(len(packed))),
            _header("cache-control", policy),
            _header("vary", "Accept-Encoding"),
        ]
        await send({**start, "headers": response_headers})
        await send(
            {"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else packed}
        )


# What a browser fetches first (Chromium: the wasm build and the skwasm renderer; others: the
# JavaScript build and CanvasKit), plus the bundled fonts: what the benchmark warms first.
ENGINE = (
    "/main.dart.wasm",
    "/main.dart.mjs",
    "/canvaskit/skwasm.wasm",
    "/canvaskit/skwasm.js",
    "/main.dart.js",
    "/canvaskit/canvaskit.wasm",
    "/canvaskit/canvaskit.js",
    "/fonts/DejaVuSans.ttf",
    "/fonts/DejaVuSans-Bold.ttf",
)


def _normalised(path: str) -> tuple[str, int, int]:
    """Without Flet's files to ask: the path as a file system would resolve it."""
    return posixpath.normpath("/" + path.lstrip("/")), 0, 0


def static_resolver(static: Any) -> Resolve:
    """The file Flet's static files serve for a path (``index.html`` for an unknown one)."""

    def resolve(path: str) -> tuple[str, int, int] | None:
        relative = posixpath.normpath(path.lstrip("/") or ".")
        try:
            full, stat = static.lookup_path(relative)
        except (OSError, ValueError):
            return None
        if stat is None:
            return None
        return os.path.realpath(full), stat.st_size, stat.st_mtime_ns

    return resolve


def _header(name: str, value: str) -> tuple[bytes, bytes]:
    return name.encode(), value.encode()


def _with_headers(send: Send, extra: dict[str, str]) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start" and message.get("status") in (200, 304):
            names = {k.lower() for k, _ in message.get("headers", [])}
            message = {
                **message,
                "headers": [
                    *message.get("headers", []),
                    *(_header(k, v) for k, v in extra.items() if k.encode() not in names),
                ],
            }
        await send(message)

    return sending
