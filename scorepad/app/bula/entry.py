"""The bula family in the app: its deal entry and its sheet (registered in :mod:`scorepad.app.bula`).

The entry draws :class:`~.form.BulaForm` (the shell keeps it in ``shell.form``) on one phone
screen: the declarer or the all pass (refe), the bid with its hand («igra») version or the pik
without contra, each defender's follow / pass / invite, the contra level and who said it, the
tricks as counted when play stopped, and the preview in the engine's words pinned above Write.  The sheet is the paper's:
per player left supe | bula | right supe, refe triangles and hats, what is left to close (the
pot form: the pot and each player's cash).
"""

from __future__ import annotations

import flet as ft

from ...core.i18n import N_
from ...scoring.ledger.bula import bid_name
from ..families.parts import defence_rows, form_head
from ..families.pieces import (
    current_form,
    entry_frame,
    finished_card,
    seat_row,
    tricks_rows,
)
from ..frame.shell import Shell
from ..frame.theme import quiet, sem
from ..frame.writing import NAME_WIDTH, Redraw, cell, cell_row, folded, label_button, redrawer
from . import form as bula_form
from .form import BulaForm, contra_name

KIND_LABELS = {
    # not «Game»: in Russian that is «игра», the bula's word for a hand game
    "game": N_("Declared game"),
    "allpass": N_("All pass (refe)"),
    "pik_no_contra": N_("Pik without contra"),
}

# Beside the names: the bula's own words (issue 38 item 11: "Raspasi" is the Russian pulya's).
ALL_PASS = N_("All pass (refe)")

# --- the bula entry ----------------------------------------------------------------------------


def bula_entry(shell: Shell) -> ft.Control:
    """The deal on one phone screen (issue #27): the declarers and the refe in one row, the bid
    grid (folded to one row once chosen), a row a defender, the contra, the tricks, and the
    preview pinned above Write."""
    f: BulaForm = current_form(shell, BulaForm, bula_form.new_form)
    redraw = redrawer(shell, bula_entry)
    if not shell.editing and f.finished:  # no next deal to number
        return finished_card(shell, shell.t(N_("The bulas sum to zero: the game is over.")))
    rows: list[ft.Control] = [*form_head(shell, f), *_declarer_and_bid(shell, f, redraw)]
    if f.kind == "game" and f.declarer is not None and f.on_refe:
        rows.append(_refe_double(shell, f))
    if f.kind == "game" and f.bid is not None:
        rows.append(defence_rows(shell, f, redraw))
    if f.defence_complete and (f.contra_levels() != [0] or f.contra_level):
        rows.append(_contra(shell, f, redraw))
    if f.trick_seats():
        rows.append(tricks_rows(shell, f, redraw, title=shell.t(N_("Tricks when play stopped"))))
    return entry_frame(shell, f, rows, bula_entry)


def _declarer_and_bid(shell: Shell, f: BulaForm, redraw: Redraw) -> list[ft.Control]:
    """The declarers and the refe, then the bid grid; once the bid is chosen, one folded row."""
    names = f.names
    rows: list[ft.Control] = []
    allpass = (
        [
            cell(
                "kind-allpass",
                f.kind == "allpass",
                shell.t(ALL_PASS),
                redraw(lambda: f.choose_kind("allpass")),
            )
        ]
        if "allpass" in f.kinds()
        else []
    )
    # Once the bid is chosen the declarer and the bid fold into one row, as the pulya's
    # contract does ("Boris: karo", a tap on Change opens them again): the names and the refe
    # are not drawn twice, and the tricks' pickers keep their room on a phone.
    chosen = f.declarer is not None and (
        f.kind == "pik_no_contra" or (f.kind == "game" and f.bid is not None)
    )
    if not chosen:
        rows.append(
            seat_row(
                names,
                f.declarers(),
                None if f.kind == "allpass" else f.declarer,
                "declarer",
                lambda s: redraw(lambda: f.declare(s)),
            )
        )
    if allpass and not chosen:
        # Its own row under the names: "Svi dalje (refe)" is never cut beside four names; kept
        # while the bids are offered, so the table can still switch to a refe with one tap.
        rows.append(cell_row(allpass))
    if f.declarer is not None and f.kind == "pik_no_contra":
        contract = shell.t(KIND_LABELS["pik_no_contra"])
    elif f.kind == "game" and f.declarer is not None and f.bid is not None:
        contract = shell.render(bid_name(f.bid, f.hand))
    else:
        if f.declarer is not None:
            rows.append(_bids(shell, f, redraw))
        return rows
    said = shell.t(N_("{player}: {contract}"), player=names[f.declarer], contract=contract)
    rows.append(folded(shell, said, redraw(lambda: _reopen(f))))
    return rows


