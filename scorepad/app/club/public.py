"""The live standings page for the hall and for those at home: ``/club/<token>``, read-only,
no PIN (the token is the capability; it shows the standings and nothing else).  It is drawn
again after every table's write (follow.py), and every few seconds besides (a page of another
server process, or a write made by the CLI, is seen that way).  A token that opens no night
costs one read: nothing is created, followed or polled."""

from __future__ import annotations

import asyncio
import re
import threading

import flet as ft

from ...club.store import ClubStore
from ...club.summary import standing_line, standings_lines
from ...core.i18n import N_, Msg, catalog
from ...store import Store
from ..frame.theme import heading, sem
from .follow import SETTLE, follow

STANDINGS = re.compile(r"/club/([A-Za-z0-9_-]{1,64})")
#: Seconds between two redraws of the public page.
REFRESH = 3.0


def opened(store: Store, token: str) -> int | None:
    """The night ``token`` opens, or None, asked without writing: a database with no club
    tables has no nights, and a stranger's look does not make them."""
    looking = ClubStore(store, create=False)
    return None if looking.empty else looking.night_of_token(token)


def public_controls(store: Store, lang: str, token: str) -> list[ft.Control]:
    nid = opened(store, token)
    if nid is None:
        return [
            sem(
                "club-public-missing",
                ft.Text(catalog(lang).render(Msg(N_("This link opens no night.")))),
            )
        ]
    club = ClubStore(store)  # a night exists: its tables are there
    night = club.load(nid)
    rows = club.standings(nid)
    return [
        heading(standings_lines(night, lang)[0]),
        *(
            sem(f"club-public-{k}", ft.Text(standing_line(s, lang)))
            for k, s in enumerate(rows, start=1)
        ),
    ]


def public_standings(
    page: ft.Page, store: Store, lang: str, lock: threading.RLock, token: str
) -> None:
    """Show the standings of the night the token opens, and keep them current; a token that
    opens nothing is answered once, and the page neither follows writes nor polls."""

    def draw() -> None:
        with lock:
            controls = public_controls(store, lang, token)
        page.controls = [
            ft.SafeArea(ft.Column(controls, spacing=8, scroll=ft.ScrollMode.AUTO), expand=True)
        ]
        page.update()

    async def refresh() -> None:
        while True:
            await asyncio.sleep(REFRESH)
            try:
                draw()
            except RuntimeError:  # the page is gone (the phone left)
                return

    draw()
    with lock:
        if opened(store, token) is None:
            return
    follow(page, lambda topic, message: True, draw, settle=SETTLE)
    page.run_task(refresh)
