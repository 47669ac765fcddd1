"""Cash-out, at any time ("if we stopped now") and at the end: a table a player by player,
the balances and who pays whom; copied as text or saved as an image to send to the group.

Every figure comes from :func:`scorepad.report.pulya.cash_out`, the formatting ``scorepad settle`` uses.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass

import flet as ft

from ...core.i18n import N_, catalog
from ...phone import ON_PHONE
from ...report import report_for
from ...report.ledger import FamilyCashOut
from ...report.pulya import CashOut
from ..frame import registry
from ..frame.dialog import ask_first
from ..frame.nav import nav
from ..frame.shell import Shell, sem
from ..frame.theme import assets_dir

NARROW = 600  # px: below this, one card a player instead of the table
FIGURE_WIDTH = 104  # px: a figure's column in a player's card, at least
FIGURE_EM = 9.5  # px a character of a 15 px figure takes, at most (digits, signs, "RUB")

#: (label, field of CashOutRow): the columns of the table, in order.
COLUMNS = (
    (N_("Pulya"), "pool"),
    (N_("Gora"), "gora"),
    (N_("Whists written"), "written"),
    (N_("Whists received"), "received"),
    (N_("Balance"), "balance"),
    (N_("Money"), "money"),
)


def settle_screen(shell: Shell) -> ft.Control:
    stored = shell.stored()
    report = report_for(stored.family)  # the family's own report, as `scorepad settle` writes
    cash: CashOut | FamilyCashOut = report.cash_out(stored.scored, shell.lang)
    scored_text = report.to_text_sheet(stored.scored, shell.lang, explain=False)
    grid = grid_of(cash)
    # A club table's pulya pays no money: the night counts points and places (issue #37, the
    # club's lines above), so its cash-out shows the whists without a money column or payments.
    club = _at_club_table(shell)
    if club:
        grid = without_money(grid)
    rows: list[ft.Control] = [
        nav(shell, "nav-settle"),
        sem("settle-status", ft.Text(cash.status, weight=ft.FontWeight.BOLD)),
        sem("settle-table", _table(shell, grid)),
    ]
    if not club:
        rows += [
            sem(f"balance-{p}", ft.Text(line, size=15)) for p, line in enumerate(cash.balances)
        ]
    note = getattr(cash, "note", None)  # the pulya's: its kopecks balanced to a zero total
    if note and not club:
        rows.append(
            sem(
                "rounding-note",
                ft.Text(note, size=13, italic=True, color=ft.Colors.ON_SURFACE_VARIANT),
            )
        )
    if cash.payments and not club:
        rows.append(ft.Text(shell.t(N_("Payments:")), weight=ft.FontWeight.BOLD))
        rows += [
            sem(f"payment-{k}", ft.Text(line, size=15)) for k, line in enumerate(cash.payments)
        ]

    rows.append(_exports(shell, cash, scored_text, stored.id))
    rows += _closing(shell, stored.id, stored.finished_at is not None)
    return ft.Column(rows, scroll=ft.ScrollMode.AUTO, expand=True, spacing=8)


def _exports(shell: Shell, cash: CashOut | FamilyCashOut, text: str, sid: int) -> ft.Control:
    """The cash-out copied as text, or saved as a picture (on a computer: the phone has no
    renderer for it)."""

    async def copy() -> None:
        await ft.Clipboard().set(text)
        shell.message = None

    async def save() -> None:
        data = cash_out_png(cash, shell.t(N_("Cash-out")), shell.lang)
        await ft.FilePicker().save_file(
            file_name=f"scorepad-{sid}.png",
            src_bytes=data,
            file_type=ft.FilePickerFileType.IMAGE,
        )

    return ft.Row(
        [
            sem(
                "copy-settlement",
                ft.OutlinedButton(shell.t(N_("Copy as text")), icon=ft.Icons.COPY, on_click=copy),
            ),
            sem(
                "save-settlement",
                ft.OutlinedButton(shell.t(N_("Save as image")), icon=ft.Icons.IMAGE, on_click=save),
            )
            if not ON_PHONE
            else sem(
                "no-picture",
                ft.Text(
                    shell.t(
                        N_(
                            "The picture of the cash-out is made by Scorepad on a computer; "
                            "on the phone, copy it as text."
                        )
                    ),
                    size=13,
                ),
            ),
        ],
        wrap=True,
    )


def _closing(shell: Shell, sid: int, finished: bool) -> list[ft.Control]:
    """A game abandoned before its end is closed here, with the table's reason, after asking;
    a closed one says so and is reopened from here (issue 38 item 14).  A closed game takes no
    write, and ``scorepad debts`` counts it as it stands."""
    closed = shell.session.closed().get(sid)

    def ask(
        title: str, content: ft.Control | None, ident: str, label: str, then: Callable[[], object]
    ) -> None:
        def written() -> None:
            shell.told(then())
            shell.show(settle_screen)

        ask_first(shell, title, content, ident, label, written)

    if closed is not None:

        def reopen() -> None:
            ask(
                shell.t(N_("Put this game back in play?")),
                None,
                "reopen-confirm",
                shell.t(N_("Reopen")),
                shell.session.reopen,
            )

        return [
            sem(
                "closed-note",
                ft.Text(
                    shell.t(N_("Closed before its end: {reason}."), reason=closed[1]),
                    weight=ft.FontWeight.BOLD,
                ),
            ),
            sem("reopen-game", ft.OutlinedButton(shell.t(N_("Reopen the game")), on_click=reopen)),
        ]
    if finished:
        return []

    def close() -> None:
        reason = ft.TextField(label=shell.t(N_("Reason")), autofocus=True)
        ask(
            shell.t(N_("Close this game before its end?")),
            ft.Column(
                [
                    ft.Text(
                        shell.t(
                            N_(
                                "It is settled as it stands now and takes no more deals; "
                                "it can be reopened here."
                            )
                        )
                    ),
                    sem("close-reason", reason),
                ],
                tight=True,
            ),
            "close-confirm",
            shell.t(N_("Close the game")),
            lambda: shell.session.close(reason.value or ""),
        )

    return [sem("close-game", ft.TextButton(shell.t(N_("Close the game…")), on_click=close))]


@dataclass(frozen=True, slots=True)
class Grid:
    """The cash-out table of any family: column labels (msgids) and keys, each player's figures."""

    labels: tuple[str, ...]
    keys: tuple[str, ...]  # name the cells for tests: cash-{player}-{key}
    names: list[str]
    figures: list[tuple[str, ...]]


