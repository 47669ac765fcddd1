"""The sheet: the paper drawing, or a table (on a phone one card a player, so that nothing is
wider than the screen).  Both show the same totals and mark a closed pulya with ✓; a tap on a
cell, in either, opens the cell's whole history."""

from __future__ import annotations

import flet as ft

from ...core.i18n import N_
from ...core.numbers import Number, whist_figure
from ...scoring.pulya.sheet import running_entries
from ...store import PulyaStored
from ...store.journal import live_numbers
from ..frame.nav import nav
from ..frame.shell import Shell, sem
from ..frame.state import SheetView
from .paper import Cell, cell_history, pulya_drawing

NARROW = 600  # px: below this, cards instead of a table
CLOSED = " ✓"


def sheet_screen(shell: Shell) -> ft.Control:
    stored = shell.stored()
    drawing = shell.state.sheet_view == "drawing"

    def switch(view: SheetView) -> None:
        shell.state.sheet_view = view
        shell.show(sheet_screen)

    # What stays from one live redraw to the next is the same object (Shell.reuse).
    toggle_row = shell.reuse(
        "sheet-toggle",
        (shell.lang, drawing),
        lambda: ft.Row(
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
        ),
    )
    target = stored.session.pool_target
    status = (
        shell.t(N_("The game is finished."))
        if stored.scored.finished
        else shell.t(N_("Pool to {target}: a ✓ marks a closed pool."), target=target)
    )
    open_cell = lambda cell: show_cell(shell, stored, cell)  # noqa: E731
    if drawing:
        width = (shell.page.width or 400) - 24  # the page's padding, both sides
        # On a laptop the whole drawing, names too, fits under the buttons without scrolling.
        fits = ((shell.page.height or 800) - 140) / 1.18
        picture = pulya_drawing(stored, min(width, max(300.0, fits)), open_cell, keep=shell.reuse)
        body: ft.Control = ft.Row(
            [sem("sheet-picture", picture)], alignment=ft.MainAxisAlignment.CENTER
        )
    else:
        body = sem("sheet-table", _table(shell, stored, open_cell))
    return ft.Column(
        [
            shell.reuse("sheet-nav", None, lambda: nav(shell, "nav-sheet")),
            toggle_row,
            body,
            sem("sheet-status", ft.Text(status)),
            shell.reuse(
                "sheet-tip",
                shell.lang,
                lambda: ft.Text(shell.t(N_("Tap a cell to see every entry in it.")), size=12),
            ),
        ],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        spacing=10,
    )


