"""The shared table in the app: the PIN screen, the join link, the "Share the table" dialog.

:class:`Table` is the server-wide part (one per server): the PIN gate, where the server can be
reached, and the server itself (to start serving on the network when the host shares).
"""

from __future__ import annotations

import dataclasses
import re
import threading
from typing import TYPE_CHECKING, Any, cast

import flet as ft

from ...i18n import N_, msg
from ...store import StoreError
from ..frame import registry
from ..server.access import PIN_MAX, Gate, ServeRefused, generate_pin
from ..server.server import bind
from ..server.share import Sharing, lan_addresses, qr_png, url_host

if TYPE_CHECKING:
    from ..frame.shell import Screen, Shell
    from ..server.server import Server

JOIN = re.compile(r"/join/(\d{1,9})/?")


@dataclasses.dataclass
class Table:
    """What every page of one server shares: the PIN and where the server is reached."""

    gate: Gate
    sharing: Sharing
    server: Server | None = None
    lock: threading.Lock = dataclasses.field(default_factory=threading.Lock)

    def share_now(self) -> Sharing:
        """Serve on every network interface too (the host pressed "Share the table")."""
        with self.lock:
            if self.sharing.shared:
                return self.sharing
            if self.server is None:
                raise ServeRefused(_no_network())
            addresses = lan_addresses()
            if not addresses:
                raise ServeRefused(_no_network())
            sockets = [bind(a, self.sharing.port) for a in addresses]
            if self.gate.pin is None:
                self.gate.pin = generate_pin()  # never on the network without a PIN
            self.server.add(sockets)
            self.sharing = dataclasses.replace(
                self.sharing,
                addresses=tuple(addresses),
                shared=True,
                pin=self.gate.pin,
                hosts=self.sharing.hosts | {url_host(a) for a in addresses},
            )
            return self.sharing


def _no_network() -> Any:

    return msg(N_("No network interface is up: the table cannot be shared."))


def sem(identifier: str, control: ft.Control) -> ft.Semantics:
    return ft.Semantics(identifier=identifier, content=control)


def shown(shell: Shell, nav_id: str) -> bool:
    """Which navigation items a page shows: a viewer has no deal entry, a phone no list."""
    if nav_id == "nav-entry":
        return shell.access.may_write
    if nav_id == "nav-sessions":
        return shell.access.scope is None
    return True


# --- the bar above every screen ----------------------------------------------------------------


def table_bar(shell: Shell) -> ft.Control | None:
    table: Table | None = shell.table
    if table is None or shell.screen is pin_screen:
        return None
    if not shell.access.may_write and shell.sid is not None:
        return sem(
            "viewer-bar",
            ft.Row(
                [
                    sem(
                        "viewer-note",
                        ft.Text(
                            shell.t(
                                N_("You are looking at the sheet; writing needs the table PIN.")
                            )
                        ),
                    ),
                    sem(
                        "pin-open",
                        ft.OutlinedButton(
                            shell.t(N_("Enter the table PIN")), on_click=lambda: ask_pin(shell)
                        ),
                    ),
                ],
                wrap=True,
            ),
        )
    if shell.access.host and shell.sid is not None:
        return ft.Row(
            [
                sem(
                    "share-table",
                    ft.OutlinedButton(
                        shell.t(N_("Share the table")),
                        icon=ft.Icons.QR_CODE_2,
                        on_click=lambda: show_share(shell),
                    ),
                )
            ],
            wrap=True,
        )
    return None


# --- the PIN -----------------------------------------------------------------------------------


def ask_pin(shell: Shell) -> None:
    shell.state.after_pin = shell.screen
    shell.message = None
    shell.show(pin_screen)


