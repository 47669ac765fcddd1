"""The web server around Flet's: the engine files served from memory, compressed once, cached.

Flet's own server sends the Flutter engine (about 16 MB: the wasm renderer, the compiled app,
the fonts) uncompressed and without a caching policy, and reads each file from disk on every
request.  Here every static file is read once per server run and kept in memory, the large ones
gzip-compressed (a wasm file shrinks to about a third), each with a strong ETag made of its
content:

- a repeated request that names the ETag (``If-None-Match``) is answered ``304 Not Modified``
  with no body, from memory;
- the engine and the fonts are cacheable for a day (they change only with the pinned Flet
  version or the app's own fonts), so a second visit within the day asks for none of them;
- the page itself (``index.html``, also what an unknown route is answered with) and what names
  the engine files (``flutter_bootstrap.js``, the manifests) are revalidated on every visit
  (``no-cache``), so a new version of the app is picked up at once — for a 304 of a few bytes.

``SCOREPAD_WEB_TUNING=0`` serves exactly what Flet serves (the benchmark compares both).

The cache is keyed on the file a path resolves to (its real path, size and modification time,
as Flet's static files find it) and on the encoding, so the many spellings of one path
(``//a.js``, ``/x/../a.js``, an unknown path answered with ``index.html``) cost one entry; it
holds at most :data:`CACHE_BYTES` of bodies, the least recently used dropped first, and a file
larger than :data:`ENTRY_BYTES` is passed to Flet's server untouched.  A request that hits the
cache costs a ``stat`` of the file (a changed file is a new entry) and no read.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import mimetypes
import os
import posixpath
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from stat import S_ISDIR, S_ISREG
from typing import Any

mimetypes.add_type("application/wasm", ".wasm")  # as Flet's server: not every system knows them
mimetypes.add_type("text/javascript", ".mjs")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

COMPRESSED = (".wasm", ".js", ".mjs", ".ttf", ".otf", ".json", ".symbols", ".html", ".bin")
# What names the other files (or is the page): revalidated on every visit.
REVALIDATED = frozenset(
    {
        "index.html",
        "flutter_bootstrap.js",
        "flutter_service_worker.js",
        "manifest.json",
        "version.json",
        "FontManifest.json",
        "AssetManifest.bin",
        "AssetManifest.bin.json",
        "AssetManifest.json",
    }
)
NO_CACHE = "no-cache"
MAX_AGE = 86_400  # s: the engine changes only with the pinned Flet version
CACHED = f"public, max-age={MAX_AGE}"
MIN_SIZE = 2_048
CACHE_BYTES = 48 * 1024 * 1024  # what a browser fetches, compressed, is about 6 MB
ENTRY_BYTES = 16 * 1024 * 1024  # larger files (none the page asks for) pass through
Key = tuple[str, int, int]
Resolve = Callable[[str], "Key | None"]


def tuning_wanted() -> bool:
    return os.environ.get("SCOREPAD_WEB_TUNING", "1") != "0"


@dataclass(frozen=True)
class Entry:
    """One file's response, kept: its type, body (gzip-compressed or not) and ETag."""

    headers: tuple[tuple[bytes, bytes], ...]
    body: bytes
    etag: bytes
    policy: bytes
    gzipped: bool
    compressible: bool