def grid_of(cash: CashOut | FamilyCashOut) -> Grid:
    if isinstance(cash, FamilyCashOut):
        return Grid(
            tuple(label for label, _ in cash.columns),
            tuple(key for _, key in cash.columns),
            [name for name, _ in cash.rows],
            [figures for _, figures in cash.rows],
        )
    return Grid(
        tuple(label for label, _ in COLUMNS),
        tuple(field for _, field in COLUMNS),
        [r.name for r in cash.rows],
        [tuple(getattr(r, field) for _, field in COLUMNS) for r in cash.rows],
    )


def without_money(grid: Grid) -> Grid:
    """The grid without its money column (a club table's cash-out)."""
    keep = [i for i, key in enumerate(grid.keys) if key != "money"]
    return Grid(
        tuple(grid.labels[i] for i in keep),
        tuple(grid.keys[i] for i in keep),
        grid.names,
        [tuple(row[i] for i in keep) for row in grid.figures],
    )


def _at_club_table(shell: Shell) -> bool:
    """A session written through its night (the club registers that writer, frame/registry.py):
    the night scores it in points and places, not money."""
    return shell.sid is not None and registry.writer(shell, shell.sid) is not None


def _table(shell: Shell, grid: Grid) -> ft.Control:
    columns = list(zip(grid.labels, grid.keys, strict=True))
    if (shell.page.width or 1000) >= NARROW:
        return ft.DataTable(
            columns=[ft.DataColumn(ft.Text(shell.t(N_("Player"))))]
            + [ft.DataColumn(ft.Text(shell.t(label)), numeric=True) for label, _ in columns],
            rows=[
                ft.DataRow(
                    [ft.DataCell(ft.Text(name, weight=ft.FontWeight.BOLD))]
                    + [
                        ft.DataCell(sem(f"cash-{p}-{key}", ft.Text(value, no_wrap=True)))
                        for (_, key), value in zip(columns, grid.figures[p], strict=True)
                    ]
                )
                for p, name in enumerate(grid.names)
            ],
            column_spacing=18,
        )
    cards: list[ft.Control] = []
    # A figure never breaks inside ("−RUB 300.67" on one line): its column is as wide as the
    # widest figure under that label, in every card alike.
    widths = [
        max(FIGURE_WIDTH, *(FIGURE_EM * len(figures[k]) for figures in grid.figures))
        for k in range(len(columns))
    ]
    for p, name in enumerate(grid.names):
        figures = [
            ft.Column(
                [
                    ft.Text(shell.t(label), size=12, color=ft.Colors.ON_SURFACE_VARIANT),
                    sem(f"cash-{p}-{key}", ft.Text(value, size=15, no_wrap=True)),
                ],
                spacing=0,
                width=width,
            )
            for (label, key), value, width in zip(columns, grid.figures[p], widths, strict=True)
        ]
        cards.append(
            ft.Container(
                ft.Column(
                    [
                        ft.Text(name, weight=ft.FontWeight.BOLD, size=16),
                        ft.Row(figures, wrap=True, spacing=8, run_spacing=6),
                    ],
                    spacing=4,
                ),
                padding=10,
                border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
                border_radius=8,
            )
        )
    return ft.Column(cards, spacing=6, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def cash_out_png(cash: CashOut | FamilyCashOut, title: str, lang: str) -> bytes:
    """The cash-out as a PNG (the table, the balances, the payments) to send to the group."""
    from PIL import Image, ImageDraw, ImageFont

    fonts = assets_dir() / "fonts"
    regular = ImageFont.truetype(str(fonts / "DejaVuSans.ttf"), 22)
    bold = ImageFont.truetype(str(fonts / "DejaVuSans-Bold.ttf"), 22)
    cat = catalog(lang)
    grid = grid_of(cash)
    head = [cat.gettext("Player"), *(cat.gettext(label) for label in grid.labels)]
    body = [[name, *grid.figures[p]] for p, name in enumerate(grid.names)]
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    widths = [
        max(int(probe.textlength(row[k], font=bold)) for row in [head, *body]) + 28
        for k in range(len(head))
    ]
    lines = [cash.status, *cash.balances]
    if cash.payments:
        lines += ["", cat.gettext("Payments:"), *cash.payments]
    width = max(sum(widths), *(int(probe.textlength(t, font=regular)) for t in lines)) + 48
    height = 24 + 40 + 36 * (len(body) + 1) + 16 + 32 * len(lines) + 24
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    y = 24
    draw.text((24, y), title, font=bold, fill="black")
    y += 40
    for r, row in enumerate([head, *body]):
        x = 24
        for k, cell in enumerate(row):
            draw.text((x, y), cell, font=bold if r == 0 or k == 0 else regular, fill="black")
            x += widths[k]
        y += 36
        draw.line((24, y - 6, width - 24, y - 6), fill="#c0c0c0")
    y += 16
    for text in lines:
        draw.text((24, y), text, font=regular, fill="black")
        y += 32
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()
