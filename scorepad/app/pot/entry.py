"""The pot and direct families in the app (the Austrian games, Illustrated, American, Swabian):
the deal entry and the sheet, registered in :mod:`.family_ui`.

The entry draws :class:`~.pot_form.PotForm` (the shell holds it): only the choices the engine
accepts, tricks with one tap a seat (the last seat in play filled in), a live preview in the
engine's words, and the write button always on screen.  The sheet shows the pot, each player's
cash and standing, and each deal's transfers in words, running, as paper players keep them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import flet as ft

from ...i18n import N_, Msg
from ...numbers import whist_figure
from ...scoring.ledger.pot import NONSUIT_NAMES, SUIT_NAMES, SWABIAN_NAMES
from ..frame.theme import WIDE, card, choice, sem
from ..frame.writing import deal_head, trick_buttons, write_parts
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

Redraw = Callable[[Callable[[], None]], Callable[..., None]]


# --- the deal entry --------------------------------------------------------------------------


def _form(shell: Shell) -> PotForm:
    f = shell.form
    if not isinstance(f, PotForm):
        f = shell.new_form()
    assert isinstance(f, PotForm)
    return f


def entry_screen(shell: Shell) -> ft.Control:
    f = _form(shell)
    names = f.names

    def redraw(change: Callable[[], None]) -> Callable[..., None]:
        def handler(*_: Any) -> None:
            change()
            shell.message = None  # a refusal was about the deal as it was
            shell.show(entry_screen)

        return handler

    number = len(f.scored.deals) + 1
    head = deal_head(
        shell, number, shell.t(N_("Deal {n}: {dealer} deals."), n=number, dealer=names[f.dealer])
    )
    if f.scored.family == "pot":
        head.append(
            sem(
                "entry-pot",
                ft.Text(shell.t(N_("In the pot: {amount}"), amount=whist_figure(f.table.pot))),
            )
        )
    cards: list[ft.Control] = [card(*head)]

    kinds = f.kinds()
    if len(kinds) > 1:
        cards.append(
            card(
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
        )

    if f.kind == "bete":
        cards.append(
            card(
                _choices(
                    [
                        (
                            f"bete-{s}",
                            names[s],
                            f.bete_dealer == s,
                            lambda s=s: f.choose_bete_dealer(s),
                        )
                        for s in f.bete_dealers()
                    ],
                    redraw,
                ),
                title=shell.t(N_("The dealer who declines the talon")),
            )
        )
    elif f.kind != "allpass":
        cards.append(
            card(
                _choices(
                    [
                        (
                            f"declarer-{s}",
                            names[s],
                            f.declarer == s,
                            lambda s=s: f.choose_declarer(s),
                        )
                        for s in f.declarers()
                    ],
                    redraw,
                ),
                title=shell.t(N_("Declarer")),
            )
        )
    if f.declarer is not None and f.kind not in ("bete", "allpass"):
        contract = _contract_card(shell, f, redraw)
        if contract is not None:
            cards.append(contract)
        if f.has_defence and (f.kind == "concede" or f.suit is not None):
            cards.append(_defence_card(shell, f, redraw))
        if f.has_contra and f.missing() is None:
            cards.append(_contra_card(shell, f, redraw))
        if f.kunstwerk_offered:
            cards.append(
                card(
                    _choices(
                        [
                            (
                                "kunstwerk",
                                shell.t(N_("Kunstwerk: the talon is a pair")),
                                f.kunstwerk,
                                lambda: f.set_kunstwerk(not f.kunstwerk),
                            )
                        ],
                        redraw,
                    ),
                    title=shell.t(N_("Talon")),
                )
            )
        premiums = f.premiums()
        if premiums:
            cards.append(
                card(
                    _choices(
                        [
                            (
                                f"premium-{p}",
                                shell.t(PREMIUM_LABELS[p]),
                                f.premium == p,
                                lambda p=p: f.choose_premium(p),
                            )
                            for p in premiums
                        ],
                        redraw,
                    ),
                    title=shell.t(N_("Premium")),
                )
            )
        if f.has_second_round and f.suit is not None:
            cards.append(_chips_card(shell, f, redraw))
    side: list[ft.Control] = []  # on a laptop, beside the choices: tricks, preview, reason
    if f.declarer is not None and f.kind != "bete" and f.trick_seats() and f.missing() is None:
        side.append(_tricks_card(shell, f, redraw))

    parts = write_parts(shell, f, entry_screen, numbered=True)
    side.append(parts.preview)
    if parts.reason is not None:
        side.append(parts.reason)

    def column(controls: list[ft.Control], share: int = 1) -> ft.Column:
        return ft.Column(
            controls,
            scroll=ft.ScrollMode.AUTO,
            expand=share,
            spacing=8,
            horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        )

    if (shell.page.width or 0) >= WIDE:
        body: ft.Control = ft.Row(
            [column(cards, 5), column(side, 6)],  # the tricks' eleven buttons in a row
            expand=True,
            spacing=12,
            vertical_alignment=ft.CrossAxisAlignment.START,
        )
    else:
        body = column(cards + side)
    # The button sits below the scrolling cards: always on screen, however long the deal.
    return ft.Column([body, parts.footer], expand=True, spacing=8)


def _choices(
    options: Sequence[tuple[str, str, bool, Callable[[], None]]],
    redraw: Redraw,
    *,
    width: float | None = None,
) -> ft.Control:
    return ft.Row(
        [
            sem(ident, choice(selected, text, redraw(act), width=width))
            for ident, text, selected, act in options
        ],
        wrap=True,
        spacing=6,
        run_spacing=6,
    )


def _contract_card(shell: Shell, f: PotForm, redraw: Redraw) -> ft.Control | None:
    rows: list[ft.Control] = []
    if f.suits():
        rows.append(
            _choices(
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
                    (
                        f"bid-{b}",
                        shell.t(N_("{n} {name}"), n=b, name=Msg(SWABIAN_NAMES[b])),
                        f.bid == b,
                        lambda b=b: f.choose_bid(b),
                    )
                    for b in f.bids()
                ],
                redraw,
            )
        )
    if f.hand_offered():
        rows.append(
            _choices(
                [
                    (
                        "hand-no",
                        shell.t(N_("with the talon")),
                        not f.hand,
                        lambda: f.set_hand(False),
                    ),
                    ("hand-yes", shell.t(N_("from the hand")), f.hand, lambda: f.set_hand(True)),
                ],
                redraw,
            )
        )
    if not rows:
        return None
    return card(*rows, title=shell.t(N_("Contract")))


def _defence_card(shell: Shell, f: PotForm, redraw: Redraw) -> ft.Control:
    names = f.names
    rows: list[ft.Control] = []
    for seat in f.defenders():
        role = f.defence.get(seat)
        rows.append(ft.Text(names[seat], weight=ft.FontWeight.W_500))
        if role == "invited":
            rows.append(
                sem(
                    f"role-{seat}-invited",
                    ft.Text(shell.t(N_("invited: plays along, cannot refuse")), italic=True),
                )
            )
            continue
        rows.append(
            _choices(
                [
                    (
                        f"role-{seat}-{r}",
                        shell.t(ROLE_LABELS[r]),
                        role == r,
                        lambda s=seat, r=r: f.say(s, r),
                    )
                    for r in f.role_options(seat)
                ],
                redraw,
            )
        )
    return card(*rows, title=shell.t(N_("Defence")))


def _contra_card(shell: Shell, f: PotForm, redraw: Redraw) -> ft.Control:
    names = f.names
    rows: list[ft.Control] = [
        _choices(
            [
                (
                    f"contra-{p}",
                    shell.t(N_("{player}: contra"), player=names[p]),
                    bool(f.contra.get(p)),
                    lambda p=p: f.set_contra(p, not f.contra.get(p)),
                )
                for p in f.defenders()
            ],
            redraw,
        )
    ]
    if f.recontra_offered:
        rows.append(
            _choices(
                [
                    (
                        "recontra",
                        shell.t(N_("{player}: recontra"), player=names[f.declarer or 0]),
                        f.recontra,
                        lambda: f.set_recontra(not f.recontra),
                    )
                ],
                redraw,
            )
        )
    return card(*rows, title=shell.t(N_("Contra")))


def _chips_card(shell: Shell, f: PotForm, redraw: Redraw) -> ft.Control:
    rows: list[ft.Control] = [
        ft.Text(shell.t(N_("Chips each bidder put into the pot in the second round.")), size=13)
    ]
    for seat in f.seats:
        chips = f.second_round.get(seat, 0)
        rows.append(
            ft.Row(
                [
                    ft.Text(f.names[seat], weight=ft.FontWeight.W_500, expand=True),
                    sem(
                        f"chips-{seat}-less",
                        ft.IconButton(
                            ft.Icons.REMOVE,
                            on_click=redraw(lambda s=seat, c=chips: f.set_chips(s, max(0, c - 1))),
                            disabled=chips == 0,
                        ),
                    ),
                    sem(f"chips-{seat}", ft.Text(str(chips), size=18, weight=ft.FontWeight.BOLD)),
                    sem(
                        f"chips-{seat}-more",
                        ft.IconButton(
                            ft.Icons.ADD,
                            on_click=redraw(lambda s=seat, c=chips: f.set_chips(s, c + 1)),
                            disabled=chips >= CHIPS_MAX,
                        ),
                    ),
                ]
            )
        )
    return card(*rows, title=shell.t(N_("Second round")))


def _tricks_card(shell: Shell, f: PotForm, redraw: Redraw) -> ft.Control:
    names = f.names
    seats = f.trick_seats()
    rows: list[ft.Control] = []
    if f.kind in ("nonsuit", "swabian") or not f.has_defence:
        rows.append(
            ft.Text(shell.t(N_("The declarer's tricks, as counted when play stopped.")), size=13)
        )
    for i, seat in enumerate(seats):
        count = sem(
            f"tricks-{seat}",
            ft.Text(str(f.tricks.get(seat, 0)), size=18, weight=ft.FontWeight.BOLD),
        )
        if f.filled and i == len(seats) - 1:
            rows.append(
                ft.Row(
                    [
                        ft.Text(names[seat], weight=ft.FontWeight.W_500),
                        count,
                        ft.Text(shell.t(N_("(the rest)")), italic=True),
                    ],
                    wrap=True,
                )
            )
            continue
        allowed = set(f.trick_choices(seat))
        rows.append(ft.Row([ft.Text(names[seat], weight=ft.FontWeight.W_500), count], wrap=True))
        rows.append(
            trick_buttons(
                seat,
                range(11),
                chosen=f.tricks.get(seat),
                allowed=allowed,
                pick=lambda n, s=seat: redraw(lambda: f.set_tricks(s, n)),
            )
        )
    return card(*rows, title=shell.t(N_("Tricks")))
