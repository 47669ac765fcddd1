"""The pot and direct families in the app (the Austrian games, Illustrated, American, Swabian):
the deal entry and the sheet, registered in :mod:`scorepad.app.pot` (:mod:`..frame.family`).

The entry draws :class:`~.form.PotForm` (the shell holds it) on one phone screen: only the
choices the engine accepts, in compact rows, tricks with one tap a seat (the last seat in play
filled in; a count that cannot be says why), a live preview in the engine's words pinned above
Write.  The sheet shows the pot, each player's
cash and standing, and each deal's transfers in words, running, as paper players keep them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import flet as ft

from ...core.i18n import N_, Msg
from ...core.numbers import whist_figure
from ...scoring.ledger.pot import NONSUIT_NAMES, SUIT_NAMES, SWABIAN_NAMES
from ..families.pieces import entry_frame, seat_row, tricks_rows
from ..frame.theme import sem
from ..frame.writing import (
    NAME_WIDTH,
    Redraw,
    cell,
    cell_row,
    deal_head,
    deal_number,
    label_button,
    redrawer,
)
from .form import CHIPS_MAX, PotForm

if TYPE_CHECKING:
    from ..frame.shell import Shell

KIND_LABELS = {
    "game": N_("Suit game"),
    "nonsuit": N_("Bettel · Durchmarsch"),
    "swabian": N_("Game"),
    "concede": N_("Gives up"),
    # Not the pulya's «All pass» (raspasy, a deal played): here nobody plays and the cards
    # are redealt (B-Q7), which a German or Russian player must not read as raspasy.
    "allpass": N_("All pass, redeal"),
    "bete": N_("Bete"),
}
ROLE_LABELS = {"play": N_("plays"), "drop": N_("drops"), "invite": N_("invites")}
PREMIUM_LABELS = {"none": N_("no premium"), "four_aces": N_("four aces"), "no_aces": N_("no ace")}
SUIT_SIGNS = {"C": "♣", "S": "♠", "D": "♦", "H": "♥"}

# --- the deal entry --------------------------------------------------------------------------


def _form(shell: Shell) -> PotForm:
    f = shell.form
    if not isinstance(f, PotForm):
        f = shell.new_form()
    assert isinstance(f, PotForm)
    return f


def entry_screen(shell: Shell) -> ft.Control:
    """The deal on one phone screen (issue #27): the kind, the declarer, the contract, a row a
    defender, the tricks, the preview pinned above Write."""
    f = _form(shell)
    names = f.names
    redraw = redrawer(shell, entry_screen)

    number = deal_number(shell)  # as said at the table: the one edited, or the next
    rows: list[ft.Control] = deal_head(
        shell, number, shell.t(N_("Deal {n}: {dealer} deals."), n=number, dealer=names[f.dealer])
    )
    if f.scored.family == "pot":  # beside the heading: a phone's height is short
        rows[-1] = ft.Row(
            [
                ft.Container(rows[-1], expand=True),
                sem(
                    "entry-pot",
                    ft.Text(
                        shell.t(N_("In the pot: {amount}"), amount=whist_figure(f.table.pot)),
                        size=13,
                    ),
                ),
            ],
            spacing=6,
        )

    kinds = f.kinds()
    # A suit game's trump or a Bettel's contract chosen folds the kinds away too (its cell says
    # the trump or contract; a tap on it brings the kinds and the choices back): a phone is short.
    folded = f.declarer is not None and (
        (f.kind == "game" and f.suit is not None)
        or (f.kind == "nonsuit" and f.contract is not None)
    )
    if len(kinds) > 1 and not folded:
        rows.append(
            _choices(
                [
                    (
                        f"kind-{k}",
                        shell.t(KIND_LABELS[k]),
                        f.kind == k,
                        lambda k=k: f.choose_kind(k),
                    )
                    for k in kinds
                ],
                redraw,
            )
        )

    if f.kind == "bete":
        rows.append(
            ft.Text(
                shell.t(N_("The dealer who declines the talon")),
                size=13,
                color=ft.Colors.ON_SURFACE_VARIANT,
            )
        )
        rows.append(
            cell_row(
                [
                    cell(
                        f"bete-{s}",
                        f.bete_dealer == s,
                        names[s],
                        redraw(lambda s=s: f.choose_bete_dealer(s)),
                    )
                    for s in f.bete_dealers()
                ]
            )
        )
    elif f.kind != "allpass":
        rows.append(
            seat_row(
                names,
                f.declarers(),
                f.declarer,
                "declarer",
                lambda s: redraw(lambda: f.choose_declarer(s)),
            )
        )
    if f.declarer is not None and f.kind not in ("bete", "allpass"):
        rows += _contract_rows(shell, f, redraw)
        if f.has_defence and (f.kind == "concede" or f.suit is not None):
            rows.append(_defence_rows(shell, f, redraw))
        if f.has_contra and f.choice_missing() is None:
            rows.append(_contra_row(shell, f, redraw))
        if f.kunstwerk_offered:
            rows.append(
                cell_row(
                    [
                        cell(
                            "kunstwerk",
                            f.kunstwerk,
                            shell.t(N_("Kunstwerk: the talon is a pair")),
                            redraw(lambda: f.set_kunstwerk(not f.kunstwerk)),
                        )
                    ]
                )
            )
        premiums = f.premiums()
        if premiums:
            rows.append(
                cell_row(
                    [
                        cell(
                            f"premium-{p}",
                            f.premium == p,
                            shell.t(PREMIUM_LABELS[p]),
                            redraw(lambda p=p: f.choose_premium(p)),
                            fitted=True,
                        )
                        for p in premiums
                    ]
                )
            )
        if f.has_second_round and f.suit is not None:
            rows.append(_chips_rows(shell, f, redraw))
    if (
        f.declarer is not None
        and f.kind != "bete"
        and f.trick_seats()
        and f.choice_missing() is None
    ):
        title = None
        if f.kind in ("nonsuit", "swabian") or not f.has_defence:
            title = shell.t(N_("The declarer's tricks, as counted when play stopped."))
        rows.append(tricks_rows(shell, f, redraw, title=title))
    return entry_frame(shell, f, rows, entry_screen, numbered=True)


def _choices(
    options: Sequence[tuple[str, str, bool, Callable[[], None]]], redraw: Redraw
) -> ft.Control:
    """Options of their own widths, as many a line as fit (the kinds' names are long)."""
    return ft.Row(
        [
            sem(ident, label_button(selected, text, redraw(act)))
            for ident, text, selected, act in options
        ],
        wrap=True,
        spacing=4,
        run_spacing=4,
    )


def _cells(
    options: Sequence[tuple[str, str, bool, Callable[[], None]]], redraw: Redraw
) -> ft.Control:
    """Options sharing one row's width."""
    return cell_row(
        [
            cell(ident, selected, text, redraw(act), fitted=True)
            for ident, text, selected, act in options
        ]
    )


def _contract_rows(shell: Shell, f: PotForm, redraw: Redraw) -> list[ft.Control]:
    """The trump (its sign and name), the contract or bid, with the talon or from the hand; a
    trump, contract or bid chosen folds its choices into one cell beside the talon's choice (a
    tap on it brings them back): a phone's height is short."""
    hand = (
        [
            cell(
                "hand-no",
                not f.hand,
                shell.t(N_("with the talon")),
                redraw(lambda: f.set_hand(False)),
                fitted=True,
            ),
            cell(
                "hand-yes",
                f.hand,
                shell.t(N_("from the hand")),
                redraw(lambda: f.set_hand(True)),
                fitted=True,
            ),
        ]
        if f.hand_offered()
        else []
    )
    chosen = _chosen(shell, f)
    if chosen is not None:
        text, reopen = chosen
        return [cell_row([cell("contract-chosen", True, text, redraw(reopen), fitted=True), *hand])]
    rows: list[ft.Control] = []
    if f.suits():
        rows.append(
            _cells(
                [
                    (
                        f"suit-{s}",
                        f"{SUIT_SIGNS[s]} {shell.t(SUIT_NAMES[s])}",
                        f.suit == s,
                        lambda s=s: f.choose_suit(s),
                    )
                    for s in f.suits()
                ],
                redraw,
            )
        )
    if f.contracts():
        rows.append(
            _choices(
                [
                    (
                        f"contract-{c}",
                        shell.t(NONSUIT_NAMES[c]),
                        f.contract == c,
                        lambda c=c: f.choose_contract(c),
                    )
                    for c in f.contracts()
                ],
                redraw,
            )
        )
    if f.bids():
        rows.append(
            _choices(
                [
                    (f"bid-{b}", _bid_name(shell, b), f.bid == b, lambda b=b: f.choose_bid(b))
                    for b in f.bids()
                ],
                redraw,
            )
        )
    if hand:
        rows.append(cell_row(hand))
    return rows


def _bid_name(shell: Shell, bid: int) -> str:
    return shell.t(N_("{n} {name}"), n=bid, name=Msg(SWABIAN_NAMES[bid]))


def _chosen(shell: Shell, f: PotForm) -> tuple[str, Callable[[], None]] | None:
    """The trump, contract or bid chosen (its words, and how its choices come back), if any."""
    if f.suits() and f.suit is not None:

        def reopen_suit() -> None:
            f.suit = None  # the trumps again; the hand chosen is kept

        return f"{SUIT_SIGNS[f.suit]} {shell.t(SUIT_NAMES[f.suit])}", reopen_suit
    if f.contracts() and f.contract is not None:

        def reopen_contract() -> None:
            f.contract = None

        return shell.t(NONSUIT_NAMES[f.contract]), reopen_contract
    if f.bids() and f.bid is not None:

        def reopen_bid() -> None:
            f.bid = None

        return _bid_name(shell, f.bid), reopen_bid
    return None


def _defence_rows(shell: Shell, f: PotForm, redraw: Redraw) -> ft.Control:
    """What the defenders said, side by side in one row (each plays unless he says otherwise; a
    tap on one shows his calls to change it); the defender shown, a row: his name, then what he
    may do (the chosen one filled)."""
    names = f.names
    said: list[ft.Control] = []
    rows: list[ft.Control] = []
    for seat in f.defenders():
        role = f.defence.get(seat)
        name = ft.Container(
            ft.Text(names[seat], size=13, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS),
            width=NAME_WIDTH,
        )
        if role == "invited":
            rows.append(
                ft.Row(
                    [
                        name,
                        sem(
                            f"role-{seat}-invited",
                            ft.Text(
                                shell.t(N_("invited: plays along, cannot refuse")),
                                italic=True,
                                size=13,
                            ),
                        ),
                    ],
                    spacing=4,
                )
            )
            continue
        if role is not None and seat != f.opened:
            said.append(
                cell(
                    f"defender-{seat}",
                    True,
                    shell.t(
                        N_("{player}: {call}"), player=names[seat], call=shell.t(ROLE_LABELS[role])
                    ),
                    redraw(lambda s=seat: f.open_defender(s)),
                )
            )
            continue
        rows.append(
            ft.Row(
                [
                    name,
                    *(
                        cell(
                            f"role-{seat}-{r}",
                            role == r,
                            shell.t(ROLE_LABELS[r]),
                            redraw(lambda s=seat, r=r: f.say(s, r)),
                            fitted=True,
                        )
                        for r in f.role_options(seat)
                    ),
                ],
                spacing=4,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
    if said:
        rows.insert(0, cell_row(said))
    return sem("calls", ft.Column(rows, spacing=4))


def _contra_row(shell: Shell, f: PotForm, redraw: Redraw) -> ft.Control:
    """Each defender's contra and the declarer's recontra, as many a line as fit."""
    names = f.names
    options = list(
        [
            (
                f"contra-{p}",
                shell.t(N_("{player}: contra"), player=names[p]),
                bool(f.contra.get(p)),
                lambda p=p: f.set_contra(p, not f.contra.get(p)),
            )
            for p in f.defenders()
        ]
    )
    if f.recontra_offered:
        options.append(
            (
                "recontra",
                shell.t(N_("{player}: recontra"), player=names[f.declarer or 0]),
                f.recontra,
                lambda: f.set_recontra(not f.recontra),
            )
        )
    return _choices(options, redraw)


def _chips_rows(shell: Shell, f: PotForm, redraw: Redraw) -> ft.Control:
    """The chips each bidder put in the second round: a stepper a seat, two seats a row."""
    steppers: list[ft.Control] = []
    for seat in f.seats:
        chips = f.second_round.get(seat, 0)
        steppers.append(
            ft.Row(
                [
                    ft.Text(
                        f.names[seat],
                        size=13,
                        no_wrap=True,
                        overflow=ft.TextOverflow.ELLIPSIS,
                        expand=True,
                    ),
                    sem(
                        f"chips-{seat}-less",
                        ft.IconButton(
                            ft.Icons.REMOVE,
                            on_click=redraw(lambda s=seat, c=chips: f.set_chips(s, max(0, c - 1))),
                            disabled=chips == 0,
                        ),
                    ),
                    sem(f"chips-{seat}", ft.Text(str(chips), size=15, weight=ft.FontWeight.BOLD)),
                    sem(
                        f"chips-{seat}-more",
                        ft.IconButton(
                            ft.Icons.ADD,
                            on_click=redraw(lambda s=seat, c=chips: f.set_chips(s, c + 1)),
                            disabled=chips >= CHIPS_MAX,
                        ),
                    ),
                ],
                spacing=0,
                expand=True,
            )
        )
    lines: list[ft.Control] = [
        ft.Text(shell.t(N_("Chips each bidder put into the pot in the second round.")), size=13)
    ]
    for k in range(0, len(steppers), 2):
        lines.append(ft.Row(steppers[k : k + 2], spacing=8))
    return ft.Column(lines, spacing=2)
