"""The pot sheet: the pot, each player's cash and standing, and each deal's transfers in words,
running, as paper players keep them (the figures come from :mod:`.figures`)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import flet as ft

from ...core.i18n import N_
from ...core.numbers import Number, whist_figure
from ..frame.theme import WIDE, card, sem
from .figures import PotSheet, pot_sheet

if TYPE_CHECKING:
    from ..frame.shell import Shell


# --- the sheet -------------------------------------------------------------------------------


def _signed(value: Number) -> str:
    text = whist_figure(value)
    return "+" + text if value > 0 else text


def _figure(label: str, value: str, *, ident: str, bold: bool = False, width: float) -> ft.Control:
    """A name (wrapped, never cut) over a figure."""
    return sem(
        ident,
        ft.Container(
            ft.Column(
                [
                    ft.Text(label, size=13, color=ft.Colors.ON_SURFACE_VARIANT),
                    ft.Text(value, size=16, weight=ft.FontWeight.BOLD if bold else None),
                ],
                spacing=0,
                tight=True,
            ),
            width=width,
        ),
    )


def sheet_screen(shell: Shell) -> ft.Control:
    stored = shell.stored()
    s = pot_sheet(stored.scored)
    wide = (shell.page.width or 0) >= WIDE
    col = 150.0 if wide else 96.0
    controls: list[ft.Control] = [sem("pot-summary", _summary(shell, s, col))]
    if s.has_pot and s.start_pot:
        controls.append(
            sem(
                "pot-start",
                card(
                    ft.Text(shell.t(N_("Before the first deal")), weight=ft.FontWeight.BOLD),
                    ft.Text(shell.t(N_("everyone antes {amount}"), amount=whist_figure(s.ante))),
                    _totals(
                        shell,
                        s,
                        cash=s.start_cash,
                        pot=s.start_pot,
                        change=None,
                        pot_change=None,
                        col=col,
                        ident="start",
                    ),
                ),
            )
        )
    for row in s.rows:
        lines: list[ft.Control] = [
            ft.Text(
                shell.t(N_("{n}. {deal}"), n=row.number, deal=row.title),
                weight=ft.FontWeight.BOLD,
            )
        ]
        lines += [ft.Text(shell.render(m), size=14) for m in row.explain]
        totals = _totals(
            shell,
            s,
            cash=row.cash,
            pot=row.pot,
            change=row.cash_change,
            pot_change=row.pot_change,
            col=col,
            ident=f"deal-{row.number}",
        )
        if wide:  # the words on the left, the figures on the right, as on a ruled sheet
            body: ft.Control = ft.Row(
                [
                    ft.Column(lines, spacing=4, expand=True),
                    ft.Container(totals, width=(len(s.names) + 1) * (col + 8)),
                ],
                vertical_alignment=ft.CrossAxisAlignment.START,
            )
            controls.append(sem(f"sheet-deal-{row.number}", card(body)))
        else:
            controls.append(sem(f"sheet-deal-{row.number}", card(*lines, totals, spacing=4)))
    if not s.rows:
        controls.append(ft.Text(shell.t(N_("No deal is written yet."))))
    return ft.Column(
        controls,
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        spacing=8,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )


def _summary(shell: Shell, s: PotSheet, col: float) -> ft.Control:
    rows: list[ft.Control] = []
    if s.has_pot:
        rows.append(
            sem(
                "sheet-pot",
                ft.Text(
                    shell.t(N_("In the pot: {amount}"), amount=whist_figure(s.pot)),
                    size=18,
                    weight=ft.FontWeight.BOLD,
                ),
            )
        )
    fig = min(col, 72.0)
    wide = col >= 150

    def line(name: ft.Control, *figures: ft.Control) -> ft.Control:
        return ft.Row(
            [
                # a phone: the name takes what the figures leave, wrapping, never cut
                ft.Container(name, expand=not wide, width=2 * col if wide else None),
                *(ft.Container(x, width=fig) for x in figures),
            ],
            spacing=8,
            vertical_alignment=ft.CrossAxisAlignment.START,
        )

    def label(text: str) -> ft.Control:
        return ft.Text(text, size=13, color=ft.Colors.ON_SURFACE_VARIANT)

    heads = [label(shell.t(N_("Cash")))]
    if s.has_pot:
        heads.append(label(shell.t(N_("Standing"))))
    rows.append(line(ft.Container(), *heads))
    for p, name in enumerate(s.names):
        figures = [sem(f"cash-{p}", ft.Text(whist_figure(s.cash[p]), size=16))]
        if s.has_pot:
            figures.append(
                sem(
                    f"standing-{p}",
                    ft.Text(whist_figure(s.standing[p]), size=16, weight=ft.FontWeight.BOLD),
                )
            )
        rows.append(
            line(
                sem(f"sheet-name-{p}", ft.Text(name, weight=ft.FontWeight.BOLD, size=16)), *figures
            )
        )
    if s.has_pot:
        rows.append(
            sem(
                "standing-rule",
                ft.Text(
                    shell.t(N_("Standing: the cash alone; the pot stays for the next game."))
                    if s.carry
                    else shell.t(
                        N_("Standing: the cash and an equal share of the pot, {share} each."),
                        share=whist_figure(Fraction(s.pot) / len(s.names)),
                    ),
                    size=13,
                ),
            )
        )
    return card(*rows, title=shell.t(N_("Now")))


def _totals(
    shell: Shell,
    s: PotSheet,
    *,
    cash: Sequence[Number],
    pot: Number,
    change: Sequence[Number] | None,
    pot_change: Number | None,
    col: float,
    ident: str,
) -> ft.Control:
    """Each player's change and running cash (and the pot's), a name over its figures."""

    def value(total: Number, delta: Number | None) -> str:
        return whist_figure(total) if delta is None else f"{_signed(delta)} → {whist_figure(total)}"

    items = [
        (name, cash[p], None if change is None else change[p], f"cash-{p}")
        for p, name in enumerate(s.names)
    ]
    if s.has_pot:
        items.append((shell.t(N_("Pot")), pot, pot_change, "pot"))
    if col >= 150:  # a laptop: a column a player, the name over the figures
        return ft.Row(
            [
                _figure(name, value(total, delta), ident=f"{ident}-{key}", width=col)
                for name, total, delta, key in items
            ],
            wrap=True,
            spacing=8,
            run_spacing=4,
            vertical_alignment=ft.CrossAxisAlignment.START,
        )
    # a phone: a line a player, the name wrapping (never cut), the figures on the right
    return ft.Column(
        [
            ft.Row(
                [
                    ft.Text(name, size=14, color=ft.Colors.ON_SURFACE_VARIANT, expand=True),
                    sem(f"{ident}-{key}", ft.Text(value(total, delta), size=15)),
                ],
                vertical_alignment=ft.CrossAxisAlignment.START,
            )
            for name, total, delta, key in items
        ],
        spacing=2,
        tight=True,
    )
