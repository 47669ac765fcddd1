"""The navigation bar of an open session."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from ..i18n import N_
from .shell import Screen, Shell, sem
from .table import shown


def nav(shell: Shell, current: str) -> ft.Control:
    from .chart import chart_screen
    from .entry import entry_screen
    from .history import history_screen
    from .players import players_screen
    from .sessions import sessions_screen
    from .settle import settle_screen
    from .sheet import sheet_screen

    items: list[tuple[str, str, Screen]] = [
        ("nav-entry", N_("Deal"), entry_screen),
        ("nav-sheet", N_("Sheet"), sheet_screen),
        ("nav-history", N_("History"), history_screen),
        ("nav-settle", N_("Cash-out"), settle_screen),
        ("nav-chart", N_("Chart"), chart_screen),
        ("nav-players", N_("Players"), players_screen),
        ("nav-sessions", N_("Sessions"), sessions_screen),
    ]

    items = [i for i in items if shown(shell, i[0])]  # a viewer: no entry; a joined phone: no list

    def go(screen: Screen) -> Callable[[], None]:
        def handler() -> None:
            shell.message = None
            if screen is entry_screen:
                shell.new_form()
            shell.show(screen)

        return handler

    buttons = []
    for ident, label, screen in items:
        text = shell.t(label)
        button: ft.Control = (
            ft.FilledButton(text, on_click=go(screen))
            if ident == current
            else ft.TextButton(text, on_click=go(screen))
        )
        buttons.append(sem(ident, button))
    return ft.Row(buttons, wrap=True, spacing=2, run_spacing=2)
