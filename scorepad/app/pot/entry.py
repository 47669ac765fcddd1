"""The pot and direct families in the app (the Austrian games, Illustrated, American, Swabian):
the deal entry and the sheet, registered in :mod:`.family_ui`.

The entry draws :class:`~.pot_form.PotForm` (the shell holds it): only the choices the engine
accepts, tricks with one tap a seat (the last seat in play filled in), a live preview in the
engine's words, and the write button always on screen.  The sheet shows the pot, each player's
cash and standing, and each deal's transfers in words, running, as paper players keep them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import flet as ft

from ...i18n import N_, Msg
from ...numbers import Number, whist_figure
from ...scoring.ledger.families import replay_family
from ...scoring.ledger.pot import NONSUIT_NAMES, SUIT_NAMES, SWABIAN_NAMES
from ..families.ui import FamilyUI, register_family
from ..frame.theme import WIDE, card, choice, sem
from ..frame.writing import deal_head, trick_buttons, write_parts
from .form import CHIPS_MAX, PotForm, title
from .sheet import PotSheet, pot_sheet

if TYPE_CHECKING:
    from ...store import FamilyStored
    from ..frame.shell import Shell

KIND_LABELS = {
    "game": N_("Suit game"),
    "nonsuit": N_("Bettel · Durchmarsch"),
    "swabian": N_("Game"),
    "concede": N_("Gives up"),
    "bete": N_("Bete"),
}
ROLE_LABELS = {"play": N_("plays"), "drop": N_("drops"), "invite": N_("invites")}
PREMIUM_LABELS = {"none": N_("no premium"), "four_aces": N_("four aces"), "no_aces": N_("no ace")}
SUIT_SIGNS = {"C": "♣", "S": "♠", "D": "♦", "H": "♥"}

Redraw = Callable[[Callable[[], None]], Callable[..., None]]


# --- the family's part for the shell ---------------------------------------------------------


def new_form(stored: FamilyStored) -> PotForm:
    return PotForm(stored.scored)


def edit_form(stored: FamilyStored, index: int) -> PotForm:
    """Deal ``index`` as written, in its own context (the deals before it)."""
    before = stored.session.model_copy(update={"deals": stored.session.deals[:index]})
    form = PotForm(replay_family(before))
    form.load(stored.journal.live[index].deal)
    return form


def dirty(form: PotForm) -> bool:
    """Whether the player has chosen anything (an untouched form follows the other devices)."""
    return form.to_deal() != PotForm(form.scored).to_deal()


def carry(old: PotForm, stored: FamilyStored) -> PotForm:
    """``old``'s choices on the newer state; what no longer fits is left to choose again."""
    form = new_form(stored)
    try:
        form.load(old.to_deal())
    except ValueError:
        return new_form(stored)
    form.set_kunstwerk(form.kunstwerk)  # the Kunstwerk is paid to the dealer of the new state
    return form


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
            sem("entry-pot", ft.Text(shell.t(N_("In the pot: {amount}"), amount=_fig(f.table.pot))))
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
    else:
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
    if f.declarer is not None and f.kind != "bete":
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


# --- the sheet -------------------------------------------------------------------------------


def _fig(value: Number) -> str:
    return whist_figure(value)


def _signed(value: Number) -> str:
    text = whist_figure(value)
    return "+" + text if value > 0 else text


def _figure(label: str, value: str, *, ident: str, bold: bool = False, width: float) -> ft.Control:
    """A name (wrapped, never cut) over a figure."""
    return sem(
        ident,
        ft.Container(
            ft.Column(
                [
                    ft.Text(label, size=13, color=ft.Colors.ON_SURFACE_VARIANT),
                    ft.Text(value, size=16, weight=ft.FontWeight.BOLD if bold else None),
                ],
                spacing=0,
                tight=True,
            ),
            width=width,
        ),
    )


def sheet_screen(shell: Shell) -> ft.Control:
    stored = shell.family_stored()
    s = pot_sheet(stored.scored)
    wide = (shell.page.width or 0) >= WIDE
    col = 150.0 if wide else 96.0
    controls: list[ft.Control] = [sem("pot-summary", _summary(shell, s, col))]
    if s.has_pot and s.start_pot:
        controls.append(
            sem(
                "pot-start",
                card(
                    ft.Text(shell.t(N_("Before the first deal")), weight=ft.FontWeight.BOLD),
                    ft.Text(shell.t(N_("everyone antes {amount}"), amount=_fig(s.ante))),
                    _totals(
                        shell,
                        s,
                        cash=s.start_cash,
                        pot=s.start_pot,
                        change=None,
                        pot_change=None,
                        col=col,
                        ident="start",
                    ),
                ),
            )
        )
    for row in s.rows:
        lines: list[ft.Control] = [
            ft.Text(
                shell.t(N_("{n}. {deal}"), n=row.number, deal=row.title),
                weight=ft.FontWeight.BOLD,
            )
        ]
        lines += [ft.Text(shell.render(m), size=14) for m in row.explain]
        totals = _totals(
            shell,
            s,
            cash=row.cash,
            pot=row.pot,
            change=row.cash_change,
            pot_change=row.pot_change,
            col=col,
            ident=f"deal-{row.number}",
        )
        if wide:  # the words on the left, the figures on the right, as on a ruled sheet
            body: ft.Control = ft.Row(
                [
                    ft.Column(lines, spacing=4, expand=True),
                    ft.Container(totals, width=(len(s.names) + 1) * (col + 8)),
                ],
                vertical_alignment=ft.CrossAxisAlignment.START,
            )
            controls.append(sem(f"sheet-deal-{row.number}", card(body)))
        else:
            controls.append(sem(f"sheet-deal-{row.number}", card(*lines, totals, spacing=4)))
    if not s.rows:
        controls.append(ft.Text(shell.t(N_("No deal is written yet."))))
    return ft.Column(
        controls,
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        spacing=8,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )


