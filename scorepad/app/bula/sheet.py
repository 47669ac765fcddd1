"""The bula sheet as paper players draw it: per player his bula between the supe he wrote on
his neighbours, the refe triangles and the hats; a tap on a column shows its history."""

from __future__ import annotations

import flet as ft

from ...core.i18n import N_
from ...scoring.ledger.bula import BulaSettings, BulaTable
from ...scoring.ledger.families import FamilyScored
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
    Layout,
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
    layout = sheet_layout(shell)
    scored, names, width = layout.scored, layout.names, layout.width
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
            block = _cash(shell, layout, lines, p)
        else:
            block = _bula_between_supe(shell, layout, lines, p)
        groups.append(sheet_group(shell, p, names[p], marks, block, None, width))
    return sheet_page(groups, _status(shell, scored, table, settings))


def _cash(shell: Shell, sheet: Layout, lines: int, p: int) -> ft.Control:
    """A bula played as a pot: each player's cash, a column."""
    settings = sheet.scored.settings
    assert isinstance(settings, BulaSettings)
    cash = running(sheet.scored, Account("cash", p), -settings.ante)
    said = shell.t(N_("{player}: cash"), player=sheet.names[p])
    return headed(
        headers([(shell.t(N_("cash")), sheet.width - 2)], 12),
        [
            column(
                f"cash-{p}",
                cash,
                width=sheet.width - 2,
                size=sheet.size,
                bold=True,
                lines=lines,
                line=line_height(sheet.size),
                label=said,
                on_tap=opener(shell, said, cash),
            )
        ],
    )


def _bula_between_supe(shell: Shell, sheet: Layout, lines: int, p: int) -> ft.Control:
    """A player's bula between the supe he wrote on his neighbours (four: the one across too)."""
    scored, names, n = sheet.scored, sheet.names, len(sheet.names)
    settings = scored.settings
    assert isinstance(settings, BulaSettings)
    left, right = (p - 1) % n, (p + 1) % n

    def supe(q: int) -> Kept:
        label = shell.t(N_("{player}: supe on {other}"), player=names[p], other=names[q])
        heading = shell.t(N_("→{player}"), player=sheet.short[q])
        return Kept(f"supe-{p}-{q}", running(scored, Account("supe", p, q)), label, heading)

    bula = Kept(
        f"bula-{p}",
        running(scored, Account("bula", p), settings.start_bula),
        shell.t(N_("{player}: bula"), player=names[p]),
        shell.t(N_("bula")),
    )
    return between(
        shell,
        supe(left),
        bula,
        supe(right),
        width=sheet.width,
        size=sheet.size,
        lines=lines,
        across=supe((p + 2) % n) if n == 4 else None,  # four at the table (§4.1)
    )


def _status(
    shell: Shell, scored: FamilyScored, table: BulaTable, settings: BulaSettings
) -> list[ft.Control]:
    """Under the columns: the pot, or what is left to close; the refe rounds; how to read it."""
    pot_form = settings.scoring == "pot"
    status: list[ft.Control] = []
    if pot_form:
        pot = running(scored, Account("pot"), settings.ante * len(scored.session.players))
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
    return status
