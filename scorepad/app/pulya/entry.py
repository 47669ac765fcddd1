"""Deal entry, the screen used most: the whole deal on one phone screen (issue #27).

Top to bottom: who deals and leads; the declarer (or an all-pass) in one row; the contract on a
level × suit grid (the misère below it), folded to one row once chosen; the calls in one row per
defender; the tricks, one tap a seat on a 0–10 picker (the last seat filled in once the others
are chosen: nothing is written that nobody chose); and, pinned above the write button, the
preview in words of what it writes.  The common case is the fewest taps: after the declarer and
the contract, "made, not whisted" is the one tap of its own button.

When every pool is closed the pulka is finished: the screen says so and offers the cash-out; a
further deal is written only after an explicit "play on" (the confirm handler refuses otherwise).
"""

from __future__ import annotations

from functools import partial

import flet as ft

from ...core.i18n import N_
from ...scoring.contract import Contract, Trump
from ...scoring.pulya.table import contract_name
from ...scoring.pulya.whist import Call
from ..dispute.start import open_for_next
from ..frame.registry import writer
from ..frame.shell import Shell
from ..frame.theme import COMPACT, card, primary, secondary, sem
from ..frame.writing import (
    NAME_WIDTH,
    Redraw,
    WriteParts,
    cell,
    deal_head,
    deal_number,
    entry_screen_of,
    label_button,
    redrawer,
    trick_buttons,
    write_parts,
)
from .form import DealForm

KIND_LABELS = {"game": N_("Game"), "misere": N_("Misère"), "raspasy": N_("All pass")}
CALL_LABELS = {"whist": N_("whist"), "pass": N_("pass"), "half": N_("half-whist")}


def entry_screen(shell: Shell) -> ft.Control:
    f = shell.form if isinstance(shell.form, DealForm) else shell.new_form()
    assert isinstance(f, DealForm)  # the Deal screen gives the pulya's entry a pulya's form
    editing = shell.editing
    # A refusal is shown beside Write, where the player looks (see writing.pinned_footer).
    told, shell.message = shell.message, None
    redraw = redrawer(shell, entry_screen)
    head = _head(shell, f)
    if not editing and shell.finished:
        shell.message = told  # no Write on this screen: the refusal stays at the top
        return _finished(shell, head)
    writes = writer(shell, shell.sid) if shell.sid is not None and not editing else None
    if writes is not None and writes.no_deal_left():
        # A club table past its last deal of the tour: no deal is offered (its panel says so).
        shell.message = told
        return ft.Column([], expand=True)
    if not editing and shell.sid in shell.state.playing_on and f.scored.finished:
        head.append(_playing_on(shell))

    rows: list[ft.Control] = [*head]
    if not editing and shell.access.may_write and not _contract_chosen(f):
        rows.append(_check_cards(shell))
    if _contract_chosen(f):
        rows.append(_chosen(shell, f, redraw))
    else:
        rows.append(_declarers(shell, f, redraw))
        if f.kind != "raspasy":
            rows.append(_contract(shell, f, redraw))
    if f.kind == "game" and f.contract is not None:
        rows.append(_whisting(shell, f, redraw))
    if f.played and f.trick_seats() and (f.kind != "game" or f.calls_complete):
        rows.append(_tricks(shell, f, redraw))
    return entry_screen_of(shell, rows, _write(shell, f), told)


def _head(shell: Shell, f: DealForm) -> list[ft.Control]:
    """The deal's number, who deals and who leads; an all-pass series and its exit."""
    names = f.scored.session.players
    number = deal_number(shell)
    head = deal_head(
        shell,
        number,
        shell.t(
            N_("Deal {n}: {dealer} deals, {leader} leads."),
            n=number,
            dealer=names[f.dealer],
            leader=names[f.leader],
        ),
    )
    if f.raspasy_in_row:
        head.append(
            sem(
                "raspasy-series",
                ft.Text(
                    shell.t(
                        N_(
                            "All-passes in a row: {k}. A contract of {level} or higher ends the series."
                        ),
                        k=f.raspasy_in_row,
                        level=f.required_exit,
                    ),
                    size=13,
                ),
            )
        )
    return head


