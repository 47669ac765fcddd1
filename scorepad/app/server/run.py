"""Starting the app: a desktop window where a display and the desktop client exist, otherwise
the web app on 127.0.0.1; always offline (``no_cdn``), with its fonts bundled.

``--share`` (or any address that is not this computer's) serves the table on the network, behind
a table PIN; ``--pin`` asks for the PIN on 127.0.0.1 too."""

from __future__ import annotations

import asyncio
import gc
import os
import socket
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import flet as ft

from ...core.i18n import N_, Msg, msg
from ...store import Store
from ..analyses import ANALYSES
from ..club.public import STANDINGS, public_standings
from ..club.tables import table_pins
from ..frame import flet_diff, live, outside, theme
from ..frame.screens import sessions_screen
from ..frame.shell import Shell, remember_language, remembered_language
from ..frame.theme import assets_dir
from ..screens.table import JOIN, join, join_needed, pin_screen
from . import listen
from .access import (
    Access,
    Gate,
    ServeRefused,
    check_pin_option,
    generate_pin,
    valid_token,
)
from .devices import device_key
from .grants import Grants
from .installable import REWRITES, Installable
from .serve import ENGINE, StaticTuning, static_resolver, tuning_wanted
from .server import Guard, Server, bind, flet_asgi
from .share import Sharing, banner, is_loopback, public_base, public_refused
from .table import Table
from .throttle import WALL_CLOCK, SharedThrottle
from .transport import more_descriptors
from .wire import PEER, Limits

DEVICE_KEY = "scorepad-device"


async def device_token(page: ft.Page, gate: Gate) -> str:
    """This browser's token (kept in its local storage): the device the PIN is remembered for.

    Only a token this server issued (or that gave the PIN before a restart) is taken; any other
    is replaced, so a device cannot pass itself off as one that was at the table before."""
    prefs = ft.SharedPreferences()
    try:
        token = await asyncio.wait_for(prefs.get(DEVICE_KEY), timeout=10)
        if valid_token(token) and gate.known(str(token)):
            gate.meet(str(token))
            return str(token)
        token = gate.issue()
        gate.meet(token)
        await asyncio.wait_for(prefs.set(DEVICE_KEY, token), timeout=10)
        return token
    except (TimeoutError, RuntimeError):
        token = gate.issue()  # no storage: this page alone is the device
        gate.meet(token)
        return token


def make_main(  # type: ignore[no-untyped-def]
    db: Path,
    lang: str,
    table: Table | None = None,
    *,
    store: Store | None = None,
    lock: threading.RLock | None = None,
):
    store = store or Store(db, check_same_thread=False)
    lock = lock or threading.RLock()

    async def main(page: ft.Page) -> None:
        page.title = "Scorepad"
        theme.apply(page)
        outside.watch(page, store, lock)  # another process's writes shown as the app's own
        standings = STANDINGS.fullmatch(page.route or "/")
        if standings:  # a club night's live standings: read-only, the token is the right
            public_standings(page, store, lang, lock, standings[1])
            return
        if table is None:
            shell = Shell(page, store, await remembered_language(lang), lock)
            shell.remember_language = lambda code: page.run_task(remember_language, code)
            shell.show(sessions_screen)
            return
        # Who is calling was decided from the socket before any frame was read (wire.py);
        # page.client_ip, which the client can write, is never asked.
        peer = PEER.get()
        here = table.here(peer)
        # Both asked of the browser at once: one round trip before the first screen, not two.
        chosen, device = await asyncio.gather(
            remembered_language(lang), device_token(page, table.gate)
        )
        access = Access(table.gate, device, loopback=here, address=peer)
        shell = Shell(page, store, chosen, lock, access=access)
        shell.remember_language = lambda code: page.run_task(remember_language, code)
        shell.table = table
        live.subscribe(shell)  # live updates, and the current state after a reconnect
        if store.backend.dialect == "postgresql":  # told when the database is lost and back
            listen.follow(shell)
        found = JOIN.fullmatch(page.route or "/")
        if found:
            join(shell, int(found[1]), found[2] or "")
        elif not here:
            shell.show(join_needed)
        elif not access.may_write:
            shell.show(pin_screen)
        else:
            shell.show(sessions_screen)

    main.store = store  # type: ignore[attr-defined]
    return main


_SHORTENED = {  # what the tests shorten (environment variable → Limits field)
    "SCOREPAD_REGISTER_WITHIN": "register_within",
    "SCOREPAD_HEADER_WITHIN": "header_within",
    "SCOREPAD_FRAME_WITHIN": "frame_within",
    "SCOREPAD_PING_EVERY": "ping_every",
    "SCOREPAD_PING_TIMEOUT": "ping_timeout",
}


def limits() -> Limits:
    """What one connection may cost; the tests shorten some waits."""
    shortened = {
        field: float(os.environ[name]) for name, field in _SHORTENED.items() if name in os.environ
    }
    return Limits(**shortened)


