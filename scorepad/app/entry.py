"""Deal entry, the screen used most: who deals and leads, the raspasy series, the deal in a few
taps (only legal choices offered), tricks with steppers that keep the sum at 10, a live preview
in words of what the deal will write, and one tap to confirm."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from ..contract import Contract, Trump
from ..i18n import N_
from ..scoring.table import contract_name
from .form import DealForm
from .nav import nav
from .shell import Shell, sem

KIND_LABELS = {"game": N_("Game"), "misere": N_("Misère"), "raspasy": N_("All pass")}
CALL_LABELS = {"whist": N_("whist"), "pass": N_("pass"), "half": N_("half-whist")}


def _choice(selected: bool, text: str, on_click: Callable[[], None]) -> ft.Control:
    if selected:
        return ft.FilledButton(text, on_click=on_click)
    return ft.OutlinedButton(text, on_click=on_click)


def entry_screen(shell: Shell) -> ft.Control:
    f = shell.form or shell.new_form()
    names = f.scored.session.players

    def redraw(change: Callable[[], None]) -> Callable[[], None]:
        def handler() -> None:
            change()
            shell.show(entry_screen)

        return handler

    parts: list[ft.Control] = [nav(shell, "nav-entry")]
    editing = shell.editing
    number = editing[1] + 1 if editing else len(shell.stored().journal.live) + 1
    if editing:
        parts.append(
            sem(
                "editing",
                ft.Text(
                    shell.t(N_("Editing deal {n}: the later deals are checked again."), n=number),
                    weight=ft.FontWeight.BOLD,
                    color=ft.Colors.BLUE_900,
                ),
            )
        )
    head = shell.t(
        N_("Deal {n}: {dealer} deals, {leader} leads."),
        n=number,
        dealer=names[f.dealer],
        leader=names[f.leader],
    )
    parts.append(sem("deal-header", ft.Text(head, weight=ft.FontWeight.BOLD)))
    if f.raspasy_in_row:
        parts.append(
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

    parts.append(
        ft.Row(
            [
                sem(
                    f"kind-{k}",
                    _choice(
                        f.kind == k, shell.t(KIND_LABELS[k]), redraw(lambda k=k: f.choose_kind(k))
                    ),
                )
                for k in f.kinds()
            ],
            wrap=True,
        )
    )

    if f.kind in ("game", "misere"):
        parts.append(ft.Text(shell.t(N_("Declarer"))))
        parts.append(
            ft.Row(
                [
                    sem(
                        f"declarer-{s}",
                        _choice(
                            f.declarer == s, names[s], redraw(lambda s=s: f.choose_declarer(s))
                        ),
                    )
                    for s in f.declarers()
                ],
                wrap=True,
            )
        )

    if f.kind == "game" and f.declarer is not None:
        parts.append(ft.Text(shell.t(N_("Contract"))))
        parts.append(
            ft.Row(
                [
                    sem(
                        f"level-{lv}",
                        _choice(
                            f.level == lv,
                            str(lv),
                            redraw(lambda lv=lv: f.choose_contract(lv, f.trump or Trump.SPADES)),
                        ),
                    )
                    for lv in f.levels()
                ],
                wrap=True,
            )
        )
        if f.level is not None:
            trumps = []
            for tr in Trump:
                label = contract_name(Contract(f.level, tr))
                text = shell.render(label) if not isinstance(label, str) else label
                trumps.append(
                    sem(
                        f"trump-{tr.value}",
                        _choice(
                            f.trump is tr,
                            text,
                            redraw(lambda tr=tr: f.choose_contract(f.level or 6, tr)),
                        ),
                    )
                )
            parts.append(ft.Row(trumps, wrap=True))

    if f.kind == "game" and f.contract is not None:
        if f.checked_ten:
            parts.append(ft.Text(shell.t(N_("The ten is checked: played open, nobody whists."))))
        else:
            said = ", ".join(shell.t(CALL_LABELS[c]) for c in f.calls)
            if said:
                parts.append(sem("calls-said", ft.Text(shell.t(N_("Calls: {calls}"), calls=said))))
            who, options = f.call_options()
            if who is not None:
                parts.append(ft.Text(shell.t(N_("{player} says:"), player=names[who])))
                parts.append(
                    ft.Row(
                        [
                            sem(
                                f"call-{c}",
                                ft.OutlinedButton(
                                    shell.t(CALL_LABELS[c]), on_click=redraw(lambda c=c: f.say(c))
                                ),
                            )
                            for c in options
                        ],
                        wrap=True,
                    )
                )
            if f.calls:
                parts.append(
                    sem(
                        "call-undo",
                        ft.TextButton(
                            shell.t(N_("Take back the last call")), on_click=redraw(f.undo_call)
                        ),
                    )
                )

    if f.lone_whister:

        def played_open(e: ft.Event[ft.Checkbox]) -> None:
            f.set_open(bool(e.control.value))
            shell.show(entry_screen)

        parts.append(
            sem(
                "open-play",
                ft.Checkbox(
                    label=shell.t(N_("The whister played open")),
                    value=f.open,
                    on_change=played_open,
                ),
            )
        )
    if f.played and f.trick_seats() and (f.kind != "game" or f.calls_complete):
        parts.append(_tricks(shell, f, redraw))

    sentences, problem = f.preview(shell.lang)
    preview = (
        [ft.Text(s) for s in sentences] if sentences else [ft.Text(problem or "", italic=True)]
    )
    parts.append(
        sem(
            "preview",
            ft.Container(
                ft.Column(preview, spacing=4),
                padding=10,
                bgcolor=ft.Colors.BLUE_GREY_50,
                border_radius=8,
            ),
        )
    )

    # The revision this form was built from: the write names it, so a stale one is refused.
    basis, sid = shell.basis, shell.sid

    def confirm() -> None:
        assert basis is not None and sid is not None
        if editing:
            deal_id = editing[0]
            reason = shell.state.get("reason", "")
            if shell.attempt(
                lambda: shell.store.edit_deal(sid, deal_id, f.to_deal(), reason=reason, seen=basis),
                seen=basis,
            ):
                from .history import history_screen

                shell.new_form()
                shell.show(history_screen)
                return
            shell.show(entry_screen)
            return
        if shell.attempt(lambda: shell.store.add_deal(sid, f.to_deal(), seen=basis), seen=basis):
            shell.new_form()
        shell.show(entry_screen)

    if editing:
        parts.append(
            sem(
                "edit-reason",
                ft.TextField(
                    label=shell.t(N_("Reason for the change")),
                    value=shell.state.get("reason", ""),
                    dense=True,
                    on_change=lambda e: shell.state.__setitem__("reason", e.control.value),
                ),
            )
        )
    label = shell.t(N_("Write the change")) if editing else shell.t(N_("Write the deal"))
    buttons: list[ft.Control] = [
        sem("confirm-deal", ft.FilledButton(label, on_click=confirm, disabled=problem is not None))
    ]
    if editing:
        buttons.append(
            sem(
                "cancel-edit", ft.TextButton(shell.t(N_("Cancel")), on_click=redraw(shell.new_form))
            )
        )
    parts.append(ft.Row(buttons, wrap=True))
    return ft.Column(parts, scroll=ft.ScrollMode.AUTO, expand=True, spacing=8)


def _tricks(
    shell: Shell, f: DealForm, redraw: Callable[[Callable[[], None]], Callable[[], None]]
) -> ft.Control:
    names = f.scored.session.players
    seats = f.trick_seats()
    rows: list[ft.Control] = [ft.Text(shell.t(N_("Tricks")))]
    for i, seat in enumerate(seats):
        label = names[seat]
        if f.kind == "raspasy" and seat == f.table.sits_out:
            label = shell.t(N_("{player} (talon)"), player=names[seat])
        count = sem(
            f"tricks-{seat}",
            ft.Text(str(f.tricks.get(seat, 0)), size=18, weight=ft.FontWeight.BOLD),
        )
        auto = f.kind != "misere" and i == len(seats) - 1
        if auto:
            rows.append(
                ft.Row(
                    [
                        ft.Text(label, width=120),
                        count,
                        ft.Text(shell.t(N_("(the rest)")), italic=True),
                    ]
                )
            )
        else:
            rows.append(
                ft.Row(
                    [
                        ft.Text(label, width=120),
                        sem(
                            f"tricks-{seat}-minus",
                            ft.OutlinedButton("−", on_click=redraw(lambda s=seat: f.step(s, -1))),
                        ),
                        count,
                        sem(
                            f"tricks-{seat}-plus",
                            ft.OutlinedButton("+", on_click=redraw(lambda s=seat: f.step(s, 1))),
                        ),
                    ]
                )
            )
    return ft.Column(rows, spacing=4)
