"""History: every deal with its explanation; void with a reason; undo and redo."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import flet as ft

from ...core.i18n import N_, Msg
from ...store import AnyStored, describe_action
from ...store.journal import Action, deal_numbers, number_of
from ..dispute.start import open_for_deal
from ..frame import live
from ..frame.dialog import ask_first
from ..frame.family import ui_of
from ..frame.nav import nav, screen
from ..frame.registry import writer
from ..frame.shell import Shell, sem
from ..session import DealWrites
from .analysis import open_analysis

# Deals shown (and their sentences rendered) at a time, newest first: an evening may be long.
PAGE = 50


def history_screen(shell: Shell) -> ft.Control:
    stored = shell.stored()
    shell.basis = stored.revision  # undo, redo and void name the revision drawn here
    journal = stored.journal
    # Every entry, a voided one too (struck through, restorable); the live ones have a result.
    shown = shell.state.history_shown.get(stored.id, PAGE)
    first = max(0, len(journal.entries) - shown)

    def earlier() -> None:
        shell.state.history_shown[stored.id] = shown + PAGE
        shell.show(history_screen)

    writes = _Writes(shell, stored, writer(shell, stored.id))
    # A live redraw keeps each card drawn for the same words (Shell.reuse: Flet skips it whole);
    # its buttons act through ``acts``, which every draw points at its own ``stored``.
    acts: dict[str, Callable[..., Any]] = shell.reuse("history-acts", stored.id, dict)
    acts.update(
        edit=writes.edit,
        void=writes.ask_void,
        check=lambda d, i: open_for_deal(shell, d, i),
        restore=writes.ask_restore,
    )
    may_write = shell.access.may_write  # a viewer's page has no write controls
    items = _cards(shell, stored, acts, first, may_write)
    if not items:
        items.append(ft.Text(shell.t(N_("No deals yet."))))
    older: list[ft.Control] = []
    if first:
        older.append(
            sem("history-earlier", ft.TextButton(shell.t(N_("Earlier deals")), on_click=earlier))
        )
    return ft.Column(
        [
            shell.reuse("history-nav", None, lambda: nav(shell, "nav-history")),
            _undo_redo(shell, stored, writes, may_write),
            *(
                []
                if not stored.engine.cards  # the card-play engine knows the pulya's deals only
                else [
                    shell.reuse(
                        "history-analyse",
                        shell.lang,
                        lambda: sem(
                            "analyse-deal",
                            ft.TextButton(
                                shell.t(N_("Analyse a deal…")),
                                on_click=lambda: open_analysis(shell),
                            ),
                        ),
                    )
                ]
            ),
            *reversed(items),
            *older,
        ],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        spacing=8,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )


@dataclass(frozen=True, slots=True)
class _Writes:
    """What the history writes, each naming the revision drawn (``stored``).  A club table
    writes them through its night (``table``, app/club/tables.py): a player's is provisional
    until another player confirms it, and refused once the tour has ended."""

    shell: Shell
    stored: AnyStored
    table: DealWrites | None

    def apply(self, write: Callable[[], object], seen: int) -> None:
        """Write (``write``: the session's, naming the revision ``seen``); then the history is
        drawn again as a live redraw is (diffed): the cards that did not change are kept, as
        another phone keeps them for this write."""
        self.shell.told(write(), seen=seen)
        self.shell.show(history_screen, diffed=True)

    # Undo and redo name the revision of the screen the player tapped on (``seen``), which a
    # live redraw keeps under the finger (live.guarded); never one read at tap time.
    def undo_at(self, seen: int) -> None:
        self.apply(lambda: self.shell.session.undo(seen=seen, via=self.table), seen)

    def redo_at(self, seen: int) -> None:
        self.apply(lambda: self.shell.session.redo(seen=seen, via=self.table), seen)

    # A void and a restore are asked first: the dialog names the deal, and its confirmation
    # names the revision it was opened on (a write meanwhile is refused with what changed).
    # Their cards then stay the same from one write to the next (Shell.reuse), where a one-tap
    # button would be a new guarded control on every revision for every page to build and send.
    def ask_void(self, deal_id: int, index: int) -> None:
        shell, seen = self.shell, self.stored.revision
        reason = ft.TextField(label=shell.t(N_("Reason")), autofocus=True)
        ask_first(
            shell,
            shell.t(N_("Void deal {n}?"), n=number_of(self.stored.journal, deal_id)),
            sem("void-reason", reason),
            "confirm-void",
            shell.t(N_("Void")),
            lambda: self.apply(
                lambda: shell.session.void(
                    deal_id, reason=reason.value or "", seen=seen, via=self.table
                ),
                seen,
            ),
        )

    def ask_restore(self, deal_id: int, title: str, reason: str) -> None:
        shell, seen = self.shell, self.stored.revision
        ask_first(
            shell,
            shell.t(N_("Restore deal {n}?"), n=number_of(self.stored.journal, deal_id)),
            sem(
                "restore-what",
                ft.Column([ft.Text(title), ft.Text(reason, italic=True)], tight=True),
            ),
            "confirm-restore",
            shell.t(N_("Restore")),
            lambda: self.apply(
                lambda: shell.session.restore(deal_id, seen=seen, via=self.table), seen
            ),
        )

    def edit(self, deal_id: int, index: int) -> None:
        self.shell.edit_form(deal_id, index, stored=self.stored)  # the deal as the player saw it
        self.shell.show(screen("entry"))


def _cards(
    shell: Shell,
    stored: AnyStored,
    acts: dict[str, Callable[..., Any]],
    first: int,
    may_write: bool,
) -> list[ft.Control]:
    """A card each entry shown, from ``first``: kept from the last draw when its words are."""
    items: list[ft.Control] = []
    for words in _words(shell, stored, first):
        drawn_for = (*words[1:], may_write)
        if words[0] == "voided":
            items.append(
                shell.reuse(
                    f"history-voided-{words[1]}",
                    drawn_for,
                    lambda w=drawn_for: _voided_card(shell, acts, *w),
                )
            )
            continue
        items.append(
            shell.reuse(
                f"history-deal-{words[1]}",
                drawn_for,
                lambda w=drawn_for: _deal_card(shell, acts, *w),
            )
        )
    return items


def _undo_redo(shell: Shell, stored: AnyStored, writes: _Writes, may_write: bool) -> ft.Control:
    """Undo and redo, each naming the revision drawn (none on a viewer's page)."""
    journal = stored.journal
    return ft.Row(
        []
        if not may_write
        else [
            *live.guarded(
                shell,
                "undo",
                stored.revision,
                lambda seen: ft.OutlinedButton(
                    shell.t(N_("Undo")),
                    on_click=lambda: writes.undo_at(seen),
                    disabled=not journal.can_undo(),
                ),
            ),
            *live.guarded(
                shell,
                "redo",
                stored.revision,
                lambda seen: ft.OutlinedButton(
                    shell.t(N_("Redo")),
                    on_click=lambda: writes.redo_at(seen),
                    disabled=not journal.can_redo(),
                ),
            ),
        ]
    )


# The words of a session's history at one revision in one language, shared by every page that
# shows it: on a write, the pages of the session draw it once, not once a page.  Keyed by the
# session; the journal (the store's, one object a revision) and the revision tell it is current.
_WORDS: dict[tuple[int, str, int], tuple[Any, int, list[tuple[Any, ...]]]] = {}
_WORDS_KEPT = 256


def _words(shell: Shell, stored: AnyStored, first: int) -> list[tuple[Any, ...]]:
    """Each entry shown, from ``first``: ``("voided", deal id, title, reason)`` or ``("live",
    deal id, number, index, title, lines, revisions, editable, checkable)``."""
    key = (stored.id, shell.lang, first)
    journal = stored.journal
    cached = _WORDS.get(key)
    if cached is not None and cached[0] is journal and cached[1] == stored.revision:
        return cached[2]
    results = dict(zip((e.deal_id for e in journal.live), _explained(stored), strict=True))
    names = list(stored.session.players)
    numbers = deal_numbers(journal_actions(shell, stored.id))
    out: list[tuple[Any, ...]] = []
    for entry in list(journal.entries.values())[first:]:
        title = shell.render(_title(stored, entry.deal, names))
        number = number_of(journal, entry.deal_id)  # as said at the table: a void keeps it
        heading = shell.t(N_("Deal {n} · {title}"), n=number, title=title)
        if entry.voided:
            void = entry.revisions[-1]
            reason = shell.render(describe_action(void, numbers.get(void.seq)))
            out.append(("voided", entry.deal_id, heading, reason))
            continue
        index, explain = results[entry.deal_id]
        revisions = [
            shell.render(describe_action(a, numbers.get(a.seq))) for a in entry.revisions[1:]
        ]
        out.append(
            (
                "live",
                entry.deal_id,
                number,
                index,
                heading,
                tuple(shell.render(m) for m in explain),
                "; ".join(revisions),
                entry.deal.type != "correction",
                stored.engine.cards,
            )
        )
    if len(_WORDS) >= _WORDS_KEPT:
        _WORDS.clear()
    _WORDS[key] = (journal, stored.revision, out)
    return out


def _voided_card(
    shell: Shell,
    acts: dict[str, Callable[..., Any]],
    deal_id: int,
    title: str,
    reason: str,
    may_write: bool,
) -> ft.Control:
    """A voided deal's card, struck through, with its Restore for a page that may write."""
    lines = _voided_lines(deal_id, title, reason)
    if may_write:
        lines.append(
            sem(
                f"restore-{deal_id}",
                ft.TextButton(
                    shell.t(N_("Restore…")),
                    icon=ft.Icons.RESTORE,
                    on_click=lambda e: acts["restore"](deal_id, title, reason),
                ),
            )
        )
    return _keyed(f"voided-{deal_id}", _card(lines, voided=True))


def _voided_lines(deal_id: int, title: str, reason: str) -> list[ft.Control]:
    return [
        sem(
            f"voided-title-{deal_id}",
            ft.Text(
                title,
                weight=ft.FontWeight.BOLD,
                style=ft.TextStyle(decoration=ft.TextDecoration.LINE_THROUGH),
                color=ft.Colors.ON_SURFACE_VARIANT,
            ),
        ),
        sem(f"voided-reason-{deal_id}", ft.Text(reason, italic=True)),
    ]


def _deal_card(
    shell: Shell,
    acts: dict[str, Callable[..., Any]],
    deal_id: int,
    number: int,
    index: int,
    title: str,
    explain: tuple[str, ...],
    revisions: str,
    editable: bool,
    checkable: bool,
    may_write: bool,
) -> ft.Control:
    """A live deal's card; its buttons act through ``acts`` (the newest draw's handlers)."""
    lines: list[ft.Control] = [
        sem(f"deal-title-{number}", ft.Text(title, weight=ft.FontWeight.BOLD)),
    ]
    if explain:  # one text of its lines: every page at the table builds and is sent each card
        lines.append(sem(f"deal-lines-{number}", ft.Text("\n".join(explain))))
    if revisions:
        lines.append(ft.Text(revisions, italic=True))
    if may_write:  # a viewer's card makes no buttons (each page at the table pays for them)
        buttons = _buttons(shell, acts, deal_id, number, index, editable, checkable)
        lines.append(ft.Row(buttons, wrap=True))
    return _keyed(f"deal-{number}", _card(lines), key=f"deal-{deal_id}")


def _buttons(
    shell: Shell,
    acts: dict[str, Callable[..., Any]],
    deal_id: int,
    number: int,
    index: int,
    editable: bool,
    checkable: bool,
) -> list[ft.Control]:
    """A live deal's Edit, Void and Check, for a page that may write."""
    actions: list[ft.Control] = [
        sem(
            f"void-{number}",
            ft.TextButton(shell.t(N_("Void…")), on_click=lambda e: acts["void"](deal_id, index)),
        )
    ]
    if editable and checkable:
        actions.append(  # the cards of a disputed deal, entered by taps (app/dispute)
            sem(
                f"check-{number}",
                ft.TextButton(
                    shell.t(N_("Check this deal…")),
                    on_click=lambda e: acts["check"](deal_id, index),
                ),
            )
        )
    if editable:
        actions.insert(
            0,
            sem(
                f"edit-{number}",
                ft.TextButton(
                    shell.t(N_("Edit…")), on_click=lambda e: acts["edit"](deal_id, index)
                ),
            ),
        )
    return actions


def _explained(stored: AnyStored) -> list[tuple[int, list[Msg]]]:
    """Each live deal's index and its sentences, in its family's words."""
    return ui_of(stored.family).explained(stored)


def _title(stored: AnyStored, deal: Any, names: list[str]) -> Msg:
    return ui_of(stored.family).title(deal, names)


def journal_actions(shell: Shell, sid: int) -> list[Action]:
    return shell.session.history(sid)


def _keyed(identifier: str, control: ft.Control, *, key: str | None = None) -> ft.Control:
    """A card keyed by its deal: a live redraw moves it instead of drawing every card anew."""
    return ft.Semantics(identifier=identifier, key=key or identifier, content=control)


def _card(lines: list[ft.Control], *, voided: bool = False) -> ft.Control:
    return ft.Container(
        ft.Column(lines, spacing=2),
        padding=8,
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        border_radius=8,
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST if voided else None,
    )
