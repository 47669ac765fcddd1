"""The bula family in the app: its deal entry and its sheet (registered in family_ui).

The entry draws :class:`~.bula_form.BulaForm` (the shell keeps it in ``shell.form``): the kind
of deal, the declarer, the bid with its hand («igra») version, each defender's follow / pass /
invite, the contra level and who said it, the tricks as counted when play stopped, and the
preview in the engine's words; the write button stays on screen.  The sheet is the paper's:
per player left supe | bula | right supe, refe triangles and hats, what is left to close (the
pot form: the pot and each player's cash).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from ..i18n import N_
from ..scoring.bula import BulaSettings, BulaTable, bid_name
from ..scoring.families import FamilyScored
from ..scoring.ledger import Account
from . import bula_form
from .bula_form import BulaForm, contra_name
from .bula_sheet import (
    Entry,
    column,
    figure,
    group_width,
    hats,
    line_height,
    refe_marks,
    rows_of,
    running,
    short_names,
    triangles,
)
from .family_ui import FamilyUI, register_family
from .shell import Shell
from .theme import TAP, WIDE, card, choice, primary, quiet, sem

KIND_LABELS = {
    # not «Game»: in Russian that is «игра», the bula's word for a hand game
    "game": N_("Declared game"),
    "allpass": N_("All pass (refe)"),
    "pik_no_contra": N_("Pik without contra"),
}
CALL_LABELS = {"follow": N_("follow"), "pass": N_("pass"), "invite": N_("invite")}
CALLS_SAID = {
    "follow": N_("follow"),
    "pass": N_("pass"),
    "invite": N_("invite"),
    "whist": N_("whist"),
}

Redraw = Callable[[Callable[[], None]], Callable[[], None]]


def family_stored(shell: Shell) -> Any:
    """The open session's FamilyStored."""
    return shell.family_stored()


def current_form(shell: Shell, cls: type, make: Callable[[Any], Any]) -> Any:
    """The shell's form when it is one of this family's, else a fresh one for the next deal."""
    if isinstance(shell.form, cls):
        return shell.form
    stored = family_stored(shell)
    form = make(stored)
    shell.form = form
    shell.basis = stored.revision
    shell.editing = None
    return form


# --- shared pieces of the entry (the kassa entry uses them too) ------------------------------


def head_card(shell: Shell, number: int, editing: bool) -> list[ft.Control]:
    head: list[ft.Control] = []
    if editing:
        head.append(
            sem(
                "editing",
                ft.Text(
                    shell.t(N_("Editing deal {n}: the later deals are checked again."), n=number),
                    weight=ft.FontWeight.BOLD,
                    color=ft.Colors.PRIMARY,
                ),
            )
        )
    head.append(
        sem(
            "deal-header",
            ft.Text(shell.t(N_("Deal {n}"), n=number), weight=ft.FontWeight.BOLD, size=16),
        )
    )
    return head


def seat_row(
    names: tuple[str, ...],
    seats: list[int],
    chosen: int | None,
    prefix: str,
    pick: Callable[[int], Callable[[], None]],
) -> ft.Control:
    return ft.Row(
        [sem(f"{prefix}-{s}", choice(chosen == s, names[s], pick(s))) for s in seats],
        wrap=True,
    )


def tricks_card(
    shell: Shell,
    form: Any,
    redraw: Redraw,
    *,
    title: str,
) -> ft.Control:
    """One picker a seat in play, the last seat filled in (``form``: a bula or kassa form)."""
    names = form.names
    seats = form.trick_seats()
    rows: list[ft.Control] = []
    for i, seat in enumerate(seats):
        count = sem(
            f"tricks-{seat}",
            ft.Text(str(form.tricks.get(seat, 0)), size=18, weight=ft.FontWeight.BOLD),
        )
        label = ft.Text(names[seat], weight=ft.FontWeight.W_500)
        if i == len(seats) - 1:
            rows.append(
                ft.Row([label, count, ft.Text(shell.t(N_("(the rest)")), italic=True)], wrap=True)
            )
            continue
        allowed = set(form.trick_choices(seat))
        rows.append(ft.Row([label, count]))
        rows.append(
            ft.Row(
                [
                    sem(
                        f"tricks-{seat}-{n}",
                        choice(
                            form.tricks.get(seat) == n,
                            str(n),
                            redraw(lambda s=seat, n=n: form.set_tricks(s, n)),
                            width=TAP,
                            disabled=n not in allowed,
                        ),
                    )
                    for n in range(11)
                ],
                wrap=True,
                spacing=4,
                run_spacing=4,
            )
        )
    return card(*rows, title=title)