def desktop_client() -> tuple[bool, Msg | None]:
    """Whether a desktop window can open, and if not while a person sits at a display, why.

    The window is Flet's desktop client, a separate program: the ``flet-desktop`` package only
    fetches it from the internet on first use, which fails offline with a traceback (issue #38).
    So the window opens only where the client is already there, in the package (a bundled
    archive) or in Flet's cache from an earlier run; otherwise the app is served in the browser.
    """
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        return False, None  # a server, or a terminal without a screen: the web app, as always
    try:
        import flet_desktop
    except ImportError:
        return False, msg(
            N_(
                "No desktop window: Flet's desktop client is not installed (pip install flet-desktop==1.0.5, then run scorepad once with the internet), so the app opens in the browser."
            )
        )
    version = getattr(getattr(flet_desktop, "version", None), "version", "")
    bundled = Path(flet_desktop.get_package_bin_dir())
    cache = Path.home() / ".flet" / "client"
    if (bundled.is_dir() and any(bundled.glob("flet-*"))) or (
        cache.is_dir() and any(cache.glob(f"flet-desktop-*-{version}*"))
    ):
        return True, None
    return False, msg(
        N_(
            "No desktop window: Flet's desktop client has not been downloaded yet (run scorepad once with the internet), so the app opens in the browser."
        )
    )


def run(
    db: Path,
    lang: str,
    *,
    web: bool = False,
    host: str = "127.0.0.1",
    port: int = 8550,
    share: bool = False,
    pin: str | None = None,
    certfile: Path | None = None,
    keyfile: Path | None = None,
    pin_wait: float | None = None,
    trusted_proxy: tuple[str, ...] = (),
    join_session: int | None = None,
    public_url: tuple[str, ...] = (),
) -> None:
    flet_diff.install()  # every page's diff, on the desktop and on the server alike
    if share and is_loopback(host):
        host = "0.0.0.0"
    networked = not is_loopback(host) or bool(trusted_proxy or public_url)
    if not (web or networked or pin or certfile):
        window, why = desktop_client()
        if window:
            main = make_main(db, lang)
            ft.run(main, view=ft.AppView.FLET_APP, assets_dir=str(assets_dir()))
            return
        if why is not None:
            print(why.render(lang), flush=True)
    serve(
        db,
        lang,
        host=host,
        port=port,
        pin=pin,
        certfile=certfile,
        keyfile=keyfile,
        pin_wait=pin_wait,
        trusted_proxy=trusted_proxy,
        join_session=join_session,
        public_url=public_url,
    )


def check_tls_files(certfile: Path | None, keyfile: Path | None) -> None:
    """Both TLS files or neither, and each one there: said before anything is opened."""
    if (certfile is None) != (keyfile is None):
        raise ServeRefused(msg(N_("--certfile and --keyfile go together: give both or neither")))
    for f in (certfile, keyfile):
        if f is not None and not f.is_file():
            raise ServeRefused(msg(N_("cannot read {path}: no such file"), path=str(f)))


def server_pin(pin: str | None, *, networked: bool) -> str | None:
    """The PIN given, checked (a longer one on the network), or one generated: a table on the
    network never goes without one."""
    if pin is not None:
        return check_pin_option(pin, shared=networked)
    return generate_pin() if networked else None


def serve(
    db: Path | str,
    lang: str,
    *,
    host: str,
    port: int,
    pin: str | None,
    certfile: Path | None,
    keyfile: Path | None,
    pin_wait: float | None = None,
    trusted_proxy: tuple[str, ...] = (),
    join_session: int | None = None,
    public_url: tuple[str, ...] = (),
    sock: socket.socket | None = None,
    explicit: bool | None = None,
    quiet: bool = False,
    on_ready: Callable[[], None] | None = None,
) -> None:
    """The web app on ``host:port`` until SIGTERM or Ctrl-C; the database is closed on the way out.

    ``public_url``: the addresses the phones open through a reverse proxy (its TLS in front):
    answered as the server's own, printed in the join links and their QR codes.

    One worker of several (workers.py): ``sock`` is the listening socket the supervisor bound,
    ``pin`` the PIN it chose for every worker (``explicit``: whether it was given with --pin),
    ``quiet`` leaves the banner (and the engine's warming) to the first worker, ``on_ready`` is
    called once it serves."""

    check_tls_files(certfile, keyfile)
    public = public_addresses(public_url)
    if explicit is None:
        explicit = pin is not None
    # A proxy forwards other devices: the table is on the network as much as with --share.
    pin = server_pin(pin, networked=not is_loopback(host) or bool(trusted_proxy) or bool(public))
    more_descriptors()  # a descriptor per connection: 1,024 is a few hundred phones
    if sock is None:
        sock = bind(host, port)  # before the database is opened: a busy port creates no file
    try:
        store = Store(db, check_same_thread=False)
    except BaseException:
        sock.close()
        raise
    if join_session is not None and join_session not in {s.id for s in store.sessions()}:
        store.close()
        sock.close()
        raise ServeRefused(msg(N_("there is no session {id} to join"), id=join_session))
    lock = threading.RLock()  # one database connection: the pages' and the grants'
    grants = Grants(store, lock)
    shared = store.backend.dialect == "postgresql"  # other workers may grant and forget
    gate = Gate(
        pin,
        explicit=explicit,
        grants=grants,
        table_pins=table_pins(store, lock),
        shared=shared,
    )
    if shared:  # the wrong PINs counted once for every worker (throttle.py), tokens known
        gate.throttle, gate.clock = SharedThrottle(store, lock), WALL_CLOCK
        gate.device_key = device_key(store, lock)  # to every worker (devices.py)
    if pin_wait is not None:
        gate.wait = pin_wait
    sharing = Sharing.make(host, port, tls=certfile is not None, pin=pin, public=tuple(public))
    table = Table(gate, sharing, grants=grants)
    main = make_main(db, lang, table, store=store, lock=lock)
    server, tuning = web_server(
        main, lang, table, trusted=frozenset(trusted_proxy), certfile=certfile, keyfile=keyfile
    )

    def said() -> str:
        # The QR code is of the session the host chose (--join), never a guess.
        chosen = (join_session, grants.link(join_session)) if join_session is not None else None
        return banner(table.sharing, lang, join=chosen, explicit=explicit)

    run_until_stopped(server, sock, store, str(db), main, tuning, said, quiet, on_ready)


