"""The list of sessions: continue, new, delete (with confirmation)."""

from __future__ import annotations

import flet as ft

from ...core.i18n import LANGUAGE_LIST, N_, nmsg
from ...phone import ON_PHONE
from ...scoring.ledger.families import family_presets
from ...scoring.pulya.convention import presets
from ...store import SessionSummary
from ..frame.dialog import export_dialog
from ..frame.shell import Shell
from ..frame.theme import heading, primary, quiet, secondary, sem
from .table import locked_screen


def sessions_screen(shell: Shell) -> ft.Control:
    if not shell.access.host:  # a viewer or a joined phone: not the host's other sessions
        return locked_screen(shell)
    items = _session_cards(shell, shell.session.sessions())

    async def back_up() -> None:
        await _back_up(shell)

    language = sem(
        "language",
        ft.Dropdown(
            value=shell.lang,
            width=150,
            dense=True,
            options=[ft.DropdownOption(key=x.code, text=x.name) for x in LANGUAGE_LIST],
            on_select=lambda e: _choose_language(shell, e),
            tooltip=shell.t(N_("Language")),
        ),
    )

    return ft.Column(
        [
            ft.Row(
                [heading(shell.t(N_("Scorepad"))), language],
                wrap=True,
            ),
            ft.Row(
                [
                    sem(
                        "session-new",
                        primary(
                            shell.t(N_("New game")),
                            on_click=lambda: shell.go("new-session"),
                        ),
                    ),
                    sem(
                        "session-import",
                        secondary(shell.t(N_("Import…")), on_click=lambda: _ask_import(shell)),
                    ),
                    sem(
                        "session-players",
                        secondary(shell.t(N_("Players")), on_click=lambda: shell.go("players")),
                    ),
                    sem(
                        "session-club",
                        secondary(shell.t(N_("Club nights")), on_click=lambda: shell.go("club")),
                    ),
                    # On the phone alone the games live in the browser: a copy kept elsewhere
                    # is one tap (on a laptop or a server the store is a file already).
                    *(
                        [
                            sem(
                                "backup",
                                secondary(shell.t(N_("Back up to a file")), on_click=back_up),
                            )
                        ]
                        if ON_PHONE
                        else []
                    ),
                ],
                wrap=True,
            ),
            sem("sessions-list", ft.Column(items, spacing=8)),
        ],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        spacing=12,
    )


def _session_cards(shell: Shell, rows: list[SessionSummary]) -> list[ft.Control]:
    """A card a game: its players, its rules and deals, continue, export and delete."""
    items: list[ft.Control] = []
    closed = shell.session.closed()
    for r in rows:
        state = shell.t(N_("finished")) if r.finished_at else shell.t(N_("in play"))
        if r.id in closed:  # abandoned before its end, with the table's reason
            state = shell.t(N_("closed ({reason})"), reason=closed[r.id][1])
        deals = shell.render(nmsg("{n} deal, {state}", "{n} deals, {state}", r.deals, state=state))
        items.append(
            ft.Card(
                ft.Container(
                    ft.Column(
                        [
                            ft.Text(", ".join(r.players), weight=ft.FontWeight.BOLD),
                            ft.Text(
                                " · ".join(
                                    [_convention_name(r.convention, shell.lang)]
                                    + ([str(r.pool_target)] if r.family == "pulya" else [])
                                    + [deals]
                                )
                            ),
                            ft.Row(
                                [
                                    sem(
                                        f"session-open-{r.id}",
                                        primary(
                                            shell.t(N_("Continue")),
                                            on_click=lambda e, sid=r.id: _open_session(shell, sid),
                                        ),
                                    ),
                                    sem(
                                        f"session-export-{r.id}",
                                        quiet(
                                            shell.t(N_("Export")),
                                            on_click=lambda e, sid=r.id: _show_export(shell, sid),
                                        ),
                                    ),
                                    sem(
                                        f"session-delete-{r.id}",
                                        quiet(
                                            shell.t(N_("Delete")),
                                            on_click=lambda e, sid=r.id, seen=r.revision: (
                                                _ask_delete(shell, sid, seen)
                                            ),
                                        ),
                                    ),
                                ],
                                wrap=True,
                            ),
                        ]
                    ),
                    padding=12,
                )
            )
        )
    if not items:  # a newcomer's first screen: what to do, not only that nothing is here
        items.append(
            sem(
                "sessions-empty",
                ft.Text(
                    shell.t(
                        N_(
                            "No games yet. Tap “New game”, name the three or four players and "
                            "choose the rules you play by; then write each deal as it is played. "
                            "The sheet and the cash-out follow by themselves."
                        )
                    )
                ),
            )
        )
    return items


