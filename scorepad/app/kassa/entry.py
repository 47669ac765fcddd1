"""The kassa family (Greek Prefa) in the app: its deal entry and its sheet (registered in
:mod:`scorepad.app.kassa`).

The entry draws :class:`~.form.KassaForm` on one phone screen: the declarer, the contract
(6♠ … 10♥, no 10NT) folded to one row once chosen, each defender's whist / pass / invite (and
the invited one's counter-invitation where it is played), who held four aces where they are
paid, the tricks of the players in play and the preview in the engine's words pinned above
Write.  The sheet is pagat's first layout: per player the chips received from each
neighbour beside his kassa, which counts down, and his chips in all.
"""

from __future__ import annotations

import flet as ft

from ...core.i18n import N_
from ...scoring.contract import Contract, Trump
from ...scoring.pulya.table import contract_name
from ..families.parts import declarer_row, defence_rows, form_head
from ..families.pieces import (
    current_form,
    entry_frame,
    finished_card,
    tricks_rows,
)
from ..frame.shell import Shell
from ..frame.writing import Redraw, cell, cell_row, folded, redrawer
from . import form as kassa_form
from .form import KassaForm


def kassa_entry(shell: Shell) -> ft.Control:
    """The deal on one phone screen (issue #27): the declarers in one row, the level × suit grid
    (folded to one row once chosen), a row a defender, the tricks, the preview pinned above
    Write."""
    f: KassaForm = current_form(shell, KassaForm, kassa_form.new_form)
    redraw = redrawer(shell, kassa_entry)
    if not shell.editing and f.finished:  # no next deal to number
        return finished_card(shell, shell.t(N_("Every kassa is empty: the game is over.")))
    rows: list[ft.Control] = [*form_head(shell, f)]
    rows.append(declarer_row(f, redraw))
    if f.may_redeal() and (f.redeal or f.contract is None):
        # All passed: a redeal, one tap under the declarers, its own row so that its words are
        # never cut beside three or four names (§7.1; with four it moves who sits out).
        redeal = cell(
            "kind-redeal", f.redeal, shell.t(N_("All pass, redeal")), redraw(f.choose_redeal)
        )
        rows.append(cell_row([redeal]))
    if f.declarer is not None and f.contract is not None:
        rows.append(
            folded(
                shell,
                shell.t(
                    N_("{player}: {contract}"),
                    player=f.names[f.declarer],
                    contract=_name(shell, f.contract),
                ),
                redraw(lambda: _reopen(f)),
            )
        )
        rows.append(defence_rows(shell, f, redraw))
    elif f.declarer is not None:
        rows.append(_contract(shell, f, redraw))
    if f.four_aces_options():
        rows.append(_four_aces(shell, f, redraw))
    if f.trick_seats():
        rows.append(tricks_rows(shell, f, redraw, title=shell.t(N_("Tricks"))))
    return entry_frame(shell, f, rows, kassa_entry)


def _reopen(f: KassaForm) -> None:
    """Back to the grid, the declarer kept."""
    declarer = f.declarer
    f.contract = None
    if declarer is not None:
        f.choose_declarer(declarer)


def _name(shell: Shell, c: Contract) -> str:
    label = contract_name(c)
    return label if isinstance(label, str) else shell.render(label)


def _contract(shell: Shell, f: KassaForm, redraw: Redraw) -> ft.Control:
    """A row a level, a column a trump (♠ ♣ ♦ ♥ NT; the red ones red): a contract the game does
    not play (10NT) leaves its place empty, so the columns stay straight."""
    rows: list[ft.Control] = []
    for level in f.levels():
        offered = {c.trump: c for c in f.contracts(level)}
        cells: list[ft.Control] = []
        for trump in Trump:
            c = offered.get(trump)
            if c is None:
                cells.append(ft.Container(expand=True))
                continue
            cells.append(
                cell(
                    f"contract-{c.code}",
                    f.contract == c,
                    _name(shell, c),
                    redraw(lambda c=c: f.choose_contract(c)),
                )
            )
        rows.append(cell_row(cells))
    return ft.Column(rows, spacing=4)


def _four_aces(shell: Shell, f: KassaForm, redraw: Redraw) -> ft.Control:
    """Who held four aces, where the convention pays them (G-Q1): nobody, or a player dealt in;
    the choices in one row under their title."""
    cells = [
        cell(
            "four-aces-none",
            f.four_aces is None,
            shell.t(N_("nobody")),
            redraw(lambda: f.choose_four_aces(None)),
            fitted=True,
        ),
        *(
            cell(
                f"four-aces-{s}",
                f.four_aces == s,
                f.names[s],
                redraw(lambda s=s: f.choose_four_aces(s)),
                fitted=True,
            )
            for s in f.four_aces_options()
        ),
    ]
    title = ft.Text(shell.t(N_("Four aces held by")), size=13)
    return ft.Column([title, cell_row(cells)], spacing=2)
