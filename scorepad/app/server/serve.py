"""The web server around Flet's: the engine files compressed once and cached by the browser.

Flet's own server sends the Flutter engine (about 16 MB: the wasm renderer, the compiled app,
the fonts) uncompressed and without a caching policy, so every visit asks for each file again.
Here each large static file is gzip-compressed once per server run (a wasm file shrinks to about
a third) and marked cacheable for a day; the page itself and its bootstrap are revalidated on
every visit, so a new version of the app is picked up.  ``SCOREPAD_WEB_TUNING=0`` serves exactly
what Flet serves (the benchmark compares both).
"""

from __future__ import annotations

import gzip
import os
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


def tuning_wanted() -> bool:
    return os.environ.get("SCOREPAD_WEB_TUNING", "1") != "0"


class StaticTuning:
    """ASGI middleware: caching headers on every static file, gzip on the large ones."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.cache: dict[tuple[str, str], bytes] = {}  # (path, etag) → gzip body

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
        etag = next((v.decode() for k, v in response_headers if k.lower() == b"etag"), "")
        if start.get("status") != 200 or len(raw) < MIN_SIZE:
            await send(
                {**start, "headers": [*response_headers, _header("content-length", str(len(raw)))]}
            )
            await send({"type": "http.response.body", "body": raw})
            return
        key = (path, etag)
        packed = self.cache.get(key)
        if packed is None:
            packed = self.cache[key] = gzip.compress(raw, compresslevel=6, mtime=0)
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