def entry_frame(
    shell: Shell,
    form: Any,
    cards: list[ft.Control],
    screen: Callable[[Shell], ft.Control],
) -> ft.Control:
    """The preview, the reason of an edit, and the write button below the scrolling cards."""
    editing = shell.editing
    sentences, problem = form.preview(shell.lang)
    preview = (
        [ft.Text(s) for s in sentences] if sentences else [ft.Text(problem or "", italic=True)]
    )
    cards.append(sem("preview", card(ft.Column(preview, spacing=4), title=shell.t(N_("Preview")))))
    label = shell.t(N_("Write the change")) if editing else shell.t(N_("Write the deal"))
    write = primary(label, None, disabled=problem is not None)
    if editing:
        write.disabled = problem is not None or not shell.state.edit_reason.strip()

        def reason_typed(e: ft.Event[ft.TextField]) -> None:
            # Only the button changes while typing: a redraw would take the focus away.
            shell.state.edit_reason = e.control.value or ""
            write.disabled = problem is not None or not shell.state.edit_reason.strip()

        cards.append(
            card(
                sem(
                    "edit-reason",
                    ft.TextField(
                        label=shell.t(N_("Reason for the change")),
                        value=shell.state.edit_reason,
                        on_change=reason_typed,
                    ),
                )
            )
        )
    # The revision this form was built from: the write names it, so a stale one is refused.
    basis, sid = shell.basis, shell.sid

    def confirm() -> None:
        assert basis is not None and sid is not None
        if editing:
            deal_id, reason = editing[0], shell.state.edit_reason
            if shell.attempt(
                lambda: shell.store.edit_deal(
                    sid, deal_id, form.to_deal(), reason=reason, seen=basis
                ),
                seen=basis,
            ):
                shell.go("history")
                return
            shell.show(screen)
            return
        if shell.attempt(
            lambda: shell.store.add_deal(sid, form.to_deal(), seen=basis),
            seen=basis,
        ):
            shell.new_form()
        shell.show(screen)

    write.on_click = confirm
    footer: list[ft.Control] = [ft.Container(sem("confirm-deal", write), expand=True)]
    if editing:

        def cancel() -> None:
            shell.new_form()
            shell.message = None
            shell.show(screen)

        footer.append(sem("cancel-edit", quiet(shell.t(N_("Cancel")), cancel)))
    return ft.Column(
        [
            ft.Column(
                cards,
                scroll=ft.ScrollMode.AUTO,
                expand=True,
                spacing=8,
                horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
            ),
            ft.Row(footer, spacing=8),
        ],
        expand=True,
        spacing=8,
    )


def finished_card(shell: Shell, sentence: str) -> ft.Control:
    return ft.Column(
        [
            card(
                sem(
                    "game-finished",
                    ft.Text(sentence, size=18, weight=ft.FontWeight.BOLD),
                ),
                sem(
                    "finished-settle",
                    primary(shell.t(N_("Cash-out")), lambda: shell.go("settle")),
                ),
            )
        ],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )


def redrawer(shell: Shell, screen: Callable[[Shell], ft.Control]) -> Redraw:
    def redraw(change: Callable[[], None]) -> Callable[[], None]:
        def handler() -> None:
            change()
            shell.message = None  # the refusal was about the deal as it was
            shell.show(screen)

        return handler

    return redraw


# --- the bula entry ----------------------------------------------------------------------------


