"""The frame of every deal entry (the pulya's and each family's): its head, the preview in words,
the reason of an edit, and the write button that names the revision the form was built from."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import flet as ft
from pydantic import TypeAdapter, ValidationError

from ...core.i18n import N_, Msg
from ...store import AnyDeal, AnyStored
from ...store.journal import next_number, number_of
from . import live, registry
from .family import EntryForm, TricksRefused, ui_of
from .nav import Screen
from .shell import Shell, message_box
from .state import Conflict
from .theme import COMPACT, TAP, card, choice, primary, quiet, secondary, sem, suit_spans, suited

NAME_WIDTH = 76  # px: a defender's or a seat's name beside his row of the one-screen entry


def deal_head(shell: Shell, number: int, header: str) -> list[ft.Control]:
    """The top of a deal entry: that a deal is being edited (and what that does), and its header."""
    head: list[ft.Control] = []
    if shell.editing:
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
    head.append(sem("deal-header", ft.Text(header, weight=ft.FontWeight.BOLD, size=16)))
    return head


PREVIEW_HEIGHT = 92  # px: four or five lines of a pinned preview; more scroll inside it


def deal_number(shell: Shell) -> int:
    """The number of the deal on the entry: the one being edited, or the next one, as said at the
    table (a voided deal keeps its number, so the next is never a number already said)."""
    journal = shell.stored().journal
    if shell.editing:
        return number_of(journal, shell.editing[0])
    return next_number(journal)


#: A tap's change made into its handler: the change, then the entry drawn again.
Redraw = Callable[[Callable[[], None]], Callable[[], None]]


def redrawer(shell: Shell, screen: Screen) -> Redraw:
    """Handlers that make a tap's change, then draw ``screen`` again; a count the form refuses
    (TricksRefused) says why, beside Write, instead of a greyed button alone."""

    def redraw(change: Callable[[], None]) -> Callable[[], None]:
        def handler() -> None:
            shell.message = None  # the refusal was about the deal as it was
            try:
                change()
            except TricksRefused as exc:
                shell.message = shell.render(exc.why)  # why, not just a greyed button
            shell.show(screen)

        return handler

    return redraw


@dataclass(frozen=True, slots=True)
class WriteParts:
    """What a deal entry puts below its choices: ``preview`` and ``reason`` (an edit's, or None)
    scroll with the cards; ``footer`` (write, and cancel for an edit) stays on screen."""

    preview: ft.Control
    reason: ft.Control | None
    footer: ft.Control


def write_parts(
    shell: Shell,
    form: EntryForm,
    screen: Screen,
    *,
    numbered: bool = False,
    may_add: Callable[[], bool] | None = None,
    pinned: bool = False,
    label: str | None = None,
) -> WriteParts:
    """The preview of ``form`` (``preview(lang) -> (sentences, problem)``) and its write.

    The write names the revision the screen was drawn from (``shell.basis``): a stale one is
    refused by the store and the form rebased.  ``may_add`` may refuse a new deal first (it says
    why itself).  ``numbered``: each preview line carries its own testing id.
    """
    editing = shell.editing
    sentences, problem = form.preview(shell.lang)
    preview = _preview(shell, sentences, problem, numbered=numbered, pinned=pinned)
    if label is None:
        label = shell.t(N_("Write the change")) if editing else shell.t(N_("Write the deal"))
    write = primary(label, None, disabled=problem is not None)
    reason = _edit_reason(shell, write, problem) if editing else None
    # The revision this form was built from: the write names it, so a stale one is refused.
    write.on_click = _Confirm(shell, form, screen, may_add, sentences, write)
    conflict = shell.state.conflict
    if conflict is not None and conflict.sid == shell.sid and not editing:
        return WriteParts(ft.Container(), reason, conflict_panel(shell, conflict, screen))
    footer: list[ft.Control] = [ft.Container(sem("confirm-deal", write), expand=True)]
    if editing:
        footer.append(
            sem("cancel-edit", quiet(shell.t(N_("Cancel")), partial(_cancel, shell, screen)))
        )
    return WriteParts(preview, reason, ft.Row(footer, spacing=8))


def _preview(
    shell: Shell, sentences: list[str], problem: str | None, *, numbered: bool, pinned: bool
) -> ft.Control:
    """The deal in words (or what is missing): pinned above Write, or a card of its own."""
    lines: list[ft.Control] = (
        [
            sem(f"preview-{k}", _line(s, pinned)) if numbered else _line(s, pinned)
            for k, s in enumerate(sentences)
        ]
        if sentences
        else [ft.Text(problem or "", italic=True)]
    )
    if not pinned:
        return sem("preview", card(ft.Column(lines, spacing=4), title=shell.t(N_("Preview"))))
    # A long explanation scrolls inside its box: the box never pushes the choices away.
    many = len(lines) > 4
    return sem(
        "preview",
        ft.Container(
            ft.Column(
                _small(lines),
                spacing=2,
                tight=True,
                scroll=ft.ScrollMode.AUTO if many else None,
            ),
            padding=ft.Padding.symmetric(horizontal=10, vertical=6),
            bgcolor=ft.Colors.SURFACE_CONTAINER,
            border_radius=8,
            height=PREVIEW_HEIGHT if many else None,
        ),
    )


def _edit_reason(shell: Shell, write: ft.Button, problem: str | None) -> ft.Control:
    """The reason of an edit: Write waits for it (and for the deal)."""
    write.disabled = problem is not None or not shell.state.edit_reason.strip()

    def reason_typed(e: ft.Event[ft.TextField]) -> None:
        # Only the button changes while typing: a redraw would take the focus away.
        value = e.control.value  # whatever the client sent: only text is a reason
        shell.state.edit_reason = value if isinstance(value, str) else ""
        write.disabled = problem is not None or not shell.state.edit_reason.strip()

    return card(
        sem(
            "edit-reason",
            ft.TextField(
                label=shell.t(N_("Reason for the change")),
                value=shell.state.edit_reason,
                on_change=reason_typed,
            ),
        )
    )


def _cancel(shell: Shell, screen: Screen) -> None:
    shell.new_form()
    shell.message = None
    shell.show(screen)


class _Confirm:
    """A tap on Write: the form's deal written through the table session, on the revision and
    the edit the screen was drawn with (a stale one is refused by the store, and the form
    rebased); a second tap on the same frame writes nothing.

    A plain class, not a dataclass: Flet walks every dataclass a control holds as a part of
    the page (frame/flet_diff.py), an event handler too."""

    def __init__(
        self,
        shell: Shell,
        form: EntryForm,
        screen: Screen,
        may_add: Callable[[], bool] | None,
        sentences: list[str],
        write: ft.Control,
    ) -> None:
        self.shell, self.form, self.screen, self.may_add = shell, form, screen, may_add
        self.sentences, self.write = sentences, write
        self.basis, self.sid, self.editing = shell.basis, shell.sid, shell.editing
        self.written = False

    def __call__(self) -> None:
        shell, screen, basis, sid = self.shell, self.screen, self.basis, self.sid
        assert basis is not None and sid is not None
        if self.written:
            return
        # Write is disabled while something is missing, but a disabled button is the client's
        # business: a tap (a forged one, or one racing the redraw) still reaches this handler.
        # The form is asked again here, so a count nobody chose is never written.
        _, missing = self.form.preview(shell.lang)
        if missing is not None:
            shell.message = missing
            shell.show(screen)
            return
        deal = self.form.deal()  # the model: the store takes a typed deal
        # A club table writes through its night (who wrote it, a correction's reason).
        via = registry.writer(shell, sid)
        if self.editing:
            deal_id, why = self.editing[0], shell.state.edit_reason
            if shell.told(
                shell.session.edit(deal_id, deal, reason=why, seen=basis, via=via), seen=basis
            ):
                shell.go("history")
                return
            shell.show(screen)
            return
        if self.may_add is not None and not self.may_add():
            shell.show(screen)
            return
        if shell.told(shell.session.add(deal, seen=basis, via=via), seen=basis):
            self.written = True
            shell.new_form()  # a tap left on the written form's screen changes nothing of it
            if _fresh_later(shell, screen, self.write):
                return
        elif shell.basis != basis:  # refused as stale: was it this very deal?
            shell.state.conflict = conflict_of(shell, basis, deal, self.sentences)
            if shell.state.conflict is not None:
                shell.message = None  # the panel says it, beside the entry
        shell.show(screen)


def _fresh_later(shell: Shell, screen: Screen, write: ft.Control) -> bool:
    """After a new deal is written on a shared table: the other phones first (live.after_others),
    then this page's fresh form, unless the player has drawn another screen meanwhile (a tap
    on the written form's screen draws the fresh form itself).  Meanwhile the written form's
    Write is shown disabled.  Says whether the fresh form waits."""
    frame = shell.frame

    def draw() -> None:
        if shell.frame == frame:
            shell.show(screen)

    if not live.after_others(shell, draw):
        return False
    write.disabled = True
    with contextlib.suppress(RuntimeError):  # not on a page any more: nothing to show
        write.update()
    return True


def _line(text: str, pinned: bool) -> ft.Text:
    """A preview sentence; the pulya's pinned preview keeps the red suits red."""
    return suited(text) if pinned else ft.Text(text)


def _small(lines: list[ft.Control]) -> list[ft.Control]:
    for line in lines:
        text = line.content if isinstance(line, ft.Semantics) else line
        if isinstance(text, ft.Text):
            text.size = 13
    return lines


def pinned_footer(parts: WriteParts, told: str | None = None) -> ft.Control:
    """The preview pinned just above the write button: what it writes is read where it is tapped.

    ``told``: a refusal, shown there in the preview's place (the player looks there, and the
    screen keeps its room for the choices); the preview is back with the next tap."""
    top = message_box(told, padding=8) if told else parts.preview
    return ft.Column(
        [top, parts.footer],
        spacing=6,
        tight=True,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )


def conflict_of(shell: Shell, seen: int, mine: AnyDeal, sentences: list[str]) -> Conflict | None:
    """The deal another device added after revision ``seen`` (the first), beside ``mine``."""
    assert shell.sid is not None
    stored = shell.stored()
    added = [a for a in shell.session.history(stored.id) if a.seq > seen and a.kind == "add"]
    entries = stored.journal.entries
    written = [entries[a.seq] for a in added if a.seq in entries and not entries[a.seq].voided]
    if not written:
        return None
    entry = written[0]
    return Conflict(
        sid=stored.id,
        number=number_of(stored.journal, entry.deal_id),
        theirs=tuple(shell.render(m) for m in deal_words(stored, entry.deal_id)),
        mine=tuple(sentences),
        same=same_deal(mine, entry.deal),
    )


def deal_words(stored: AnyStored, deal_id: int) -> list[Msg]:
    """A written deal in words: its title, then its explanation (the history's lines)."""
    live = [e.deal_id for e in stored.journal.live]
    index = live.index(deal_id)
    deal = stored.journal.live[index].deal
    ui = ui_of(stored.family)
    _, said = ui.explained(stored)[index]  # the live deals in order, as the history lists them
    return [ui.title(deal, list(stored.session.players)), *said]


def same_deal(mine: AnyDeal, theirs: AnyDeal) -> bool:
    """Whether the entry ``mine`` (the form's typed deal) is the deal ``theirs`` as written."""
    try:
        return bool(TypeAdapter(type(theirs)).validate_python(mine) == theirs)
    except ValidationError:
        return False


def conflict_panel(shell: Shell, conflict: Conflict, screen: Screen) -> ft.Control:
    """What was written, what this page holds, and the two ways on: the same deal is discarded
    by the main button; writing it again as the next deal is a choice of its own."""

    def discard() -> None:
        shell.state.conflict = None
        shell.message = None
        shell.new_form()
        shell.show(screen)

    def write_next() -> None:
        shell.state.conflict = None  # the entry, rebased on the new deal, waits for its write
        shell.message = shell.t(N_("Your entry is now the next deal: check it and write it."))
        shell.show(screen)

    def lines(ident: str, title: str, words: tuple[str, ...]) -> ft.Control:
        return sem(
            ident,
            ft.Column(
                [
                    ft.Text(title, weight=ft.FontWeight.BOLD, size=13),
                    *(ft.Text(w, size=13) for w in words),
                ],
                spacing=2,
                tight=True,
            ),
        )

    verdict = (
        N_("Your entry is the same deal: it is written once.")
        if conflict.same
        else N_("The two differ: check at the table which is right.")
    )
    discard_label = shell.t(N_("Discard my entry"))
    again = shell.t(N_("Write mine as deal {n}"), n=conflict.number + 1)
    main, other = (primary, quiet) if conflict.same else (secondary, secondary)
    buttons = [
        sem("conflict-discard", main(discard_label, discard)),
        sem("conflict-write-next", other(again, write_next)),
    ]
    body: list[ft.Control] = [
        lines(
            "conflict-theirs",
            shell.t(N_("Deal {n} was written on another device first:"), n=conflict.number),
            conflict.theirs,
        )
    ]
    if not conflict.same:  # the same words twice would only push the buttons away
        body.append(lines("conflict-mine", shell.t(N_("Your entry:")), conflict.mine))
    body.append(sem("conflict-verdict", ft.Text(shell.t(verdict), italic=True, size=13)))
    body.append(ft.Column(buttons, spacing=4, horizontal_alignment=ft.CrossAxisAlignment.STRETCH))
    return sem(
        "conflict",
        ft.Container(
            ft.Column(
                body,
                spacing=6,
                tight=True,
                horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
            ),
            padding=10,
            border_radius=8,
            bgcolor=ft.Colors.TERTIARY_CONTAINER,
        ),
    )


ENTRY_WIDTH = 560  # px: an entry on a laptop keeps a phone's proportions


def entry_screen_of(
    shell: Shell, rows: list[ft.Control], parts: WriteParts, told: str | None
) -> ft.Control:
    """A deal entry's screen, every family's: its rows scrolling, a refusal of an edit's reason
    below them, the preview and Write pinned under them; centred at a phone's width on a laptop."""
    if parts.reason is not None:
        rows.append(parts.reason)
    column = entry_column(rows, pinned_footer(parts, told), spacing=6)
    if shell.wide:
        return ft.Row(
            [ft.Container(column, width=ENTRY_WIDTH)],
            alignment=ft.MainAxisAlignment.CENTER,
            vertical_alignment=ft.CrossAxisAlignment.STRETCH,
            expand=True,
        )
    return column


def entry_column(cards: list[ft.Control], footer: ft.Control, *, spacing: float = 8) -> ft.Control:
    """The cards scrolling, the write button below them: always on screen, however long the deal."""
    return ft.Column(
        [
            ft.Column(
                cards,
                scroll=ft.ScrollMode.AUTO,
                expand=True,
                spacing=spacing,
                horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
            ),
            footer,
        ],
        expand=True,
        spacing=8,
    )


def trick_buttons(
    seat: int,
    counts: range,
    *,
    chosen: int | None,
    allowed: set[int],
    pick: Callable[[int], Callable[[], None]],
    compact: bool = False,
) -> ft.Control:
    """One tap a seat: a button for each count of tricks, the ones the engine refuses disabled.

    ``compact``: the 0–10 counts share one row's width (a phone holds eleven), and a count that
    cannot be chosen is greyed but still answers a tap, with why (``pick`` says it)."""
    if compact:
        return ft.Row(
            [
                ft.Container(
                    sem(f"tricks-{seat}-{n}", _count(n, chosen == n, n in allowed, pick(n))),
                    expand=True,
                )
                for n in counts
            ],
            spacing=2,
        )
    return ft.Row(
        [
            sem(
                f"tricks-{seat}-{n}",
                choice(chosen == n, str(n), pick(n), width=TAP, disabled=n not in allowed),
            )
            for n in counts
        ],
        wrap=True,
        spacing=4,
        run_spacing=4,
    )


def _count(n: int, chosen: bool, allowed: bool, on_click: Callable[[], None]) -> ft.Control:
    colour = None if allowed or chosen else ft.Colors.with_opacity(0.38, ft.Colors.ON_SURFACE)
    style = ft.ButtonStyle(padding=ft.Padding.all(0), shape=ft.RoundedRectangleBorder(radius=8))
    text = ft.Text(
        str(n), color=colour, no_wrap=True, weight=ft.FontWeight.BOLD if chosen else None
    )
    kind = ft.FilledButton if chosen else ft.OutlinedButton
    return kind(content=text, on_click=on_click, height=COMPACT, style=style)


def cell(
    ident: str,
    selected: bool,
    text: str,
    on_click: Callable[[], None] | None,
    *,
    disabled: bool = False,
    fitted: bool = False,
) -> ft.Control:
    """One button of a row that shares the width with its neighbours (``COMPACT`` px tall).

    ``fitted``: its share of the row follows its label's length, so a long word beside short
    ones ("приглашает" beside "пас") is read whole, not cut."""
    return ft.Container(
        sem(ident, label_button(selected, text, on_click, disabled=disabled)),
        expand=max(len(text), 4) if fitted else True,
    )


def label_button(
    selected: bool, text: str, on_click: Callable[[], None] | None, *, disabled: bool = False
) -> ft.Control:
    """A choice whose label keeps the suits' colours (the chosen one filled)."""
    label = ft.Text(
        spans=suit_spans(text),
        no_wrap=True,
        overflow=ft.TextOverflow.ELLIPSIS,
        weight=ft.FontWeight.BOLD if selected else None,
    )
    style = ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=4))
    kind = ft.FilledTonalButton if selected else ft.OutlinedButton
    return kind(
        content=label,
        on_click=on_click,
        height=COMPACT,
        disabled=disabled,
        style=style,
    )


def cell_row(cells: list[ft.Control]) -> ft.Control:
    """Cells sharing one row's width."""
    return ft.Row(cells, spacing=4)


def folded(shell: Shell, text: str, reopen: Callable[[], None]) -> ft.Control:
    """A choice made, folded into one row (``Vera: 6♦``), a tap away from its grid again."""
    return ft.Row(
        [
            cell("contract-chosen", True, text, reopen),
            sem(
                "contract-change",
                ft.TextButton(shell.t(N_("Change")), on_click=reopen, height=COMPACT),
            ),
        ],
        spacing=4,
    )
