"""The kassa family (Greek Prefa) in the app: its deal entry and its sheet (registered in
family_ui).

The entry draws :class:`~.kassa_form.KassaForm`: the declarer, the contract (6♠ … 10♥, no 10NT),
each defender's whist / pass / invite (and the invited one's counter-invitation where it is
played), who held four aces where they are paid, the tricks of the players in play and the preview in the
engine's words.  The sheet is pagat's first layout: per player the chips received from each
neighbour beside his kassa, which counts down, and his chips in all.
"""

from __future__ import annotations

import flet as ft

from ...i18n import N_
from ...scoring.pulya.table import contract_name
from ..families.parts import (
    declarer_card,
    defence_card,
    form_head,
)
from ..families.pieces import (
    Redraw,
    current_form,
    entry_frame,
    finished_card,
    redrawer,
    tricks_card,
)
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
    if f.four_aces_options():
        cards.append(_four_aces(shell, f, redraw))
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


def _four_aces(shell: Shell, f: KassaForm, redraw: Redraw) -> ft.Control:
    """Who held four aces, where the convention pays them (G-Q1): nobody, or a player dealt in."""
    buttons = [
        sem(
            "four-aces-none",
            choice(
                f.four_aces is None, shell.t(N_("nobody")), redraw(lambda: f.choose_four_aces(None))
            ),
        ),
        *(
            sem(
                f"four-aces-{s}",
                choice(f.four_aces == s, f.names[s], redraw(lambda s=s: f.choose_four_aces(s))),
            )
            for s in f.four_aces_options()
        ),
    ]
    return card(
        ft.Row(buttons, wrap=True, spacing=4, run_spacing=4), title=shell.t(N_("Four aces held by"))
    )
