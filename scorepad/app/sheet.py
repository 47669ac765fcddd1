"""The sheet: pulya, gora and whists on each, closed pools marked.  A table on a wide screen;
on a phone one card a player, so that nothing is wider than the screen."""

from __future__ import annotations

import flet as ft

from ..i18n import N_
from ..numbers import to_text
from .nav import nav
from .pulya_view import pulya_drawing
from .shell import Shell, sem
from .state import SheetView

NARROW = 600  # px: below this, cards instead of a table


def sheet_screen(shell: Shell) -> ft.Control:
    stored = shell.stored()
    drawing = shell.state.sheet_view == "drawing"

    def switch(view: SheetView) -> None:
        shell.state.sheet_view = view
        shell.show(sheet_screen)

    toggle = ft.Row(
        [
            sem(
                "sheet-drawing",
                (ft.FilledButton if drawing else ft.OutlinedButton)(
                    shell.t(N_("Drawing")), on_click=lambda: switch("drawing")
                ),
            ),
            sem(
                "sheet-table-view",
                (ft.OutlinedButton if drawing else ft.FilledButton)(
                    shell.t(N_("Table")), on_click=lambda: switch("table")
                ),
            ),
        ],
        wrap=True,
    )
    if drawing:
        picture = pulya_drawing(stored, (shell.page.width or 400) - 24)
        return ft.Column(
            [nav(shell, "nav-sheet"), toggle, sem("sheet-picture", picture)],
            scroll=ft.ScrollMode.AUTO,
            expand=True,
            spacing=10,
        )
    sheet = stored.scored.sheet
    names = stored.session.players
    target = stored.session.pool_target
    closed = [sheet.pool[p] >= target for p in range(len(names))]
    if (shell.page.width or 1000) < NARROW:
        cards: list[ft.Control] = []
        for p, name in enumerate(names):
            whists = ", ".join(
                shell.t(N_("on {player}"), player=names[q]) + f" {to_text(sheet.whists[p][q])}"
                for q in range(len(names))
                if q != p
            )
            pool = shell.t(N_("Pulya")) + f" {to_text(sheet.pool[p])}" + (" ✓" if closed[p] else "")
            gora = shell.t(N_("Gora")) + f" {to_text(sheet.gora[p])}"
            cards.append(
                sem(
                    f"sheet-player-{p}",
                    ft.Container(
                        ft.Column(
                            [
                                ft.Text(name, weight=ft.FontWeight.BOLD),
                                ft.Row(
                                    [
                                        sem(f"pool-{p}", ft.Text(pool)),
                                        sem(f"gora-{p}", ft.Text(gora)),
                                    ],
                                    wrap=True,
                                ),
                                ft.Text(shell.t(N_("Whists")) + ": " + whists),
                            ],
                            spacing=2,
                        ),
                        padding=8,
                        border=ft.Border.all(1, ft.Colors.BLUE_GREY_100),
                        border_radius=8,
                    ),
                )
            )
        table: ft.Control = ft.Column(cards, spacing=6)
    else:
        columns = [
            ft.DataColumn(ft.Text(shell.t(N_("Player")))),
            ft.DataColumn(ft.Text(shell.t(N_("Pulya")))),
            ft.DataColumn(ft.Text(shell.t(N_("Gora")))),
        ]
        columns += [ft.DataColumn(ft.Text(shell.t(N_("on {player}"), player=n))) for n in names]
        rows = []
        for p, name in enumerate(names):
            pool = to_text(sheet.pool[p]) + (" ✓" if closed[p] else "")
            cells = [
                ft.DataCell(ft.Text(name)),
                ft.DataCell(sem(f"pool-{p}", ft.Text(pool))),
                ft.DataCell(sem(f"gora-{p}", ft.Text(to_text(sheet.gora[p])))),
            ]
            cells += [
                ft.DataCell(ft.Text("—" if q == p else to_text(sheet.whists[p][q])))
                for q in range(len(names))
            ]
            rows.append(ft.DataRow(cells))
        table = ft.DataTable(columns=columns, rows=rows, column_spacing=14)
    status = (
        shell.t(N_("The game is finished."))
        if stored.scored.finished
        else shell.t(N_("Pool to {target}: a ✓ marks a closed pool."), target=target)
    )
    return ft.Column(
        [nav(shell, "nav-sheet"), toggle, sem("sheet-table", table), ft.Text(status)],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        spacing=10,
    )