def _table(shell: Shell, stored: PulyaStored, open_cell: object) -> ft.Control:
    assert callable(open_cell)
    sheet = stored.scored.sheet
    names = stored.session.players
    n = len(names)
    target = stored.session.pool_target
    closed = [sheet.pool[p] >= target for p in range(n)]
    run = running_entries([d.writing for d in stored.scored.deals], n)

    def figure(value: Number, written: list[Number]) -> str:
        """A cell nothing was written in is blank, as on paper (not "0")."""
        return whist_figure(value) if written else ""

    def pool_text(p: int) -> str:
        return figure(sheet.pool[p], run.pool[p]) + (CLOSED if closed[p] else "")

    if (shell.page.width or 1000) < NARROW:
        cards: list[ft.Control] = []
        for p, name in enumerate(names):

            def chip(ident: str, label: str, value: str, cell: Cell) -> ft.Control:
                return sem(
                    ident,
                    ft.Container(
                        ft.Column(
                            [
                                ft.Text(label, size=12, color=ft.Colors.ON_SURFACE_VARIANT),
                                ft.Text(value, size=16),
                            ],
                            spacing=0,
                        ),
                        padding=ft.Padding.symmetric(horizontal=8, vertical=4),
                        border_radius=6,
                        ink=True,
                        on_click=lambda e, c=cell: open_cell(c),
                    ),
                )

            chips = [
                chip(f"pool-{p}", shell.t(N_("Pulya")), pool_text(p), Cell("pool", p)),
                chip(
                    f"gora-{p}",
                    shell.t(N_("Gora")),
                    figure(sheet.gora[p], run.gora[p]),
                    Cell("gora", p),
                ),
            ]
            chips += [
                chip(
                    f"whists-{p}-{q}",
                    shell.t(N_("→ {player}"), player=names[q]),
                    figure(sheet.whists[p][q], run.whists[p][q]),
                    Cell("whists", p, q),
                )
                for q in range(n)
                if q != p
            ]
            cards.append(
                sem(
                    f"sheet-player-{p}",
                    ft.Container(
                        ft.Column(
                            [
                                ft.Text(name, weight=ft.FontWeight.BOLD, size=16),
                                ft.Row(chips, wrap=True, spacing=4, run_spacing=4),
                            ],
                            spacing=2,
                        ),
                        padding=8,
                        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
                        border_radius=8,
                    ),
                )
            )
        return ft.Column(cards, spacing=6, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
    columns = [
        ft.DataColumn(ft.Text(shell.t(N_("Player")))),
        ft.DataColumn(ft.Text(shell.t(N_("Pulya"))), numeric=True),
        ft.DataColumn(ft.Text(shell.t(N_("Gora"))), numeric=True),
    ]
    columns += [
        ft.DataColumn(ft.Text(shell.t(N_("→ {player}"), player=name)), numeric=True)
        for name in names
    ]
    rows = []
    for p, name in enumerate(names):

        def cell(ident: str, text: str, target_cell: Cell | None) -> ft.DataCell:
            return ft.DataCell(
                sem(ident, ft.Text(text)),
                on_tap=(lambda e, c=target_cell: open_cell(c)) if target_cell else None,
            )

        cells = [
            ft.DataCell(ft.Text(name, weight=ft.FontWeight.BOLD)),
            cell(f"pool-{p}", pool_text(p), Cell("pool", p)),
            cell(f"gora-{p}", figure(sheet.gora[p], run.gora[p]), Cell("gora", p)),
        ]
        cells += [
            cell(f"whists-{p}-{q}", "—", None)
            if q == p
            else cell(
                f"whists-{p}-{q}",
                figure(sheet.whists[p][q], run.whists[p][q]),
                Cell("whists", p, q),
            )
            for q in range(n)
        ]
        rows.append(ft.DataRow(cells))
    return ft.DataTable(columns=columns, rows=rows, column_spacing=18)


def cell_title(shell: Shell, stored: PulyaStored, cell: Cell) -> str:
    names = stored.session.players
    if cell.kind == "pool":
        return shell.t(N_("{player}: pulya"), player=names[cell.player])
    if cell.kind == "gora":
        return shell.t(N_("{player}: gora"), player=names[cell.player])
    assert cell.other is not None
    return shell.t(
        N_("{player} → {other}: whists"), player=names[cell.player], other=names[cell.other]
    )


def show_cell(shell: Shell, stored: PulyaStored, cell: Cell) -> None:
    """A dialog with every entry of the cell, as on paper: old totals struck through."""
    writings = [d.writing for d in stored.scored.deals]
    entries = cell_history(writings, cell, live_numbers(stored.journal))
    lines: list[ft.Control] = []
    for k, e in enumerate(entries):
        last = k == len(entries) - 1
        change = whist_figure(e.change)
        if e.change > 0:
            change = "+" + change
        lines.append(
            ft.Text(
                shell.t(
                    N_("Deal {n}: {change}, total {total}"),
                    n=e.deal,
                    change=change,
                    total=whist_figure(e.total),
                ),
                size=15,
                weight=ft.FontWeight.BOLD if last else None,
                color=None if last else ft.Colors.ON_SURFACE_VARIANT,
                style=None if last else ft.TextStyle(decoration=ft.TextDecoration.LINE_THROUGH),
            )
        )
    if not lines:
        lines.append(ft.Text(shell.t(N_("Nothing is written here yet."))))
    shell.page.show_dialog(
        ft.AlertDialog(
            title=sem("cell-title", ft.Text(cell_title(shell, stored, cell))),
            content=sem(
                "cell-history",
                # as tall as its entries, scrolled past a screenful (a dialog takes all it is given)
                ft.Container(
                    ft.Column(lines, spacing=4, scroll=ft.ScrollMode.AUTO),
                    height=min(420, 28 * len(lines) + 8),
                    width=300,
                ),
            ),
            actions=[
                sem(
                    "close-cell",
                    ft.TextButton(shell.t(N_("Close")), on_click=lambda: shell.page.pop_dialog()),
                )
            ],
        )
    )