def pin_screen(shell: Shell) -> ft.Control:
    """Type the table PIN once; the server remembers this device while it runs."""
    field = ft.TextField(
        label=shell.t(N_("Table PIN")),
        password=True,
        keyboard_type=ft.KeyboardType.NUMBER,
        autofocus=True,
        width=260,
    )

    def submit() -> None:
        refused = shell.access.gate.enter(shell.access.device, field.value or "")
        if refused is not None:
            shell.message = shell.render(refused)
            shell.show(pin_screen)
            return
        shell.message = None
        after = cast("Screen | None", shell.state.after_pin)
        shell.state.after_pin = None
        if after is None:
            after = registry.screen("sessions")
        if after is not None and getattr(after, "__name__", "") == "entry_screen":
            shell.new_form()
        shell.show(after)

    field.on_submit = lambda e: submit()
    parts: list[ft.Control] = [
        ft.Text(shell.t(N_("Scorepad")), size=24, weight=ft.FontWeight.BOLD),
        ft.Text(shell.t(N_("This table is protected by a PIN. The host's screen shows it."))),
        sem("pin-field", field),
        sem("pin-submit", ft.FilledButton(shell.t(N_("Unlock")), on_click=submit)),
    ]
    if shell.sid is not None:
        sheet_screen = registry.screen("sheet")
        parts.append(
            sem(
                "pin-cancel",
                ft.TextButton(
                    shell.t(N_("Only look at the sheet")),
                    on_click=lambda: _back(shell, sheet_screen),
                ),
            )
        )
    return ft.Column(parts, spacing=12)


def _back(shell: Shell, screen: Screen) -> None:
    shell.message = None
    shell.state.after_pin = None
    shell.show(screen)


def locked_screen(shell: Shell) -> ft.Control:
    """What a page that may not see the whole app gets instead of the list of sessions."""
    if not shell.access.may_write and shell.access.scope is None:
        return pin_screen(shell)
    return sem(
        "not-here",
        ft.Text(shell.t(N_("This device may only see the shared session."))),
    )


# --- joining -----------------------------------------------------------------------------------


def join(shell: Shell, sid: int) -> None:
    """A join link: that session's sheet, and nothing else for this page."""
    sheet_screen = registry.screen("sheet")
    shell.access.scope = sid
    with shell.lock:
        known = {s.id for s in shell.store.sessions()}
    if sid not in known:
        shell.message = shell.t(
            N_("There is no session {id} at this table: ask the host for a new link."), id=sid
        )
        shell.sid = None
        shell.show(lambda s: sem("join-missing", ft.Text(s.t(N_("Nothing to show.")))))
        return
    shell.sid = sid
    shell.message = None
    try:
        shell.new_form()
    except StoreError as exc:
        shell.message = exc.render(shell.lang)
    shell.show(sheet_screen)


# --- sharing -----------------------------------------------------------------------------------


def show_share(shell: Shell) -> None:
    table: Table = shell.table
    assert shell.sid is not None
    try:
        sharing = table.share_now()
    except StoreError as exc:
        shell.message = exc.render(shell.lang)
        shell.redraw()
        return
    urls = sharing.join_urls(shell.sid)
    if not urls:
        shell.message = shell.render(_no_network())
        shell.redraw()
        return
    width = shell.page.width or 360
    side = int(max(220, min(420, width - 96)))
    lines: list[ft.Control] = [
        sem("share-qr", ft.Image(src=qr_png(urls[0], scale=10), width=side, height=side)),
        ft.Text(shell.t(N_("Scan the code, or open this address on a phone on the same network:"))),
    ]
    lines += [
        sem(f"share-url-{i}", ft.Text(u, size=18, weight=ft.FontWeight.BOLD))
        for i, u in enumerate(urls)
    ]
    if sharing.pin is not None:
        lines.append(
            sem(
                "share-pin",
                ft.Text(
                    shell.t(N_("Table PIN (needed to write): {pin}"), pin=sharing.pin),
                    size=22,
                    weight=ft.FontWeight.BOLD,
                ),
            )
        )
    if sharing.scheme == "http" and sharing.shared:
        lines.append(
            ft.Text(
                shell.t(
                    N_(
                        "Plain HTTP: anyone on this network can read the sheet and the PIN on the wire. Use a network you trust, or start with --certfile and --keyfile."
                    )
                ),
                size=12,
                italic=True,
            )
        )
    shell.page.show_dialog(
        ft.AlertDialog(
            title=ft.Text(shell.t(N_("Share the table"))),
            content=sem(
                "share-dialog",
                ft.Column(
                    lines,
                    tight=True,
                    scroll=ft.ScrollMode.AUTO,
                    horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                ),
            ),
            actions=[
                sem(
                    "share-close",
                    ft.TextButton(shell.t(N_("Close")), on_click=lambda: shell.page.pop_dialog()),
                )
            ],
        )
    )


__all__ = ["JOIN", "PIN_MAX", "Table", "join", "locked_screen", "pin_screen", "table_bar"]
