"""The kassa family (Greek Prefa) in the app: its deal entry and its sheet (registered in
family_ui).

The entry draws :class:`~.kassa_form.KassaForm`: the declarer, the contract (6♠ … 10♥, no 10NT),
each defender's whist / pass / invite, the tricks of the players in play and the preview in the
engine's words.  The sheet is pagat's first layout: per player the chips received from each
neighbour beside his kassa, which counts down, and his chips in all.
"""

from __future__ import annotations

import flet as ft

from ...i18n import N_
from ...scoring.ledger.kassa import KassaSettings, KassaTable, results
from ...scoring.ledger.ledger import Account
from ...scoring.pulya.table import contract_name
from ..families.columns import figure, rows_of, running
from ..families.parts import (
    Kept,
    between,
    declarer_card,
    defence_card,
    form_head,
    sheet_group,
    sheet_layout,
    sheet_page,
)
from ..families.pieces import (
    Redraw,
    current_form,
    entry_frame,
    finished_card,
    redrawer,
    tricks_card,
)
from ..families.ui import FamilyUI, register_family
from ..frame.shell import Shell
from ..frame.theme import TAP, card, choice, sem
from . import form as kassa_form
from .form import KassaForm


def kassa_entry(shell: Shell) -> ft.Control:
    f: KassaForm = current_form(shell, KassaForm, kassa_form.new_form)
    redraw = redrawer(shell, kassa_entry)
    if not shell.editing and f.finished:  # no next deal to number
        return finished_card(shell, shell.t(N_("Every kassa is empty: the game is over.")))
    head = form_head(shell, f)
    cards: list[ft.Control] = [card(*head)]
    cards.append(declarer_card(shell, f, redraw))
    if f.declarer is not None:
        cards.append(_contract(shell, f, redraw))
    if f.contract is not None:
        cards.append(defence_card(shell, f, redraw))
    if f.trick_seats():
        cards.append(tricks_card(shell, f, redraw, title=shell.t(N_("Tricks"))))
    return entry_frame(shell, f, cards, kassa_entry)


def _contract(shell: Shell, f: KassaForm, redraw: Redraw) -> ft.Control:
    rows: list[ft.Control] = []
    for level in f.levels():
        buttons: list[ft.Control] = []
        for c in f.contracts(level):
            label = contract_name(c)
            text = label if isinstance(label, str) else shell.render(label)
            buttons.append(
                sem(
                    f"contract-{c.code}",
                    choice(
                        f.contract == c,
                        text,
                        redraw(lambda c=c: f.choose_contract(c)),
                        width=TAP + 8,  # a level's five in a row on a phone
                    ),
                )
            )
        rows.append(ft.Row(buttons, wrap=True, spacing=4, run_spacing=4))
    return card(*rows, title=shell.t(N_("Contract")))


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
        left, right = table.right(table.right(p)), table.right(p)

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
            shell, chips_from(left), kassa, chips_from(right), width=width, size=size, lines=lines
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


register_family(
    "kassa",
    ui=FamilyUI(
        new_form=kassa_form.new_form,
        edit_form=kassa_form.edit_form,
        carry=kassa_form.carry,
        entry=kassa_entry,
        sheet=kassa_sheet,
        title=kassa_form.title,
    ),
)

__all__ = ["kassa_entry", "kassa_sheet"]
