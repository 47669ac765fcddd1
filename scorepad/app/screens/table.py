"""The shared table in the app: the PIN screen, the join link, the "Share the table" dialog, and
the bar above every screen of a session (registered with the frame: frame/registry.py).

The server-wide part (one per server: the PIN gate, where the server can be reached, the server
itself) is :class:`scorepad.app.server.table.Table`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

import flet as ft
from babel import Locale

from ...club.store import seat_of
from ...core.i18n import LANGUAGES, N_
from ...store import StoreError
from ..frame import live, registry
from ..server.access import PIN_MAX
from ..server.share import Sharing, qr_png
from ..server.table import Table, no_network
from ..session import Refused

if TYPE_CHECKING:
    from ..frame.shell import Screen, Shell

# A join link: the session and its random token (grants.py); a link without the token opens nothing.
JOIN = re.compile(r"/join/(\d{1,9})(?:/([A-Za-z0-9_-]{1,64}))?/?")


def sem(identifier: str, control: ft.Control) -> ft.Semantics:
    return ft.Semantics(identifier=identifier, content=control)


# --- the bar above every screen ----------------------------------------------------------------


def served(shell: Shell) -> Table:
    """The server's table: a join link, the PIN and Share exist only on a served page."""
    assert shell.table is not None, "a page made without a server has no shared table"
    return shell.table


def table_bar(shell: Shell) -> ft.Control | None:
    table: Table | None = shell.table
    if table is None or shell.screen is pin_screen:
        return None
    # Each bar the same object while the page shows one frame (Shell.reuse): a live redraw
    # skips it.
    if not shell.access.may_write and shell.sid is not None:
        return shell.reuse("table-bar-viewer", shell.lang, lambda: _viewer_bar(shell))
    # A phone that writes may start the next pulka at its table (the host decides whether it
    # is let: the check is made when it starts, access.require_next).  Not above the deal
    # entry, whose Write stays in view on a phone.
    if (
        shell.access.scope is not None
        and shell.access.may_write
        and shell.in_session
        and shell.screen is not registry.screen("entry")
        and not _club_table(shell)
    ):
        return shell.reuse("table-bar-next", shell.lang, lambda: _next_bar(shell))
    # Only on a screen of the open session (its deal, sheet, history...), not on New game or
    # Players, where the session opened before is not the one being looked at.
    if shell.access.host and shell.sid is not None and shell.in_session:
        return shell.reuse("table-bar-share", shell.lang, lambda: _share_bar(shell))
    return None


def _club_table(shell: Shell) -> bool:
    """A club night's table: the director draws its next tour, no phone starts a pulka there.

    The club's own store read, under the same key as app/club/tables.seat (one read a draw): the
    club's screens import the frame, which imports this module, so it cannot import them."""
    sid = shell.sid
    if sid is None:
        return False

    def load() -> object:
        return shell.session.read(lambda store: seat_of(store, sid))

    return shell.read(("seat", sid), load) is not None


