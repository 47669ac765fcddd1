"""The club nights on this host, and a new night: name, date, convention, tours, deals a tour,
table size and scoring (a documented preset, or custom syntax)."""

from __future__ import annotations

import datetime as dt
import weakref
from collections.abc import Callable
from typing import Any

import flet as ft

from ...club.errors import ClubError
from ...club.scoring import parse_scoring
from ...core.i18n import N_, msg
from ...scoring.pulya.convention import presets
from ..frame.shell import Shell
from ..frame.theme import heading, primary, sem
from ..screens.new_game import convention_choice
from .common import attempt, club


def _create(shell: Shell, draft: dict[str, str]) -> None:
    """The new night as the form says, made by this page (on the hosted server, its director);
    a refusal is shown with what was typed kept."""
    made: dict[str, int] = {}

    def act() -> None:
        made["id"] = club(shell).create_night(
            draft["name"],
            date=_date(draft["date"]),
            tours=_number(draft["tours"]),
            convention=draft["convention"],
            deals_per_tour=_number(draft["deals"]),
            scoring=parse_scoring(draft["scoring"]),
            seats=int(draft["seats"]) if draft["seats"] in ("3", "4") else None,
        )

    shell.state.night = None  # a new night: the creation's check, not a night's director
    if attempt(shell, act):
        with shell.session.locked():
            shell.access.made_night(made["id"])  # the hosted server: this page directs it
        _DRAFTS.pop(shell, None)
        _open_night(shell, made["id"])
    else:
        shell.show(nights_screen)


def _open_night(shell: Shell, nid: int) -> None:
    if not shell.access.directs(nid):  # its owner handed it on, or never was this page
        return
    shell.state.night = nid
    shell.go("club-director")


def nights_screen(shell: Shell) -> ft.Control:
    # What was typed stays when a field is refused (the screen is drawn again with the
    # refusal): the form's values live in the page's draft until the night is made (#37).
    draft = _DRAFTS.setdefault(shell, dict(_DEFAULTS, date=dt.date.today().isoformat()))
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
            *_night_rows(shell),
            heading(shell.t(N_("A new night"))),
            *_new_night_form(shell, draft),
            sem(
                "create-night",
                primary(shell.t(N_("Create the night")), on_click=lambda: _create(shell, draft)),
            ),
        ],
        spacing=10,
        scroll=ft.ScrollMode.AUTO,
    )


def _night_rows(shell: Shell) -> list[ft.Control]:
    """The nights this page directs: every night on the LAN's host, the owned ones on the
    hosted server (no page lists another's nights there)."""
    with shell.session.locked():
        nights = club(shell).nights()
    return [
        sem(
            f"night-{nid}",
            ft.TextButton(f"{date}  {name}", on_click=lambda e, n=nid: _open_night(shell, n)),
        )
        for nid, name, date in nights
        if shell.access.directs(nid)
    ]


def _new_night_form(shell: Shell, draft: dict[str, str]) -> list[ft.Control]:
    """The new night's fields, each showing and keeping its value in the draft."""
    preset = ft.Dropdown(
        label=shell.t(N_("Scoring preset")),
        value=draft["preset"],
        width=320,
        options=[ft.DropdownOption(key=k, text=shell.t(words)) for k, words in SCORING_PRESETS],
        on_select=lambda e: _choose_preset(shell, draft, e.control.value or ""),
    )
    convention = convention_choice(shell, draft["convention"], _keep(draft, "convention"))
    convention.options = [o for o in convention.options or [] if o.key in presets()]
    seats = ft.Dropdown(
        label=shell.t(N_("Tables")),
        value=draft["seats"],
        width=320,
        options=[ft.DropdownOption(key=k, text=shell.t(words)) for k, words in SEATS],
        on_select=_keep(draft, "seats"),
    )
    return [
        sem("night-name", _field(draft, "name", shell.t(N_("Name of the night")))),
        sem("night-date", _field(draft, "date", shell.t(N_("Date (like 2026-12-04)")))),
        sem("night-convention", convention),
        sem("night-tours", _field(draft, "tours", shell.t(N_("Tours")))),
        sem("night-deals", _field(draft, "deals", shell.t(N_("Deals a tour")))),
        sem("night-seats", seats),
        sem("night-preset", preset),
        sem("night-scoring", _field(draft, "scoring", shell.t(N_("Scoring")))),
    ]


def _keep(draft: dict[str, str], key: str) -> Callable[[Any], None]:
    return lambda e: draft.__setitem__(key, e.control.value or "")


def _field(draft: dict[str, str], key: str, label: str) -> ft.TextField:
    return ft.TextField(label=label, value=draft[key], on_change=_keep(draft, key))


def _choose_preset(shell: Shell, draft: dict[str, str], key: str) -> None:
    # A documented preset fills the scoring's syntax; "custom" leaves it to be typed.
    draft["preset"] = key
    if key != "custom":
        draft["scoring"] = key
    shell.show(nights_screen)


#: The scoring presets the docs describe (docs/club-format.md), and "custom" for the syntax.
SCORING_PRESETS: tuple[tuple[str, str], ...] = (
    ("places", N_("Places: 3/2/1/0 at four, 3/1½/0 at three")),
    ("whists", N_("Whists: a player's balance at his table")),
    ("whists:normalised", N_("Whists per opponent (scaled to a table of three)")),
    ("piecewise:200=1:1,10:1", N_("Whists up to 200 one for one, beyond ten for one")),
    ("custom", N_("Custom (typed below)")),
)
SEATS: tuple[tuple[str, str], ...] = (
    ("auto", N_("Tables of 3, and of 4 where the count needs")),
    ("3", N_("Tables of 3 only (the rest have a bye)")),
    ("4", N_("Tables of 4 only (the rest have a bye)")),
)
_DEFAULTS = {
    "name": "",
    "tours": "3",
    "deals": "12",
    "scoring": "places",
    "preset": "places",
    "convention": "sochi",
    "seats": "auto",
}
_DRAFTS: weakref.WeakKeyDictionary[Shell, dict[str, str]] = weakref.WeakKeyDictionary()


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise ClubError(
            msg(N_("{value} is not a date like 2026-12-01"), value=repr(text.strip()[:20]))
        ) from None


def _number(text: str | None) -> int:
    """A count typed in a field; anything else is 0, which the night refuses in words."""
    value = (text or "").strip()
    return int(value) if value.isdigit() else 0
