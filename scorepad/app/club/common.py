"""What the club screens share: the night's store, a refusal shown on screen, the header."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from ...club.store import ClubStore
from ...i18n import N_, ScorepadError
from ..frame.shell import Shell
from ..frame.theme import sem
from ..server.grants import Grants


def club(shell: Shell) -> ClubStore:
    return ClubStore(shell.store)


def night_id(shell: Shell) -> int:
    nid = shell.state.night
    assert nid is not None, "a club screen is shown for a chosen night"
    return nid


def attempt(shell: Shell, action: Callable[[], Any]) -> bool:
    """A club action; a refusal (the engine's or the store's) is shown and changes nothing.
    The director's right is checked here, on the server, for every action on the chosen night
    (``shell.state.night``; None: a new night): the host's on the LAN, the night's owner's on
    the hosted server (``Access.require_director``)."""
    try:
        shell.access.require_director(shell.state.night)
        with shell.lock:
            action()
    except ScorepadError as exc:
        render = getattr(exc, "render", None)
        shell.message = render(shell.lang) if callable(render) else shell.render(exc.message)
        return False
    shell.message = None
    return True


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
    grants = getattr(shell.table, "grants", None) or Grants(shell.store, shell.lock)
    with shell.lock:
        token = grants.link(sid)
    return f"{base_url(shell)}/join/{sid}/{token}"