def _summary(shell: Shell, s: PotSheet, col: float) -> ft.Control:
    rows: list[ft.Control] = []
    if s.has_pot:
        rows.append(
            sem(
                "sheet-pot",
                ft.Text(
                    shell.t(N_("In the pot: {amount}"), amount=_fig(s.pot)),
                    size=18,
                    weight=ft.FontWeight.BOLD,
                ),
            )
        )
    fig = min(col, 72.0)
    wide = col >= 150

    def line(name: ft.Control, *figures: ft.Control) -> ft.Control:
        return ft.Row(
            [
                # a phone: the name takes what the figures leave, wrapping, never cut
                ft.Container(name, expand=not wide, width=2 * col if wide else None),
                *(ft.Container(x, width=fig) for x in figures),
            ],
            spacing=8,
            vertical_alignment=ft.CrossAxisAlignment.START,
        )

    def label(text: str) -> ft.Control:
        return ft.Text(text, size=13, color=ft.Colors.ON_SURFACE_VARIANT)

    heads = [label(shell.t(N_("Cash")))]
    if s.has_pot:
        heads.append(label(shell.t(N_("Standing"))))
    rows.append(line(ft.Container(), *heads))
    for p, name in enumerate(s.names):
        figures = [sem(f"cash-{p}", ft.Text(_fig(s.cash[p]), size=16))]
        if s.has_pot:
            figures.append(
                sem(
                    f"standing-{p}",
                    ft.Text(_fig(s.standing[p]), size=16, weight=ft.FontWeight.BOLD),
                )
            )
        rows.append(
            line(
                sem(f"sheet-name-{p}", ft.Text(name, weight=ft.FontWeight.BOLD, size=16)), *figures
            )
        )
    if s.has_pot:
        rows.append(
            sem(
                "standing-rule",
                ft.Text(
                    shell.t(N_("Standing: the cash alone; the pot stays for the next game."))
                    if s.carry
                    else shell.t(
                        N_("Standing: the cash and an equal share of the pot, {share} each."),
                        share=_fig(Fraction(s.pot) / len(s.names)),
                    ),
                    size=13,
                ),
            )
        )
    return card(*rows, title=shell.t(N_("Now")))


def _totals(
    shell: Shell,
    s: PotSheet,
    *,
    cash: Sequence[Number],
    pot: Number,
    change: Sequence[Number] | None,
    pot_change: Number | None,
    col: float,
    ident: str,
) -> ft.Control:
    """Each player's change and running cash (and the pot's), a name over its figures."""

    def value(total: Number, delta: Number | None) -> str:
        return _fig(total) if delta is None else f"{_signed(delta)} → {_fig(total)}"

    items = [
        (name, cash[p], None if change is None else change[p], f"cash-{p}")
        for p, name in enumerate(s.names)
    ]
    if s.has_pot:
        items.append((shell.t(N_("Pot")), pot, pot_change, "pot"))
    if col >= 150:  # a laptop: a column a player, the name over the figures
        return ft.Row(
            [
                _figure(name, value(total, delta), ident=f"{ident}-{key}", width=col)
                for name, total, delta, key in items
            ],
            wrap=True,
            spacing=8,
            run_spacing=4,
            vertical_alignment=ft.CrossAxisAlignment.START,
        )
    # a phone: a line a player, the name wrapping (never cut), the figures on the right
    return ft.Column(
        [
            ft.Row(
                [
                    ft.Text(name, size=14, color=ft.Colors.ON_SURFACE_VARIANT, expand=True),
                    sem(f"{ident}-{key}", ft.Text(value(total, delta), size=15)),
                ],
                vertical_alignment=ft.CrossAxisAlignment.START,
            )
            for name, total, delta, key in items
        ],
        spacing=2,
        tight=True,
    )


register_family(
    "pot",
    "direct",
    ui=FamilyUI(
        new_form=new_form,
        edit_form=edit_form,
        carry=carry,
        entry=entry_screen,
        sheet=sheet_screen,
        title=title,
        dirty=dirty,
    ),
)
