"""Cash-out, at any time ("if we stopped now") and at the end: whists, money, who pays whom."""

from __future__ import annotations

import flet as ft

from ..i18n import N_, Msg, whist_count
from ..numbers import Number, to_text
from ..report import settlement_of, to_text_sheet
from ..scoring.settlement import format_money
from .nav import nav
from .shell import Shell, sem


def settle_screen(shell: Shell) -> ft.Control:
    stored = shell.stored()
    scored = stored.scored
    st = settlement_of(scored)
    names = stored.session.players
    currency = stored.session.currency
    status = (
        shell.t(N_("The game is finished."))
        if scored.finished
        else shell.t(N_("The game is not finished: if we stopped now."))
    )
    rows: list[ft.Control] = [nav(shell, "nav-settle"), ft.Text(status, weight=ft.FontWeight.BOLD)]
    for p, name in enumerate(names):
        rows.append(
            sem(
                f"balance-{p}",
                ft.Text(
                    shell.t(
                        N_("{player}: {whists}, {money} {currency}"),
                        player=name,
                        whists=shell.render(_whists(st.balance[p])),
                        money=format_money(st.money[p], st.minor_digits),
                        currency=currency,
                    )
                ),
            )
        )
    if st.payments:
        rows.append(ft.Text(shell.t(N_("Payments:")), weight=ft.FontWeight.BOLD))
        for pay in st.payments:
            rows.append(
                ft.Text(
                    shell.t(
                        N_("{payer} pays {payee} {amount} {currency}"),
                        payer=names[pay.payer],
                        payee=names[pay.payee],
                        amount=format_money(pay.amount, st.minor_digits),
                        currency=currency,
                    )
                )
            )

    async def copy() -> None:
        await ft.Clipboard().set(to_text_sheet(scored, shell.lang, explain=False))
        shell.message = None

    rows.append(
        sem("copy-settlement", ft.OutlinedButton(shell.t(N_("Copy as text")), on_click=copy))
    )
    return ft.Column(rows, scroll=ft.ScrollMode.AUTO, expand=True, spacing=8)


def _whists(value: Number) -> Msg:
    return whist_count(to_text(value))
