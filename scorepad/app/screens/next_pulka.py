"""The next pulka at a shared table, started from a phone when the host lets it (issue #21, 3).

The same players in the same seats, the same convention, settings and stakes as the pulka being
played (what the New game screen would offer again); only the first dealer is chosen. The new
pulka becomes the table's: the join link moves to it (grants.move_table, which says why) and
every phone of the table follows it (live.follow). Nothing else of the host's opens with it:
the list of sessions, delete, import, export and the roster stay on the host's computer.
"""

from __future__ import annotations

import flet as ft

from ...core.i18n import N_
from ...scoring.ledger.families import family_presets
from ...scoring.pulya.convention import presets
from ...store import AnyStored
from ..frame import live, registry
from ..frame.shell import Shell
from ..frame.theme import heading, primary, quiet, sem


def next_dealer(stored: AnyStored) -> int:
    """Who deals next at the table: the deal passes on into the next pulka."""
    return int(stored.scored.next_dealer)


def convention_name(convention: str, lang: str) -> str:
    preset = presets().get(convention) or family_presets().get(convention)
    return preset.name_in(lang) if preset is not None else convention


def next_pulka_screen(shell: Shell) -> ft.Control:
    if shell.sid is None or (shell.access.scope is None and not shell.access.host):
        return sem("nothing", ft.Text(shell.t(N_("Nothing to show."))))
    old = shell.sid
    stored = shell.stored()
    session = stored.session
    players = list(session.players)
    if shell.state.next_dealer is None or shell.state.next_dealer >= len(players):
        shell.state.next_dealer = next_dealer(stored)
    dealer = ft.Dropdown(
        label=shell.t(N_("First dealer")),
        value=str(shell.state.next_dealer),
        width=220,
        options=[ft.DropdownOption(key=str(i), text=name) for i, name in enumerate(players)],
    )

    def pick(e: ft.Event[ft.Dropdown]) -> None:
        # A client can send any value: only a seat of the table is taken.
        value = e.control.value
        if isinstance(value, str) and value.isdigit() and int(value) < len(players):
            shell.state.next_dealer = int(value)

    dealer.on_select = pick

    def start() -> None:
        # The same players and settings; the join link moves to the new pulka (grants).
        grants = shell.table.grants if shell.table is not None else None
        new = shell.session.next_pulka(old, shell.state.next_dealer or 0, grants=grants)
        if not shell.told(new) or not isinstance(new, int):
            shell.show(next_pulka_screen)
            return
        shell.state.next_dealer = None
        if shell.access.scope is not None:
            shell.access.scope = new
        shell.sid = new
        live.table_moved(shell, old, new)
        shell.go("entry")

    def back() -> None:
        shell.state.next_dealer = None
        shell.message = None
        shell.show(registry.screen("sheet"))

    body: list[ft.Control] = [
        heading(shell.t(N_("The next pulka"))),
        sem(
            "next-pulka-same",
            ft.Text(
                shell.t(
                    N_("The same players and game: {players}; {convention}."),
                    players=", ".join(players),
                    convention=convention_name(session.convention, shell.lang),
                )
            ),
        ),
        sem("next-pulka-dealer", dealer),
    ]
    return ft.Column(
        [
            ft.Column(body, scroll=ft.ScrollMode.AUTO, expand=True, spacing=12),
            ft.Row(
                [
                    ft.Container(
                        sem("next-pulka-start", primary(shell.t(N_("Start the game")), start)),
                        expand=True,
                    ),
                    sem(
                        "back",
                        quiet(shell.t(N_("Back")), lambda: shell.show(registry.screen("sheet"))),
                    ),
                ]
            ),
        ],
        expand=True,
        spacing=8,
    )
