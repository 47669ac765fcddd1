"""The bula family in the app: its deal entry and its sheet (registered in family_ui).

The entry draws :class:`~.bula_form.BulaForm` (the shell keeps it in ``shell.form``): the kind
of deal, the declarer, the bid with its hand («igra») version, each defender's follow / pass /
invite, the contra level and who said it, the tricks as counted when play stopped, and the
preview in the engine's words; the write button stays on screen.  The sheet is the paper's:
per player left supe | bula | right supe, refe triangles and hats, what is left to close (the
pot form: the pot and each player's cash).
"""

from __future__ import annotations

import flet as ft

from ...i18n import N_
from ...scoring.ledger.bula import bid_name
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
    seat_row,
    tricks_card,
)
from ..frame.shell import Shell
from ..frame.theme import TAP, card, choice, quiet, sem
from . import form as bula_form
from .form import BulaForm, contra_name

KIND_LABELS = {
    # not «Game»: in Russian that is «игра», the bula's word for a hand game
    "game": N_("Declared game"),
    "allpass": N_("All pass (refe)"),
    "pik_no_contra": N_("Pik without contra"),
}

# --- the bula entry ----------------------------------------------------------------------------


def bula_entry(shell: Shell) -> ft.Control:
    f: BulaForm = current_form(shell, BulaForm, bula_form.new_form)
    names = f.names
    redraw = redrawer(shell, bula_entry)
    if not shell.editing and f.finished:  # no next deal to number
        return finished_card(shell, shell.t(N_("The bulas sum to zero: the game is over.")))
    kinds = ft.Row(
        [
            sem(
                f"kind-{k}",
                choice(
                    f.kind == k,
                    shell.t(KIND_LABELS[k]),
                    redraw(lambda k=k: f.choose_kind(k)),
                ),
            )
            for k in f.kinds()
        ],
        wrap=True,
        spacing=6,
        run_spacing=6,
    )
    head = form_head(shell, f)
    cards: list[ft.Control] = [card(*head, kinds)]
    if f.kind in ("game", "pik_no_contra"):
        cards.append(declarer_card(shell, f, redraw))
    if f.kind == "game" and f.declarer is not None:
        cards.append(_bids(shell, f, redraw))
        if f.on_refe:
            cards.append(
                sem(
                    "refe-double",
                    card(
                        ft.Text(
                            shell.t(
                                N_("{player} holds a refe: this game counts double."),
                                player=names[f.declarer],
                            ),
                            weight=ft.FontWeight.BOLD,
                            color=ft.Colors.PRIMARY,
                        )
                    ),
                )
            )
    if f.kind == "game" and f.bid is not None:
        cards.append(defence_card(shell, f, redraw))
    if f.defence_complete and (f.contra_levels() != [0] or f.contra_level):
        cards.append(_contra(shell, f, redraw))
    if f.trick_seats():
        cards.append(tricks_card(shell, f, redraw, title=shell.t(N_("Tricks when play stopped"))))
    return entry_frame(shell, f, cards, bula_entry)


def _bids(shell: Shell, f: BulaForm, redraw: Redraw) -> ft.Control:
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
            ft.Row(
                [
                    sem(
                        ident.format(b=b),
                        choice(
                            f.bid == b and f.hand is hand,
                            shell.render(bid_name(b, False)),
                            redraw(lambda b=b, hand=hand: f.choose_bid(b, hand)),
                            width=TAP,  # six in a row on a phone
                        ),
                    )
                    for b in bids
                ],
                wrap=True,
                spacing=4,
                run_spacing=4,
            )
        )
    return card(*rows, title=shell.t(N_("Bid")))


def _contra(shell: Shell, f: BulaForm, redraw: Redraw) -> ft.Control:
    chosen = ""
    if f.contra_level is not None:
        chosen = shell.render(contra_name(f.contra_level))
        if f.contra_level and f.contra_by is not None:
            chosen = shell.t(N_("{contra} ({by})"), contra=chosen, by=f.names[f.contra_by])
    rows: list[ft.Control] = [
        sem("contra-said", ft.Text(chosen, weight=ft.FontWeight.W_500)),
        ft.Row(
            [
                sem(
                    f"contra-{lv}",
                    choice(
                        f.contra_level == lv,
                        shell.render(contra_name(lv)),
                        redraw(lambda lv=lv: f.choose_contra(lv)),
                    ),
                )
                for lv in f.contra_levels()
            ],
            wrap=True,
            spacing=6,
            run_spacing=6,
        ),
    ]
    if 0 not in f.contra_levels() and "pik_no_contra" in f.kinds():
        # pik with the talon is played only under contra (D9): without one it is another deal
        declarer = f.declarer

        def to_pik_no_contra() -> None:
            f.choose_kind("pik_no_contra")
            if declarer is not None and declarer in f.declarers():
                f.choose_declarer(declarer)

        rows.append(
            ft.Text(
                shell.t(
                    N_("Without a contra this pik is not played: write it as pik without contra.")
                ),
                size=13,
            )
        )
        rows.append(
            sem(
                "to-pik-no-contra",
                quiet(shell.t(KIND_LABELS["pik_no_contra"]), redraw(to_pik_no_contra)),
            )
        )
    sayers = f.contra_sayers()
    if f.contra_level and sayers:
        rows.append(
            ft.Text(shell.t(N_("Kontra said by")), size=13, color=ft.Colors.ON_SURFACE_VARIANT)
        )
        level = f.contra_level
        rows.append(
            seat_row(
                f.names,
                sayers,
                f.contra_by,
                "contra-by",
                lambda s: redraw(lambda: f.choose_contra(level, s)),
            )
        )
    return card(*rows, title=shell.t(N_("Contra")))