class StaticTuning:
    """ASGI middleware: static files from memory, with ETags, a caching policy and gzip."""

    def __init__(
        self, app: ASGIApp, resolve: Resolve | None = None, *, fonts: dict[str, str] | None = None
    ) -> None:
        self.app = app
        self.resolve = resolve or _normalised
        # What the page is served instead of Flet's file of that name (kept, with its ETag).
        self.rewrites: dict[str, Callable[[bytes], bytes]] = {
            "flutter_bootstrap.js": without_service_worker,
            "FontManifest.json": font_manifest(fonts or {}),
        }
        # (real path, size, mtime, gzip) → its response, least recently used first
        self.cache: OrderedDict[tuple[str, int, int, bool], Entry] = OrderedDict()
        self.size = 0
        self.reads = 0  # files read from disk (each once while it is kept)
        self.loading: dict[tuple[str, int, int, bool], asyncio.Future[Entry | None]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        key = self.resolve(path)
        if key is None:  # not a file (a 404, or before Flet's files are set up): Flet answers
            policy = NO_CACHE if _revalidated(path) else CACHED
            await self.app(scope, receive, _with_headers(send, {"cache-control": policy}))
            return
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        name = key[0]
        compressible = name.endswith(COMPRESSED)
        wants_gzip = compressible and "gzip" in headers.get(b"accept-encoding", b"").decode(
            "latin-1"
        )
        cache_key = (*key, wants_gzip)
        entry = self.cache.get(cache_key)
        if entry is not None:
            self.cache.move_to_end(cache_key)
        else:
            # Many pages asking at once for a file not yet kept (the server has just started):
            # it is read and compressed once, and each waits for that.
            loading = self.loading.get(cache_key)
            if loading is None:
                loading = asyncio.ensure_future(self._load(key, wants_gzip, compressible))
                self.loading[cache_key] = loading
                loading.add_done_callback(lambda _: self.loading.pop(cache_key, None))
            entry = await asyncio.shield(loading)
            if entry is None:  # too large, or unreadable: Flet's server answers
                policy = NO_CACHE if _revalidated(name) else CACHED
                await self.app(scope, receive, _with_headers(send, {"cache-control": policy}))
                return
        await _respond(scope, send, entry, headers.get(b"if-none-match"))

    async def warm(self, paths: tuple[str, ...]) -> None:
        """Read and compress ``paths`` and the page before anybody asks: the first visitor
        after a start waits for no compression."""

        async def receive() -> Message:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def discard(message: Message) -> None:
            pass

        for path in ("/", *paths, "/"):  # the first sets Flet's files up, the last keeps the page
            scope = {
                "type": "http",
                "asgi": {"version": "3.0"},
                "http_version": "1.1",
                "method": "GET",
                "scheme": "http",
                "path": path,
                "raw_path": path.encode(),
                "root_path": "",
                "query_string": b"",
                "headers": [(b"accept-encoding", b"gzip")],
            }
            try:
                await self(scope, receive, discard)
            except Exception:  # a file that cannot be read now is read when it is asked for
                continue

    async def _load(self, key: Key, wants_gzip: bool, compressible: bool) -> Entry | None:
        """Read the file the path resolved to (that very file: what is kept under its key is its
        content) and keep its response; None for a file too large or that cannot be read."""
        if key[1] > ENTRY_BYTES:
            return None
        try:
            raw = await asyncio.to_thread(_read, key[0])
        except OSError:
            return None
        self.reads += 1
        size = len(raw)
        rewrite = self.rewrites.get(posixpath.basename(key[0]))
        if rewrite is not None:
            raw = rewrite(raw)
        gzipped = wants_gzip and len(raw) >= MIN_SIZE
        packed = await asyncio.to_thread(gzip.compress, raw, 6, mtime=0) if gzipped else raw
        digest = hashlib.sha256(raw).hexdigest()[:24]
        media = mimetypes.guess_type(key[0])[0] or "text/plain"
        if media.startswith("text/"):
            media += "; charset=utf-8"
        entry = Entry(
            headers=((b"content-type", media.encode()),),
            body=packed,
            etag=f'"{digest}{"-gz" if gzipped else ""}"'.encode(),
            policy=(NO_CACHE if _revalidated(key[0]) else CACHED).encode(),
            gzipped=gzipped,
            compressible=compressible,
        )
        if size != key[1]:
            return entry  # the file changed while it was read: served, not kept
        cache_key = (*key, wants_gzip)
        old = self.cache.pop(cache_key, None)
        if old is not None:
            self.size -= len(old.body)
        self.cache[cache_key] = entry
        self.size += len(packed)
        while self.size > CACHE_BYTES and len(self.cache) > 1:
            self.size -= len(self.cache.popitem(last=False)[1].body)
        return entry


def _read(name: str) -> bytes:
    with open(name, "rb") as f:
        return f.read()


# Flutter's bootstrap registers its service worker and waits for it before loading the engine,
# on every visit over HTTPS or on localhost: the worker, deprecated, only unregisters itself.
SERVICE_WORKER = re.compile(rb"\n\s*serviceWorkerSettings:\s*\{[^{}]*\},")
# Fonts every page loads before its first frame: the formulas' (KaTeX, for Markdown maths) and
# the iOS-style icons are in Flet's client, never on a Scorepad screen; 17 files less to load.
UNUSED_FONTS = ("packages/flutter_math_fork/", "packages/cupertino_icons/")


def without_service_worker(body: bytes) -> bytes:
    return SERVICE_WORKER.sub(b"", body, count=1)


def font_manifest(fonts: dict[str, str]) -> Callable[[bytes], bytes]:
    """Flutter's font manifest without the unused fonts and with the app's own (``fonts``:
    family → path under the assets folder, as ``page.fonts``): they are then loaded with the
    engine, before its first frame, not once the first screen has arrived and is drawn again."""

    def rewrite(body: bytes) -> bytes:
        try:
            families = json.loads(body)
            kept = [f for f in families if not str(f.get("family", "")).startswith(UNUSED_FONTS)]
        except (ValueError, AttributeError):
            return body  # not the manifest this was written for: as it is
        # The manifest's paths are under /assets/; the app's fonts are served from the root.
        kept += [{"family": k, "fonts": [{"asset": f"../{v}"}]} for k, v in fonts.items()]
        return json.dumps(kept).encode()

    return rewrite


def _revalidated(path: str) -> bool:
    name = posixpath.basename(path)
    return name in REVALIDATED or name.endswith(".html") or "." not in name


def _matches(if_none_match: bytes | None, etag: bytes) -> bool:
    if if_none_match is None:
        return False
    tags = [t.strip() for t in if_none_match.split(b",")]
    return any(t == b"*" or t.removeprefix(b"W/") == etag for t in tags)


async def _respond(scope: Scope, send: Send, entry: Entry, if_none_match: bytes | None) -> None:
    common = [
        (b"etag", entry.etag),
        (b"cache-control", entry.policy),
        *([(b"vary", b"Accept-Encoding")] if entry.compressible else []),
    ]
    if _matches(if_none_match, entry.etag):
        await send({"type": "http.response.start", "status": 304, "headers": common})
        await send({"type": "http.response.body", "body": b""})
        return
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [
                *entry.headers,
                *common,
                *([(b"content-encoding", b"gzip")] if entry.gzipped else []),
                _header("content-length", str(len(entry.body))),
            ],
        }
    )
    await send(
        {"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else entry.body}
    )


# What a browser fetches first, plus the fonts: what the server warms once it is up.  Only
# the wasm build and the skwasm renderer that Chromium-based browsers (most phones) load: the
# JavaScript build and CanvasKit, for the others, are compressed at their first request, so a
# server start (every test's too) does not pay a second of CPU for them.
ENGINE = (
    "/flutter_bootstrap.js",
    "/main.dart.wasm",
    "/main.dart.mjs",
    "/canvaskit/skwasm.wasm",
    "/canvaskit/skwasm.js",
    "/assets/FontManifest.json",
    "/assets/fonts/MaterialIcons-Regular.otf",
    "/fonts/DejaVuSans.ttf",
    "/fonts/DejaVuSans-Bold.ttf",
)


def _normalised(path: str) -> Key:
    """Without Flet's files to ask: the path as a file system would resolve it."""
    return posixpath.normpath("/" + path.lstrip("/")), 0, 0


def static_resolver(static: Any) -> Resolve:
    """The file Flet's static files serve for a path (``index.html`` for an unknown one);
    None before Flet's files are set up (its first request does that) or for no file."""

    def resolve(path: str) -> Key | None:
        if not hasattr(static, "all_directories"):
            return None
        relative = posixpath.normpath(path.lstrip("/") or ".")
        try:
            full, stat = static.lookup_path(relative)
        except (OSError, ValueError):
            return None
        if stat is not None and S_ISDIR(stat.st_mode):  # a folder: its index.html (Starlette's)
            try:
                full, stat = static.lookup_path(posixpath.join(relative, "index.html"))
            except (OSError, ValueError):
                return None
        if stat is None or not S_ISREG(stat.st_mode):
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