def _playing_on(shell: Shell) -> ft.Control:
    return sem(
        "playing-on",
        ft.Text(
            shell.t(N_("Every pool is closed; the table plays on.")),
            italic=True,
            size=13,
            color=ft.Colors.ON_SURFACE_VARIANT,
        ),
    )


def _check_cards(shell: Shell) -> ft.Control:
    """A dispute while the cards are still on the table: enter them first (app/dispute)."""
    return sem(
        "check-cards",
        ft.TextButton(
            shell.t(N_("Enter the cards to check this deal…")),
            height=COMPACT,
            on_click=lambda: open_for_next(shell),
        ),
    )


def _may_add(shell: Shell) -> bool:
    if shell.finished:
        # Never a silent deal past the end: the players must have chosen to play on.
        shell.message = shell.t(N_("The game is finished: choose “Play on” to write another deal."))
        return False
    return True


def _write(shell: Shell, f: DealForm) -> WriteParts:
    """Write and its preview; "made, not whisted": the deal with every defender passing, its
    preview beside its button."""
    passed = None if shell.editing else f.passed_out()
    label = None if passed is None else shell.t(N_("Not whisted: write"))
    form = f if passed is None else passed
    return write_parts(
        shell, form, entry_screen, may_add=partial(_may_add, shell), pinned=True, label=label
    )


def _finished(shell: Shell, head: list[ft.Control]) -> ft.Control:
    """The end of the pulka: the cash-out, or an explicit decision to go on."""

    def play_on() -> None:
        assert shell.sid is not None
        shell.state.playing_on.add(shell.sid)
        shell.message = None
        shell.new_form()
        shell.show(entry_screen)

    return ft.Column(
        [
            card(
                sem(
                    "pulka-finished",
                    ft.Text(
                        shell.t(N_("The game is finished: every pulya is closed.")),
                        size=18,
                        weight=ft.FontWeight.BOLD,
                    ),
                ),
                ft.Text(
                    shell.t(
                        N_("Settle up now, or play on if the table agreed to finish the round.")
                    )
                ),
                ft.Row(
                    [
                        sem(
                            "finished-settle",
                            primary(shell.t(N_("Cash-out")), lambda: shell.go("settle")),
                        ),
                        sem("play-on", secondary(shell.t(N_("Play on")), play_on)),
                    ],
                    wrap=True,
                ),
            ),
        ],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        spacing=8,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )


def _contract_chosen(f: DealForm) -> bool:
    """The declarer and his contract (or misère) chosen: they fold into one row."""
    if f.declarer is None:
        return False
    return (f.kind == "game" and f.contract is not None) or f.kind == "misere"


def _chosen(shell: Shell, f: DealForm, redraw: Redraw) -> ft.Control:
    """``Vera: 6♦`` in one row, a tap away from the declarers and the grid again."""
    names = f.scored.session.players
    assert f.declarer is not None
    contract = f.contract
    what = (
        _trump_text(shell, contract.level, contract.trump)
        if f.kind == "game" and contract is not None
        else shell.t(KIND_LABELS["misere"])
    )

    def reopen() -> None:
        declarer = f.declarer
        f.choose_kind("game")
        f.level = f.trump = None
        if declarer is not None:
            f.choose_declarer(declarer)

    text = shell.t(N_("{player}: {contract}"), player=names[f.declarer], contract=what)
    return ft.Row(
        [
            cell("contract-chosen", True, text, redraw(reopen)),
            sem(
                "contract-change",
                ft.TextButton(shell.t(N_("Change")), on_click=redraw(reopen), height=COMPACT),
            ),
        ],
        spacing=4,
    )


def _declarers(shell: Shell, f: DealForm, redraw: Redraw) -> ft.Control:
    """Who plays, or an all-pass: one row."""
    names = f.scored.session.players

    def declare(seat: int) -> None:
        if f.kind == "raspasy":
            f.choose_kind("game")
        f.choose_declarer(seat)

    cells = [
        cell(
            f"declarer-{s}",
            f.kind != "raspasy" and f.declarer == s,
            names[s],
            redraw(lambda s=s: declare(s)),
        )
        for s in f.declarers()
    ]
    if "raspasy" in f.kinds():
        cells.append(
            cell(
                "kind-raspasy",
                f.kind == "raspasy",
                shell.t(KIND_LABELS["raspasy"]),
                redraw(lambda: f.choose_kind("raspasy")),
            )
        )
    return ft.Row(cells, spacing=4)


