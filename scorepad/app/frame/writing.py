"""The frame of every deal entry (the pulya's and each family's): its head, the preview in words,
the reason of an edit, and the write button that names the revision the form was built from."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import flet as ft

from ...i18n import N_
from .nav import Screen
from .shell import Shell
from .theme import TAP, card, choice, primary, quiet, sem


def deal_head(shell: Shell, number: int, header: str) -> list[ft.Control]:
    """The top of a deal entry: that a deal is being edited (and what that does), and its header."""
    head: list[ft.Control] = []
    if shell.editing:
        head.append(
            sem(
                "editing",
                ft.Text(
                    shell.t(N_("Editing deal {n}: the later deals are checked again."), n=number),
                    weight=ft.FontWeight.BOLD,
                    color=ft.Colors.PRIMARY,
                ),
            )
        )
    head.append(sem("deal-header", ft.Text(header, weight=ft.FontWeight.BOLD, size=16)))
    return head


@dataclass(frozen=True, slots=True)
class WriteParts:
    """What a deal entry puts below its choices: ``preview`` and ``reason`` (an edit's, or None)
    scroll with the cards; ``footer`` (write, and cancel for an edit) stays on screen."""

    preview: ft.Control
    reason: ft.Control | None
    footer: ft.Control


def write_parts(
    shell: Shell,
    form: Any,
    screen: Screen,
    *,
    numbered: bool = False,
    may_add: Callable[[], bool] | None = None,
) -> WriteParts:
    """The preview of ``form`` (``preview(lang) -> (sentences, problem)``) and its write.

    The write names the revision the screen was drawn from (``shell.basis``): a stale one is
    refused by the store and the form rebased.  ``may_add`` may refuse a new deal first (it says
    why itself).  ``numbered``: each preview line carries its own testing id.
    """
    editing = shell.editing
    sentences, problem = form.preview(shell.lang)
    lines: list[ft.Control] = (
        [
            sem(f"preview-{k}", ft.Text(s)) if numbered else ft.Text(s)
            for k, s in enumerate(sentences)
        ]
        if sentences
        else [ft.Text(problem or "", italic=True)]
    )
    preview = sem("preview", card(ft.Column(lines, spacing=4), title=shell.t(N_("Preview"))))
    label = shell.t(N_("Write the change")) if editing else shell.t(N_("Write the deal"))
    write = primary(label, None, disabled=problem is not None)
    reason: ft.Control | None = None
    if editing:
        write.disabled = problem is not None or not shell.state.edit_reason.strip()

        def reason_typed(e: ft.Event[ft.TextField]) -> None:
            # Only the button changes while typing: a redraw would take the focus away.
            shell.state.edit_reason = e.control.value or ""
            write.disabled = problem is not None or not shell.state.edit_reason.strip()

        reason = card(
            sem(
                "edit-reason",
                ft.TextField(
                    label=shell.t(N_("Reason for the change")),
                    value=shell.state.edit_reason,
                    on_change=reason_typed,
                ),
            )
        )
    # The revision this form was built from: the write names it, so a stale one is refused.
    basis, sid = shell.basis, shell.sid

    def confirm() -> None:
        assert basis is not None and sid is not None
        deal = form.deal()  # the model: the store takes a typed deal
        if editing:
            deal_id, why = editing[0], shell.state.edit_reason
            if shell.attempt(
                lambda: shell.store.edit_deal(sid, deal_id, deal, reason=why, seen=basis),
                seen=basis,
            ):
                shell.go("history")
                return
            shell.show(screen)
            return
        if may_add is not None and not may_add():
            shell.show(screen)
            return
        if shell.attempt(lambda: shell.store.add_deal(sid, deal, seen=basis), seen=basis):
            shell.new_form()
        shell.show(screen)

    def cancel() -> None:
        shell.new_form()
        shell.message = None
        shell.show(screen)

    write.on_click = confirm
    footer: list[ft.Control] = [ft.Container(sem("confirm-deal", write), expand=True)]
    if editing:
        footer.append(sem("cancel-edit", quiet(shell.t(N_("Cancel")), cancel)))
    return WriteParts(preview, reason, ft.Row(footer, spacing=8))


def entry_column(cards: list[ft.Control], footer: ft.Control) -> ft.Control:
    """The cards scrolling, the write button below them: always on screen, however long the deal."""
    return ft.Column(
        [
            ft.Column(
                cards,
                scroll=ft.ScrollMode.AUTO,
                expand=True,
                spacing=8,
                horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
            ),
            footer,
        ],
        expand=True,
        spacing=8,
    )


def trick_buttons(
    seat: int,
    counts: range,
    *,
    chosen: int | None,
    allowed: set[int],
    pick: Callable[[int], Callable[[], None]],
) -> ft.Control:
    """One tap a seat: a button for each count of tricks, the ones the engine refuses disabled."""
    return ft.Row(
        [
            sem(
                f"tricks-{seat}-{n}",
                choice(chosen == n, str(n), pick(n), width=TAP, disabled=n not in allowed),
            )
            for n in counts
        ],
        wrap=True,
        spacing=4,
        run_spacing=4,
    )
