"""The bula and kassa sheets as paper players draw them: per player a group of three columns
(the bula or kassa in the middle, what he wrote on or received from each neighbour at the
sides), each a running column, every entry under the previous, the latest bold.  Refe are
triangles (crossed when used), hats are drawn when a bula goes under.  A tap on a column shows
its whole history, deal by deal, with the engine's reason.

The figures come from the engine's postings (``FamilyScored.deals``); nothing is computed here
but running sums.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import flet as ft
import flet.canvas as cv

from ...core.i18n import N_, Msg
from ...core.numbers import Number, normal, whist_figure
from ...scoring.ledger.families import FamilyScored
from ...scoring.ledger.ledger import Account
from ..frame.shell import Shell
from ..frame.theme import WIDE, sem

SHOWN = 10  # entries shown per column; a tap shows them all
MARK = 14  # px: a refe triangle or a hat
LINE = 1.45  # a line of a column, in ems


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a column: the deal that wrote it (0: the start), the change, the new total."""

    deal: int
    change: Number
    total: Number
    why: tuple[Msg, ...] = ()


def running(scored: FamilyScored, account: Account, start: Number = 0) -> list[Entry]:
    """Every total ``account`` took, oldest first (the start first when it is not nought)."""
    out = [Entry(0, start, start)] if start else []
    total = start
    numbers = scored.numbers  # as said at the table: a voided deal keeps its number
    for d in scored.deals:
        change: Number = 0
        why: list[Msg] = []
        for p in d.postings:
            if p.account == account:
                change = normal(change + p.amount)
                if p.why not in why:
                    why.append(p.why)
        if change:
            total = normal(total + change)
            out.append(Entry(numbers[d.index], change, total, tuple(why)))
    return out


def refe_marks(scored: FamilyScored, seat: int) -> tuple[int, list[bool]]:
    """How many refe ``seat`` got, and for each he used, in order, whether his game was made.

    Made or failed is read off the same deal's posting on his bula (down: made) or, in the pot
    form, on his cash (up: made).
    """
    got, used = 0, []
    for d in scored.deals:
        for p in d.postings:
            if p.account == Account("refe", seat):
                if p.amount > 0:
                    got += int(p.amount)
                else:
                    own = [
                        q.amount
                        for q in d.postings
                        if q.account in (Account("bula", seat), Account("cash", seat))
                    ]
                    bula = any(q.account.kind == "bula" for q in d.postings)
                    change = sum(own, start=0)
                    used.append(change < 0 if bula else change > 0)
    return got, used


def short_names(names: Sequence[str]) -> list[str]:
    """The shortest beginnings (one to three letters) that tell the players apart."""
    out = []
    for i, name in enumerate(names):
        for k in range(1, 4):
            head = name[:k]
            if all(other[:k] != head for j, other in enumerate(names) if j != i):
                break
        out.append(head)
    return out


def figure(value: Number) -> str:
    return whist_figure(value)


def column(
    ident: str,
    entries: list[Entry],
    *,
    width: float,
    size: float,
    on_tap: Callable[[], None] | None,
    bold: bool = False,
    empty: str = "",
    ruled: bool = False,
    lines: int = 0,
    line: float | None = None,
    label: str | None = None,
) -> ft.Control:
    """A running column: the last ``SHOWN`` totals, every one under the previous, the latest
    bold and the older ones grey (as on paper, where the old total stays, crossed off).

    ``line`` (px) is the same in every column of a sheet, so that their lines run across."""
    pitch = line or line_height(size)
    spacing = ft.TextStyle(height=pitch / size)
    rows: list[ft.Control] = []
    shown = entries[-SHOWN:]
    if len(shown) < len(entries):
        rows.append(ft.Text("⋮", size=size, color=ft.Colors.OUTLINE, style=spacing))
    for k, e in enumerate(shown):
        last = k == len(shown) - 1
        rows.append(
            ft.Text(
                figure(e.total),
                # A number is never broken ("−1 / 8", "64 / 0"): one line, smaller if need be.
                size=_fitting(figure(e.total), width - 4, size),
                no_wrap=True,
                weight=ft.FontWeight.BOLD if last and bold else None,
                color=None if last else ft.Colors.OUTLINE,
                text_align=ft.TextAlign.CENTER,
                style=ft.TextStyle(
                    height=pitch / size,
                    decoration=None if last else ft.TextDecoration.LINE_THROUGH,
                ),
            )
        )
    if not rows:
        rows.append(ft.Text(empty, size=size, color=ft.Colors.OUTLINE, style=spacing))
    body = ft.Container(
        ft.Column(
            rows,
            spacing=0,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        width=width,
        # every column of the sheet as long as the longest, as the paper's lines run across
        height=lines * pitch + 8 if lines else None,
        padding=ft.Padding.symmetric(vertical=4),
        # the middle column ruled off from the sides, as on paper
        border=ft.Border(
            left=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT),
            right=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT),
        )
        if ruled
        else None,
        on_click=(lambda _e: on_tap()) if on_tap else None,
        ink=on_tap is not None,
    )
    # a screen reader hears whose column it is before its figures
    return ft.Semantics(identifier=ident, content=body, button=on_tap is not None, label=label)


