"""The sheet: the paper drawing, or a table (on a phone one card a player, so that nothing is
wider than the screen).  Both show the same totals and mark a closed pulya with ✓; a tap on a
cell, in either, opens the cell's whole history."""

from __future__ import annotations

from collections.abc import Callable

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
    figures = _Figures(stored)
    if (shell.page.width or 1000) < NARROW:
        return _cards(shell, figures, open_cell)
    return _data_table(shell, figures, open_cell)


class _Figures:
    """Each cell of the sheet as it is written: blank where nothing was written, as on paper
    (not "0"); a closed pulya marked."""

    def __init__(self, stored: PulyaStored) -> None:
        self.sheet = stored.scored.sheet
        self.names = stored.session.players
        n = len(self.names)
        target = stored.session.pool_target
        self.closed = [self.sheet.pool[p] >= target for p in range(n)]
        self.run = running_entries([d.writing for d in stored.scored.deals], n)

    @staticmethod
    def _figure(value: Number, written: list[Number]) -> str:
        return whist_figure(value) if written else ""

    def pool(self, p: int) -> str:
        return self._figure(self.sheet.pool[p], self.run.pool[p]) + (
            CLOSED if self.closed[p] else ""
        )

    def gora(self, p: int) -> str:
        return self._figure(self.sheet.gora[p], self.run.gora[p])

    def whists(self, p: int, q: int) -> str:
        return self._figure(self.sheet.whists[p][q], self.run.whists[p][q])


def _cards(shell: Shell, figures: _Figures, open_cell: Callable[[Cell], None]) -> ft.Control:
    """A narrow screen: a card a player, his figures as chips."""
    names = figures.names
    cards: list[ft.Control] = []
    for p, name in enumerate(names):
        chips = [
            _chip(f"pool-{p}", shell.t(N_("Pulya")), figures.pool(p), Cell("pool", p), open_cell),
            _chip(f"gora-{p}", shell.t(N_("Gora")), figures.gora(p), Cell("gora", p), open_cell),
        ]
        chips += [
            _chip(
                f"whists-{p}-{q}",
                shell.t(N_("→ {player}"), player=names[q]),
                figures.whists(p, q),
                Cell("whists", p, q),
                open_cell,
            )
            for q in range(len(names))
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


def _chip(
    ident: str, label: str, value: str, cell: Cell, open_cell: Callable[[Cell], None]
) -> ft.Control:
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
            on_click=lambda e: open_cell(cell),
        ),
    )


def _data_table(shell: Shell, figures: _Figures, open_cell: Callable[[Cell], None]) -> ft.Control:
    """A wide screen: the sheet as a table, a row a player."""
    names = figures.names
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
        cells = [
            ft.DataCell(ft.Text(name, weight=ft.FontWeight.BOLD)),
            _data_cell(f"pool-{p}", figures.pool(p), Cell("pool", p), open_cell),
            _data_cell(f"gora-{p}", figures.gora(p), Cell("gora", p), open_cell),
        ]
        cells += [
            _data_cell(f"whists-{p}-{q}", "—", None, open_cell)
            if q == p
            else _data_cell(
                f"whists-{p}-{q}", figures.whists(p, q), Cell("whists", p, q), open_cell
            )
            for q in range(len(names))
        ]
        rows.append(ft.DataRow(cells))
    return ft.DataTable(columns=columns, rows=rows, column_spacing=18)


def _data_cell(
    ident: str, text: str, target: Cell | None, open_cell: Callable[[Cell], None]
) -> ft.DataCell:
    return ft.DataCell(
        sem(ident, ft.Text(text)),
        on_tap=(lambda e: open_cell(target)) if target else None,
    )


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