def _trump_text(shell: Shell, level: int, trump: Trump) -> str:
    label = contract_name(Contract(level, trump))
    return label if isinstance(label, str) else shell.render(label)


def _contract(shell: Shell, f: DealForm, redraw: Redraw) -> ft.Control:
    """The level × suit grid and the misère; one row once the contract is chosen."""

    def misere() -> None:
        declarer = f.declarer
        f.choose_kind("misere")
        if declarer is not None:
            f.choose_declarer(declarer)

    def contract(level: int, trump: Trump) -> None:
        if f.kind != "game":
            declarer = f.declarer
            f.choose_kind("game")
            if declarer is not None:
                f.choose_declarer(declarer)
        f.choose_contract(level, trump)

    has_misere = "misere" in f.kinds()
    levels = set(f.levels())
    grid: list[ft.Control] = [
        ft.Row(
            [
                cell(
                    f"contract-{lv}{tr.value}",
                    f.kind == "game" and f.level == lv and f.trump is tr,
                    _trump_text(shell, lv, tr),
                    redraw(lambda lv=lv, tr=tr: contract(lv, tr)),
                    disabled=lv not in levels,
                )
                for tr in Trump
            ],
            spacing=4,
        )
        for lv in (6, 7, 8, 9, 10)
    ]
    if has_misere:
        grid.append(
            ft.Row(
                [
                    cell(
                        "kind-misere",
                        f.kind == "misere",
                        shell.t(KIND_LABELS["misere"]),
                        redraw(misere),
                    )
                ],
                spacing=4,
            )
        )
    return ft.Column(grid, spacing=4)


def _whisting(shell: Shell, f: DealForm, redraw: Redraw) -> ft.Control:
    """The calls: one row per defender, his words said so far and, when he speaks, his options.

    A call said can be tapped to take it back (with the calls after it)."""
    names = f.scored.session.players
    if f.checked_ten:
        return ft.Text(
            shell.t(N_("The ten is checked: played open, nobody whists.")), italic=True, size=13
        )
    who, options = f.call_options()
    defenders = list(f.table.defenders(f.declarer or 0))
    if f.table.sits_out is not None and (who == f.table.sits_out or _spoke(f, f.table.sits_out)):
        defenders.append(f.table.sits_out)  # the 4-player dealer whists after two passes
    said = _said_by(f)
    lines: list[ft.Control] = []
    for seat in defenders:
        cells: list[ft.Control] = [
            ft.Container(
                ft.Text(names[seat], no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS, size=13),
                width=NAME_WIDTH,
            )
        ]
        for k, call in said.get(seat, []):
            last = k == len(f.calls) - 1
            cells.append(
                cell(
                    "call-undo" if last else f"said-{k}",
                    True,
                    shell.t(CALL_LABELS[call]),
                    redraw(lambda k=k: f.take_back_calls(k)),
                )
            )
        if seat == who:
            cells += [
                cell(f"call-{c}", False, shell.t(CALL_LABELS[c]), redraw(lambda c=c: f.say(c)))
                for c in options
            ]
        if f.lone_whister and seat in said and Call.WHIST in [c for _, c in said[seat]]:
            cells.append(_open_play(shell, f))
        lines.append(ft.Row(cells, spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER))
    if f.call_shortcuts():
        lines.append(_call_shortcuts(shell, f, redraw))
    return sem("calls", ft.Column(lines, spacing=4))


def _open_play(shell: Shell, f: DealForm) -> ft.Control:
    """Whether the lone whister played open (a box beside his calls)."""

    def played_open(e: ft.Event[ft.Checkbox]) -> None:
        f.set_open(bool(e.control.value))
        shell.show(entry_screen)

    return sem(
        "open-play",
        ft.Checkbox(
            label=shell.t(N_("open")),
            value=f.open,
            on_change=played_open,
            tooltip=shell.t(N_("The whister played open")),
        ),
    )


