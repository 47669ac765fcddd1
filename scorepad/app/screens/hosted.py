"""The hosted server's own screens (``scorepad serve``, app/server/hosted.py): the front page
(the tables this browser owns or joined, and New game), the bar above a table its owner sees
(share, hand over, export, delete) and the hand-over code's landing.

Every check is the server's (``HostedAccess.require_owner``), made again in each handler: a
button a page should not have had does nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from ...core.i18n import N_, catalog, msg
from ...store import Store, StoreError
from ..frame import live, registry
from ..frame.dialog import export_dialog
from ..frame.theme import heading, primary, secondary, sem
from ..server.admin import admin_delete
from ..server.hosted import HostedAccess, HostedGate, not_director, not_owner
from ..server.share import Sharing, qr_png
from .table import (
    address_row,
    dialog_column,
    dialog_width,
    join,
    languages,
    pin_line,
    served,
    share_dialog,
    table_bar,
)

if TYPE_CHECKING:
    from ..frame.shell import Shell


def _access(shell: Shell) -> HostedAccess:
    access = shell.access
    assert isinstance(access, HostedAccess)
    return access


# --- the front page ----------------------------------------------------------------------------


def front_screen(shell: Shell) -> ft.Control:
    """This browser's tables, and New game: nothing of any other table."""
    access = _access(shell)
    access.scope = None
    access.link = ""
    shell.sid = None
    rows = {r.id: r for r in shell.session.sessions() if r.damage is None}
    items: list[ft.Control] = []
    for kind, held in (("own", access.owned), ("join", access.joined)):
        for sid, value in reversed(list(held.items())):
            r = rows.get(sid)
            # Each checked again at every drawing: a table handed over or deleted is gone.
            if r is None or (kind == "own" and not access.owns(sid)):
                continue
            if kind == "own":
                said = shell.t(N_("Game {id}: this phone owns it"), id=sid)
                action = lambda e, sid=sid: _open_owned(shell, sid)  # noqa: E731
            else:
                said = shell.t(N_("Game {id}: this phone joined it"), id=sid)
                action = lambda e, sid=sid, token=value: join(shell, sid, token)  # noqa: E731
            items.append(_table_card(shell, sid, r.players, said, action))
    if not items:
        items.append(
            sem(
                "tables-empty",
                ft.Text(
                    shell.t(
                        N_(
                            "The games this phone starts or joins are listed here. Tap “New game” to start one: this phone then owns it and shares it with the table."
                        )
                    )
                ),
            )
        )
    return ft.Column(
        [
            ft.Row(
                [
                    ft.Text(shell.t(N_("Scorepad")), size=24, weight=ft.FontWeight.BOLD),
                    languages(shell),
                ],
                wrap=True,
                alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
            ),
            ft.Row(
                [
                    sem("session-new", primary(shell.t(N_("New game")), lambda: _new_game(shell))),
                    # A club night: the browser that creates it directs it (its owner).
                    sem(
                        "session-club",
                        secondary(shell.t(N_("Club nights")), lambda: _club_nights(shell)),
                    ),
                ],
                wrap=True,
            ),
            heading(shell.t(N_("Your tables"))),
            ft.Column(items, spacing=8),
        ],
        spacing=12,
        scroll=ft.ScrollMode.AUTO,
        expand=True,
    )


def _table_card(
    shell: Shell, sid: int, players: list[str], said: str, action: Callable[..., None]
) -> ft.Control:
    """One of this browser's tables on the front page: its players, whose it is, Continue."""
    return sem(
        f"table-{sid}",
        ft.Card(
            ft.Container(
                ft.Column(
                    [
                        ft.Text(", ".join(players), weight=ft.FontWeight.BOLD),
                        ft.Text(said),
                        sem(
                            f"table-open-{sid}",
                            primary(shell.t(N_("Continue")), on_click=action),
                        ),
                    ]
                ),
                padding=12,
            )
        ),
    )


def _open_owned(shell: Shell, sid: int) -> None:
    access = _access(shell)
    if not access.owns(sid):  # handed over or deleted since the list was drawn
        shell.message = shell.render(not_owner())
        shell.show(front_screen)
        return
    access.scope = None
    shell.sid = sid
    shell.message = None
    shell.go("sheet")


def _club_nights(shell: Shell) -> None:
    shell.message = None
    shell.state.night = None
    shell.go("club")


def _new_game(shell: Shell) -> None:
    shell.state.new_session = None
    shell.message = None
    shell.go("new-session")


# --- a hand-over code --------------------------------------------------------------------------


