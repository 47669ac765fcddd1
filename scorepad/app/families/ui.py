"""The ledger families in the app (bula, kassa, pot, direct): what each family gives the shell.

The shell and the shared screens (history, cash-out, chart) know a family only through this
table.  A family's module (``bula_ui``, ``kassa_ui``, ``pot_ui``) registers its deal form and its
sheet here when ``screens.py`` imports it; the pulya's own screens are not in this table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...i18n import Msg

if TYPE_CHECKING:
    from ...store import FamilyStored
    from ..frame.nav import Screen


@dataclass(frozen=True, slots=True)
class FamilyUI:
    """A family's part of the app.

    ``new_form(stored)``: the entry form for the next deal.  ``edit_form(stored, index)``: a form
    holding live deal ``index`` as written, in its context (the deals before it).
    ``carry(old, stored)``: the player's choices rebased on a newer state, where they still make
    sense (after a write refused as stale).  ``entry`` and ``sheet`` draw the screens (the form is
    ``shell.form``).  ``title(deal, players)``: one line naming a written deal (the history).
    """

    new_form: Callable[[FamilyStored], Any]
    edit_form: Callable[[FamilyStored, int], Any]
    carry: Callable[[Any, FamilyStored], Any]
    entry: Screen
    sheet: Screen
    title: Callable[[Any, Sequence[str]], Msg]
    #: Whether the player has chosen anything yet (an untouched form follows live updates).
    dirty: Callable[[Any], bool] = lambda form: True


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
