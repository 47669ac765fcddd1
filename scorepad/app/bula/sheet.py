"""The bula sheet as paper players draw it: per player his bula between the supe he wrote on
his neighbours, the refe triangles and the hats; a tap on a column shows its history."""

from __future__ import annotations

import flet as ft

from ...core.i18n import N_
from ...scoring.ledger.bula import BulaSettings, BulaTable
from ...scoring.ledger.ledger import Account
from ..families.columns import (
    column,
    figure,
    hats,
    headers,
    line_height,
    opener,
    refe_marks,
    rows_of,
    running,
    show_entries,
    triangles,
)
from ..families.parts import (
    Kept,
    between,
    headed,
    sheet_group,
    sheet_layout,
    sheet_page,
)
from ..frame.shell import Shell
from ..frame.theme import sem

# --- the bula sheet ------------------------------------------------------------------------------


def bula_sheet(shell: Shell) -> ft.Control:
    scored, names, short, width, size = sheet_layout(shell)
    table = scored.table
    assert isinstance(table, BulaTable)
    settings = scored.settings
    assert isinstance(settings, BulaSettings)
    n = len(names)
    groups: list[ft.Control] = []
    pot_form = settings.scoring == "pot"
    if pot_form:
        lines = rows_of(*(running(scored, Account("cash", p), -settings.ante) for p in range(n)))
    else:
        lines = rows_of(
            *(running(scored, Account("bula", p), settings.start_bula) for p in range(n)),
            *(running(scored, Account("supe", p, q)) for p in range(n) for q in range(n) if p != q),
        )
    for p in range(n):
        got, used = refe_marks(scored, p)
        marks: list[ft.Control | None] = [triangles(got, used), hats(table.hats[p])]
        if pot_form:
            cash = running(scored, Account("cash", p), -settings.ante)
            block = headed(
                headers([(shell.t(N_("cash")), width - 2)], 12),
                [
                    column(
                        f"cash-{p}",
                        cash,
                        width=width - 2,
                        size=size,
                        bold=True,
                        lines=lines,
                        line=line_height(size),
                        label=shell.t(N_("{player}: cash"), player=names[p]),
                        on_tap=opener(shell, shell.t(N_("{player}: cash"), player=names[p]), cash),
                    )
                ],
            )
        else:
            left, right = (p - 1) % n, (p + 1) % n

            def supe(q: int, p: int = p) -> Kept:
                label = shell.t(N_("{player}: supe on {other}"), player=names[p], other=names[q])
                heading = shell.t(N_("→{player}"), player=short[q])
                return Kept(f"supe-{p}-{q}", running(scored, Account("supe", p, q)), label, heading)

            bula = Kept(
                f"bula-{p}",
                running(scored, Account("bula", p), settings.start_bula),
                shell.t(N_("{player}: bula"), player=names[p]),
                shell.t(N_("bula")),
            )
            block = between(
                shell,
                supe(left),
                bula,
                supe(right),
                width=width,
                size=size,
                lines=lines,
                across=supe((p + 2) % n) if n == 4 else None,  # four at the table (§4.1)
            )
        groups.append(sheet_group(shell, p, names[p], marks, block, None, width))
    status: list[ft.Control] = []
    if pot_form:
        pot = running(scored, Account("pot"), settings.ante * n)
        status.append(
            sem(
                "sheet-pot",
                ft.Container(
                    ft.Text(
                        shell.t(N_("Pot: {amount}"), amount=figure(table.ledger.get("pot"))),
                        size=16,
                        weight=ft.FontWeight.BOLD,
                    ),
                    on_click=lambda _e: show_entries(shell, shell.t(N_("Pot")), pot),
                    ink=True,
                    padding=ft.Padding.symmetric(vertical=6),
                ),
            )
        )
    elif scored.finished:
        status.append(
            sem("sheet-left", ft.Text(shell.t(N_("The bulas sum to zero: the game is over."))))
        )
    else:
        status.append(
            sem(
                "sheet-left",
                ft.Text(
                    shell.t(N_("Left to close: {left}"), left=figure(table.left)),
                    size=16,
                    weight=ft.FontWeight.BOLD,
                ),
            )
        )
    if table.refe_rounds:
        status.append(
            sem(
                "sheet-refe",
                ft.Text(
                    shell.t(
                        N_(
                            "Refe rounds: {n}. A triangle is a refe; crossed when used (green: made)."
                        ),
                        n=table.refe_rounds,
                    ),
                    size=12,
                ),
            )
        )
    if not pot_form:
        status.append(
            ft.Text(
                shell.t(
                    N_(
                        "A column headed →X holds the supe written on player X; the bula is in the middle."
                    )
                ),
                size=12,
            )
        )
    status.append(ft.Text(shell.t(N_("Tap a column to see every entry in it.")), size=12))
    return sheet_page(groups, status)
