"""The pieces the bula and kassa entry screens share: the form of the open session, the deal's
heading, a row of seats, the tricks pickers (the last seat filled in), the preview with the write
button always on screen (and the reason of an edit), the end of the game, and the redraw."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from ...i18n import N_
from ..frame.shell import Shell
from ..frame.theme import card, choice, primary, sem
from ..frame.writing import entry_column, trick_buttons, write_parts

CALLS_SAID = {
    "follow": N_("follow"),
    "pass": N_("pass"),
    "invite": N_("invite"),
    "whist": N_("whist"),
    "counter": N_("counter-invite"),  # Prefa: the invited one's answer (G-Q1)
}

Redraw = Callable[[Callable[[], None]], Callable[[], None]]


def family_stored(shell: Shell) -> Any:
    """The open session's FamilyStored."""
    return shell.family_stored()


def current_form(shell: Shell, cls: type, make: Callable[[Any], Any]) -> Any:
    """The shell's form when it is one of this family's, else a fresh one for the next deal."""
    if isinstance(shell.form, cls):
        return shell.form
    stored = family_stored(shell)
    form = make(stored)
    shell.form = form
    shell.basis = stored.revision
    shell.editing = None
    return form


def seat_row(
    names: tuple[str, ...],
    seats: list[int],
    chosen: int | None,
    prefix: str,
    pick: Callable[[int], Callable[[], None]],
) -> ft.Control:
    return ft.Row(
        [sem(f"{prefix}-{s}", choice(chosen == s, names[s], pick(s))) for s in seats],
        wrap=True,
    )


def tricks_card(
    shell: Shell,
    form: Any,
    redraw: Redraw,
    *,
    title: str,
) -> ft.Control:
    """One picker a seat in play, the last seat filled in (``form``: a bula or kassa form)."""
    names = form.names
    seats = form.trick_seats()
    rows: list[ft.Control] = []
    for i, seat in enumerate(seats):
        count = sem(
            f"tricks-{seat}",
            ft.Text(str(form.tricks.get(seat, 0)), size=18, weight=ft.FontWeight.BOLD),
        )
        label = ft.Text(names[seat], weight=ft.FontWeight.W_500)
        if i == len(seats) - 1:
            rows.append(
                ft.Row([label, count, ft.Text(shell.t(N_("(the rest)")), italic=True)], wrap=True)
            )
            continue
        allowed = set(form.trick_choices(seat))
        rows.append(ft.Row([label, count]))
        rows.append(
            trick_buttons(
                seat,
                range(11),
                chosen=form.tricks.get(seat),
                allowed=allowed,
                pick=lambda n, s=seat: redraw(lambda: form.set_tricks(s, n)),
            )
        )
    return card(*rows, title=title)


def entry_frame(
    shell: Shell,
    form: Any,
    cards: list[ft.Control],
    screen: Callable[[Shell], ft.Control],
) -> ft.Control:
    """The preview, the reason of an edit, and the write button below the scrolling cards."""
    parts = write_parts(shell, form, screen)
    cards.append(parts.preview)
    if parts.reason is not None:
        cards.append(parts.reason)
    return entry_column(cards, parts.footer)


def finished_card(shell: Shell, sentence: str) -> ft.Control:
    return ft.Column(
        [
            card(
                sem(
                    "game-finished",
                    ft.Text(sentence, size=18, weight=ft.FontWeight.BOLD),
                ),
                sem(
                    "finished-settle",
                    primary(shell.t(N_("Cash-out")), lambda: shell.go("settle")),
                ),
            )
        ],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )


def redrawer(shell: Shell, screen: Callable[[Shell], ft.Control]) -> Redraw:
    def redraw(change: Callable[[], None]) -> Callable[[], None]:
        def handler() -> None:
            change()
            shell.message = None  # the refusal was about the deal as it was
            shell.show(screen)

        return handler

    return redraw


def said(shell: Shell, seat: int, name: str, call: str | None) -> ft.Control:
    """A defender's name, and his call once it is chosen."""
    text = (
        name
        if call is None
        else shell.t(N_("{player}: {call}"), player=name, call=shell.t(CALLS_SAID[call]))
    )
    return sem(f"defender-{seat}", ft.Text(text, weight=ft.FontWeight.W_500))
