"""A step asked first: a dialog with the step's own button and Back (a step that cannot be
undone, or one the player should see named before it is taken: a void, a restore, closing a
game)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from ...core.i18n import N_
from .theme import sem

if TYPE_CHECKING:
    from .shell import Shell


def ask_first(
    shell: Shell,
    title: str,
    content: ft.Control | None,
    ident: str,
    label: str,
    then: Callable[[], Any],
) -> None:
    """``then`` runs only when ``label`` is tapped; Back closes the dialog and changes nothing."""

    def confirmed() -> None:
        shell.page.pop_dialog()
        then()

    shell.page.show_dialog(
        ft.AlertDialog(
            title=ft.Text(title),
            content=content,
            actions=[
                sem(ident, ft.FilledButton(label, on_click=confirmed)),
                # "Back", not "Cancel": in Greek the void ("Ακύρωση") and a cancel ("Άκυρο")
                # read alike side by side (issue 38 item 11).
                sem(
                    f"{ident}-back",
                    ft.TextButton(shell.t(N_("Back")), on_click=lambda: shell.page.pop_dialog()),
                ),
            ],
        )
    )
