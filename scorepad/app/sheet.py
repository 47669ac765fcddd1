"""The sheet as a plain table: pulya, gora and whists on each, closed pools marked."""

from __future__ import annotations

import flet as ft

from ..i18n import N_
from ..numbers import to_text
from .nav import nav
from .shell import Shell, sem


def sheet_screen(shell: Shell) -> ft.Control:
    stored = shell.stored()
    sheet = stored.scored.sheet
    names = stored.session.players
    target = stored.session.pool_target
    columns = [
        ft.DataColumn(ft.Text(shell.t(N_("Player")))),
        ft.DataColumn(ft.Text(shell.t(N_("Pulya")))),
        ft.DataColumn(ft.Text(shell.t(N_("Gora")))),
    ]
    columns += [ft.DataColumn(ft.Text(shell.t(N_("on {player}"), player=n))) for n in names]
    rows = []
    for p, name in enumerate(names):
        pool = to_text(sheet.pool[p]) + (" ✓" if sheet.pool[p] >= target else "")
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
    status = (
        shell.t(N_("The game is finished."))
        if stored.scored.finished
        else shell.t(N_("Pool to {target}: a ✓ marks a closed pool."), target=target)
    )
    return ft.Column(
        [
            nav(shell, "nav-sheet"),
            sem(
                "sheet-table",
                ft.Row(
                    [ft.DataTable(columns=columns, rows=rows, column_spacing=14)],
                    scroll=ft.ScrollMode.AUTO,
                ),
            ),
            ft.Text(status),
        ],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        spacing=10,
    )
