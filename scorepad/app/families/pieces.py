"""The pieces the families' entry screens share, the pulya's compact widgets on one phone screen
(issue #27): the form of the open session, a row of seats, the tricks pickers (the last seat
filled in; a count that cannot be says why when tapped), the preview pinned above the write
button (and the reason of an edit), the end of the game, and the redraw."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from ...core.i18n import N_
from ..frame.shell import Shell
from ..frame.theme import card, primary, sem
from ..frame.writing import (
    Redraw,
    cell,
    cell_row,
    entry_screen_of,
    trick_buttons,
    write_parts,
)

CALLS_SAID = {
    "follow": N_("follow"),
    "pass": N_("pass"),
    "invite": N_("invite"),
    "whist": N_("whist"),
    "counter": N_("counter-invite"),  # Prefa: the invited one's answer (G-Q1)
}


def current_form(shell: Shell, cls: type, make: Callable[[Any], Any]) -> Any:
    """The shell's form when it is one of this family's, else a fresh one for the next deal."""
    if isinstance(shell.form, cls):
        return shell.form
    stored = shell.stored()
    form = make(stored)
    shell.form = form
    shell.basis = stored.revision
    shell.editing = None
    return form


def seat_row(
    names: tuple[str, ...] | list[str],
    seats: list[int],
    chosen: int | None,
    prefix: str,
    pick: Callable[[int], Callable[[], None]],
    *,
    extra: list[ft.Control] | None = None,
) -> ft.Control:
    """The seats in one row, sharing its width (``extra``: cells after them, e.g. an all-pass)."""
    cells = [cell(f"{prefix}-{s}", chosen == s, names[s], pick(s)) for s in seats]
    return cell_row(cells + (extra or []))


def tricks_rows(shell: Shell, form: Any, redraw: Redraw, *, title: str | None = None) -> ft.Control:
    """One 0–10 picker a seat in play, the last seat filled in (``form``: a family's form with
    ``trick_seats``, ``trick_choices``, ``set_tricks``; ``filled``: whether the last is)."""
    names = form.names
    seats = form.trick_seats()
    filled = getattr(form, "filled", True)
    rows: list[ft.Control] = []
    last = seats[-1] if filled and len(seats) > 1 else None

    def shown(seat: int) -> ft.Control:
        return sem(
            f"tricks-{seat}",
            # A count not yet chosen shows a dash (nothing is taken for granted: issue #21).
            ft.Text(
                str(form.tricks[seat]) if seat in form.tricks else "—",
                size=15,
                weight=ft.FontWeight.BOLD,
            ),
        )

    def name(seat: int) -> ft.Control:
        return ft.Text(names[seat], size=13, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS)

    picked = [s for s in seats if s != last]
    for i, seat in enumerate(picked):
        heading: list[ft.Control] = [name(seat), shown(seat)]
        if last is not None and i == len(picked) - 1:
            # The last seat's count, filled in, beside the count before it (a phone is short).
            heading += [
                ft.Container(expand=True),
                name(last),
                shown(last),
                ft.Text(shell.t(N_("(the rest)")), italic=True, size=13),
            ]
        elif title and i == 0:  # what the counts are, beside the first: wrapped, never cut
            heading.append(
                ft.Text(
                    title,
                    size=13,
                    italic=True,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                    text_align=ft.TextAlign.RIGHT,
                    expand=True,
                )
            )
        rows.append(ft.Row(heading, spacing=6))
        rows.append(
            trick_buttons(
                seat,
                range(11),
                chosen=form.tricks.get(seat),
                allowed=set(form.trick_choices(seat)),
                pick=lambda n, s=seat: redraw(lambda: form.set_tricks(s, n)),
                compact=True,
            )
        )
    return sem("tricks", ft.Column(rows, spacing=2))


def entry_frame(
    shell: Shell,
    form: Any,
    rows: list[ft.Control],
    screen: Callable[[Shell], ft.Control],
    *,
    numbered: bool = False,
) -> ft.Control:
    """The choices, then the preview pinned just above the write button (what it writes is read
    where it is tapped); a refusal is shown there in the preview's place."""
    told, shell.message = shell.message, None
    parts = write_parts(shell, form, screen, pinned=True, numbered=numbered)
    return entry_screen_of(shell, rows, parts, told)


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