def bula_entry(shell: Shell) -> ft.Control:
    f: BulaForm = current_form(shell, BulaForm, bula_form.new_form)
    names = f.names
    editing = shell.editing
    redraw = redrawer(shell, bula_entry)
    number = editing[1] + 1 if editing else f.number
    if not editing and f.finished:  # no next deal to number
        return finished_card(shell, shell.t(N_("The bulas sum to zero: the game is over.")))
    kinds = ft.Row(
        [
            sem(
                f"kind-{k}",
                choice(
                    f.kind == k,
                    shell.t(KIND_LABELS[k]),
                    redraw(lambda k=k: f.choose_kind(k)),
                ),
            )
            for k in f.kinds()
        ],
        wrap=True,
        spacing=6,
        run_spacing=6,
    )
    head = head_card(shell, number, editing is not None)
    cards: list[ft.Control] = [card(*head, kinds)]
    if f.kind in ("game", "pik_no_contra"):
        cards.append(
            card(
                seat_row(
                    names,
                    f.declarers(),
                    f.declarer,
                    "declarer",
                    lambda s: redraw(lambda: f.choose_declarer(s)),
                ),
                title=shell.t(N_("Declarer")),
            )
        )
    if f.kind == "game" and f.declarer is not None:
        cards.append(_bids(shell, f, redraw))
        if f.on_refe:
            cards.append(
                sem(
                    "refe-double",
                    card(
                        ft.Text(
                            shell.t(
                                N_("{player} holds a refe: this game counts double."),
                                player=names[f.declarer],
                            ),
                            weight=ft.FontWeight.BOLD,
                            color=ft.Colors.PRIMARY,
                        )
                    ),
                )
            )
    if f.kind == "game" and f.bid is not None:
        cards.append(_defence(shell, f, redraw))
    if f.defence_complete and (f.contra_levels() != [0] or f.contra_level):
        cards.append(_contra(shell, f, redraw))
    if f.trick_seats():
        cards.append(tricks_card(shell, f, redraw, title=shell.t(N_("Tricks when play stopped"))))
    return entry_frame(shell, f, cards, bula_entry)


def _bids(shell: Shell, f: BulaForm, redraw: Redraw) -> ft.Control:
    legal = f.bids()
    rows: list[ft.Control] = []
    for hand, ident, heading in (
        (False, "bid-{b}", N_("With the talon")),
        (True, "bid-{b}-igra", N_("By hand (igra)")),
    ):
        bids = [b for b, h in legal if h is hand]
        if not bids:
            continue
        rows.append(ft.Text(shell.t(heading), size=13, color=ft.Colors.ON_SURFACE_VARIANT))
        rows.append(
            ft.Row(
                [
                    sem(
                        ident.format(b=b),
                        choice(
                            f.bid == b and f.hand is hand,
                            shell.render(bid_name(b, False)),
                            redraw(lambda b=b, hand=hand: f.choose_bid(b, hand)),
                            width=TAP,  # six in a row on a phone
                        ),
                    )
                    for b in bids
                ],
                wrap=True,
                spacing=4,
                run_spacing=4,
            )
        )
    return card(*rows, title=shell.t(N_("Bid")))


def _defence(shell: Shell, f: BulaForm, redraw: Redraw) -> ft.Control:
    names = f.names
    roles = f.defence()
    rows: list[ft.Control] = []
    for s in f.defenders():
        if roles.get(s) == "invited":
            rows.append(
                sem(
                    f"invited-{s}",
                    ft.Text(shell.t(N_("{player}: called in (invited)"), player=names[s])),
                )
            )
            continue
        rows.append(said(shell, s, names[s], f.calls.get(s)))
        rows.append(
            ft.Row(
                [
                    sem(
                        f"call-{s}-{c}",
                        choice(
                            f.calls.get(s) == c,
                            shell.t(CALL_LABELS[c]),
                            redraw(lambda s=s, c=c: f.say(s, c)),
                        ),
                    )
                    for c in f.call_options(s)
                ],
                wrap=True,
            )
        )
    return card(*rows, title=shell.t(N_("Defence")))


def said(shell: Shell, seat: int, name: str, call: str | None) -> ft.Control:
    """A defender's name, and his call once it is chosen."""
    text = (
        name
        if call is None
        else shell.t(N_("{player}: {call}"), player=name, call=shell.t(CALLS_SAID[call]))
    )
    return sem(f"defender-{seat}", ft.Text(text, weight=ft.FontWeight.W_500))


