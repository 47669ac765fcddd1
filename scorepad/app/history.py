"""History: every deal with its explanation; void with a reason; undo and redo."""

from __future__ import annotations

import flet as ft

from ..i18n import N_
from ..store import describe_action
from .nav import nav, screen
from .shell import Shell, sem


def history_screen(shell: Shell) -> ft.Control:
    stored = shell.stored()
    shell.basis = stored.revision  # undo, redo and void name the revision drawn here
    journal = stored.journal

    def undo() -> None:
        shell.attempt(
            lambda: shell.store.undo(stored.id, seen=stored.revision), seen=stored.revision
        )
        shell.show(history_screen)

    def redo() -> None:
        shell.attempt(
            lambda: shell.store.redo(stored.id, seen=stored.revision), seen=stored.revision
        )
        shell.show(history_screen)

    def ask_void(deal_id: int, index: int) -> None:
        reason = ft.TextField(label=shell.t(N_("Reason")), autofocus=True)

        def confirmed() -> None:
            shell.page.pop_dialog()
            shell.attempt(
                lambda: shell.store.void_deal(
                    stored.id, deal_id, reason=reason.value or "", seen=stored.revision
                ),
                seen=stored.revision,
            )
            shell.show(history_screen)

        shell.page.show_dialog(
            ft.AlertDialog(
                title=ft.Text(shell.t(N_("Void deal {n}?"), n=index + 1)),
                content=sem("void-reason", reason),
                actions=[
                    sem("confirm-void", ft.FilledButton(shell.t(N_("Void")), on_click=confirmed)),
                    ft.TextButton(shell.t(N_("Cancel")), on_click=lambda: shell.page.pop_dialog()),
                ],
            )
        )

    def edit(deal_id: int, index: int) -> None:
        shell.edit_form(deal_id, index)
        shell.show(screen("entry"))

    items: list[ft.Control] = []
    for result, entry in zip(stored.scored.deals, journal.live, strict=True):
        lines = [ft.Text(shell.t(N_("Deal {n}"), n=result.index + 1), weight=ft.FontWeight.BOLD)]
        lines += [ft.Text(shell.render(m)) for m in result.writing.explain or ()]
        revisions = [shell.render(describe_action(a)) for a in entry.revisions[1:]]
        if revisions:
            lines.append(ft.Text("; ".join(revisions), italic=True))
        actions: list[ft.Control] = [
            sem(
                f"void-{result.index + 1}",
                ft.TextButton(
                    shell.t(N_("Void…")),
                    on_click=lambda e, d=entry.deal_id, i=result.index: ask_void(d, i),
                ),
            )
        ]
        if entry.deal.type != "correction":
            actions.insert(
                0,
                sem(
                    f"edit-{result.index + 1}",
                    ft.TextButton(
                        shell.t(N_("Edit…")),
                        on_click=lambda e, d=entry.deal_id, i=result.index: edit(d, i),
                    ),
                ),
            )
        if shell.access.may_write:  # a viewer's page has no write controls
            lines.append(ft.Row(actions, wrap=True))
        items.append(
            sem(
                f"deal-{result.index + 1}",
                ft.Container(
                    ft.Column(lines, spacing=2),
                    padding=8,
                    border=ft.Border.all(1, ft.Colors.BLUE_GREY_100),
                    border_radius=8,
                ),
            )
        )
    if not items:
        items.append(ft.Text(shell.t(N_("No deals yet."))))
    return ft.Column(
        [
            nav(shell, "nav-history"),
            ft.Row(
                []
                if not shell.access.may_write  # a viewer's page has no write controls
                else [
                    sem(
                        "undo",
                        ft.OutlinedButton(
                            shell.t(N_("Undo")), on_click=undo, disabled=not journal.can_undo()
                        ),
                    ),
                    sem(
                        "redo",
                        ft.OutlinedButton(
                            shell.t(N_("Redo")), on_click=redo, disabled=not journal.can_redo()
                        ),
                    ),
                ]
            ),
            *reversed(items),
        ],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        spacing=8,
    )
