"""The dialogs every screen shares: a step asked first, with the step's own button and Back (a
step that cannot be undone, or one the player should see named before it is taken: a void, a
restore, closing a game); a game as a file, to copy or save."""

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


def export_dialog(shell: Shell, sid: int, text: str) -> None:
    """Game ``sid`` as a file (``text``), to copy or save: the host's export, a hosted table
    owner's and the operator's."""

    async def copy() -> None:
        await ft.Clipboard().set(text)

    async def save() -> None:  # a download in a browser, the share sheet's file on a phone
        await ft.FilePicker().save_file(file_name=f"scorepad-{sid}.json", src_bytes=text.encode())

    shell.page.show_dialog(
        ft.AlertDialog(
            title=ft.Text(shell.t(N_("Game {id} as a file"), id=sid)),
            content=sem(
                "export-text",
                ft.Column(
                    [ft.Text(text, selectable=True, size=12)],
                    scroll=ft.ScrollMode.AUTO,
                    height=300,
                ),
            ),
            actions=[
                sem("copy-export", ft.FilledButton(shell.t(N_("Copy")), on_click=copy)),
                sem("save-export", ft.OutlinedButton(shell.t(N_("Save")), on_click=save)),
                ft.TextButton(shell.t(N_("Close")), on_click=lambda: shell.page.pop_dialog()),
            ],
        )
    )
