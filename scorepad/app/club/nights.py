"""The club nights on this host, and a new night: name, tours, deals or pool, scoring."""

from __future__ import annotations

import datetime as dt

import flet as ft

from ...club.scoring import parse_scoring
from ...i18n import N_
from ..frame.shell import Shell
from ..frame.theme import heading, primary, sem
from .common import attempt, club


def nights_screen(shell: Shell) -> ft.Control:
    with shell.lock:
        nights = club(shell).nights()

    def open_night(nid: int) -> None:
        shell.state.night = nid
        shell.go("club-director")

    rows: list[ft.Control] = [
        sem(
            f"night-{nid}",
            ft.TextButton(f"{date}  {name}", on_click=lambda e, n=nid: open_night(n)),
        )
        for nid, name, date in nights
    ]
    name = ft.TextField(label=shell.t(N_("Name of the night")))
    tours = ft.TextField(label=shell.t(N_("Tours")), value="3")
    deals = ft.TextField(label=shell.t(N_("Deals a tour")), value="12")
    scoring = ft.TextField(label=shell.t(N_("Scoring")), value="places")

    def create() -> None:
        made: dict[str, int] = {}

        def act() -> None:
            made["id"] = club(shell).create_night(
                name.value or "",
                date=dt.date.today(),
                tours=_number(tours.value),
                deals_per_tour=_number(deals.value),
                scoring=parse_scoring(scoring.value or ""),
            )

        if attempt(shell, act):
            open_night(made["id"])
        else:
            shell.show(nights_screen)

    return ft.Column(
        [
            sem(
                "back-to-sessions",
                ft.TextButton(
                    shell.t(N_("Sessions")),
                    icon=ft.Icons.ARROW_BACK,
                    on_click=lambda: shell.go("sessions"),
                ),
            ),
            heading(shell.t(N_("Club nights"))),
            *rows,
            heading(shell.t(N_("A new night"))),
            sem("night-name", name),
            sem("night-tours", tours),
            sem("night-deals", deals),
            sem("night-scoring", scoring),
            sem("create-night", primary(shell.t(N_("Create the night")), on_click=create)),
        ],
        spacing=10,
        scroll=ft.ScrollMode.AUTO,
    )


def _number(text: str | None) -> int:
    """A count typed in a field; anything else is 0, which the night refuses in words."""
    value = (text or "").strip()
    return int(value) if value.isdigit() else 0
