"""``scorepad serve``'s server (issue #36): the pages of the hosted app (``make_hosted_main``)
and the process that serves them (``run_hosted``; several on one socket: workers.py).  Apart
from hosted.py, whose access rules the hosted screens use, so that no screen imports the module
that imports the screens."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Callable
from typing import Any

import flet as ft

from ...store import Store
from ..club.public import STANDINGS, public_standings
from ..frame import flet_diff, live, nav, outside, registry, theme
from ..frame.shell import Shell, remember_language, remembered_language
from ..screens import admin as admin_screens
from ..screens import hosted as screens
from ..screens import league as league_screens
from ..screens.table import JOIN, join
from . import listen
from .hosted import (
    ADMIN,
    TAKE,
    Hosted,
    HostedAccess,
    HostedOptions,
    held_admin,
    held_tables,
    hosted_parts,
    keep_admin,
    keep_tables,
)
from .league import LeagueDoor
from .run import device_token, public_addresses, run_until_stopped, web_server
from .server import bind
from .share import Sharing
from .table import Table
from .throttle import WALL_CLOCK
from .transport import more_descriptors
from .wire import PEER


def make_hosted_main(  # type: ignore[no-untyped-def]
    store: Store, lang: str, table: Any, hosted: Hosted, lock: threading.RLock
):
    """Every page of the hosted server: the front page (this browser's tables), a join link, a
    hand-over code."""

    async def main(page: ft.Page) -> None:
        page.title = "Scorepad"
        theme.apply(page)
        if store.backend.dialect == "sqlite":  # another process's writes (the CLI's) shown
            outside.watch(page, store, lock)
        league = league_screens.LEAGUE.fullmatch(page.route or "/")
        if league:  # the league's pages: a members' link is the right (screens/league.py)
            await league_screens.league_page(page, store, lang, lock, league)
            return
        standings = STANDINGS.fullmatch(page.route or "/")
        if standings:  # a club night's live standings: read-only, the token is the right
            public_standings(page, store, lang, lock, standings[1])
            return
        peer = PEER.get()  # decided from the socket (and a trusted proxy's header): wire.py
        chosen, device, held = await asyncio.gather(
            remembered_language(lang), device_token(page, table.gate), held_tables(page)
        )
        access = HostedAccess(table.gate, device, loopback=False, address=peer, hosted=hosted)
        shell = Shell(page, store, chosen, lock, access=access)
        access.current = lambda: shell.sid
        if store.backend.dialect == "postgresql":  # told when the database is lost and back
            listen.follow(shell)

        def save() -> None:  # the browser's storage is written on the page's loop
            page.run_task(keep_tables, access.stored())

        access.save = save
        shell.remember_language = lambda code: page.run_task(remember_language, code)
        shell.table = table
        with lock:
            access.held(held)
        live.subscribe(shell)
        route = page.route or "/"
        found = JOIN.fullmatch(route)
        taking = TAKE.fullmatch(route)
        if ADMIN.fullmatch(route) and hosted.admin is not None:
            # The operator's page; with no secret configured, /admin is the front page.

            token = await held_admin()
            if isinstance(token, str) and hosted.admin.opens(token):
                access.admin_token = token
            admin_screens.keep = lambda t: page.run_task(keep_admin, t)
            shell.show(admin_screens.admin_screen)
        elif found:
            sid, token = int(found[1]), found[2] or ""
            join(shell, sid, token)
            if shell.sid is not None and access.scope is not None:
                access.joined[access.scope] = access.link
                access.save()
        elif taking:
            screens.take(shell, int(taking[2]), taking[3], night=taking[1] is not None)
        else:
            shell.show(screens.front_screen)

    main.store = store  # type: ignore[attr-defined]
    return main


def run_hosted(
    options: HostedOptions,
    *,
    sock: socket.socket | None = None,
    quiet: bool = False,
    on_ready: Callable[[], None] | None = None,
) -> None:
    """Serve the hosted app on ``options.host:options.port`` until SIGTERM or Ctrl-C; the
    database is closed on the way out.  One worker of several (workers.hosted_workers): ``sock``
    is the socket the supervisor bound, ``quiet`` leaves the banner to the first worker,
    ``on_ready`` tells the supervisor it serves; on PostgreSQL each worker hears the others'
    writes (listen.py)."""

    flet_diff.install()
    public = public_addresses(options.public_url)
    more_descriptors()
    if sock is None:
        sock = bind(options.host, options.port)  # before the database: a busy port creates nothing
    try:
        store = Store(options.db, check_same_thread=False)
    except BaseException:
        sock.close()
        raise
    lock = threading.RLock()
    hosted, gate = hosted_parts(
        store, lock, per_hour=options.per_hour, admin_secret=options.admin_secret
    )
    grants = hosted.grants
    # No server PIN: a table's own PIN is its phones' (owners.pin); the PIN shown in the share
    # dialog is the table's.
    sharing = Sharing.make(options.host, options.port, tls=False, pin=None, public=tuple(public))
    table = Table(gate, sharing, grants=grants)
    # The front page is this browser's tables; the bar above a table is its owner's.
    nav.register("sessions", screens.front_screen)
    registry.set_bar(screens.hosted_bar)
    main = make_hosted_main(store, options.lang, table, hosted, lock)
    trusted = frozenset(options.trusted_proxy)
    # The TLS is the reverse proxy's (docs/online.md).  The league's door (docs/league.md):
    # clubs publish their nights to this server's database.
    server, tuning = web_server(
        main,
        options.lang,
        table,
        trusted=trusted,
        certfile=None,
        keyfile=None,
        # The wrong secrets counted with the wrong PINs' throttle (in the database: every worker
        # one count), each under its own key.
        around=lambda app: LeagueDoor(
            app,
            store,
            lock,
            options.lang,
            trusted=trusted,
            clock=WALL_CLOCK,
            throttle=gate.throttle,
        ),
    )

    def said() -> str:
        return screens.hosted_banner(sharing, options.lang)

    run_until_stopped(server, sock, store, str(options.db), main, tuning, said, quiet, on_ready)


__all__ = ["make_hosted_main", "run_hosted"]
