"""The served web app as an app of its own: Scorepad's name, icon and colours, a service worker
that keeps Scorepad's own "the table is unreachable" screen, no request to a public CDN, and the
app that runs on a phone by itself at ``/app/``.

- ``manifest.json`` is Scorepad's (Flet's stock one names and draws "Flet"), ``index.html`` says
  Scorepad's colours and registers ``scorepad-sw.js``.
- The service worker keeps ``scorepad-offline.html``: a navigation (a reload, a return to the
  app from the home screen) that cannot reach the server gets that screen, in the language the
  device chose, saying the table is unreachable and nothing written is lost; it asks the server
  (``scorepad-alive``) every two seconds and reloads the app once it answers. Everything else
  goes to the network as before (the server's own caching, serve.py): the app's Python runs on
  the server, so there is nothing more to start without it.
- Flet's client loads the Rive runtime from cdn.jsdelivr.net on every start (an optional player
  of animations no Scorepad screen has); its address is replaced in the client, with one of the
  same length on the server itself, where it is not found, as it is not when there is no network.
- ``/app/``: the folder ``scorepad build-app --base /app/`` makes, built at its first request
  (in a process of its own, kept in the user's cache folder for the next start; a changed app or
  Flet is a new build), so that a phone that opens it once has the whole app with no laptop.

Service workers are a browser's only on a secure origin: https (``--certfile``) or this computer
(127.0.0.1, localhost). A phone on plain http://192.168… gets the app as before, without them.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import html
import json
import os
import shutil
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from ...core.i18n import LANGUAGES, N_, catalog, language_of, msg
from ...phone.build import BACKGROUND_COLOR, NAME, SERVICE_WORKER, THEME_COLOR, manifest
from ..frame.theme import assets_dir

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

OFFLINE = "scorepad-offline.html"
ALIVE = "scorepad-alive"
PHONE_APP = "/app/"

#: Where Flet's client looks for the Rive runtime, and what it looks at instead: a path of the
#: same length (the compiled client keeps the string's length) on the page's own server.
RIVE_CDN = b"https://cdn.jsdelivr.net/npm/@rive-app/flutter-native-wasm@44.0.0/"
RIVE_HERE = b"/scorepad-no-cdn/".ljust(len(RIVE_CDN) - 1, b"-") + b"/"

UNREACHABLE = N_("The table is unreachable")
NOTHING_LOST = N_(
    "Nothing written is lost: every deal written is kept on the table's computer. Check that this "
    "phone is on the table's network and that Scorepad still runs there."
)
RECONNECTING = N_("Reconnecting…")

SERVICE_WORKER_JS = """\
// Scorepad's service worker on its server: keeps Scorepad's own screen for a start without the
// server, and nothing else (the app's Python runs on the server).
const CACHE = "scorepad-shell-__VERSION__";
const OFFLINE = "__OFFLINE__";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.add(new Request(OFFLINE, { cache: "reload" })))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((k) => k.startsWith("scorepad-shell-") && k !== CACHE)
          .map((k) => caches.delete(k))
      ))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  // Only a page being opened: the phone app below /app/ has its own worker.
  if (request.mode !== "navigate" || url.origin !== self.location.origin ||
      url.pathname.startsWith("__PHONE_APP__")) {
    return;
  }
  event.respondWith((async () => {
    // A network that swallows packets (a phone gone out of the wifi) answers never: given up
    // on after a while, and the screen below keeps asking.
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), 8000);
    try {
      return await fetch(request, { signal: abort.signal });
    } catch (e) {
      const kept = await caches.match(OFFLINE);
      return kept || Response.error();
    } finally {
      clearTimeout(timer);
    }
  })());
});
"""

OFFLINE_HTML = """\
<!DOCTYPE html>
<html>
<head>
  <meta charset="UTF-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="theme-color" content="__THEME__">
  <title>__NAME__</title>
  <style>
    body { margin: 0; min-height: 100vh; display: flex; align-items: center;
           justify-content: center; font-family: sans-serif; background: __BACKGROUND__;
           color: #1b1b1b; }
    main { max-width: 28rem; padding: 1.5rem; text-align: center; }
    img { width: 96px; height: 96px; }
    h1 { font-size: 1.4rem; color: __THEME__; }
    p { line-height: 1.45; }
    @media (prefers-color-scheme: dark) {
      body { background: #141414; color: #e6e6e6; }
      h1 { color: #8fd1ad; }
    }
  </style>
</head>
<body>
  <main id="scorepad-offline">
    <img alt="" src="data:image/png;base64,__ICON__">
    <h1 id="unreachable"></h1>
    <p id="nothing-lost"></p>
    <p id="reconnecting"></p>
  </main>
  <script>
    // The sentences in every language of the app; the device's choice, else the browser's.
    const SAID = __SAID__;
    const PRIMARY = __PRIMARY__;
    function chosen() {
      try {
        const kept = JSON.parse(localStorage.getItem("flutter.scorepad-language") || "null");
        if (kept in SAID) return kept;
      } catch (e) {}
      for (const tag of navigator.languages || [navigator.language || ""]) {
        const code = tag.replace(/-/g, "_");
        if (code in SAID) return code;
        const first = code.split("_")[0].toLowerCase();
        if (first in PRIMARY) return PRIMARY[first];
      }
      return "__DEFAULT__";
    }
    const said = SAID[chosen()];
    document.documentElement.lang = chosen().split("_")[0];
    for (const id of ["unreachable", "nothing-lost", "reconnecting"]) {
      document.getElementById(id).textContent = said[id];
    }
    // Reconnecting by itself: the app comes back as soon as its server answers.
    async function ask() {
      try {
        const answer = await fetch("/__ALIVE__?" + Date.now(), { cache: "no-store" });
        if (answer.ok) { location.reload(); return; }
      } catch (e) {}
      setTimeout(ask, 2000);
    }
    setTimeout(ask, 2000);
  </script>
</body>
</html>
"""


def without_cdn(body: bytes) -> bytes:
    """Flet's compiled client (``main.dart.js`` or ``.wasm``) asking its own server, not a CDN."""
    return body.replace(RIVE_CDN, RIVE_HERE)


def manifest_json(body: bytes) -> bytes:
    """Scorepad's manifest in place of Flet's (which names and draws "Flet")."""
    return (json.dumps(manifest(), indent=2) + "\n").encode()


def index_html(body: bytes) -> bytes:
    """Flet's page with Scorepad's colours and service worker."""
    text = body.decode("utf-8")
    text = text.replace('content="black"', 'content="default"')
    # Scorepad's icons where Flet's template names Flet's (the splash, the tab, the home screen).
    text = text.replace('href="icons/apple-touch-icon-192.png"', 'href="icons/icon-192.png"')
    text = text.replace('href="favicon.png"', 'href="icons/icon-192.png"')
    text = text.replace('src="icons/loading-animation.png"', 'src="icons/icon-512.png"')
    text = text.replace("background: #ffffff;", f"background: {BACKGROUND_COLOR};")
    text = text.replace(
        "</head>",
        f'  <meta name="theme-color" content="{THEME_COLOR}">\n'
        "  <script>\n"
        "    // Scorepad's own screen when the server cannot be reached (installable.py).\n"
        "    if ('serviceWorker' in navigator) {\n"
        "      navigator.serviceWorker.register('scorepad-sw.js').catch(() => null);\n"
        "    }\n"
        "  </script>\n"
        "</head>",
        1,
    )
    return text.encode("utf-8")


#: What serve.StaticTuning serves in place of Flet's files of these names.
REWRITES: dict[str, Callable[[bytes], bytes]] = {
    "index.html": index_html,
    "manifest.json": manifest_json,
    "main.dart.js": without_cdn,
    "main.dart.wasm": without_cdn,
}


def offline_page(default: str) -> bytes:
    """Scorepad's screen for a start without its server, in every language of the app."""
    said = {
        lang: {
            "unreachable": catalog(lang).render(msg(UNREACHABLE)),
            "nothing-lost": catalog(lang).render(msg(NOTHING_LOST)),
            "reconnecting": catalog(lang).render(msg(RECONNECTING)),
        }
        for lang in LANGUAGES
    }
    primary = {code.split("_")[0]: language_of(code.split("_")[0]) for code in LANGUAGES}
    primary = {k: v for k, v in primary.items() if v in LANGUAGES}
    icon = base64.b64encode((assets_dir() / "icons" / "icon-192.png").read_bytes()).decode()
    page = OFFLINE_HTML
    for key, value in {
        "__SAID__": json.dumps(said, ensure_ascii=False),
        "__PRIMARY__": json.dumps(primary),
        "__DEFAULT__": default,
        "__ALIVE__": ALIVE,
        "__ICON__": icon,
        "__THEME__": THEME_COLOR,
        "__BACKGROUND__": BACKGROUND_COLOR,
        "__NAME__": html.escape(NAME),
    }.items():
        page = page.replace(key, value)
    return page.encode("utf-8")


def service_worker(offline: bytes) -> bytes:
    """The worker, named by what it keeps: a changed screen is a new worker, which replaces it."""
    version = hashlib.sha256(SERVICE_WORKER_JS.encode() + offline).hexdigest()[:16]
    script = SERVICE_WORKER_JS.replace("__VERSION__", version)
    script = script.replace("__OFFLINE__", OFFLINE).replace("__PHONE_APP__", PHONE_APP)
    return script.encode("utf-8")


def cache_folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "scorepad" / "phone-app"


def build_key() -> str:
    """What the phone app is built from: Scorepad's files, its assets, Flet's client, whether
    Node.js is there (the build compiles with it): a change to any is a new build."""
    from ...phone.build import PACKAGE

    digest = hashlib.sha256(PHONE_APP.encode())
    try:
        import flet_web.version

        digest.update(str(flet_web.version.version).encode())
    except ImportError:
        pass
    digest.update(b"node" if shutil.which("node") else b"")
    for root in (PACKAGE, assets_dir()):
        for path in sorted(root.rglob("*")):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            stat = path.stat()
            digest.update(
                f"{path.relative_to(root)}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode()
            )
    return digest.hexdigest()[:20]


class PhoneAppUnavailable(Exception):
    pass


async def built_phone_app(lang: str) -> Path:
    """The phone app's folder, built with ``scorepad build-app`` in a process of its own (the
    server's own pages go on being served while it builds), or the one an earlier start built."""
    key = await asyncio.to_thread(build_key)
    folder = cache_folder() / key / "app"
    if (folder / SERVICE_WORKER).is_file():
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "scorepad.cli",
        "--lang",
        lang,
        "build-app",
        str(folder),
        "--base",
        PHONE_APP,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _out, err = await proc.communicate()
    if proc.returncode != 0 or not (folder / SERVICE_WORKER).is_file():
        raise PhoneAppUnavailable(err.decode("utf-8", "replace").strip())
    for other in cache_folder().iterdir():  # the builds of former versions
        if other.name != key:
            shutil.rmtree(other, ignore_errors=True)
    return folder


class Installable:
    """ASGI middleware: the service worker, its screen, ``scorepad-alive`` and ``/app/``."""

    def __init__(self, app: ASGIApp, lang: str) -> None:
        self.app = app
        self.lang = lang
        self.offline = offline_page(lang)
        self.worker = service_worker(self.offline)
        self.phone: asyncio.Future[Path] | None = None
        self.files: Any = None  # Starlette's static files of the phone app's folder

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if path == "/" + SERVICE_WORKER:
            await answer(send, 200, self.worker, "text/javascript; charset=utf-8")
        elif path == "/" + OFFLINE:
            await answer(send, 200, self.offline, "text/html; charset=utf-8")
        elif path == "/" + ALIVE:
            await answer(send, 204, b"", "text/plain")
        elif path.startswith(RIVE_HERE.decode()):
            await answer(send, 404, b"Not Found\n", "text/plain")
        elif path == PHONE_APP.rstrip("/"):
            await answer(send, 308, b"", "text/plain", location=PHONE_APP)
        elif path.startswith(PHONE_APP):
            await self._phone_app(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _phone_app(self, scope: Scope, receive: Receive, send: Send) -> None:
        from starlette.staticfiles import StaticFiles

        if self.phone is None or (self.phone.done() and self.phone.exception() is not None):
            self.phone = asyncio.ensure_future(built_phone_app(self.lang))
        try:
            folder = await asyncio.shield(self.phone)
        except PhoneAppUnavailable as exc:
            said = catalog(self.lang).render(
                msg(
                    N_("The app for a phone alone could not be built here: {reason}"),
                    reason=str(exc),
                )
            )
            await answer(send, 503, said.encode() + b"\n", "text/plain; charset=utf-8")
            return
        if self.files is None:
            self.files = StaticFiles(directory=str(folder), html=True)
        inner = {**scope, "root_path": scope.get("root_path", "") + PHONE_APP.rstrip("/")}
        await self.files(inner, receive, send)


async def answer(
    send: Send, status: int, body: bytes, media: str, *, location: str | None = None
) -> None:
    headers = [
        (b"content-type", media.encode()),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-cache"),
    ]
    if location is not None:
        headers.append((b"location", location.encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
