"""The seating sheet: each table's players in seat order, the QR code of its join link (each
table is a pulka, joined as any shared pulka: /join/<session>/<token>) and the table's own PIN
(its phones write with it)."""

from __future__ import annotations

import flet as ft

from ...club.store import table_pin
from ...core.i18n import N_
from ..frame.shell import Shell
from ..frame.theme import card, heading, sem
from ..server.share import qr_png
from .common import back, club, join_url, night_id


def seating_screen(shell: Shell) -> ft.Control:
    nid = night_id(shell)
    store = club(shell)
    with shell.session.locked():
        night = store.load(nid)
    tour = night.current
    controls: list[ft.Control] = [back(shell, "club-director")]
    if tour is None:
        controls.append(ft.Text(shell.t(N_("No tour is drawn yet."))))
        return ft.Column(controls, spacing=10)
    controls.append(
        heading(
            shell.t(
                N_("{night}, tour {tour} of {tours}"),
                night=night.name,
                tour=tour.number,
                tours=night.tours,
            )
        )
    )
    # A server that listens only on this computer (the default, without --share) cannot be
    # reached by a phone: the codes below would open nothing (issue #37).
    sharing = getattr(shell.table, "sharing", None)
    if sharing is None or not sharing.shared:
        controls.append(
            sem(
                "club-seating-local",
                ft.Text(
                    shell.t(
                        N_(
                            "This server listens only on this computer: phones cannot open these codes. Start it with scorepad --share."
                        )
                    ),
                    color=ft.Colors.ERROR,
                    weight=ft.FontWeight.BOLD,
                ),
            )
        )
    for tab in tour.tables:
        sid = store.session_of(nid, tour.number, tab.number)
        url = join_url(shell, sid)
        with shell.session.locked() as db:
            pin = table_pin(db, sid)
        controls.append(
            sem(
                f"club-seat-{tab.number}",
                card(
                    *[ft.Text(f"#{n} {night.name_of(n)}") for n in tab.players],
                    sem(
                        f"club-qr-{tab.number}",
                        ft.Image(src=qr_png(url, scale=6), width=160, height=160),
                    ),
                    ft.Text(url, size=11, selectable=True),
                    sem(
                        f"club-pin-{tab.number}",
                        ft.Text(
                            shell.t(N_("Table PIN (needed to write): {pin}"), pin=pin or "—"),
                            weight=ft.FontWeight.BOLD,
                        ),
                    ),
                    title=shell.t(N_("Table {table}"), table=tab.number),
                ),
            )
        )
    if tour.byes:
        controls.append(
            ft.Text(
                shell.t(
                    N_("Bye: {players}"),
                    players=", ".join(f"#{n} {night.name_of(n)}" for n in tour.byes),
                )
            )
        )
    return ft.Column(controls, spacing=10, scroll=ft.ScrollMode.AUTO)