def _contra(shell: Shell, f: BulaForm, redraw: Redraw) -> ft.Control:
    chosen = ""
    if f.contra_level is not None:
        chosen = shell.render(contra_name(f.contra_level))
        if f.contra_level and f.contra_by is not None:
            chosen = shell.t(N_("{contra} ({by})"), contra=chosen, by=f.names[f.contra_by])
    rows: list[ft.Control] = [
        sem("contra-said", ft.Text(chosen, weight=ft.FontWeight.W_500)),
        ft.Row(
            [
                sem(
                    f"contra-{lv}",
                    choice(
                        f.contra_level == lv,
                        shell.render(contra_name(lv)),
                        redraw(lambda lv=lv: f.choose_contra(lv)),
                    ),
                )
                for lv in f.contra_levels()
            ],
            wrap=True,
            spacing=6,
            run_spacing=6,
        ),
    ]
    if 0 not in f.contra_levels() and "pik_no_contra" in f.kinds():
        # pik with the talon is played only under contra (D9): without one it is another deal
        declarer = f.declarer

        def to_pik_no_contra() -> None:
            f.choose_kind("pik_no_contra")
            if declarer is not None and declarer in f.declarers():
                f.choose_declarer(declarer)

        rows.append(
            ft.Text(
                shell.t(
                    N_("Without a contra this pik is not played: write it as pik without contra.")
                ),
                size=13,
            )
        )
        rows.append(
            sem(
                "to-pik-no-contra",
                quiet(shell.t(KIND_LABELS["pik_no_contra"]), redraw(to_pik_no_contra)),
            )
        )
    sayers = f.contra_sayers()
    if f.contra_level and sayers:
        rows.append(
            ft.Text(shell.t(N_("Kontra said by")), size=13, color=ft.Colors.ON_SURFACE_VARIANT)
        )
        level = f.contra_level
        rows.append(
            seat_row(
                f.names,
                sayers,
                f.contra_by,
                "contra-by",
                lambda s: redraw(lambda: f.choose_contra(level, s)),
            )
        )
    return card(*rows, title=shell.t(N_("Contra")))


# --- the bula sheet ------------------------------------------------------------------------------


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


def headers(labels: list[tuple[str, float]], size: float) -> ft.Control:
    return ft.Row(
        [
            ft.Text(
                text,
                width=w,
                size=size,
                text_align=ft.TextAlign.CENTER,
                color=ft.Colors.ON_SURFACE_VARIANT,
                no_wrap=True,
                overflow=ft.TextOverflow.ELLIPSIS,
            )
            for text, w in labels
        ],
        spacing=0,
    )


