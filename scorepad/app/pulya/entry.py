"""Deal entry, the screen used most: who deals and leads, the raspasy series, the deal in a few
taps on cards (only legal choices offered), tricks with one tap a seat on a 0–10 picker (the last
seat filled in so that the sum is 10), a live preview in words of what the deal will write, and
the button that writes it, always on screen.

When every pool is closed the pulka is finished: the screen says so and offers the cash-out; a
further deal is written only after an explicit "play on" (the confirm handler refuses otherwise).
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from ...contract import Contract, Trump
from ...i18n import N_
from ...scoring.pulya.table import contract_name
from ..families.ui import ui_of
from ..frame.shell import Shell
from ..frame.theme import TAP, card, choice, primary, quiet, secondary, sem
from ..frame.writing import deal_head, entry_column, trick_buttons, write_parts
from .form import DealForm

KIND_LABELS = {"game": N_("Game"), "misere": N_("Misère"), "raspasy": N_("All pass")}
CALL_LABELS = {"whist": N_("whist"), "pass": N_("pass"), "half": N_("half-whist")}

Redraw = Callable[[Callable[[], None]], Callable[[], None]]


def entry_screen(shell: Shell) -> ft.Control:
    if shell.family != "pulya":
        if shell.form is None or isinstance(shell.form, DealForm):
            shell.new_form()
        return ui_of(shell.family).entry(shell)
    f: DealForm = shell.form if isinstance(shell.form, DealForm) else shell.new_form()
    names = f.scored.session.players
    editing = shell.editing

    def redraw(change: Callable[[], None]) -> Callable[[], None]:
        def handler() -> None:
            change()
            shell.message = None  # the refusal was about the deal as it was
            shell.show(entry_screen)

        return handler

    number = editing[1] + 1 if editing else len(shell.stored().journal.live) + 1
    head = deal_head(
        shell,
        number,
        shell.t(
            N_("Deal {n}: {dealer} deals, {leader} leads."),
            n=number,
            dealer=names[f.dealer],
            leader=names[f.leader],
        ),
    )
    if f.raspasy_in_row:
        head.append(
            sem(
                "raspasy-series",
                ft.Text(
                    shell.t(
                        N_(
                            "All-passes in a row: {k}. A contract of {level} or higher ends the series."
                        ),
                        k=f.raspasy_in_row,
                        level=f.required_exit,
                    )
                ),
            )
        )

    if not editing and shell.finished:
        return _finished(shell, head)
    if not editing and shell.sid in shell.state.playing_on and f.scored.finished:
        head.append(
            sem(
                "playing-on",
                ft.Text(
                    shell.t(N_("Every pool is closed; the table plays on.")),
                    italic=True,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                ),
            )
        )

    cards: list[ft.Control] = [card(*head)]
    cards.append(
        card(
            ft.Row(
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
            )
        )
    )

    if f.kind in ("game", "misere"):
        cards.append(
            card(
                ft.Row(
                    [
                        sem(
                            f"declarer-{s}",
                            choice(
                                f.declarer == s, names[s], redraw(lambda s=s: f.choose_declarer(s))
                            ),
                        )
                        for s in f.declarers()
                    ],
                    wrap=True,
                ),
                title=shell.t(N_("Declarer")),
            )
        )

    if f.kind == "game" and f.declarer is not None:
        contract: list[ft.Control] = [
            ft.Row(
                [
                    sem(
                        f"level-{lv}",
                        choice(
                            f.level == lv,
                            str(lv),
                            redraw(lambda lv=lv: f.choose_level(lv)),
                            width=TAP + 8,
                        ),
                    )
                    for lv in f.levels()
                ],
                wrap=True,
            )
        ]
        if f.level is not None:
            trumps = []
            for tr in Trump:
                label = contract_name(Contract(f.level, tr))
                text = shell.render(label) if not isinstance(label, str) else label
                trumps.append(
                    sem(
                        f"trump-{tr.value}",
                        choice(
                            f.trump is tr,
                            text,
                            redraw(lambda tr=tr: f.choose_contract(f.level or 6, tr)),
                        ),
                    )
                )
            contract.append(ft.Row(trumps, wrap=True))
        cards.append(card(*contract, title=shell.t(N_("Contract"))))

    if f.kind == "game" and f.contract is not None:
        cards.append(_whisting(shell, f, redraw))
    if f.played and f.trick_seats() and (f.kind != "game" or f.calls_complete):
        cards.append(_tricks(shell, f, redraw))

    def may_add() -> bool:
        if shell.finished:
            # Never a silent deal past the end: the players must have chosen to play on.
            shell.message = shell.t(
                N_("The pulka is finished: choose “Play on” to write another deal.")
            )
            return False
        return True

    parts = write_parts(shell, f, entry_screen, may_add=may_add)
    cards.append(parts.preview)
    if parts.reason is not None:
        cards.append(parts.reason)
    return entry_column(cards, parts.footer)


def _finished(shell: Shell, head: list[ft.Control]) -> ft.Control:
    """The end of the pulka: the cash-out, or an explicit decision to go on."""

    def play_on() -> None:
        assert shell.sid is not None
        shell.state.playing_on.add(shell.sid)
        shell.message = None
        shell.new_form()
        shell.show(entry_screen)

    return ft.Column(
        [
            card(
                sem(
                    "pulka-finished",
                    ft.Text(
                        shell.t(N_("The pulka is finished: every pool is closed.")),
                        size=18,
                        weight=ft.FontWeight.BOLD,
                    ),
                ),
                ft.Text(
                    shell.t(
                        N_("Settle up now, or play on if the table agreed to finish the round.")
                    )
                ),
                ft.Row(
                    [
                        sem(
                            "finished-settle",
                            primary(shell.t(N_("Cash-out")), lambda: shell.go("settle")),
                        ),
                        sem("play-on", secondary(shell.t(N_("Play on")), play_on)),
                    ],
                    wrap=True,
                ),
            ),
        ],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        spacing=8,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )


def _whisting(shell: Shell, f: DealForm, redraw: Redraw) -> ft.Control:
    names = f.scored.session.players
    if f.checked_ten:
        return card(ft.Text(shell.t(N_("The ten is checked: played open, nobody whists."))))
    rows: list[ft.Control] = []
    said = ", ".join(shell.t(CALL_LABELS[c]) for c in f.calls)
    if said:
        rows.append(sem("calls-said", ft.Text(shell.t(N_("Calls: {calls}"), calls=said))))
    who, options = f.call_options()
    if who is not None:
        rows.append(ft.Text(shell.t(N_("{player} says:"), player=names[who])))
        rows.append(
            ft.Row(
                [
                    sem(
                        f"call-{c}",
                        secondary(shell.t(CALL_LABELS[c]), redraw(lambda c=c: f.say(c))),
                    )
                    for c in options
                ],
                wrap=True,
            )
        )
    if f.calls:
        rows.append(
            sem("call-undo", quiet(shell.t(N_("Take back the last call")), redraw(f.undo_call)))
        )
    if f.lone_whister:

        def played_open(e: ft.Event[ft.Switch]) -> None:
            f.set_open(bool(e.control.value))
            shell.show(entry_screen)

        rows.append(
            sem(
                "open-play",
                ft.Switch(
                    label=shell.t(N_("The whister played open")),
                    value=f.open,
                    on_change=played_open,
                    height=TAP,
                ),
            )
        )
    return card(*rows, title=shell.t(N_("Whisting")))


def _tricks(shell: Shell, f: DealForm, redraw: Redraw) -> ft.Control:
    names = f.scored.session.players
    seats = f.trick_seats()
    rows: list[ft.Control] = []
    for i, seat in enumerate(seats):
        label = names[seat]
        if f.kind == "raspasy" and seat == f.table.sits_out:
            label = shell.t(N_("{player} (talon)"), player=names[seat])
        count = sem(
            f"tricks-{seat}",
            ft.Text(str(f.tricks.get(seat, 0)), size=18, weight=ft.FontWeight.BOLD),
        )
        if f.kind != "misere" and i == len(seats) - 1:
            rows.append(
                ft.Row(
                    [
                        ft.Text(label, weight=ft.FontWeight.W_500),
                        count,
                        ft.Text(shell.t(N_("(the rest)")), italic=True),
                    ],
                    wrap=True,
                )
            )
            continue
        allowed = set(f.trick_choices(seat))
        low, high = f.trick_range(seat)
        rows.append(ft.Row([ft.Text(label, weight=ft.FontWeight.W_500), count]))
        rows.append(
            trick_buttons(
                seat,
                range(low, high + 1),
                chosen=f.tricks.get(seat),
                allowed=allowed,
                pick=lambda n, s=seat: redraw(lambda: f.set_tricks(s, n)),
            )
        )
    return card(*rows, title=shell.t(N_("Tricks")))
