"""What the club screens share: the night's store, a refusal shown on screen, the header."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from ...club.store import ClubStore
from ...core.i18n import N_
from ..frame.shell import Shell
from ..frame.theme import sem


def club(shell: Shell) -> ClubStore:
    return ClubStore(shell.session.store)


def night_id(shell: Shell) -> int:
    nid = shell.state.night
    assert nid is not None, "a club screen is shown for a chosen night"
    return nid


def attempt(shell: Shell, action: Callable[[], object]) -> bool:
    """A club action; a refusal (the engine's or the store's) is shown and changes nothing.
    The director's right is checked on the server for every action on the chosen night
    (``shell.state.night``; None: a new night): the host's on the LAN, the night's owner's on
    the hosted server (``Access.require_director``)."""

    def act(_store: object) -> None:
        action()

    return shell.told(shell.session.direct(shell.state.night, act))


def back(shell: Shell, to: str, testid: str = "club-back") -> ft.Control:
    label = N_("Director") if to == "club-director" else N_("Club nights")
    return sem(
        testid,
        ft.TextButton(shell.t(label), icon=ft.Icons.ARROW_BACK, on_click=lambda: shell.go(to)),
    )


def base_url(shell: Shell) -> str:
    """Where phones reach this server: the shared server's first address, else this page's."""
    sharing = getattr(shell.table, "sharing", None)
    if sharing is not None and sharing.public:  # behind a proxy: the phones know only its address
        return str(sharing.public[0])
    if sharing is not None and sharing.addresses:
        return str(sharing.base(sharing.addresses[0]))
    return (getattr(shell.page, "url", None) or "http://127.0.0.1:8550").rstrip("/")


def join_url(shell: Shell, sid: int) -> str:
    """The table's join link (each table is a pulka, joined as any shared pulka): with its
    random token (grants.py), without which a link opens nothing."""
    grants = getattr(shell.table, "grants", None) or shell.session.grants()
    with shell.session.locked():
        token = grants.link(sid)
    return f"{base_url(shell)}/join/{sid}/{token}"