def take(shell: Shell, key: int, code: str, *, night: bool = False) -> None:
    """The phone that opened a hand-over code owns the table (or directs the club night)
    from now on."""
    access = _access(shell)
    hosted = access.hosted
    assert hosted is not None
    with shell.session.locked():
        secret = hosted.owners.take(key, code, kind="night" if night else "table")
    if secret is None:
        live.link_closed(shell)
        return
    if night:
        access.took_night(key, secret)
        shell.state.night = key
        shell.message = shell.t(N_("This phone directs club night {id} now."), id=key)
        shell.show(registry.screen("club-director"))
        return
    access.took(key, secret)
    shell.sid = key
    shell.message = shell.t(N_("This phone owns game {id} now."), id=key)
    shell.show(registry.screen("sheet"))


# --- the owner's bar ---------------------------------------------------------------------------


def hosted_bar(shell: Shell) -> ft.Control | None:
    """Above a table's screens: its owner's buttons; a viewer's note as on the LAN."""
    access = shell.access
    if not isinstance(access, HostedAccess):
        return table_bar(shell)
    if getattr(shell.screen, "__name__", "") == "director_screen":
        # A club night's director (its owner) may hand it to another browser.
        nid = shell.state.night
        if nid is None or not access.directs(nid):
            return None
        return shell.reuse("hosted-night-bar", (shell.lang, nid), lambda: _night_bar(shell, nid))
    sid = shell.sid
    if sid is None or not shell.in_session:
        return None
    if access.owns(sid) and access.scope is None:
        return shell.reuse("hosted-owner-bar", (shell.lang, sid), lambda: _owner_bar(shell, sid))
    if not access.may_write:
        return table_bar(shell)  # "you are looking at the sheet", and the PIN
    return None


def _owner_bar(shell: Shell, sid: int) -> ft.Control:
    def button(ident: str, text: str, icon: ft.IconData, on_click: object) -> ft.Control:
        return sem(ident, ft.OutlinedButton(text, icon=icon, on_click=on_click))

    return ft.Row(
        [
            button(
                "share-table",
                shell.t(N_("Share the table")),
                ft.Icons.QR_CODE_2,
                lambda: show_owner_share(shell, sid),
            ),
            button(
                "hand-over",
                shell.t(N_("Hand over")),
                ft.Icons.SWAP_HORIZ,
                lambda: show_hand_over(shell, sid),
            ),
            button(
                "table-export", shell.t(N_("Export")), ft.Icons.DOWNLOAD, lambda: export(shell, sid)
            ),
            button(
                "table-delete",
                shell.t(N_("Delete")),
                ft.Icons.DELETE_OUTLINE,
                lambda: ask_delete(shell, sid),
            ),
        ],
        wrap=True,
    )


def _night_bar(shell: Shell, nid: int) -> ft.Control:
    return ft.Row(
        [
            sem(
                "night-hand-over",
                ft.OutlinedButton(
                    shell.t(N_("Hand over")),
                    icon=ft.Icons.SWAP_HORIZ,
                    on_click=lambda: show_hand_over(shell, nid, night=True),
                ),
            )
        ],
        wrap=True,
    )


def _refused(shell: Shell, exc: StoreError) -> None:
    shell.message = exc.render(shell.lang)
    shell.redraw()


def _base(sharing: Sharing) -> str:
    return sharing.public[0] if sharing.public else sharing.base(sharing.addresses[0])


def show_owner_share(shell: Shell, sid: int) -> None:
    access = _access(shell)
    try:
        access.require_owner(sid)
    except StoreError as exc:
        _refused(shell, exc)
        return
    shell.page.show_dialog(_share_dialog(shell, sid))


def _share_dialog(shell: Shell, sid: int) -> ft.AlertDialog:
    access = _access(shell)
    hosted = access.hosted
    table = served(shell)
    assert hosted is not None
    with shell.session.locked():
        token = hosted.grants.link(sid)
        pin = hosted.owners.pin(sid)
    base = _base(table.sharing)
    url = f"{base}/join/{sid}/{token}"
    width = dialog_width(shell)
    lines: list[ft.Control] = [
        sem("share-qr", ft.Image(src=qr_png(url, scale=10), width=width, height=width)),
        ft.Text(shell.t(N_("Scan the code, or open this address on a phone:"))),
        address_row("share-url-0", (base, f"/join/{sid}/", token), width),
        pin_line(shell, pin or "", width),
    ]
    return share_dialog(
        shell, lines, width, lambda: _renew(shell, sid), lambda: _forget(shell, sid)
    )


def _renew(shell: Shell, sid: int) -> None:
    """The owner's New link: the pages open with the old link show nothing now."""
    access = _access(shell)
    hosted = access.hosted
    assert hosted is not None
    try:
        access.require_owner(sid)
    except StoreError as exc:
        shell.page.pop_dialog()
        _refused(shell, exc)
        return
    with shell.session.locked():
        hosted.grants.renew(sid)
    live.link_renewed(shell, sid)
    shell.page.pop_dialog()
    shell.page.show_dialog(_share_dialog(shell, sid))