def _viewer_bar(shell: Shell) -> ft.Control:
    return sem(
        "viewer-bar",
        ft.Row(
            [
                sem(
                    "viewer-note",
                    ft.Text(
                        shell.t(N_("You are looking at the sheet; writing needs the table PIN."))
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


def _next_bar(shell: Shell) -> ft.Control:
    return _one_button_bar(
        "next-pulka-open",
        shell.t(N_("Start the next pulka")),
        ft.Icons.ADD,
        lambda: shell.go("next-pulka"),
    )


def _share_bar(shell: Shell) -> ft.Control:
    return _one_button_bar(
        "share-table", shell.t(N_("Share the table")), ft.Icons.QR_CODE_2, lambda: show_share(shell)
    )


def _one_button_bar(
    ident: str, text: str, icon: ft.IconData, on_click: Callable[[], None]
) -> ft.Control:
    """A bar above the screen with one button (the next pulka, sharing the table)."""
    return ft.Row([sem(ident, ft.OutlinedButton(text, icon=icon, on_click=on_click))], wrap=True)


# --- the PIN -----------------------------------------------------------------------------------


def ask_pin(shell: Shell) -> None:
    shell.state.after_pin = shell.screen
    shell.message = None
    shell.show(pin_screen)


def pin_screen(shell: Shell) -> ft.Control:
    """Type the table PIN once; the server remembers this device (in the database)."""
    field = ft.TextField(
        label=shell.t(N_("Table PIN")),
        password=True,
        keyboard_type=ft.KeyboardType.NUMBER,
        autofocus=True,
        width=260,
    )

    def submit() -> None:
        # The field's value is whatever the client sent (a number, a list...): the gate refuses
        # anything but text in a sentence.
        access = shell.access
        refused = access.enter(field.value or "")
        if refused is not None:
            shell.message = shell.render(refused)
            shell.show(pin_screen)
            return
        shell.message = None
        after = cast("Screen | None", shell.state.after_pin)
        shell.state.after_pin = None
        if after is None:
            after = registry.screen("sessions" if shell.sid is None else "sheet")
        if after is not None and getattr(after, "__name__", "") == "entry_screen":
            shell.new_form()
        shell.show(after)

    field.on_submit = lambda e: submit()
    parts: list[ft.Control] = [
        ft.Row(
            [
                ft.Text(shell.t(N_("Scorepad")), size=24, weight=ft.FontWeight.BOLD),
                languages(shell),
            ],
            wrap=True,
            alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
        ),
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


def languages(shell: Shell) -> ft.Control:
    """The other languages, each in its own name: a phone handed over in the wrong one."""

    def switch(lang: str) -> None:
        shell.lang = lang
        shell.redraw()

    return ft.Row(
        [
            sem(
                f"language-{lang}",
                ft.TextButton(
                    (Locale.parse(lang).get_display_name(lang) or lang).capitalize(),
                    on_click=lambda e, lang=lang: switch(lang),
                ),
            )
            for lang in LANGUAGES
            if lang != shell.lang
        ],
        wrap=True,
        spacing=0,
    )


def _back(shell: Shell, screen: Screen) -> None:
    shell.message = None
    shell.state.after_pin = None
    shell.show(screen)


def locked_screen(shell: Shell) -> ft.Control:
    """What a page that may not see the whole app gets instead of the list of sessions."""
    if not shell.access.loopback and shell.access.scope is None:
        return join_needed(shell)
    if not shell.access.may_write and shell.access.scope is None:
        return pin_screen(shell)
    return sem(
        "not-here",
        ft.Text(shell.t(N_("This device may only see the shared game."))),
    )


def join_needed(shell: Shell) -> ft.Control:
    """Another device at the root address: only a session's link opens anything."""
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
            sem(
                "join-needed",
                ft.Text(
                    shell.t(
                        N_(
                            "Open the table's link: on the host's computer, \"Share the table\" shows it as a code and an address."
                        )
                    )
                ),
            ),
        ],
        spacing=12,
    )


# --- joining -----------------------------------------------------------------------------------


def join(shell: Shell, sid: int, token: str) -> None:
    """A join link: that session's sheet, and nothing else for this page.

    Without the session's token (or with an old one) nothing is shown, and the same sentence
    is said whether the session exists or not: a link names nothing it does not open."""
    sheet_screen = registry.screen("sheet")
    table = served(shell)
    shell.access.scope = sid
    shell.access.link = token
    known = {s.id for s in shell.session.sessions()}
    if table.grants is not None and not table.grants.opens(sid, token):
        # The table may have moved on to its next pulka (grants.move_table): its link did too.
        moved = table.grants.followed(sid, token)
        if moved is not None:
            sid = shell.access.scope = moved
    if sid not in known or table.grants is None or not table.grants.opens(sid, token):
        live.link_closed(shell)
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
    table = served(shell)
    assert shell.sid is not None
    try:
        sharing = table.share_now()
    except StoreError as exc:
        shell.message = exc.render(shell.lang)
        shell.redraw()
        return
    if not sharing.addresses:
        shell.message = shell.render(no_network())
        shell.redraw()
        return
    shell.page.show_dialog(_share_dialog(shell, sharing))


def _share_lines(
    shell: Shell, sharing: Sharing, sid: int, token: str, width: int
) -> list[ft.Control]:
    """The join link as a QR code and as addresses, the PIN, and a warning on plain HTTP."""
    urls = sharing.join_urls(sid, token)
    lines: list[ft.Control] = [
        sem("share-qr", ft.Image(src=qr_png(urls[0], scale=10), width=width, height=width)),
        ft.Text(shell.t(N_("Scan the code, or open this address on a phone on the same network:"))),
    ]
    lines += [
        address_row(f"share-url-{i}", (sharing.base(a), f"/join/{sid}/", token), width)
        for i, a in enumerate(sharing.addresses)
    ]
    if sharing.pin is not None:
        lines.append(pin_line(shell, sharing.pin, width))
    if sharing.scheme == "http" and sharing.shared:
        lines.append(
            sem(
                "share-http",
                ft.Text(
                    shell.t(
                        N_(
                            "Plain HTTP: anyone on this network can read the sheet and the PIN on the wire. Use a network you trust, or start with --certfile and --keyfile."
                        )
                    ),
                    size=12,
                    italic=True,
                    width=width,
                ),
            )
        )
    return lines


def dialog_width(shell: Shell) -> int:
    """A dialog laid out for its real width (a phone's 360 px too): its text wraps inside it,
    a QR code fits, and an address breaks only between its parts."""
    return int(max(240, min(420, (shell.page.width or 360) - 96)))


def address_row(part_id: str, parts: tuple[str, ...], width: int) -> ft.Control:
    """An address broken only between its parts (a phone's 360 px)."""
    return sem(
        part_id,
        ft.Row(
            [ft.Text(p, size=15, weight=ft.FontWeight.BOLD, no_wrap=True) for p in parts],
            wrap=True,
            spacing=0,
            run_spacing=0,
            width=width,
        ),
    )


def pin_line(shell: Shell, pin: str, width: int) -> ft.Control:
    return sem(
        "share-pin",
        ft.Text(
            shell.t(N_("Table PIN (needed to write): {pin}"), pin=pin),
            size=20,
            weight=ft.FontWeight.BOLD,
            width=width,
        ),
    )


def dialog_column(ident: str, lines: list[ft.Control], width: int) -> ft.Control:
    """A dialog's content: its lines centred, scrolled when taller than the screen."""
    return sem(
        ident,
        ft.Column(
            lines,
            tight=True,
            scroll=ft.ScrollMode.AUTO,
            width=width,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        ),
    )


def share_dialog(
    shell: Shell,
    lines: list[ft.Control],
    width: int,
    renew: Callable[[], None],
    forget: Callable[[], None],
) -> ft.AlertDialog:
    """Share the table: the lines (QR code, link, PIN…), New link, Forget the phones' PINs and
    Close (the LAN host's dialog and the hosted owner's)."""
    return ft.AlertDialog(
        title=ft.Text(shell.t(N_("Share the table"))),
        content=dialog_column("share-dialog", lines, width),
        actions=[
            sem(
                "share-renew",
                ft.TextButton(shell.t(N_("New link (the old one stops working)")), on_click=renew),
            ),
            sem(
                "share-forget",
                ft.TextButton(shell.t(N_("Forget the phones' PINs")), on_click=forget),
            ),
            sem(
                "share-close",
                ft.TextButton(shell.t(N_("Close")), on_click=lambda: shell.page.pop_dialog()),
            ),
        ],
        actions_overflow_button_spacing=0,
    )


def _share_dialog(shell: Shell, sharing: Sharing) -> ft.AlertDialog:
    table = served(shell)
    sid = shell.sid
    assert sid is not None and table.grants is not None
    token = table.grants.link(sid)
    width = dialog_width(shell)
    lines = _share_lines(shell, sharing, sid, token, width)

    def allow_next(e: ft.Event[ft.Switch]) -> None:
        # The value is whatever the client sent: only a true turns it on.
        grants = table.grants
        assert grants is not None
        on = e.control.value is True
        done = shell.session.write(lambda _db: grants.allow_next(sid, on), admin=True)
        if isinstance(done, Refused):
            shell.message = done.said

    lines.append(
        sem(
            "share-next",
            ft.Switch(
                label=shell.t(N_("Phones may start the next pulka at this table")),
                value=table.grants.next_allowed(sid),
                on_change=allow_next,
                width=width,
            ),
        )
    )

    def renew() -> None:
        grants = table.grants
        assert grants is not None
        if isinstance(shell.session.write(lambda _db: grants.renew(sid)), Refused):
            return  # a page that may not write renews nothing
        live.link_renewed(shell, sid)  # the pages open with the old link show nothing now
        shell.page.pop_dialog()
        shell.page.show_dialog(_share_dialog(shell, sharing))

    def forget() -> None:
        table.gate.forget_all()
        shell.page.pop_dialog()
        shell.message = shell.t(N_("Every phone types the table PIN again to write."))
        shell.redraw()

    return share_dialog(shell, lines, width, renew, forget)


__all__ = [
    "JOIN",
    "PIN_MAX",
    "join",
    "join_needed",
    "locked_screen",
    "pin_screen",
    "table_bar",
]


registry.set_bar(table_bar)