def line_height(size: float) -> float:
    return size * LINE


def rows_of(*columns: list[Entry]) -> int:
    """The lines the longest of ``columns`` takes on the sheet (its "⋮" too)."""
    return max((min(len(c), SHOWN) + (len(c) > SHOWN) for c in columns), default=1) or 1


def triangles(got: int, used: list[bool]) -> ft.Control | None:
    """One triangle per refe received; the ones used crossed, green when the game was made."""
    if not got:
        return None
    shapes: list[cv.Shape] = []
    gap = 3
    for k in range(got):
        x = k * (MARK + gap)
        colour = ft.Colors.OUTLINE
        if k < len(used):
            colour = ft.Colors.GREEN_700 if used[k] else ft.Colors.RED_700
        paint = ft.Paint(stroke_width=1.4, style=ft.PaintingStyle.STROKE, color=colour)
        shapes.append(
            cv.Path(
                [
                    cv.Path.MoveTo(x + MARK / 2, 1),
                    cv.Path.LineTo(x + MARK - 1, MARK - 1),
                    cv.Path.LineTo(x + 1, MARK - 1),
                    cv.Path.Close(),
                ],
                paint=paint,
            )
        )
        if k < len(used):  # a used refe: its side crossed out
            shapes.append(cv.Line(x, MARK / 2 + 2, x + MARK, MARK / 2 - 3, paint=paint))
    width = got * (MARK + gap)
    return ft.Container(
        cv.Canvas(shapes=shapes, width=width, height=MARK), width=width, height=MARK
    )


def hats(marks: Sequence[str]) -> ft.Control | None:
    """A hat for each time the bula went under; a crossed one when it came back."""
    if not marks:
        return None
    shapes: list[cv.Shape] = []
    gap = 4
    paint = ft.Paint(stroke_width=1.4, style=ft.PaintingStyle.STROKE, color=ft.Colors.ON_SURFACE)
    for k, mark in enumerate(marks):
        x = k * (MARK + gap)
        shapes.append(cv.Line(x, MARK - 2, x + MARK, MARK - 2, paint=paint))  # the brim
        shapes.append(
            cv.Path(
                [
                    cv.Path.MoveTo(x + 3, MARK - 2),
                    cv.Path.LineTo(x + 4, 2),
                    cv.Path.LineTo(x + MARK - 4, 2),
                    cv.Path.LineTo(x + MARK - 3, MARK - 2),
                ],
                paint=paint,
            )
        )  # the crown
        if mark == "crossed":
            cross = ft.Paint(
                stroke_width=1.6, style=ft.PaintingStyle.STROKE, color=ft.Colors.RED_700
            )
            shapes.append(cv.Line(x, 0, x + MARK, MARK, paint=cross))
            shapes.append(cv.Line(x + MARK, 0, x, MARK, paint=cross))
    width = len(marks) * (MARK + gap)
    return ft.Container(
        cv.Canvas(shapes=shapes, width=width, height=MARK), width=width, height=MARK
    )


MIN_GROUP = 100.0  # px: a player's group, its columns' numbers whole


def group_width(page_width: float, n: int) -> float:
    """Each player's group: a third of the phone's width, at most 240 px on a laptop.  Four
    groups that would not fit side by side go two to a line (issue 38 item 6: the fourth was cut
    to 24 px off the screen's edge)."""
    across = (page_width - 24 - 4 * (n - 1)) / n
    if across < MIN_GROUP and n > 2:
        per_line = (n + 1) // 2
        across = (page_width - 24 - 4 * (per_line - 1)) / per_line
    return max(MIN_GROUP, min(240.0, across))


