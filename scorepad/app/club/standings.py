"""The standings, live: each player's place, points, whists and tour-by-tour line (read-only)."""

from __future__ import annotations

import flet as ft

from ...club.summary import standing_line, standings_lines
from ...core.i18n import N_
from ..frame.shell import Shell
from ..frame.theme import heading, sem
from .common import back, base_url, club, night_id


def standings_screen(shell: Shell) -> ft.Control:
    nid = night_id(shell)
    store = club(shell)
    with shell.session.locked():
        night = store.load(nid)
        rows = store.standings(nid)
        token = store.standings_token(nid)
    head = standings_lines(night, shell.lang)[0]
    link = f"{base_url(shell)}/club/{token}"
    return ft.Column(
        [
            back(shell, "club-director"),
            heading(head),
            sem(
                "club-standings-link",
                ft.Text(shell.t(N_("Live standings, no PIN: {link}"), link=link), selectable=True),
            ),
            *(
                sem(f"club-rank-{k}", ft.Text(standing_line(s, shell.lang)))
                for k, s in enumerate(rows, start=1)
            ),
        ],
        spacing=8,
        scroll=ft.ScrollMode.AUTO,
    )