def public_addresses(urls: tuple[str, ...]) -> list[str]:
    """The ``--public-url`` addresses as the server answers them; a bad one is refused."""
    public: list[str] = []
    for url in urls:
        base = public_base(url)
        if base is None:
            raise ServeRefused(public_refused(url))
        public.append(base)
    return public


def web_server(
    main: Any,
    lang: str,
    table: Table,
    *,
    trusted: frozenset[str],
    certfile: Path | None,
    keyfile: Path | None,
    around: Callable[[Any], Any] | None = None,
) -> tuple[Server, StaticTuning | None]:
    """The app's pages (``main``) behind the server's guards: the LAN's and the hosted one's;
    ``around`` wraps the app in doors of its own (the hosted server's league), inside the guard."""
    bounds = limits()
    app, static = flet_asgi(main, assets_dir(), lang=lang, limits=bounds, trusted=trusted)
    tuning = None
    if tuning_wanted():  # the engine files compressed once and cached (serve.py)
        app = tuning = StaticTuning(app, static_resolver(static), fonts=theme.FONTS)
        # Scorepad's page, manifest and client with no CDN in place of Flet's (installable.py).
        tuning.rewrites.update(REWRITES)
    # Its service worker and unreachable screen, and the app for a phone alone at /app/.
    app = Installable(app, lang)
    if around is not None:
        app = around(app)
    server = Server(
        Guard(app, lambda: table.sharing),
        certfile=certfile,
        keyfile=keyfile,
        limits=bounds,
        trusted=trusted,
    )
    table.server = server
    return server, tuning


def run_until_stopped(
    server: Server,
    sock: socket.socket,
    store: Store,
    db: str,
    main: Any,
    tuning: StaticTuning | None,
    said: Callable[[], str],
    quiet: bool,
    on_ready: Callable[[], None] | None,
) -> None:
    """Serve on ``sock`` until SIGTERM or Ctrl-C, then close the database; ``said()`` is the
    banner (none from a quiet worker), ``on_ready`` is told once it serves."""
    warming: list[asyncio.Task[None]] = []  # kept: a task nobody holds may be collected
    listening: list[listen.Listener] = []

    def ready() -> None:
        # What is loaded by now (the app, Flet, the web server) lives as long as the server: kept
        # out of the cyclic collector, whose full passes over it stalled every page's live
        # redraw by tens of milliseconds (benchmarks/bench_table.py).
        gc.freeze()
        # Every write draws each page of the table anew (tens of new controls a page), so the
        # young generations fill fast: collected every 700 allocations, as by default, their
        # passes and the older generations' they trigger took about a tenth of the server's
        # CPU a write.  Young objects are now collected every 10,000 allocations; the full
        # pass still comes after ten of the middle generation's, as by default.
        gc.set_threshold(10_000, 10, 10)
        # The engine compressed before the first visitor asks; a worker started after the first
        # (quiet) compresses each file at its first request, so a restarted worker serves at once
        # and leaves the CPU to the others.
        if tuning is not None and not quiet:
            warming.append(asyncio.get_running_loop().create_task(tuning.warm(ENGINE)))
        if store.backend.dialect == "postgresql":  # the other workers' writes (listen.py)
            listening.append(listen.start(db, store, main, asyncio.get_running_loop()))
        if on_ready is not None:
            on_ready()
        if quiet:
            return
        sys.stdout.write(said())
        sys.stdout.flush()

    try:
        server.run([sock], ready)
    finally:
        for listener in listening:
            listener.stop()
        sock.close()
        ANALYSES.close()  # the analyses' workers: none left running after the server
        store.close()