def show_entries(shell: Shell, heading: str, entries: list[Entry]) -> None:
    """A dialog with every entry of a column: the deal, the change, the total, and why."""
    lines: list[ft.Control] = []
    for k, e in enumerate(entries):
        last = k == len(entries) - 1
        if e.deal == 0:
            line = shell.t(N_("Start: {total}"), total=figure(e.total))
        else:
            change = figure(e.change)
            line = shell.t(
                N_("Deal {n}: {change}, total {total}"),
                n=e.deal,
                change=("+" + change) if e.change > 0 else change,
                total=figure(e.total),
            )
        lines.append(
            ft.Text(
                line,
                size=15,
                weight=ft.FontWeight.BOLD if last else None,
                color=None if last else ft.Colors.ON_SURFACE_VARIANT,
            )
        )
        for why in e.why:
            lines.append(ft.Text(shell.render(why), size=12, color=ft.Colors.ON_SURFACE_VARIANT))
    if not lines:
        lines.append(ft.Text(shell.t(N_("Nothing is written here yet."))))
    shell.page.show_dialog(
        ft.AlertDialog(
            title=sem("cell-title", ft.Text(heading)),
            content=sem(
                "cell-history",
                ft.Container(
                    ft.Column(lines, spacing=2, scroll=ft.ScrollMode.AUTO),
                    height=min(420, 24 * len(lines) + 8),
                    width=300,
                ),
            ),
            actions=[
                sem(
                    "close-cell",
                    ft.TextButton(shell.t(N_("Close")), on_click=lambda: shell.page.pop_dialog()),
                )
            ],
        )
    )


def opener(shell: Shell, heading: str, entries: list[Entry]) -> Callable[[], None]:
    return lambda: show_entries(shell, heading, entries)


def sheet_width(shell: Shell) -> float:
    width = float(shell.page.width or 360)
    return width - 89 if width >= WIDE else width  # the navigation rail on a laptop


def player_group(
    shell: Shell,
    p: int,
    name: str,
    marks: list[ft.Control | None],
    columns: list[ft.Control],
    footer: ft.Control | None,
    width: float,
) -> ft.Control:
    """A player's part of the sheet: his name (wrapped, never cut), his marks, his columns."""
    top: list[ft.Control] = [
        sem(
            f"sheet-name-{p}",
            ft.Text(
                name,
                weight=ft.FontWeight.BOLD,
                size=15,
                text_align=ft.TextAlign.CENTER,
                width=width,
            ),
        )
    ]
    drawn = [m for m in marks if m is not None]
    if drawn:
        top.append(ft.Row(drawn, wrap=True, spacing=4, alignment=ft.MainAxisAlignment.CENTER))
    body: list[ft.Control] = [
        *top,
        ft.Divider(height=1),
        ft.Row(columns, spacing=0, vertical_alignment=ft.CrossAxisAlignment.START),
    ]
    if footer is not None:
        body.append(footer)
    return ft.Container(
        ft.Column(body, spacing=4, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        width=width,
        padding=ft.Padding.symmetric(vertical=6),
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        border_radius=6,
    )


# DejaVu Sans, the app's font: a letter is at most about this many em wide (Greek and Cyrillic
# lowercase with a margin): a column's heading is drawn smaller rather than cut ("μπούλα").
LETTER_EM = 0.7


def _fitting(text: str, width: float, size: float) -> float:
    """The font size at which ``text`` fits ``width`` px: ``size``, or smaller down to 8 px."""
    needed = len(text) * LETTER_EM * size
    return size if needed <= width else max(8.0, width / (len(text) * LETTER_EM))


def headers(labels: list[tuple[str, float]], size: float) -> ft.Control:
    return ft.Row(
        [
            ft.Text(
                text,
                width=w,
                size=_fitting(text, w, size),
                text_align=ft.TextAlign.CENTER,
                color=ft.Colors.ON_SURFACE_VARIANT,
                no_wrap=True,
                overflow=ft.TextOverflow.ELLIPSIS,
            )
            for text, w in labels
        ],
        spacing=0,
    )
