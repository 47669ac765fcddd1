"""Every family in the app, the pulya included: what each family gives the shell.

The shell and the shared screens (history, cash-out, chart) know a family only through this
table.  Each family's package (``app/pulya``, ``app/bula``, ``app/kassa``, ``app/pot``) registers
its deal form and its screens here in its ``__init__``, which ``screens.py`` imports; the frame
imports no family.  The navigation's Deal and Sheet are :func:`entry_screen` and
:func:`sheet_screen` below, which draw the open session's family's own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ...core.i18n import Msg, catalog

if TYPE_CHECKING:
    import flet as ft

    from ...store import AnyDeal, AnyStored
    from .nav import Screen
    from .shell import Shell


class TricksRefused(ValueError):
    """A count of tricks a seat cannot take now; ``why`` says why in the player's words (every
    family's form refuses a tap so, and the entry shows why beside Write)."""

    def __init__(self, why: Msg) -> None:
        super().__init__(catalog("en").render(why))
        self.why = why


class EntryForm(Protocol):
    """A deal entry's widget-free form, whichever the family: what the frame asks of it (the
    write button asks the preview, then writes the typed deal)."""

    def preview(self, lang: str = ...) -> tuple[list[str], str | None]:
        """The deal in words, and what is still missing before it can be written (or None)."""
        ...

    def deal(self) -> AnyDeal:
        """The deal as its family's typed model (the store takes no dict)."""
        ...


def _fresh(old: EntryForm, fresh: EntryForm) -> EntryForm:
    return fresh


@dataclass(frozen=True, slots=True)
class FamilyUI:
    """A family's part of the app.

    ``new_form(stored)``: the entry form for the next deal.  ``edit_form(stored, index)``: a form
    holding live deal ``index`` as written, in its context (the deals before it).
    ``carry(old, stored)``: the player's choices rebased on a newer state, where they still make
    sense (after a write refused as stale); ``carry_edit(old, fresh)`` the same for an edit
    (by default it starts again from the deal as written).  ``entry`` and ``sheet`` draw the
    screens (the form is ``shell.form``).  ``title(deal, players)``: one line naming a written
    deal (the history); ``explained(stored)``: each live deal's index and its sentences.
    ``forms``: the classes of its forms (a form of another family is replaced on the Deal
    screen).
    """

    new_form: Callable[[AnyStored], EntryForm]
    edit_form: Callable[[AnyStored, int], EntryForm]
    carry: Callable[[EntryForm, AnyStored], EntryForm]
    entry: Screen
    sheet: Screen
    title: Callable[[AnyDeal, Sequence[str]], Msg]
    explained: Callable[[AnyStored], list[tuple[int, list[Msg]]]]
    forms: tuple[type, ...]
    #: Whether the player has chosen anything yet (an untouched form follows live updates).
    dirty: Callable[[EntryForm], bool] = lambda form: True
    carry_edit: Callable[[EntryForm, EntryForm], EntryForm] = _fresh


_UI: dict[str, FamilyUI] = {}


def register_family(*families: str, ui: FamilyUI) -> None:
    for family in families:
        _UI[family] = ui


def ui_of(family: str) -> FamilyUI:
    """The family's part; a family nobody registered is a programming error (KeyError)."""
    return _UI[family]


def registered() -> frozenset[str]:
    return frozenset(_UI)


def destination(screen: object) -> str | None:
    """``entry`` or ``sheet`` when ``screen`` is a family's own: the shell shows it through the
    navigation's screen of that name, which picks the open session's family."""
    for ui in _UI.values():
        if screen is ui.entry:
            return "entry"
        if screen is ui.sheet:
            return "sheet"
    return None


def entry_screen(shell: Shell) -> ft.Control:
    """The navigation's Deal: the open session's family's entry, on a form of that family."""
    ui = ui_of(shell.family)
    if shell.form is None or not isinstance(shell.form, ui.forms):
        shell.new_form()
    return ui.entry(shell)


def sheet_screen(shell: Shell) -> ft.Control:
    """The navigation's Sheet: the open session's family's own sheet."""
    return ui_of(shell.family).sheet(shell)