def _refe_double(shell: Shell, f: BulaForm) -> ft.Control:
    """The declarer holds an unused refe: this game counts double."""
    assert f.declarer is not None
    return sem(
        "refe-double",
        ft.Text(
            shell.t(
                N_("{player} holds a refe: this game counts double."), player=f.names[f.declarer]
            ),
            size=13,
            weight=ft.FontWeight.BOLD,
            color=ft.Colors.PRIMARY,
        ),
    )


def _reopen(f: BulaForm) -> None:
    """Back to the bid grid, the declarer kept."""
    declarer = f.declarer
    f.kind, f.bid, f.hand = "game", None, False
    if declarer is not None:
        f.choose_declarer(declarer)


def _bids(shell: Shell, f: BulaForm, redraw: Redraw) -> ft.Control:
    """The bids with the talon in one row, by hand in the next, the pik without contra below."""
    legal = f.bids()
    rows: list[ft.Control] = []
    for hand, ident, heading in (
        (False, "bid-{b}", N_("With the talon")),
        (True, "bid-{b}-igra", N_("By hand (igra)")),
    ):
        bids = [b for b, h in legal if h is hand]
        if not bids:
            continue
        rows.append(ft.Text(shell.t(heading), size=13, color=ft.Colors.ON_SURFACE_VARIANT))
        rows.append(
            cell_row(
                [
                    cell(
                        ident.format(b=b),
                        f.bid == b and f.hand is hand,
                        shell.render(bid_name(b, False)),
                        redraw(lambda b=b, hand=hand: f.choose_bid(b, hand)),
                    )
                    for b in bids
                ]
            )
        )
    if "pik_no_contra" in f.kinds():
        declarer = f.declarer

        def pik_no_contra() -> None:
            f.choose_kind("pik_no_contra")
            if declarer is not None and declarer in f.declarers():
                f.choose_declarer(declarer)

        rows.append(
            cell_row(
                [
                    cell(
                        "kind-pik_no_contra",
                        f.kind == "pik_no_contra",
                        shell.t(KIND_LABELS["pik_no_contra"]),
                        redraw(pik_no_contra),
                    )
                ]
            )
        )
    return ft.Column(rows, spacing=4)


def _contra(shell: Shell, f: BulaForm, redraw: Redraw) -> ft.Control:
    """The contra levels the game allows in one row, what was said, and who said it."""
    chosen = ""
    if f.contra_level is not None:
        chosen = shell.render(contra_name(f.contra_level))
        if f.contra_level and f.contra_by is not None:
            chosen = shell.t(N_("{contra} ({by})"), contra=chosen, by=f.names[f.contra_by])
    if f.contra_complete:  # folded to one row, a tap away from the levels again
        return cell_row([cell("contra-said", True, chosen, redraw(lambda: f.take_back_contra()))])
    rows: list[ft.Control] = [
        ft.Row(
            [
                sem(
                    f"contra-{lv}",
                    label_button(
                        f.contra_level == lv,
                        shell.render(contra_name(lv)),
                        redraw(lambda lv=lv: f.choose_contra(lv)),
                    ),
                )
                for lv in f.contra_levels()
            ],
            wrap=True,
            spacing=4,
            run_spacing=4,
        ),
    ]
    if chosen:
        rows.insert(0, sem("contra-said", ft.Text(chosen, size=13, weight=ft.FontWeight.W_500)))
    if 0 not in f.contra_levels() and "pik_no_contra" in f.kinds():
        rows.extend(_pik_without_contra(shell, f, redraw))
    if f.contra_level and f.contra_sayers():
        rows.append(_contra_sayers(shell, f, redraw))
    return sem("contra", ft.Column(rows, spacing=4))


def _pik_without_contra(shell: Shell, f: BulaForm, redraw: Redraw) -> list[ft.Control]:
    """Pik with the talon is played only under contra (D9): without one it is another deal,
    a tap away."""
    return [
        ft.Text(
            shell.t(N_("Without a contra this pik is not played: write it as pik without contra.")),
            size=13,
        ),
        sem(
            "to-pik-no-contra",
            quiet(shell.t(KIND_LABELS["pik_no_contra"]), redraw(f.choose_pik_no_contra)),
        ),
    ]


def _contra_sayers(shell: Shell, f: BulaForm, redraw: Redraw) -> ft.Control:
    """Who said the contra chosen: one cell a defender who may have."""
    level = f.contra_level
    assert level
    return ft.Row(
        [
            ft.Container(
                ft.Text(
                    shell.t(N_("Kontra said by")),
                    size=13,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                ),
                width=NAME_WIDTH,
            ),
            *(
                cell(
                    f"contra-by-{s}",
                    f.contra_by == s,
                    f.names[s],
                    redraw(lambda s=s: f.choose_contra(level, s)),
                )
                for s in f.contra_sayers()
            ),
        ],
        spacing=4,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )
