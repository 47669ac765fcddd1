"""The kassa family (Greek Prefa) in the app: its deal entry and its sheet (registered in
family_ui).

The entry draws :class:`~.kassa_form.KassaForm`: the declarer, the contract (6♠ … 10♥, no 10NT),
each defender's whist / pass / invite, the tricks of the players in play and the preview in the
engine's words.  The sheet is pagat's first layout: per player the chips received from each
neighbour beside his kassa, which counts down, and his chips in all.
"""

from __future__ import annotations

import flet as ft

from ..i18n import N_
from ..scoring.families import FamilyScored
from ..scoring.kassa import KassaSettings, KassaTable, results
from ..scoring.ledger import Account
from ..scoring.table import contract_name
from . import kassa_form
from .bula_parts import (
    Redraw,
    current_form,
    entry_frame,
    family_stored,
    finished_card,
    head_card,
    redrawer,
    said,
    seat_row,
    tricks_card,
)
from .bula_sheet import (
    column,
    figure,
    group_width,
    headers,
    line_height,
    opener,
    player_group,
    rows_of,
    running,
    sheet_width,
    short_names,
)
from .family_ui import FamilyUI, register_family
from .kassa_form import KassaForm
from .shell import Shell
from .theme import TAP, card, choice, sem

CALL_LABELS = {"whist": N_("whist"), "pass": N_("pass"), "invite": N_("invite")}


def kassa_entry(shell: Shell) -> ft.Control:
    f: KassaForm = current_form(shell, KassaForm, kassa_form.new_form)
    editing = shell.editing
    redraw = redrawer(shell, kassa_entry)
    number = editing[1] + 1 if editing else f.number
    if not editing and f.finished:  # no next deal to number
        return finished_card(shell, shell.t(N_("Every kassa is empty: the game is over.")))
    head = head_card(shell, number, editing is not None)
    cards: list[ft.Control] = [card(*head)]
    cards.append(
        card(
            seat_row(
                f.names,
                f.declarers(),
                f.declarer,
                "declarer",
                lambda s: redraw(lambda: f.choose_declarer(s)),
            ),
            title=shell.t(N_("Declarer")),
        )
    )
    if f.declarer is not None:
        cards.append(_contract(shell, f, redraw))
    if f.contract is not None:
        cards.append(_defence(shell, f, redraw))
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


def _defence(shell: Shell, f: KassaForm, redraw: Redraw) -> ft.Control:
    roles = f.defence()
    rows: list[ft.Control] = []
    for s in f.defenders():
        if roles.get(s) == "invited":
            rows.append(
                sem(
                    f"invited-{s}",
                    ft.Text(shell.t(N_("{player}: called in (invited)"), player=f.names[s])),
                )
            )
            continue
        rows.append(said(shell, s, f.names[s], f.calls.get(s)))
        rows.append(
            ft.Row(
                [
                    sem(
                        f"call-{s}-{c}",
                        choice(
                            f.calls.get(s) == c,
                            shell.t(CALL_LABELS[c]),
                            redraw(lambda s=s, c=c: f.say(s, c)),
                        ),
                    )
                    for c in f.call_options(s)
                ],
                wrap=True,
            )
        )
    return card(*rows, title=shell.t(N_("Defence")))


def kassa_sheet(shell: Shell) -> ft.Control:
    stored = family_stored(shell)
    scored: FamilyScored = stored.scored
    table = scored.table
    assert isinstance(table, KassaTable)
    settings = scored.settings
    assert isinstance(settings, KassaSettings)
    names = list(scored.session.players)
    n = len(names)
    short = short_names(names)
    width = group_width(sheet_width(shell), n)
    size = 13 if width < 140 else 15
    chips = results(table)
    groups: list[ft.Control] = []
    lines = rows_of(
        *(running(scored, Account("kassa", p), settings.kassa) for p in range(n)),
        *(running(scored, Account("chips", p, q)) for p in range(n) for q in range(n) if p != q),
    )
    for p in range(n):
        # pagat's layout: the kassa in the middle, the chips received from each side beside it
        left, right = table.right(table.right(p)), table.right(p)
        side = (width - 2) * 0.31
        middle = (width - 2) - 2 * side
        kassa = running(scored, Account("kassa", p), settings.kassa)
        from_left = running(scored, Account("chips", p, left))
        from_right = running(scored, Account("chips", p, right))

        def chips_title(q: int, p: int = p) -> str:
            return shell.t(N_("{player}: chips from {other}"), player=names[p], other=names[q])

        cols: list[ft.Control] = [
            column(
                f"chips-{p}-{left}",
                from_left,
                width=side,
                size=size - 1,
                lines=lines,
                line=line_height(size),
                label=chips_title(left),
                on_tap=opener(shell, chips_title(left), from_left),
            ),
            column(
                f"kassa-{p}",
                kassa,
                width=middle,
                size=size,
                bold=True,
                ruled=True,
                lines=lines,
                line=line_height(size),
                label=shell.t(N_("{player}: kassa"), player=names[p]),
                on_tap=opener(shell, shell.t(N_("{player}: kassa"), player=names[p]), kassa),
            ),
            column(
                f"chips-{p}-{right}",
                from_right,
                width=side,
                size=size - 1,
                lines=lines,
                line=line_height(size),
                label=chips_title(right),
                on_tap=opener(shell, chips_title(right), from_right),
            ),
        ]
        head = headers(
            [
                (shell.t(N_("{player}→"), player=short[left]), side),
                (shell.t(N_("kassa")), middle),
                (shell.t(N_("{player}→"), player=short[right]), side),
            ],
            12,
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
        groups.append(
            sem(
                f"sheet-player-{p}",
                player_group(
                    shell,
                    p,
                    names[p],
                    [],
                    [
                        ft.Column(
                            [
                                head,
                                ft.Row(
                                    cols, spacing=0, vertical_alignment=ft.CrossAxisAlignment.START
                                ),
                            ]
                        )
                    ],
                    footer,
                    width,
                ),
            )
        )
    status = (
        shell.t(N_("Every kassa is empty: the game is over."))
        if scored.finished
        else shell.t(N_("Left in the kassas: {left}"), left=figure(sum(table.kassas, start=0)))
    )
    return ft.Column(
        [
            ft.Row(
                groups,
                spacing=4,
                vertical_alignment=ft.CrossAxisAlignment.START,
            ),
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
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        spacing=10,
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