def bula_sheet(shell: Shell) -> ft.Control:
    stored = family_stored(shell)
    scored: FamilyScored = stored.scored
    table = scored.table
    assert isinstance(table, BulaTable)
    settings = scored.settings
    assert isinstance(settings, BulaSettings)
    names = list(scored.session.players)
    n = len(names)
    short = short_names(names)
    width = group_width(sheet_width(shell), n)
    size = 13 if width < 140 else 15
    groups: list[ft.Control] = []
    pot_form = settings.scoring == "pot"
    if pot_form:
        lines = rows_of(*(running(scored, Account("cash", p), -settings.ante) for p in range(n)))
    else:
        lines = rows_of(
            *(running(scored, Account("bula", p), settings.start_bula) for p in range(n)),
            *(running(scored, Account("supe", p, q)) for p in range(n) for q in range(n) if p != q),
        )
    for p in range(n):
        got, used = refe_marks(scored, p)
        marks: list[ft.Control | None] = [triangles(got, used), hats(table.hats[p])]
        if pot_form:
            cash = running(scored, Account("cash", p), -settings.ante)
            cols = [
                column(
                    f"cash-{p}",
                    cash,
                    width=width - 2,
                    size=size,
                    bold=True,
                    lines=lines,
                    line=line_height(size),
                    label=shell.t(N_("{player}: cash"), player=names[p]),
                    on_tap=opener(shell, shell.t(N_("{player}: cash"), player=names[p]), cash),
                )
            ]
            head = headers([(shell.t(N_("cash")), width - 2)], 12)
        else:
            left, right = (p - 1) % n, (p + 1) % n
            side = (width - 2) * 0.31
            middle = (width - 2) - 2 * side
            on_left = running(scored, Account("supe", p, left))
            bula = running(scored, Account("bula", p), settings.start_bula)
            on_right = running(scored, Account("supe", p, right))

            def supe_title(q: int, p: int = p) -> str:
                return shell.t(N_("{player}: supe on {other}"), player=names[p], other=names[q])

            cols = [
                column(
                    f"supe-{p}-{left}",
                    on_left,
                    width=side,
                    size=size - 1,
                    lines=lines,
                    line=line_height(size),
                    label=supe_title(left),
                    on_tap=opener(shell, supe_title(left), on_left),
                ),
                column(
                    f"bula-{p}",
                    bula,
                    width=middle,
                    size=size,
                    bold=True,
                    ruled=True,
                    lines=lines,
                    line=line_height(size),
                    label=shell.t(N_("{player}: bula"), player=names[p]),
                    on_tap=opener(shell, shell.t(N_("{player}: bula"), player=names[p]), bula),
                ),
                column(
                    f"supe-{p}-{right}",
                    on_right,
                    width=side,
                    size=size - 1,
                    lines=lines,
                    line=line_height(size),
                    label=supe_title(right),
                    on_tap=opener(shell, supe_title(right), on_right),
                ),
            ]
            head = headers(
                [
                    (shell.t(N_("→{player}"), player=short[left]), side),
                    (shell.t(N_("bula")), middle),
                    (shell.t(N_("→{player}"), player=short[right]), side),
                ],
                12,
            )
        groups.append(
            sem(
                f"sheet-player-{p}",
                player_group(
                    shell,
                    p,
                    names[p],
                    marks,
                    [
                        ft.Column(
                            [
                                head,
                                ft.Row(
                                    cols, spacing=0, vertical_alignment=ft.CrossAxisAlignment.START
                                ),
                            ]
                        )
                    ],
                    None,
                    width,
                ),
            )
        )
    status: list[ft.Control] = []
    if pot_form:
        pot = running(scored, Account("pot"), settings.ante * n)
        status.append(
            sem(
                "sheet-pot",
                ft.Container(
                    ft.Text(
                        shell.t(N_("Pot: {amount}"), amount=figure(table.ledger.get("pot"))),
                        size=16,
                        weight=ft.FontWeight.BOLD,
                    ),
                    on_click=lambda _e: show_entries(shell, shell.t(N_("Pot")), pot),
                    ink=True,
                    padding=ft.Padding.symmetric(vertical=6),
                ),
            )
        )
    elif scored.finished:
        status.append(
            sem("sheet-left", ft.Text(shell.t(N_("The bulas sum to zero: the game is over."))))
        )
    else:
        status.append(
            sem(
                "sheet-left",
                ft.Text(
                    shell.t(N_("Left to close: {left}"), left=figure(table.left)),
                    size=16,
                    weight=ft.FontWeight.BOLD,
                ),
            )
        )
    if table.refe_rounds:
        status.append(
            sem(
                "sheet-refe",
                ft.Text(
                    shell.t(
                        N_(
                            "Refe rounds: {n}. A triangle is a refe; crossed when used (green: made)."
                        ),
                        n=table.refe_rounds,
                    ),
                    size=12,
                ),
            )
        )
    if not pot_form:
        status.append(
            ft.Text(
                shell.t(
                    N_(
                        "A column headed →X holds the supe written on player X; the bula is in the middle."
                    )
                ),
                size=12,
            )
        )
    status.append(ft.Text(shell.t(N_("Tap a column to see every entry in it.")), size=12))
    return ft.Column(
        [
            ft.Row(
                groups,
                spacing=4,
                vertical_alignment=ft.CrossAxisAlignment.START,
            ),
            *status,
        ],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        spacing=10,
    )


register_family(
    "bula",
    ui=FamilyUI(
        new_form=bula_form.new_form,
        edit_form=bula_form.edit_form,
        carry=bula_form.carry,
        entry=bula_entry,
        sheet=bula_sheet,
        title=bula_form.title,
    ),
)

__all__ = ["bula_entry", "bula_sheet"]
