"""The operator's admin page of the hosted server (``/admin``, app/server/admin.py): the secret,
then every game of the server with its state, to export or delete (asked first).

Every action checks the page's admin grant again, in the database (``HostedAccess.require_admin``):
a grant forgotten since, or a button a page should not have had, does nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from ...core.i18n import N_, msg, nmsg
from ...store import StoreError
from ..frame import live
from ..frame.dialog import export_dialog
from ..frame.theme import heading, primary, sem
from ..server.admin import admin_delete
from ..server.hosted import HostedAccess
from .hosted import ask_delete_game
from .table import languages

if TYPE_CHECKING:
    from ..frame.shell import Shell


def _nowhere(token: str) -> object:
    return None


#: Keep the page's admin token in the browser (set by the page: hosted.make_hosted_main).
keep: Callable[[str], object] = _nowhere


def _access(shell: Shell) -> HostedAccess:
    access = shell.access
    assert isinstance(access, HostedAccess)
    return access


def admin_screen(shell: Shell) -> ft.Control:
    """The secret, or (with the page's grant) the server's games."""
    access = _access(shell)
    shell.sid = None
    title = ft.Row(
        [
            ft.Text(shell.t(N_("Administration")), size=24, weight=ft.FontWeight.BOLD),
            languages(shell),
        ],
        wrap=True,
        alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
    )
    body = _games(shell) if access.admin else _secret(shell)
    return ft.Column(
        [title, body],
        spacing=12,
        scroll=ft.ScrollMode.AUTO,
        expand=True,
    )


def _secret(shell: Shell) -> ft.Control:
    access = _access(shell)
    hosted = access.hosted
    assert hosted is not None and hosted.admin is not None
    admin = hosted.admin
    field = ft.TextField(
        label=shell.t(N_("Admin secret")), password=True, can_reveal_password=True, width=360
    )

    def submit() -> None:
        token, refused = admin.enter(access.device, field.value, access.address)
        if token is None:
            shell.message = shell.render(refused) if refused is not None else None
        else:
            access.admin_token = token
            keep(token)
            shell.message = None
        shell.show(admin_screen)

    field.on_submit = lambda e: submit()
    return ft.Column(
        [
            ft.Text(
                shell.t(
                    N_(
                        "This page is the server operator's: type the admin secret the server was started with."
                    )
                )
            ),
            sem("admin-secret", field),
            sem("admin-open", primary(shell.t(N_("Open")), submit)),
        ],
        spacing=12,
    )


def _games(shell: Shell) -> ft.Control:
    access = _access(shell)
    hosted = access.hosted
    assert hosted is not None
    with shell.session.locked() as store:
        rows = [r for r in store.sessions() if r.damage is None]
        owned = {int(r["session"]) for r in store.backend.query("SELECT session FROM table_owners")}
    items: list[ft.Control] = []
    for r in rows:
        state = shell.t(N_("finished")) if r.finished_at else shell.t(N_("in play"))
        deals = shell.render(nmsg("{n} deal, {state}", "{n} deals, {state}", r.deals, state=state))
        owner = shell.t(N_("a phone owns it")) if r.id in owned else shell.t(N_("no phone owns it"))
        started = r.created_at[:16].replace("T", " ")  # the date and minute it was started
        items.append(
            sem(
                f"admin-game-{r.id}",
                ft.Card(
                    ft.Container(
                        ft.Column(
                            [
                                sem(
                                    f"admin-title-{r.id}",
                                    ft.Text(
                                        shell.t(N_("Game {id}"), id=r.id)
                                        + ": "
                                        + ", ".join(r.players),
                                        weight=ft.FontWeight.BOLD,
                                    ),
                                ),
                                sem(
                                    f"admin-state-{r.id}",
                                    ft.Text(f"{deals} · {owner} · {started}"),
                                ),
                                ft.Row(
                                    [
                                        sem(
                                            f"admin-export-{r.id}",
                                            ft.OutlinedButton(
                                                shell.t(N_("Export")),
                                                icon=ft.Icons.DOWNLOAD,
                                                on_click=lambda e, sid=r.id: export(shell, sid),
                                            ),
                                        ),
                                        sem(
                                            f"admin-delete-{r.id}",
                                            ft.OutlinedButton(
                                                shell.t(N_("Delete")),
                                                icon=ft.Icons.DELETE_OUTLINE,
                                                on_click=lambda e, sid=r.id: ask_delete(shell, sid),
                                            ),
                                        ),
                                    ],
                                    wrap=True,
                                ),
                            ]
                        ),
                        padding=12,
                    )
                ),
            )
        )
    if not items:
        items.append(sem("admin-empty", ft.Text(shell.t(N_("No games on this server.")))))
    return ft.Column(
        [
            heading(shell.t(N_("Every game on this server"))),
            ft.Column(items, spacing=8),
            sem(
                "admin-leave", ft.TextButton(shell.t(N_("Sign out")), on_click=lambda: leave(shell))
            ),
        ],
        spacing=12,
    )


def _refused(shell: Shell, exc: StoreError) -> None:
    shell.message = exc.render(shell.lang)
    shell.show(admin_screen)


def export(shell: Shell, sid: int) -> None:
    try:
        _access(shell).require_admin()
        text = shell.session.export(sid)
    except StoreError as exc:
        _refused(shell, exc)
        return
    export_dialog(shell, sid, text)


def delete(shell: Shell, sid: int) -> None:
    """The operator deletes game ``sid`` (as ``scorepad delete``): its phones' links open
    nothing, its owner is forgotten; its record is kept."""
    access = _access(shell)
    hosted = access.hosted
    assert hosted is not None
    try:
        access.require_admin()
        # The operator's right was checked above (not a table's PIN): the write is the store's
        # own transaction, under the session's lock.
        with shell.session.locked() as store:
            admin_delete(store, hosted.owners, hosted.grants, sid)
    except StoreError as exc:
        _refused(shell, exc)
        return
    live.link_renewed(shell, sid)
    shell.message = shell.render(msg(N_("Deleted game {id}; its record is kept."), id=sid))
    shell.show(admin_screen)


def ask_delete(shell: Shell, sid: int) -> None:
    try:
        _access(shell).require_admin()
    except StoreError as exc:
        _refused(shell, exc)
        return

    def confirmed() -> None:
        shell.page.pop_dialog()
        delete(shell, sid)

    ask_delete_game(shell, sid, confirmed)


def leave(shell: Shell) -> None:
    """Sign out on this browser: its grant is forgotten in the database."""
    access = _access(shell)
    hosted = access.hosted
    assert hosted is not None and hosted.admin is not None
    if access.admin_token:
        with shell.session.locked():
            hosted.admin.leave(access.admin_token)
    access.admin_token = ""
    keep("")
    shell.message = None
    shell.show(admin_screen)
