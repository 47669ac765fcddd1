"""The widgets the bula and kassa screens build alike: the declarers' row, the defence (a row a
defender: his calls, the passer called in), and on the sheet a player's group of columns (a
middle column between the two he keeps on his neighbours) and the page that holds the groups."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import flet as ft

from ...core.i18n import N_
from ...scoring.ledger.families import FamilyScored
from ..frame.shell import Shell
from ..frame.theme import sem
from ..frame.writing import NAME_WIDTH, Redraw, cell, cell_row, deal_head, deal_number
from .columns import (
    Entry,
    column,
    group_width,
    headers,
    line_height,
    opener,
    player_group,
    sheet_width,
    short_names,
)
from .form import FamilyForm
from .pieces import CALLS_SAID, seat_row

# --- the entry -----------------------------------------------------------------------------------


def form_head(shell: Shell, f: FamilyForm[Any, Any]) -> list[ft.Control]:
    """The deal's heading: an edited deal's own number, else the next deal's (as said at the
    table: a voided deal keeps its number)."""
    number = deal_number(shell)
    return deal_head(shell, number, shell.t(N_("Deal {n}"), n=number))


def declarer_row(
    f: FamilyForm[Any, Any], redraw: Redraw, *, extra: list[ft.Control] | None = None
) -> ft.Control:
    """Who declares: the seats the form offers, in one row (``extra``: an all-pass after them)."""
    return seat_row(
        f.names,
        f.declarers(),
        f.declarer,
        "declarer",
        lambda s: redraw(lambda: f.choose_declarer(s)),
        extra=extra,
    )


def defence_rows(shell: Shell, f: FamilyForm[Any, Any], redraw: Redraw) -> ft.Control:
    """The calls said, side by side in one row (a tap takes one back), then a row for each
    defender still to speak: his name and the calls the form offers."""
    names = f.names
    roles = f.defence()
    said_cells: list[ft.Control] = []
    rows: list[ft.Control] = []
    for s in f.defenders():
        role = roles.get(s)
        if role == "invited":
            text = shell.t(N_("{player}: called in (invited)"), player=names[s])
            said_cells.append(cell(f"invited-{s}", True, text, redraw(lambda s=s: f.unsay(s))))
            if "counter" in f.call_options(s):  # Prefa's counter-invitation (G-Q1)
                said_cells.append(
                    cell(
                        f"call-{s}-counter",
                        False,
                        shell.t(CALLS_SAID["counter"]),
                        redraw(lambda s=s: f.say(s, "counter")),
                        fitted=True,
                    )
                )
            continue
        if role is not None:
            text = shell.t(N_("{player}: {call}"), player=names[s], call=shell.t(CALLS_SAID[role]))
            said_cells.append(cell(f"defender-{s}", True, text, redraw(lambda s=s: f.unsay(s))))
            continue
        cells = [
            cell(
                f"call-{s}-{c}",
                False,
                shell.t(CALLS_SAID[c]),
                redraw(lambda s=s, c=c: f.say(s, c)),
                fitted=True,
            )
            for c in f.call_options(s)
        ]
        name = ft.Text(names[s], size=13, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS)
        rows.append(
            ft.Row(
                [ft.Container(sem(f"defender-{s}", name), width=NAME_WIDTH), *cells],
                spacing=4,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
    if said_cells:
        rows.insert(0, cell_row(said_cells))
    return sem("calls", ft.Column(rows, spacing=4))


# --- the sheet -----------------------------------------------------------------------------------


class Layout(NamedTuple):
    """The open game and how wide its sheet's groups are drawn."""

    scored: FamilyScored
    names: list[str]
    short: list[str]  # a neighbour's name over a narrow column
    width: float  # one player's group
    size: int  # the figures' size: smaller on a narrow group


def sheet_layout(shell: Shell) -> Layout:
    scored: FamilyScored = shell.stored().scored
    names = list(scored.session.players)
    width = group_width(sheet_width(shell), len(names))
    return Layout(scored, names, short_names(names), width, 13 if width < 140 else 15)


@dataclass(frozen=True, slots=True)
class Kept:
    """One running column of a player's group: what it holds and what it is called."""

    ident: str
    entries: list[Entry]
    label: str  # read out, and the heading of the list a tap opens
    heading: str  # above the column


def between(
    shell: Shell,
    left: Kept,
    middle: Kept,
    right: Kept,
    *,
    width: float,
    size: float,
    lines: int,
    across: Kept | None = None,
) -> ft.Control:
    """The middle column (bold, ruled) between the two kept on the neighbours, headed; at a
    table of four, the one kept on the player across follows on the right."""
    sides = 2 if across is None else 3
    side = (width - 2) * (0.31 if across is None else 0.24)
    wide = (width - 2) - sides * side

    def shown(kept: Kept, w: float, main: bool) -> ft.Control:
        return column(
            kept.ident,
            kept.entries,
            width=w,
            size=size if main else size - 1,
            bold=main,
            ruled=main,
            lines=lines,
            line=line_height(size),
            label=kept.label,
            on_tap=opener(shell, kept.label, kept.entries),
        )

    heads = [(left.heading, side), (middle.heading, wide), (right.heading, side)]
    cols = [shown(left, side, False), shown(middle, wide, True), shown(right, side, False)]
    if across is not None:
        heads.append((across.heading, side))
        cols.append(shown(across, side, False))
    return headed(headers(heads, 12), cols)


def headed(head: ft.Control, cols: list[ft.Control]) -> ft.Control:
    """Columns side by side under their headings."""
    return ft.Column(
        [head, ft.Row(cols, spacing=0, vertical_alignment=ft.CrossAxisAlignment.START)]
    )


def sheet_group(
    shell: Shell,
    p: int,
    name: str,
    marks: list[ft.Control | None],
    block: ft.Control,
    footer: ft.Control | None,
    width: float,
) -> ft.Control:
    """Player ``p``'s part of the sheet (his name, marks, columns and footer)."""
    return sem(
        f"sheet-player-{p}",
        player_group(shell, p, name, marks, [block], footer, width),
    )


def sheet_page(groups: list[ft.Control], status: list[ft.Control]) -> ft.Control:
    """The players' groups side by side, what the game stands at below them."""
    return ft.Column(
        [
            # Groups that do not fit side by side go on the next line (four on a phone).
            ft.Row(
                groups,
                spacing=4,
                run_spacing=10,
                wrap=True,
                vertical_alignment=ft.CrossAxisAlignment.START,
            ),
            *status,
        ],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        spacing=10,
    )