def _open_session(shell: Shell, sid: int) -> None:
    shell.sid = sid
    shell.go("entry")


def _ask_delete(shell: Shell, sid: int, seen: int) -> None:
    # ``seen``: the revision the list showed; a session changed since is not deleted unseen.
    def confirmed() -> None:
        shell.page.pop_dialog()
        shell.told(shell.session.delete(sid, seen=seen))
        if shell.sid == sid:
            shell.sid = None
        shell.show(sessions_screen)

    dialog = ft.AlertDialog(
        title=ft.Text(shell.t(N_("Delete game {id}?"), id=sid)),
        content=ft.Text(
            shell.t(N_("It disappears from the list; its record is kept in the database."))
        ),
        actions=[
            sem("confirm-delete", ft.FilledButton(shell.t(N_("Delete")), on_click=confirmed)),
            sem(
                "cancel-delete",
                ft.TextButton(shell.t(N_("Cancel")), on_click=lambda: shell.page.pop_dialog()),
            ),
        ],
    )
    shell.page.show_dialog(dialog)


def _ask_import(shell: Shell) -> None:
    text = ft.TextField(
        label=shell.t(N_("Game file (JSON)")), multiline=True, min_lines=6, max_lines=12
    )

    def confirmed(data: str | bytes | None = None) -> None:
        shell.page.pop_dialog()
        made = shell.session.import_game(text.value or "" if data is None else data)
        if shell.told(made) and isinstance(made, int):
            _open_session(shell, made)
        else:
            shell.show(sessions_screen)

    async def open_file() -> None:
        """A game file chosen on the device (the phone's file picker), imported at once."""
        files = await ft.FilePicker().pick_files(
            dialog_title=shell.t(N_("Open a file…")),
            file_type=ft.FilePickerFileType.CUSTOM,  # for allowed_extensions to count
            allowed_extensions=["json"],
            with_data=True,
        )
        if files and files[0].bytes is not None:  # else nothing was chosen
            confirmed(bytes(files[0].bytes))

    shell.page.show_dialog(
        ft.AlertDialog(
            title=ft.Text(shell.t(N_("Import a game"))),
            content=sem("import-text", text),
            actions=[
                sem("import-file", ft.TextButton(shell.t(N_("Open a file…")), on_click=open_file)),
                sem(
                    "confirm-import",
                    ft.FilledButton(shell.t(N_("Import")), on_click=lambda: confirmed()),
                ),
                ft.TextButton(shell.t(N_("Cancel")), on_click=lambda: shell.page.pop_dialog()),
            ],
        )
    )


def _show_export(shell: Shell, sid: int) -> None:
    export_dialog(shell, sid, shell.session.export(sid))


def _choose_language(shell: Shell, e: ft.Event[ft.Dropdown]) -> None:
    shell.lang = e.control.value or shell.lang
    shell.show(sessions_screen)
    shell.remember_language(shell.lang)


async def _back_up(shell: Shell) -> None:
    # The phone's whole store as one SQLite file (a download, or the share sheet's file):
    # the laptop opens it as it is (scorepad --db FILE), or imports its games.
    import datetime

    from ...phone.app import backup

    data = shell.session.read(backup)
    await ft.FilePicker().save_file(
        file_name=f"scorepad-{datetime.date.today().isoformat()}.db", src_bytes=data
    )


def _convention_name(convention: str, lang: str) -> str:
    found = presets().get(convention) or family_presets().get(convention)
    if found is None:
        return convention
    return found.name_in(lang)
