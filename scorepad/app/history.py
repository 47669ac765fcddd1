"""History: every deal with its explanation; void with a reason; undo and redo."""

from __future__ import annotations

from typing import Any

import flet as ft

from ..i18n import N_, Msg
from ..journal import Action, deal_numbers
from ..report import deal_title
from ..scoring.ledger import explanations
from ..store import AnyStored, FamilyStored, describe_action
from .analysis import open_analysis
from .family_ui import ui_of
from .nav import nav, screen
from .shell import Shell, sem

# Deals shown (and their sentences rendered) at a time, newest first: an evening may be long.
PAGE = 50


def history_screen(shell: Shell) -> ft.Control:
    stored = shell.any_stored()
    shell.basis = stored.revision  # undo, redo and void name the revision drawn here
    journal = stored.journal
    # Every entry, a voided one too (struck through, restorable); the live ones have a result.
    entries = list(journal.entries.values())
    results = dict(zip((e.deal_id for e in journal.live), _explained(stored), strict=True))
    shown = shell.state.history_shown.get(stored.id, PAGE)
    first = max(0, len(entries) - shown)

    def earlier() -> None:
        shell.state.history_shown[stored.id] = shown + PAGE
        shell.show(history_screen)

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

    def restore(deal_id: int) -> None:
        shell.attempt(
            lambda: shell.store.restore_deal(stored.id, deal_id, seen=stored.revision),
            seen=stored.revision,
        )
        shell.show(history_screen)

    names = list(stored.session.players)
    numbers = deal_numbers(journal_actions(shell, stored.id))
    items: list[ft.Control] = []
    for entry in entries[first:]:
        title = shell.render(_title(stored, entry.deal, names))
        if entry.voided:
            void = entry.revisions[-1]
            items.append(
                sem(
                    f"voided-{entry.deal_id}",
                    _card(
                        [
                            sem(
                                f"voided-title-{entry.deal_id}",
                                ft.Text(
                                    shell.t(N_("Voided deal: {title}"), title=title),
                                    weight=ft.FontWeight.BOLD,
                                    style=ft.TextStyle(decoration=ft.TextDecoration.LINE_THROUGH),
                                    color=ft.Colors.ON_SURFACE_VARIANT,
                                ),
                            ),
                            sem(
                                f"voided-reason-{entry.deal_id}",
                                ft.Text(
                                    shell.render(describe_action(void, numbers.get(void.seq))),
                                    italic=True,
                                ),
                            ),
                            *(
                                [
                                    sem(
                                        f"restore-{entry.deal_id}",
                                        ft.TextButton(
                                            shell.t(N_("Restore")),
                                            icon=ft.Icons.RESTORE,
                                            on_click=lambda e, d=entry.deal_id: restore(d),
                                        ),
                                    )
                                ]
                                if shell.access.may_write  # a viewer's page has no write controls
                                else []
                            ),
                        ],
                        voided=True,
                    ),
                )
            )
            continue
        index, explain = results[entry.deal_id]
        number = index + 1
        lines: list[ft.Control] = [
            sem(
                f"deal-title-{number}",
                ft.Text(
                    shell.t(N_("Deal {n}"), n=number) + " · " + title, weight=ft.FontWeight.BOLD
                ),
            )
        ]
        lines += [
            sem(f"deal-line-{number}-{k}", ft.Text(shell.render(m))) for k, m in enumerate(explain)
        ]
        revisions = [
            shell.render(describe_action(a, numbers.get(a.seq))) for a in entry.revisions[1:]
        ]
        if revisions:
            lines.append(ft.Text("; ".join(revisions), italic=True))
        actions: list[ft.Control] = [
            sem(
                f"void-{number}",
                ft.TextButton(
                    shell.t(N_("Void…")),
                    on_click=lambda e, d=entry.deal_id, i=index: ask_void(d, i),
                ),
            )
        ]
        if entry.deal.type != "correction":
            actions.insert(
                0,
                sem(
                    f"edit-{number}",
                    ft.TextButton(
                        shell.t(N_("Edit…")),
                        on_click=lambda e, d=entry.deal_id, i=index: edit(d, i),
                    ),
                ),
            )
        if shell.access.may_write:  # a viewer's page has no write controls
            lines.append(ft.Row(actions, wrap=True))
        items.append(sem(f"deal-{number}", _card(lines)))
    if not items:
        items.append(ft.Text(shell.t(N_("No deals yet."))))
    older: list[ft.Control] = []
    if first:
        older.append(
            sem("history-earlier", ft.TextButton(shell.t(N_("Earlier deals")), on_click=earlier))
        )
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
            *(
                []
                if isinstance(stored, FamilyStored)  # the audit knows the Russian game only
                else [
                    sem(
                        "analyse-deal",
                        ft.TextButton(
                            shell.t(N_("Analyse a deal…")), on_click=lambda: open_analysis(shell)
                        ),
                    )
                ]
            ),
            *reversed(items),
            *older,
        ],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        spacing=8,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )


def _explained(stored: AnyStored) -> list[tuple[int, list[Msg]]]:
    """Each live deal's index and its sentences, for the pulya or a ledger family alike."""
    if isinstance(stored, FamilyStored):
        return [(d.index, explanations(d.postings)) for d in stored.scored.deals]
    return [(d.index, list(d.writing.explain or ())) for d in stored.scored.deals]


def _title(stored: AnyStored, deal: Any, names: list[str]) -> Msg:
    if isinstance(stored, FamilyStored):
        return ui_of(stored.family).title(deal, names)
    return deal_title(deal, names)


def journal_actions(shell: Shell, sid: int) -> list[Action]:
    with shell.lock:
        return shell.store.history(sid)


def _card(lines: list[ft.Control], *, voided: bool = False) -> ft.Control:
    return ft.Container(
        ft.Column(lines, spacing=2),
        padding=8,
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        border_radius=8,
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST if voided else None,
    )
