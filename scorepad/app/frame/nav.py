"""Where the screens are: a registry by name, and the navigation of an open pulka (a bottom bar
on a phone, a rail on a laptop).

No screen imports another: a screen goes elsewhere with ``shell.go("history")``, and
``scorepad.app.frame.screens`` (the one module that imports every screen) fills the registry.  To add
a screen: write ``def my_screen(shell) -> ft.Control`` in its module and register it there,
with ``register(name, screen)`` or, to put it in the navigation,
``register(name, screen, label=N_("..."), icon=ft.Icons....)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import flet as ft

from ...core.i18n import N_
from . import registry
from .registry import UnknownScreen, screen
from .theme import sem

if TYPE_CHECKING:
    from .shell import Shell

Screen = Callable[["Shell"], ft.Control]
__all__ = ["Destination", "Screen", "UnknownScreen", "register", "screen"]


@dataclass(frozen=True, slots=True)
class Destination:
    """A screen in the navigation of an open pulka; ``ident`` is its testing id (``nav-…``)."""

    name: str
    screen: Screen
    label: str  # a msgid
    icon: ft.IconData

    @property
    def ident(self) -> str:
        return f"nav-{self.name}"


_DESTINATIONS: list[Destination] = []


def shown(shell: Shell, nav_id: str) -> bool:
    """Which navigation items a page shows: a viewer has no deal entry, a phone no list."""
    if nav_id == "nav-entry":
        return shell.access.may_write
    if nav_id == "nav-sessions":
        return shell.access.scope is None
    return True


def register(
    name: str,
    screen: Screen,
    *,
    label: str | None = None,
    icon: ft.IconData | None = None,
) -> None:
    """Make ``screen`` reachable as ``name``; with a label and icon it is in the navigation too,
    in the order of registration."""
    registry.add(name, screen)
    _DESTINATIONS[:] = [d for d in _DESTINATIONS if d.name != name]
    if label is not None and icon is not None:
        _DESTINATIONS.append(Destination(name, screen, label, icon))


def destinations() -> list[Destination]:
    return list(_DESTINATIONS)


def destination_of(shown: Screen | None) -> int | None:
    """The index of the navigation item for a screen (None: a screen outside the navigation)."""
    for i, d in enumerate(_DESTINATIONS):
        if d.screen is shown:
            return i
    return None


def nav(shell: Shell, current: str) -> ft.Control:
    """Kept for screens written before the shell drew the navigation: draws nothing now."""
    del shell, current
    return ft.Container(visible=False)


def _visible(shell: Shell, selected: int) -> tuple[list[Destination], int]:
    """The destinations this page shows (a viewer has no deal entry) and the current one."""
    visible = [d for d in _DESTINATIONS if shown(shell, d.ident)]
    current = _DESTINATIONS[selected]
    return visible, visible.index(current) if current in visible else 0


#: What the other families call a destination (their sheet is no pulya: "Пулька" would be wrong);
#: one short word, so that the phone's bottom bar says it on one line (issue 27 item 8).
FAMILY_LABELS = {"sheet": N_("Scores")}


def label(shell: Shell, d: Destination) -> str:
    if shell.family != "pulya":
        return shell.t(FAMILY_LABELS.get(d.name, d.label))
    return shell.t(d.label)


def navigation_bar(shell: Shell, selected: int) -> ft.NavigationBar:
    """The phone's bottom bar."""
    visible, index = _visible(shell, selected)
    return ft.NavigationBar(
        destinations=[
            ft.NavigationBarDestination(
                label=label(shell, d),
                icon=sem(d.ident, ft.Icon(d.icon)),
            )
            for d in visible
        ],
        selected_index=index,
        label_behavior=ft.NavigationBarLabelBehavior.ALWAYS_SHOW,
        on_change=lambda e: shell.go(visible[e.control.selected_index].name),
    )


def navigation_rail(shell: Shell, selected: int) -> ft.NavigationRail:
    """The laptop's rail on the left."""
    visible, index = _visible(shell, selected)
    return ft.NavigationRail(
        destinations=[
            ft.NavigationRailDestination(
                label=label(shell, d),
                icon=sem(d.ident, ft.Icon(d.icon)),
            )
            for d in visible
        ],
        selected_index=index,
        label_type=ft.NavigationRailLabelType.ALL,
        min_width=88,
        on_change=lambda e: shell.go(visible[e.control.selected_index or 0].name),
    )