def _forget(shell: Shell, sid: int) -> None:
    """The owner's Forget the phones' PINs: this table's phones type its PIN again."""
    shell.page.pop_dialog()
    try:
        _access(shell).require_owner(sid)
    except StoreError as exc:
        _refused(shell, exc)
        return
    gate = served(shell).gate
    assert isinstance(gate, HostedGate)
    with shell.session.locked():
        gate.forget_table(sid)
    shell.message = shell.t(N_("Every phone types the table PIN again to write."))
    shell.redraw()


def show_hand_over(shell: Shell, key: int, *, night: bool = False) -> None:
    """A one-time code for the phone that will own the table (or direct the club night): it
    scans it there."""
    access = _access(shell)
    hosted = access.hosted
    assert hosted is not None
    held = access.nights if night else access.owned
    with shell.session.locked():
        code = hosted.owners.handover_code(
            key, held.get(key, ""), kind="night" if night else "table"
        )
    if code is None:
        shell.message = shell.render(not_director() if night else not_owner())
        shell.redraw()
        return
    base = _base(served(shell).sharing)
    path = f"/take/night/{key}/" if night else f"/take/{key}/"
    url = f"{base}{path}{code}"
    width = dialog_width(shell)
    shell.page.show_dialog(
        ft.AlertDialog(
            title=ft.Text(
                shell.t(
                    N_("Hand the club night to another phone")
                    if night
                    else N_("Hand the table to another phone")
                )
            ),
            content=dialog_column(
                "hand-over-dialog",
                [
                    sem(
                        "hand-over-qr",
                        ft.Image(src=qr_png(url, scale=10), width=width, height=width),
                    ),
                    ft.Text(
                        shell.t(
                            N_(
                                "Open this on the phone that will direct the night. Once it is opened there, this phone no longer directs it."
                            )
                            if night
                            else N_(
                                "Open this on the phone that will own the table. Once it is opened there, this phone no longer owns it."
                            )
                        ),
                        width=width,
                    ),
                    address_row("hand-over-url", (base, path, code), width),
                ],
                width,
            ),
            actions=[
                sem(
                    "hand-over-close",
                    ft.TextButton(shell.t(N_("Close")), on_click=lambda: shell.page.pop_dialog()),
                )
            ],
        )
    )


def export(shell: Shell, sid: int) -> None:
    access = _access(shell)
    try:
        access.require_owner(sid)
        text = shell.session.export(sid)
    except StoreError as exc:
        _refused(shell, exc)
        return
    export_dialog(shell, sid, text)


def delete(shell: Shell, sid: int, seen: int) -> bool:
    """The owner deletes its table: hidden from every list, its phones' links open nothing,
    its owner secret and PIN are forgotten; its record is kept on the server."""
    access = _access(shell)
    hosted = access.hosted
    assert hosted is not None

    def action(store: Store) -> None:
        access.require_owner(sid)
        admin_delete(store, hosted.owners, hosted.grants, sid, seen=seen)

    if not shell.told(shell.session.write(action)):
        return False
    live.link_renewed(shell, sid)
    access.owned.pop(sid, None)
    access.save()
    return True


def ask_delete(shell: Shell, sid: int) -> None:
    access = _access(shell)
    try:
        access.require_owner(sid)
        seen = shell.stored().revision
    except StoreError as exc:
        _refused(shell, exc)
        return

    def confirmed() -> None:
        shell.page.pop_dialog()
        if delete(shell, sid, seen):
            shell.sid = None
            shell.show(front_screen)
        else:
            shell.redraw()

    ask_delete_game(shell, sid, confirmed)


def ask_delete_game(shell: Shell, sid: int, confirmed: Callable[[], None]) -> None:
    """Delete game ``sid``? (its owner's delete and the operator's): ``confirmed`` deletes."""
    shell.page.show_dialog(
        ft.AlertDialog(
            title=ft.Text(shell.t(N_("Delete game {id}?"), id=sid)),
            content=ft.Text(
                shell.t(
                    N_(
                        "Every phone of the table loses it, and its link opens nothing; its record is kept on the server."
                    )
                )
            ),
            actions=[
                sem("confirm-delete", ft.FilledButton(shell.t(N_("Delete")), on_click=confirmed)),
                sem(
                    "cancel-delete",
                    ft.TextButton(shell.t(N_("Cancel")), on_click=lambda: shell.page.pop_dialog()),
                ),
            ],
        )
    )


# --- the operator's terminal -------------------------------------------------------------------


def hosted_banner(sharing: Sharing, lang: str) -> str:
    cat = catalog(lang)
    where = sharing.public[0] + "/" if sharing.public else sharing.here()
    lines = [
        cat.render(msg(N_("Scorepad is served for phones alone. Open: {url}"), url=where)),
        cat.render(
            msg(
                N_(
                    "A phone that starts a game owns it; administer the server with scorepad sessions, export and delete --db on this computer."
                )
            )
        ),
        cat.render(msg(N_("Stop the server with Ctrl-C."))),
    ]
    return "\n".join(lines) + "\n"
