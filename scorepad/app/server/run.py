"""Starting the app: a desktop window where a display and the desktop client exist, otherwise
the web app on 127.0.0.1; always offline (``no_cdn``), with its fonts bundled.

``--share`` (or any address that is not this computer's) serves the table on the network, behind
a table PIN; ``--pin`` asks for the PIN on 127.0.0.1 too."""

from __future__ import annotations

import asyncio
import gc
import os
import sys
import threading
from pathlib import Path

import flet as ft

from ...i18n import N_, msg
from ...store import Store
from ..frame import live, theme
from ..frame.screens import sessions_screen
from ..frame.shell import Shell
from ..frame.theme import assets_dir
from ..screens.table import JOIN, Table, join, pin_screen
from .access import (
    Access,
    Gate,
    ServeRefused,
    check_pin_option,
    generate_pin,
    new_device_token,
    valid_token,
)
from .serve import StaticTuning, tuning_wanted
from .server import Guard, Server, bind, flet_asgi
from .share import Sharing, banner, is_loopback

DEVICE_KEY = "scorepad-device"


async def device_token(page: ft.Page) -> str:
    """This browser's token (kept in its local storage): the device the PIN is remembered for."""
    prefs = ft.SharedPreferences()
    try:
        token = await asyncio.wait_for(prefs.get(DEVICE_KEY), timeout=10)
        if valid_token(token):
            return str(token)
        token = new_device_token()
        await asyncio.wait_for(prefs.set(DEVICE_KEY, token), timeout=10)
        return token
    except (TimeoutError, RuntimeError):
        return new_device_token()  # no storage: this page alone is the device


def make_main(db: Path, lang: str, table: Table | None = None):  # type: ignore[no-untyped-def]
    store = Store(db, check_same_thread=False)
    lock = threading.RLock()

    async def main(page: ft.Page) -> None:
        page.title = "Scorepad"
        theme.apply(page)
        if table is None:
            shell = Shell(page, store, lang, lock)
            shell.show(sessions_screen)
            return
        device = await device_token(page)
        access = Access(table.gate, device, loopback=is_loopback(page.client_ip or ""))
        shell = Shell(page, store, lang, lock, access=access)
        shell.table = table
        live.subscribe(shell)  # live updates, and the current state after a reconnect
        found = JOIN.fullmatch(page.route or "/")
        if found:
            join(shell, int(found[1]))
        elif not access.may_write:
            shell.show(pin_screen)
        else:
            shell.show(sessions_screen)

    main.store = store  # type: ignore[attr-defined]
    return main


def desktop_available() -> bool:
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        return False
    try:
        import flet_desktop  # noqa: F401
    except ImportError:
        return False
    return True


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
) -> None:
    if share and is_loopback(host):
        host = "0.0.0.0"
    networked = not is_loopback(host)
    if not (web or networked or pin or certfile) and desktop_available():
        main = make_main(db, lang)
        ft.run(main, view=ft.AppView.FLET_APP, assets_dir=str(assets_dir()))
        return
    serve(
        db,
        lang,
        host=host,
        port=port,
        pin=pin,
        certfile=certfile,
        keyfile=keyfile,
        pin_wait=pin_wait,
    )


def serve(
    db: Path,
    lang: str,
    *,
    host: str,
    port: int,
    pin: str | None,
    certfile: Path | None,
    keyfile: Path | None,
    pin_wait: float | None = None,
) -> None:
    """The web app on ``host:port`` until SIGTERM or Ctrl-C; the database is closed on the way out."""

    if (certfile is None) != (keyfile is None):
        raise ServeRefused(msg(N_("--certfile and --keyfile go together: give both or neither")))
    for f in (certfile, keyfile):
        if f is not None and not f.is_file():
            raise ServeRefused(msg(N_("cannot read {path}: no such file"), path=str(f)))
    explicit = pin is not None
    if pin is not None:
        pin = check_pin_option(pin)
    elif not is_loopback(host):
        pin = generate_pin()  # never on the network without a PIN
    gate = Gate(pin, explicit=explicit)
    if pin_wait is not None:
        gate.wait = pin_wait
    sharing = Sharing.make(host, port, tls=certfile is not None, pin=pin)
    table = Table(gate, sharing)
    sock = bind(host, port)
    main = make_main(db, lang, table)
    store: Store = main.store
    app = flet_asgi(main, assets_dir())
    if tuning_wanted():  # the engine files compressed once and cached (serve.py)
        app = StaticTuning(app)
    server = Server(
        Guard(app, lambda: table.sharing),
        certfile=certfile,
        keyfile=keyfile,
    )
    table.server = server

    def ready() -> None:
        # What is loaded by now (the app, Flet, the web server) lives as long as the server: kept
        # out of the cyclic collector, whose full passes over it stalled every page's live
        # redraw by tens of milliseconds (benchmarks/bench_table.py).
        gc.freeze()
        # Shared: the join link of the newest session (the evening being played).
        newest = next(iter(store.sessions()), None) if sharing.shared else None
        sys.stdout.write(banner(table.sharing, newest.id if newest else None, lang))
        sys.stdout.flush()

    try:
        server.run([sock], ready)
    finally:
        sock.close()
        store.close()