def _call_shortcuts(shell: Shell, f: DealForm, redraw: Redraw) -> ft.Control:
    """The common calls in one tap (issue #27): the rows above stay for everything else."""
    names = f.scored.session.players
    return ft.Row(
        [
            cell(
                "calls-both" if lone is None else f"calls-alone-{lone}",
                False,
                shell.t(N_("both whist"))
                if lone is None
                else shell.t(N_("{player} alone"), player=names[lone]),
                redraw(lambda calls=calls: f.say_all(calls)),
                fitted=True,
            )
            for lone, calls in f.call_shortcuts()
        ],
        spacing=4,
    )


def _said_by(f: DealForm) -> dict[int, list[tuple[int, Call]]]:
    """Each defender's calls so far, with their place in the sequence."""
    out: dict[int, list[tuple[int, Call]]] = {}
    for k in range(len(f.calls)):
        speaker, _ = _speaker_at(f, k)
        if speaker is not None:
            out.setdefault(speaker, []).append((k, f.calls[k]))
    return out


def _speaker_at(f: DealForm, k: int) -> tuple[int | None, list[Call]]:
    """Who said call ``k`` (the form asks speaker by speaker)."""
    kept = f.calls
    try:
        f.calls = kept[:k]
        return f.call_options()
    finally:
        f.calls = kept


def _spoke(f: DealForm, seat: int) -> bool:
    return seat in _said_by(f)


def _tricks(shell: Shell, f: DealForm, redraw: Redraw) -> ft.Control:
    """One picker a seat; the last seat's count is the rest of the ten, shown once known."""
    seats = f.trick_seats()
    lines: list[ft.Control] = []
    splits = f.made_splits()
    if splits:
        lines.append(_made_splits(shell, f, redraw, splits))

    last = f.last_seat
    pickers = [s for s in seats if s != last]
    for seat in pickers:
        known = f.tricks.get(seat)
        row = _trick_head(shell, f, seat)
        if last is not None and seat == pickers[-1]:
            # The last seat's count, the rest of the ten, on the same line: one screen.
            row += [
                ft.Container(expand=True),
                *_trick_head(shell, f, last),
                ft.Text(shell.t(N_("(the rest)")), italic=True, size=13),
            ]
        low, high = f.trick_range(seat)
        lines.append(ft.Row(row, spacing=6))
        lines.append(
            trick_buttons(
                seat,
                range(low, high + 1),
                chosen=known,
                allowed=set(f.trick_choices(seat)),
                pick=lambda n, s=seat: redraw(lambda: f.set_tricks(s, n)),
                compact=True,
            )
        )
    return sem("tricks", ft.Column(lines, spacing=0))


def _made_splits(
    shell: Shell, f: DealForm, redraw: Redraw, splits: list[tuple[int, int]]
) -> ft.Control:
    """Made exactly, the defence's split in one tap: every count chosen by that tap."""
    names = f.scored.session.players
    _, first, second = f.trick_seats()
    chosen = f.made_split
    return ft.Row(
        [
            ft.Container(
                ft.Text(
                    shell.t(N_("Made: {first}–{second}"), first=names[first], second=names[second]),
                    size=12,
                    max_lines=2,  # the names whole, on two lines in the row's height
                    overflow=ft.TextOverflow.ELLIPSIS,
                ),
                expand=3,
            ),
            *(
                ft.Container(
                    sem(
                        f"split-{a}-{b}",
                        label_button(
                            chosen == (a, b), f"{a}–{b}", redraw(lambda a=a: f.choose_made(a))
                        ),
                    ),
                    expand=1,
                )
                for a, b in splits
            ),
        ],
        spacing=2,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def _trick_head(shell: Shell, f: DealForm, seat: int) -> list[ft.Control]:
    """A seat's name (the talon's, at an all-pass with four) and its count, once known."""
    names = f.scored.session.players
    label = names[seat]
    if f.kind == "raspasy" and seat == f.table.sits_out:
        label = shell.t(N_("{player} (talon)"), player=names[seat])
    known = f.tricks.get(seat)
    count = sem(
        f"tricks-{seat}",
        ft.Text("—" if known is None else str(known), size=15, weight=ft.FontWeight.BOLD),
    )
    name = ft.Text(label, size=13, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS)
    return [name, count]
