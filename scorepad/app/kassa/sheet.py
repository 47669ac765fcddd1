"""The kassa sheet (Greek Prefa): per player his kassa counting down between the chips he
received from and paid to each neighbour, each a running column."""

from __future__ import annotations

import flet as ft

from ...core.i18n import N_
from ...scoring.ledger.kassa import KassaSettings, KassaTable, results
from ...scoring.ledger.ledger import Account
from ..families.columns import figure, rows_of, running
from ..families.parts import (
    Kept,
    between,
    sheet_group,
    sheet_layout,
    sheet_page,
)
from ..frame.shell import Shell
from ..frame.theme import sem


def kassa_sheet(shell: Shell) -> ft.Control:
    scored, names, short, width, size = sheet_layout(shell)
    table = scored.table
    assert isinstance(table, KassaTable)
    settings = scored.settings
    assert isinstance(settings, KassaSettings)
    n = len(names)
    chips = results(table)
    groups: list[ft.Control] = []
    lines = rows_of(
        *(running(scored, Account("kassa", p), settings.kassa) for p in range(n)),
        *(running(scored, Account("chips", p, q)) for p in range(n) for q in range(n) if p != q),
    )
    for p in range(n):
        # pagat's layout: the kassa in the middle, the chips received from each side beside it
        # The neighbours in turn order (seat order; at four, the player across as well).
        left, right = (p - 1) % n, (p + 1) % n

        def chips_from(q: int, p: int = p) -> Kept:
            label = shell.t(N_("{player}: chips from {other}"), player=names[p], other=names[q])
            heading = shell.t(N_("{player}→"), player=short[q])
            return Kept(f"chips-{p}-{q}", running(scored, Account("chips", p, q)), label, heading)

        kassa = Kept(
            f"kassa-{p}",
            running(scored, Account("kassa", p), settings.kassa),
            shell.t(N_("{player}: kassa"), player=names[p]),
            shell.t(N_("kassa")),
        )
        block = between(
            shell,
            chips_from(left),
            kassa,
            chips_from(right),
            width=width,
            size=size,
            lines=lines,
            across=chips_from((p + 2) % n) if n == 4 else None,
        )
        total = chips[p]
        footer = sem(
            f"chips-total-{p}",
            ft.Text(
                shell.t(N_("chips: {n}"), n=("+" if total > 0 else "") + figure(total)),
                size=size,
                weight=ft.FontWeight.BOLD,
                text_align=ft.TextAlign.CENTER,
            ),
        )
        groups.append(sheet_group(shell, p, names[p], [], block, footer, width))
    status = (
        shell.t(N_("Every kassa is empty: the game is over."))
        if scored.finished
        else shell.t(N_("Left in the kassas: {left}"), left=figure(sum(table.kassas, start=0)))
    )
    return sheet_page(
        groups,
        [
            sem("sheet-left", ft.Text(status, size=16, weight=ft.FontWeight.BOLD)),
            ft.Text(
                shell.t(
                    N_(
                        "A column headed X→ holds the chips received from player X; the kassa is in the middle."
                    )
                ),
                size=12,
            ),
            ft.Text(shell.t(N_("Tap a column to see every entry in it.")), size=12),
        ],
    )
